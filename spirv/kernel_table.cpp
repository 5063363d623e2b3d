#include "spirv/kernel_table.h"

#include <optional>
#include <string>

#include "support/byte_stream.h"

namespace tessera::spirv {
namespace {

constexpr uint32_t kVersion = 1;

void writeSize(support::ByteWriter& w, const std::optional<WorkGroupSize>& s) {
  w.put(static_cast<uint8_t>(s.has_value()));
  if (!s) return;
  for (uint32_t v : s->size) w.put(v);
  for (int64_t id : s->specIds) w.put(id);
}

bool readSize(support::ByteReader& r, std::optional<WorkGroupSize>& s) {
  uint8_t present = 0;
  if (!r.get(present) || present > 1) return false;
  if (!present) return true;
  WorkGroupSize size;
  for (uint32_t& v : size.size)
    if (!r.get(v)) return false;
  for (int64_t& id : size.specIds)
    if (!r.get(id)) return false;
  s = size;
  return true;
}

}  // namespace

std::vector<uint8_t> writeKernelTable(const ModuleInfo& module) {
  const std::vector<KernelInfo>& kernels = module.kernels;
  std::vector<uint8_t> out;
  support::ByteWriter w(out);
  w.put(kVersion);
  w.put(static_cast<uint32_t>(kernels.size()));
  for (const KernelInfo& k : kernels) {
    w.string(k.name);
    w.put(static_cast<uint32_t>(k.args.size()));
    for (const KernelArg& a : k.args) {
      w.put(static_cast<uint32_t>(a.kind));
      w.put(a.size);
      w.put(a.alignment);
      w.put(a.imageAccess);
      w.string(a.name);
      w.string(a.typeName);
      w.string(a.typeQualifier);
    }
    writeSize(w, k.requiredSize);
    writeSize(w, k.sizeHint);
    w.put(static_cast<uint8_t>(k.vecTypeHint.has_value()));
    w.put(k.vecTypeHint.value_or(0));
  }
  w.put(static_cast<uint32_t>(module.globalVariables.size()));
  for (const WorkgroupVariable& v : module.globalVariables) {
    w.string(v.name);
    w.put(v.size);
    w.put(v.alignment);
  }
  return out;
}

bool readKernelTable(std::span<const uint8_t> bytes, ModuleInfo& out) {
  support::ByteReader r(bytes);
  uint32_t version = 0, kernels = 0;
  if (!r.get(version) || version != kVersion || !r.count(kernels, 8)) return false;
  std::vector<KernelInfo> table(kernels);
  for (KernelInfo& k : table) {
    uint32_t args = 0;
    if (!r.bytes(k.name) || !r.count(args, 16)) return false;
    k.args.resize(args);
    for (KernelArg& a : k.args) {
      uint32_t kind = 0;
      if (!r.get(kind) || kind > static_cast<uint32_t>(ArgKind::Unsupported) || !r.get(a.size) ||
          !r.get(a.alignment) || !r.get(a.imageAccess) || !r.bytes(a.name) ||
          !r.bytes(a.typeName) || !r.bytes(a.typeQualifier))
        return false;
      a.kind = static_cast<ArgKind>(kind);
    }
    uint8_t hint = 0;
    uint32_t vecTypeHint = 0;
    if (!readSize(r, k.requiredSize) || !readSize(r, k.sizeHint) || !r.get(hint) || hint > 1 ||
        !r.get(vecTypeHint))
      return false;
    if (hint) k.vecTypeHint = vecTypeHint;
  }
  uint32_t variables = 0;
  if (!r.count(variables, 16)) return false;
  std::vector<WorkgroupVariable> globals(variables);
  for (WorkgroupVariable& v : globals)
    if (!r.bytes(v.name) || !r.get(v.size) || !r.get(v.alignment)) return false;
  if (!r.done()) return false;
  out.kernels = std::move(table);
  out.globalVariables = std::move(globals);
  return true;
}

}  // namespace tessera::spirv
