// The contract between JIT-compiled kernels and the code that launches them. No LLVM here, so the
// launcher and the layers above that hold compiled kernels include it without LLVM's headers.
//
// A kernel becomes one work-group function (WorkGroupFn) that runs every work-item of one
// work-group on the calling thread. Its inputs:
// - WorkGroupContext: what is the same for the work-groups of a launch that share a size (sizes,
//   offsets, the argument buffer). Read-only while the launch runs. A launch with non-uniform
//   work-groups (OpenCL 2.0+: the global size need not be a multiple of the local size) has, per
//   dimension, a last group that is smaller; the launcher gives each combination of full and
//   partial dimensions its own context (at most 8), differing only in localSize.
// - the group id (x, y, z);
// - localMem: this work-group's __local memory: the kernel's static __local variables at
//   [0, staticLocalBytes), then each __local argument at the offset its slot holds;
// - scratch: scratchBytesPerWorkItem * (work-items in a group) bytes where values that live across
//   a barrier are kept per work-item.
// localMem and scratch belong to the calling thread for the duration of the call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "backends/device_kind.h"
#include "support/checked_math.h"

namespace tessera::backends::cpu {

// The argument table and the kind-neutral part of a compiled kernel are the interface's
// (backends/device_kind.h).
using backends::ArgKind;
using backends::KernelArgInfo;

// The JIT reads these fields by their index (8 bytes each: jit/workgroup_function.cpp).
struct WorkGroupContext {
  const uint8_t* args;  // argument buffer laid out as KernelArgInfo says
  // The calling group's size: get_local_size(), the work-item loops' bounds. The enqueued size in
  // a full dimension, the remainder (global size - (groupCount - 1) * enqueued) in a partial one.
  uint64_t localSize[3];
  uint64_t groupCount[3];  // get_num_groups(): the partial groups count
  uint64_t globalOffset[3];
  uint64_t workDim;
  // get_enqueued_local_size(): the uniform size of the launch; global ids are
  // group id * enqueuedSize + local id + offset. Scratch and local memory are sized by it.
  uint64_t enqueuedSize[3];
  uint64_t globalSize[3];  // get_global_size(): the work-items of the launch in each dimension
  // Nonzero: the launch writes more than the device's caches hold, and a kernel's streamable
  // stores go past them (jit/stream_stores.cpp, CompiledKernel::streamBytesPerItem; launcher.cpp).
  uint64_t streamStores;
};
inline constexpr unsigned kStreamStoresContextField = 17;
static_assert(offsetof(WorkGroupContext, streamStores) == 8 * kStreamStoresContextField);
// The first of localSize's and of enqueuedSize's three fields (jit/fixed_group_size.cpp fixes
// them).
inline constexpr unsigned kLocalSizeContextField = 1;
inline constexpr unsigned kEnqueuedSizeContextField = 11;
static_assert(offsetof(WorkGroupContext, localSize) == 8 * kLocalSizeContextField);
static_assert(offsetof(WorkGroupContext, enqueuedSize) == 8 * kEnqueuedSizeContextField);

// `groupsX`: how many groups the call runs, groupX to groupX + groupsX - 1 in one row of groups,
// all with the context `ctx`. More than one only for a kernel that rowsAcrossGroups allows; others
// ignore it.
using WorkGroupFn = void (*)(const WorkGroupContext* ctx, uint64_t groupX, uint64_t groupY,
                             uint64_t groupZ, uint8_t* localMem, uint8_t* scratch,
                             uint64_t groupsX);
// The positions of WorkGroupFn's parameters, for the JIT passes that build or read work-group
// functions (jit/workgroup_function.cpp and those after it): named, so that a parameter added
// here cannot leave a pass reading the wrong one (scratch-scope once took "the last" parameter for
// scratch and silently did nothing after groupsX was added).
enum WorkGroupFnParam : unsigned {
  kWgContext,
  kWgGroupX,
  kWgGroupY,
  kWgGroupZ,
  kWgLocalMem,
  kWgScratch,
  kWgGroupsX,
  kWgParamCount
};
template <typename R, typename... Params>
constexpr unsigned parameterCount(R (*)(Params...)) {
  return sizeof...(Params);
}
static_assert(parameterCount(WorkGroupFn{}) == kWgParamCount);

// What the widening across work-items (jit/widen.cpp) did to a kernel's regions.
struct WidenStats {
  uint32_t width = 0;            // work-items per vector iteration (0: not widened)
  uint32_t loopWidth = 0;        // in regions with a loop of their own, first (0: none)
  uint32_t halfWidth = 0;        // then for what is left of a row after `width` (0: none)
  uint32_t widenedRegions = 0;   // regions with a widened loop (of barrierCount + 1)
  uint32_t jammedRegions = 0;    // of those, regions that also run several rows at once
  uint32_t contiguous = 0;       // vector loads/stores of consecutive addresses (or one address)
  uint32_t gathers = 0;          // gathers of other varying addresses
  uint32_t versionedLoads = 0;   // loads at clamped indices: a vector load where no lane is
                                 // clamped, else a gather (widen_memory.cpp, unclampedCheck)
  uint32_t stridedLoads = 0;     // loads at a constant lane distance: a masked load of the span
                                 // (2-4 elements apart, AVX-512), else a scalar load per lane
  uint32_t stridedStores = 0;    // stores 2-4 elements apart: a masked store of the span (AVX-512)
  uint32_t scatters = 0;         // scatters
  uint32_t vectorGathers = 0;    // loads of OpenCL vectors at non-consecutive addresses (per lane)
  uint32_t vectorScatters = 0;   // stores of them
  uint32_t perLane = 0;          // operations run lane by lane (atomics, libm calls, ...)
  uint32_t vectorCalls = 0;      // intrinsic calls in their vector form
  uint32_t checkedBranches = 0;  // varying branches checked at run time (scalar when lanes differ)
  uint32_t predicatedBranches = 0;  // varying branches around a block run with masked accesses
  uint32_t cutPaths = 0;     // refused parts cut off: work-items going there run the region scalar
  uint32_t activeBases = 0;  // masked accesses started from the first active lane's address
  std::string refused;       // why the first refused region was refused
  std::string decision;      // whether and why the first region was widened (the cost model)
};

// Sub-groups (issue 19; OpenCL's cl_khr_subgroups and SPIR-V's Subgroup scope). A kernel runs
// with one sub-group size S, fixed when it is compiled: the size it requires
// (`intel_reqd_sub_group_size(S)`, SPIR-V's SubgroupSize execution mode), else the JIT's default
// for the host (kDefaultSubgroupSize: the widening's usual width, so that a sub-group is the lanes
// of one widened chunk). Sub-group k of a work-group holds the work-items of local linear ids [k *
// S, min((k + 1) * S, n)) where n is the work-group's size: get_num_sub_groups() is ceil(n / S),
// get_sub_group_id() = linear id / S, get_sub_group_local_id() = linear id % S, and the last
// sub-group is partial (get_sub_group_size() = n - k * S) when S does not divide n. These are the
// sizes a kernel may require (the device's CL_DEVICE_SUB_GROUP_SIZES_INTEL and
// ze_device_compute_properties_t::subGroupSizes, in this order); a required size outside them
// fails the build (CL_BUILD_PROGRAM_FAILURE / ZE_RESULT_ERROR_MODULE_BUILD_FAILURE with a log).
inline constexpr uint32_t kSubgroupSizes[] = {4, 8, 16, 32, 64};
inline constexpr uint32_t kDefaultSubgroupSize = 16;
inline constexpr uint32_t kMaxSubgroupSize = 64;

// What the launcher runs: the interface's KernelCode (name, argument table, local memory, scratch,
// stack and sub-group sizes; see there) and what only this kind reads. stackBytes is measured when
// the kernel is compiled (jit/stack_sizes.cpp); the launcher runs the work-group function on a
// stack of that size plus a reserve for host calls (kernel_stack.h). subgroupSize is one of
// kSubgroupSizes (kDefaultSubgroupSize unless the kernel requires another); it and
// requiredSubgroupSize are kept in native binaries. scratchBytesPerWorkItem is 0 when the kernel
// has no barrier and no sub-group operation that exchanges values (those are cut like barriers,
// and counted in barrierCount). The launcher casts the KernelCode it is given back to this: the
// compiler hands out only these.
struct CompiledKernel : backends::KernelCode {
  CompiledKernel() { subgroupSize = kDefaultSubgroupSize; }
  WidenStats widen;         // not kept in native binaries
  uint32_t prefetches = 0;  // prefetches across barriers (jit/prefetch.cpp); nor this
  // Memory accesses put in scratch's alias scopes (jit/scratch_scope.cpp); nor this.
  uint32_t scopedAccesses = 0;
  // Strided loads read as vector loads per lane and a transpose (jit/strided_groups.cpp); nor this.
  uint32_t transposedLoads = 0;
  // Spaced accesses joined into whole vectors (jit/spaced_groups.cpp); nor this.
  uint32_t joinedSpacedAccesses = 0;
  // Copies between global buffers split into pieces (jit/copy_pieces.cpp); nor this.
  uint32_t splitCopies = 0;
  // The group size the work-group function has a copy for (jit/fixed_group_size.cpp), or zeros;
  // nor this.
  uint32_t fixedGroupSize[3] = {0, 0, 0};
  // The fixed size is the kernel's required one: every full group runs the copy, and the
  // work-group function's general code only the partial groups of non-uniform launches; nor this.
  bool fixedGroupSizeRequired = false;
  // Nonzero: the work-group function's widened stores may go past the caches
  // (jit/stream_stores.cpp), and this is the most a work-item writes in one of them; the launcher
  // has them do so when work-items x this exceeds the device's caches. Kept in native binaries.
  uint32_t streamBytesPerItem = 0;
  WorkGroupFn fn = nullptr;
};

// Whether the work-group function runs a call's groups row by row: each row of work-items (local
// id y, z) across all the call's groups before the next row, so that a 2-D kernel of small
// work-groups reads and writes whole rows of its images in turn (a 5-point stencil over 16 x 16
// groups streams 18 rows 64 bytes at a time otherwise, and the memory did a third less for it).
// OpenCL orders the work-items of a work-group only at barriers, and a kernel without barriers,
// sub-group exchanges (counted in barrierCount) and __local memory (which the call's groups would
// share) cannot tell the difference. The JIT builds the loop (workgroup_function.cpp) and the
// launcher hands out runs of such groups (launcher.cpp) by this same rule.
inline bool rowsAcrossGroups(const backends::KernelCode& kernel) {
  if (kernel.barrierCount != 0 || kernel.staticLocalBytes != 0) return false;
  for (const KernelArgInfo& arg : kernel.args)
    if (arg.kind == ArgKind::LocalPointer) return false;
  return true;
}

// The largest alignment an OpenCL type asks for. OpenCL C, "Alignment of Types": "A data item
// declared to be a data type in memory is always aligned to the size of the data type in bytes"
// (a 3-component vector to four components' size), so long16 and double16 ask for 128 bytes. Local
// memory and scratch buffers, the argument buffer a work-group function reads, and each __local
// argument inside a work-group's local memory are aligned to it; so is every argument slot (a type
// asking for more, a struct declared with a larger aligned attribute, gets this much).
inline constexpr uint32_t kMaxTypeAlignment = 128;
inline constexpr uint32_t kLocalArgAlignment = kMaxTypeAlignment;

// The bytes of local memory one work-group of `kernel` needs with the argument buffer `args`: the
// static __local variables, then each __local argument (its slot holds the size the caller wants),
// each start aligned to kLocalArgAlignment, as the launcher lays them out. When `offsets` is given,
// each __local slot of it gets its argument's offset. False when the sum does not fit in 64 bits
// (two sizes near 2^63 would otherwise wrap and put an argument before the memory it is given).
inline bool localMemoryLayout(const backends::KernelCode& kernel, const uint8_t* args,
                              uint64_t& total, uint8_t* offsets = nullptr) {
  uint64_t bytes = 0;
  if (!support::checkedAlignUp(kernel.staticLocalBytes, kLocalArgAlignment, bytes)) return false;
  for (const KernelArgInfo& arg : kernel.args) {
    if (arg.kind != ArgKind::LocalPointer) continue;
    uint64_t size, rounded;
    std::memcpy(&size, args + arg.offset, sizeof size);
    if (offsets) std::memcpy(offsets + arg.offset, &bytes, sizeof bytes);
    if (!support::checkedAlignUp(size, kLocalArgAlignment, rounded) ||
        !support::checkedAdd(bytes, rounded, bytes))
      return false;
  }
  total = bytes;
  return true;
}

}  // namespace tessera::backends::cpu
