#include "spirv/specialize.h"

namespace tessera::spirv {

SpecializationResult resolveSpecialization(const ModuleInfo& module,
                                           std::span<const SpecValue> values) {
  SpecializationResult result;
  for (const SpecValue& value : values) {
    const SpecConstant* constant = module.findSpecConstant(value.specId);
    if (constant == nullptr) {
      result.error =
          "the module has no specialization constant with SpecId " + std::to_string(value.specId);
      result.assignments.clear();
      return result;
    }
    if (value.bytes.size() != constant->size) {
      result.error = "specialization constant " + std::to_string(value.specId) + " takes " +
                     std::to_string(constant->size) + " bytes, " +
                     std::to_string(value.bytes.size()) + " given";
      result.assignments.clear();
      return result;
    }
    uint64_t bits = 0;
    for (size_t i = 0; i < value.bytes.size(); ++i) bits |= uint64_t{value.bytes[i]} << (8 * i);
    if (constant->kind == SpecKind::Bool) bits = bits != 0 ? 1 : 0;
    bool replaced = false;
    for (SpecAssignment& a : result.assignments) {
      if (a.specId == value.specId) {
        a.value = bits;
        replaced = true;
      }
    }
    if (!replaced) result.assignments.push_back({value.specId, bits});
  }
  result.ok = true;
  return result;
}

namespace {

void applyTo(std::optional<WorkGroupSize>& size, std::span<const SpecAssignment> assignments) {
  if (!size) return;
  for (int i = 0; i < 3; ++i) {
    for (const SpecAssignment& a : assignments) {
      if (size->specIds[i] == static_cast<int64_t>(a.specId)) {
        size->size[i] = static_cast<uint32_t>(a.value);
      }
    }
  }
}

}  // namespace

void applySpecializationToSizes(ModuleInfo& module, std::span<const SpecAssignment> assignments) {
  for (KernelInfo& kernel : module.kernels) {
    applyTo(kernel.requiredSize, assignments);
    applyTo(kernel.sizeHint, assignments);
  }
}

}  // namespace tessera::spirv
