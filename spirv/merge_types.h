// Duplicate declarations of one non-aggregate type, which SPIR-V forbids ("Duplicate non-aggregate
// type declarations are not allowed"; only aggregates may be declared twice), merged into the
// first: every reference to a later copy is renamed to the first and the copies (with their names)
// dropped. llvm-spirv 15 writes two OpTypeSampler when a kernel with an inline sampler
// (`const sampler_t s = ...;`) precedes one with a sampler_t argument: it makes the inline
// sampler's type apart from the one it translates LLVM's %opencl.sampler_t to. Used on the
// OpenCL C compiler's output (spirv/opencl_c.cpp) and as one of repair.h's repairs of other
// producers' modules.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace tessera::spirv {

// `words` in host word order, header included. False (and `out` untouched) when no type is
// declared twice or the module does not parse.
bool mergeDuplicateTypes(std::span<const uint32_t> words, std::vector<uint32_t>& out);

}  // namespace tessera::spirv
