// Rewrites of a region's copy before the widening (widen.cpp) that keep OpenCL vector values out of
// the lane-major shuffles where the kernel only uses their elements:
//  - localizeSlots: a scratch slot (barrier_regions.cpp: a value that crosses a barrier, one slot
//    per work-item) is the work-item's own memory, so within a loop of the region one of an OpenCL
//    vector that only plain loads and stores of its type reach becomes a private variable: copied
//    in before the loop, out at its exits when the loop stores it (LICM's promotion, which the
//    final O3 cannot do itself: it does not know that the slots alias nothing). A loop that
//    carries a value through its slot (a tiled kernel's accumulators, demoted because they live
//    across barriers) then keeps it in registers once the widening promotes its private memory.
//    Not the whole region: copied in at its entry, XgemmDirect's two dozen slots were live
//    through it all and spilled.
//  - scalarizeVectorPhis: a phi of an OpenCL vector whose every use is a constant-index extract
//    (CLBlast's `float4` accumulators, updated element by element) becomes one phi per element; the
//    widened element phis need no shuffle, where the lane-major vector needed one per element
//    extracted and two per element inserted on every iteration.
#pragma once

#include <llvm/IR/Function.h>

namespace tessera::backends::cpu::jit {

// `first`: the index of the region's first RegionParam (jit_passes.h).
void localizeSlots(llvm::Function& region, unsigned first);

// Returns whether a phi changed. The element extracts of each incoming value are left where the
// incoming edge leaves its block, for the caller's simplification to fold (an insertelement chain
// gives its scalar back).
bool scalarizeVectorPhis(llvm::Function& region);

}  // namespace tessera::backends::cpu::jit
