#include "compiler/native_binary.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <set>

#include "support/hash.h"

namespace tessera::compiler {
namespace {

constexpr char kMagic[8] = {'T', 'E', 'S', 'S', 'N', 'A', 'T', '1'};
// 2: kernels carry their measured stack need (CompiledKernel::stackBytes) and their code has stack
// probes; a version-1 binary's code has neither and is refused.
// 3: kernels carry their sub-group size and required sub-group size (a version-2 binary's code ran
// with sub-groups of one work-item and is refused).
// 4: the code is a list of units (a program compiled kernel by kernel has one per kernel).
// 5: each kernel's object carries the record of its table (backends/cpu/jit/object_check.h's
// abiRecord), which a version-4 object lacks.
constexpr uint32_t kVersion = 5;

bool validSubgroupSize(uint32_t size) {
  for (uint32_t s : backends::cpu::kSubgroupSizes)
    if (s == size) return true;
  return false;
}

class Writer {
 public:
  template <typename T>
  void put(T v) {
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    out.insert(out.end(), p, p + sizeof v);
  }
  void bytes(const void* data, size_t n) {
    put(static_cast<uint32_t>(n));
    const auto* p = static_cast<const uint8_t*>(data);
    out.insert(out.end(), p, p + n);
  }
  void string(const std::string& s) { bytes(s.data(), s.size()); }
  std::vector<uint8_t> out;
};

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
  bool count(uint32_t& n, size_t minBytesEach) {
    return get(n) && (in_.size() - pos_) / std::max<size_t>(minBytesEach, 1) >= n;
  }
  bool done() const { return pos_ == in_.size(); }

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
const char* kernelTableProblem(const backends::cpu::CompiledKernel& k, const std::string& symbol) {
  using backends::cpu::ArgKind;
  if (k.name.empty() || symbol.empty()) return "a kernel without a name";
  uint64_t end = 0;
  for (const backends::cpu::KernelArgInfo& a : k.args) {
    const bool pointer = a.kind != ArgKind::ByValue;
    if (pointer && (a.size != 8 || a.offset % 8 != 0)) return "a pointer slot of the wrong size";
    if (a.offset < end) return "argument slots out of order or overlapping";
    end = uint64_t{a.offset} + a.size;
  }
  if (k.argBufferSize != (end + 7) / 8 * 8) return "an argument buffer of the wrong size";
  return nullptr;
}

}  // namespace

std::vector<uint8_t> writeNativeBinary(const NativeImage& image) {
  Writer w;
  w.out.assign(kMagic, kMagic + sizeof kMagic);
  w.put(kVersion);
  w.string(image.cpu);
  w.string(image.features);
  w.bytes(image.spirv.data(), image.spirv.size());
  w.put(image.optLevel);
  w.put(static_cast<uint32_t>(image.specs.size()));
  for (const auto& s : image.specs) {
    w.put(s.specId);
    w.put(s.value);
  }
  w.put(static_cast<uint8_t>(image.hasCode));
  if (image.hasCode) w.put(static_cast<uint32_t>(image.units.size()));
  static const std::vector<backends::cpu::CompiledModule> kNone;
  for (const auto& code : image.hasCode ? image.units : kNone) {
    w.put(static_cast<uint32_t>(code.kernels.size()));
    for (size_t i = 0; i < code.kernels.size(); ++i) {
      const auto& k = code.kernels[i];
      w.string(k.name);
      w.string(code.kernelSymbols.at(i));
      w.put(static_cast<uint32_t>(k.args.size()));
      for (const auto& a : k.args) {
        w.put(static_cast<uint8_t>(a.kind));
        w.put(a.size);
        w.put(a.offset);
      }
      w.put(k.argBufferSize);
      w.put(k.staticLocalBytes);
      w.put(k.scratchBytesPerWorkItem);
      w.put(k.stackBytes);
      w.put(k.barrierCount);
      w.put(k.subgroupSize);
      w.put(k.requiredSubgroupSize);
    }
    w.put(static_cast<uint32_t>(code.globals.size()));
    for (const auto& [name, g] : code.globals) {
      w.string(name);
      w.put(g.size);
    }
    w.put(static_cast<uint32_t>(code.functions.size()));
    for (const auto& [name, f] : code.functions) w.string(name);
    w.bytes(code.object.data(), code.object.size());
  }
  std::string_view all(reinterpret_cast<const char*>(w.out.data()), w.out.size());
  w.put(support::fnv1a64(all));
  return std::move(w.out);
}

bool readNativeBinary(std::span<const uint8_t> bytes, NativeImage& out, std::string& error) {
  auto fail = [&](const char* why) {
    error = std::string("not a Tessera native binary for this driver: ") + why;
    return false;
  };
  if (bytes.size() < sizeof kMagic + 4 + 8 || std::memcmp(bytes.data(), kMagic, sizeof kMagic))
    return fail("no TESSNAT1 header");
  uint64_t stored = 0;
  std::memcpy(&stored, bytes.data() + bytes.size() - 8, 8);
  std::string_view body(reinterpret_cast<const char*>(bytes.data()), bytes.size() - 8);
  if (support::fnv1a64(body) != stored)
    return fail("the checksum does not match (corrupt or truncated)");
  Reader r(bytes.subspan(sizeof kMagic, bytes.size() - 8 - sizeof kMagic));
  uint32_t version = 0;
  if (!r.get(version) || version != kVersion) return fail("another format version");
  uint32_t n = 0;
  uint8_t hasCode = 0;
  if (!r.bytes(out.cpu) || !r.bytes(out.features) || !r.bytes(out.spirv) || !r.get(out.optLevel) ||
      !r.count(n, 12))
    return fail("truncated header");
  out.specs.resize(n);
  for (auto& s : out.specs)
    if (!r.get(s.specId) || !r.get(s.value)) return fail("truncated constants");
  if (!r.get(hasCode) || hasCode > 1) return fail("bad code flag");
  out.hasCode = hasCode;
  uint32_t units = 0;
  if (hasCode && (!r.count(units, 16) || units == 0)) return fail("truncated units");
  out.units.resize(units);
  for (auto& code : out.units) {
    if (!r.count(n, 8)) return fail("truncated kernels");
    code.kernels.resize(n);
    code.kernelSymbols.resize(n);
    for (uint32_t i = 0; i < n; ++i) {
      auto& k = code.kernels[i];
      uint32_t args = 0;
      if (!r.bytes(k.name) || !r.bytes(code.kernelSymbols[i]) || !r.count(args, 9))
        return fail("truncated kernel");
      k.args.resize(args);
      for (auto& a : k.args) {
        uint8_t kind = 0;
        // The last kind of kernel_abi.h's ArgKind (Image and Sampler came after ByValue).
        if (!r.get(kind) || kind > static_cast<uint8_t>(backends::cpu::ArgKind::Sampler) ||
            !r.get(a.size) || !r.get(a.offset))
          return fail("truncated argument");
        a.kind = static_cast<backends::cpu::ArgKind>(kind);
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
      if (name.empty() || code.globals.count(name))
        return fail("a global without a name, or twice");
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
  }
  if (!r.done()) return fail("trailing bytes");
  std::set<std::string> names;
  for (const auto& code : out.units)
    for (const auto& k : code.kernels)
      if (!names.insert(k.name).second) return fail("a kernel twice");
  return true;
}

}  // namespace tessera::compiler

namespace tessera::compiler {

bool matchesReflection(const backends::cpu::CompiledModule& unit,
                       const std::vector<spirv::KernelInfo>& kernels, std::string& error) {
  using Compiled = backends::cpu::ArgKind;
  using Reflected = spirv::ArgKind;
  // The slot jit/workgroup_function.cpp gives each kind of SPIR-V argument (a generic pointer is
  // passed as a global one).
  auto expected = [](Reflected kind) -> std::optional<Compiled> {
    switch (kind) {
      case Reflected::GlobalPointer:
      case Reflected::GenericPointer:
        return Compiled::GlobalPointer;
      case Reflected::ConstantPointer:
        return Compiled::ConstantPointer;
      case Reflected::LocalPointer:
        return Compiled::LocalPointer;
      case Reflected::ByValue:
        return Compiled::ByValue;
      case Reflected::Sampler:
        return Compiled::Sampler;
      case Reflected::Image:
        return Compiled::Image;
      case Reflected::Unsupported:
        break;
    }
    return std::nullopt;
  };
  for (const backends::cpu::CompiledKernel& k : unit.kernels) {
    auto info = std::find_if(kernels.begin(), kernels.end(),
                             [&](const spirv::KernelInfo& i) { return i.name == k.name; });
    if (info == kernels.end()) {
      error = "kernel " + k.name + " is not in the binary's SPIR-V";
      return false;
    }
    bool same = info->args.size() == k.args.size();
    for (size_t i = 0; same && i < k.args.size(); ++i) {
      const spirv::KernelArg& a = info->args[i];
      std::optional<Compiled> kind = expected(a.kind);
      same = (!kind || *kind == k.args[i].kind) &&
             (a.kind != Reflected::ByValue || a.size == 0 || a.size == k.args[i].size);
    }
    if (!same) {
      error = "kernel " + k.name + "'s arguments are not those of its SPIR-V";
      return false;
    }
  }
  return true;
}

}  // namespace tessera::compiler
