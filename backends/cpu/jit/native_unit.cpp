#include "backends/cpu/jit/native_unit.h"

#include <algorithm>
#include <cstring>

#include "support/byte_stream.h"

namespace tessera::backends::cpu {
namespace {

bool validSubgroupSize(uint32_t size) {
  for (uint32_t s : kSubgroupSizes)
    if (s == size) return true;
  return false;
}

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
  support::ByteWriter w(out);
  w.put(static_cast<uint32_t>(code.kernels.size()));
  for (size_t i = 0; i < code.kernels.size(); ++i) {
    const CompiledKernel& k = code.kernels[i];
    w.bytes(k.name.data(), k.name.size());
    const std::string& symbol = code.kernelSymbols.at(i);
    w.bytes(symbol.data(), symbol.size());
    w.put(static_cast<uint32_t>(k.args.size()));
    for (const KernelArgInfo& a : k.args) {
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
    w.put(k.streamBytesPerItem);
  }
  w.put(static_cast<uint32_t>(code.globals.size()));
  for (const auto& [name, g] : code.globals) {
    w.bytes(name.data(), name.size());
    w.put(g.size);
  }
  w.put(static_cast<uint32_t>(code.functions.size()));
  for (const auto& [name, f] : code.functions) w.bytes(name.data(), name.size());
  w.bytes(code.object.data(), code.object.size());
}

bool readUnit(std::span<const uint8_t> in, size_t& used, CompiledModule& code,
              std::string& error) {
  auto fail = [&](const char* why) {
    error = why;
    return false;
  };
  support::ByteReader r(in);
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
        !r.get(k.subgroupSize) || !r.get(k.requiredSubgroupSize) || !r.get(k.streamBytesPerItem))
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
