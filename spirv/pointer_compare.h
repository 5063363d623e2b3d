// SPIR-V 1.4's pointer comparisons (OpPtrEqual, OpPtrNotEqual, OpPtrDiff), which the installed
// translator cannot read, written as comparisons of the pointers' addresses (pointer_compare.cpp
// says how). Part of legalizeForTranslator (legalize.h).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace tessera::spirv {

// The module with every such instruction it can lower rewritten (new ids past the old bound, an
// unsigned integer type of the address width and OpCapability Int64 added when missing); nullopt
// when there was nothing to rewrite. `words` must have passed validation.
std::optional<std::vector<uint32_t>> lowerPointerComparisons(std::span<const uint32_t> words);

}  // namespace tessera::spirv
