#include "backends/cpu/jit/native_unit.h"

#include <algorithm>
#include <cstring>

namespace tessera::backends::cpu {
namespace {

bool validSubgroupSize(uint32_t size) {
  for (uint32_t s : kSubgroupSizes)
    if (s == size) return true;
  return false;
}

template <typename T>
void put(std::vector<uint8_t>& out, T v) {
  const auto* p = reinterpret_cast<const uint8_t*>(&v);
  out.insert(out.end(), p, p + sizeof v);
}

void putBytes(std::vector<uint8_t>& out, const void* data, size_t n) {
  put(out, static_cast<uint32_t>(n));
  const auto* p = static_cast<const uint8_t*>(data);
  out.insert(out.end(), p, p + n);
}

class Reader {
 public:
  explicit Reader(std::span<const uint8_t> in) : in_(in) {}
  template <typename T>
  bool get(T& v) {
    if (in_.size() - pos_ < sizeof v) return false;
    std::memcpy(&v, in_.data() + pos_, sizeof v);
    pos_ += sizeof v;
    return true;
  }
  template <typename Container>
  bool bytes(Container& c) {
    uint32_t n = 0;
    if (!get(n) || in_.size() - pos_ < n) return false;
    c.assign(in_.data() + pos_, in_.data() + pos_ + n);
    pos_ += n;
    return true;
  }
  // A count of items of at least `minBytesEach` bytes: false when fewer bytes are left.
  bool count(uint32_t& n, size_t minBytesEach) {
    return get(n) && (in_.size() - pos_) / std::max<size_t>(minBytesEach, 1) >= n;
  }
  size_t position() const { return pos_; }

 private:
  std::span<const uint8_t> in_;
  size_t pos_ = 0;
};

// A kernel's table as the JIT writes it (jit/workgroup_function.cpp): named, its argument slots in
// order without overlap, a pointer's slot 8 bytes aligned to 8, a value's slot not empty, and the
// argument buffer exactly the slots rounded up to 8. zeKernelSetArgumentValue writes a slot at its
// offset into a buffer of argBufferSize bytes and the launcher copies that buffer: a table that
// breaks these rules would have them write or read outside it. (A value may be empty: an empty
// struct.)
const char* kernelTableProblem(const CompiledKernel& k, const std::string& symbol) {
  if (k.name.empty() || symbol.empty()) return "a kernel without a name";
  uint64_t end = 0;
  for (const KernelArgInfo& a : k.args) {
    const bool pointer = a.kind != ArgKind::ByValue;
    if (pointer && (a.size != 8 || a.offset % 8 != 0)) return "a pointer slot of the wrong size";
    if (a.offset < end) return "argument slots out of order or overlapping";
    end = uint64_t{a.offset} + a.size;
  }
  if (k.argBufferSize != (end + 7) / 8 * 8) return "an argument buffer of the wrong size";
  return nullptr;
}

}  // namespace

void writeUnit(const CompiledModule& code, std::vector<uint8_t>& out) {
  put(out, static_cast<uint32_t>(code.kernels.size()));
  for (size_t i = 0; i < code.kernels.size(); ++i) {
    const CompiledKernel& k = code.kernels[i];
    putBytes(out, k.name.data(), k.name.size());
    const std::string& symbol = code.kernelSymbols.at(i);
    putBytes(out, symbol.data(), symbol.size());
    put(out, static_cast<uint32_t>(k.args.size()));
    for (const KernelArgInfo& a : k.args) {
      put(out, static_cast<uint8_t>(a.kind));
      put(out, a.size);
      put(out, a.offset);
    }
    put(out, k.argBufferSize);
    put(out, k.staticLocalBytes);
    put(out, k.scratchBytesPerWorkItem);
    put(out, k.stackBytes);
    put(out, k.barrierCount);
    put(out, k.subgroupSize);
    put(out, k.requiredSubgroupSize);
  }
  put(out, static_cast<uint32_t>(code.globals.size()));
  for (const auto& [name, g] : code.globals) {
    putBytes(out, name.data(), name.size());
    put(out, g.size);
  }
  put(out, static_cast<uint32_t>(code.functions.size()));
  for (const auto& [name, f] : code.functions) putBytes(out, name.data(), name.size());
  putBytes(out, code.object.data(), code.object.size());
}

bool readUnit(std::span<const uint8_t> in, size_t& used, CompiledModule& code,
              std::string& error) {
  auto fail = [&](const char* why) {
    error = why;
    return false;
  };
  Reader r(in);
  uint32_t n = 0;
  if (!r.count(n, 8)) return fail("truncated kernels");
  code.kernels.resize(n);
  code.kernelSymbols.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    CompiledKernel& k = code.kernels[i];
    uint32_t args = 0;
    if (!r.bytes(k.name) || !r.bytes(code.kernelSymbols[i]) || !r.count(args, 9))
      return fail("truncated kernel");
    k.args.resize(args);
    for (KernelArgInfo& a : k.args) {
      uint8_t kind = 0;
      // The last kind of the interface's ArgKind (Image and Sampler came after ByValue).
      if (!r.get(kind) || kind > static_cast<uint8_t>(ArgKind::Sampler) || !r.get(a.size) ||
          !r.get(a.offset))
        return fail("truncated argument");
      a.kind = static_cast<ArgKind>(kind);
    }
    if (!r.get(k.argBufferSize) || !r.get(k.staticLocalBytes) ||
        !r.get(k.scratchBytesPerWorkItem) || !r.get(k.stackBytes) || !r.get(k.barrierCount) ||
        !r.get(k.subgroupSize) || !r.get(k.requiredSubgroupSize))
      return fail("truncated kernel sizes");
    if (!validSubgroupSize(k.subgroupSize) ||
        (k.requiredSubgroupSize != 0 && k.requiredSubgroupSize != k.subgroupSize))
      return fail("bad sub-group size");
    if (const char* problem = kernelTableProblem(k, code.kernelSymbols[i])) return fail(problem);
  }
  if (!r.count(n, 12)) return fail("truncated globals");
  for (uint32_t i = 0; i < n; ++i) {
    std::string name;
    uint64_t size = 0;
    if (!r.bytes(name) || !r.get(size)) return fail("truncated global");
    if (name.empty() || code.globals.count(name)) return fail("a global without a name, or twice");
    code.globals[name] = {nullptr, size};
  }
  if (!r.count(n, 4)) return fail("truncated functions");
  for (uint32_t i = 0; i < n; ++i) {
    std::string name;
    if (!r.bytes(name)) return fail("truncated function");
    if (name.empty() || code.functions.count(name))
      return fail("a function without a name, or twice");
    code.functions[name] = {nullptr, 0};
  }
  if (!r.bytes(code.object) || code.object.empty()) return fail("no object code");
  used = r.position();
  return true;
}

}  // namespace tessera::backends::cpu
