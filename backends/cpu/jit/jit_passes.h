// The IR passes that turn a SPIR-V kernel module (SPIRV-LLVM-Translator output, SPIRVFriendlyIR
// builtins) into work-group functions. One pass per file; the order they run in is written once,
// in jit_pipeline.cpp's list, with the reason for each constraint.
//
// Threading contract: each function works on the module it is given; callers hold that module's
// context exclusively (the JIT compiles one module at a time per context).
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Module.h>

namespace llvm {
class TargetMachine;
}

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "backends/cpu/runtime/kernel_abi.h"

namespace tessera::backends::cpu::jit {

// OpenCL's global and local address spaces in the translator's IR (and Tessera IR's).
inline constexpr unsigned kGlobalAddressSpace = 1;
inline constexpr unsigned kLocalAddressSpace = 3;

// Metadata barrier_regions.cpp puts on the address of a scratch slot that holds the same value for
// every work-item of a group whenever it is read (widen.cpp then loads it once, as a uniform).
inline constexpr const char* kUniformSlotMetadata = "tessera.uniform_slot";
// Metadata barrier_regions.cpp puts on the address of every scratch slot: !{i64 its offset}. Slots
// never overlap (scratch_scope.cpp gives each its own alias scope).
inline constexpr const char* kScratchSlotMetadata = "tessera.scratch_slot";
// Metadata row_jam.cpp puts on each memory access of a jammed region's copy for row r:
// !{i64 r, !jam}, !jam a node of that jammed region's own. Rows are different work-items (the
// y loop steps by the jam's rows from 0, so a copy's rows never meet another copy's), and a
// work-item's slot elements are its own, so two rows' accesses to a slot that is not
// kUniformSlotMetadata never overlap (scratch_scope.cpp gives each row an alias scope).
inline constexpr const char* kJamRowMetadata = "tessera.jam_row";
// Metadata widen_memory.cpp (Widener::loadStrided) puts on the gather of a load whose lanes lie a
// constant distance apart, on a host whose gathers are slow: !{i64 the distance in bytes}. Every
// lane is on. strided_groups.cpp replaces each such gather after O3 (none reaches the backend).
inline constexpr const char* kStridedLanesMetadata = "tessera.strided_lanes";
// Metadata widen_memory.cpp puts on an unmasked contiguous store of the lanes: !{i64 the bytes of
// one lane's value}. copy_pieces.cpp splits such a store of a just-loaded vector into pieces of
// whole lanes.
inline constexpr const char* kLaneBytesMetadata = "tessera.lane_bytes";
// Metadata workgroup_function.cpp puts on the branch into a widened level's rows (jammed rows or
// one level's chunks; its first successor): its other successor runs the same work-items through
// the narrower levels and, last, the scalar loop. fixed_group_size.cpp sends the general code of a
// kernel whose copy serves every full group past them.
inline constexpr const char* kWidenedLevelMetadata = "tessera.widened_level";
// The branch into the jammed rows (the first of those branches) carries, besides, the rows a jam
// runs and the row's width, {i64 rows, i64 width}: where a group's size in x is that width and its
// size in y a multiple of the rows, every row runs jammed (fixed_group_size.cpp).
inline constexpr const char* kJammedRowsMetadata = "tessera.jammed_rows";

// "_Z16__spirv_ocl_sqrtf" -> "__spirv_ocl_sqrt"; an unmangled name is returned as is.
llvm::StringRef spirvBaseName(llvm::StringRef name);

// Value an exited region returns: the kernel returned.
inline constexpr uint32_t kRegionExit = 0xFFFFFFFFu;
// Value a widened region returns when its lanes disagree on a branch before it wrote anything: the
// scalar region must run these work-items (widen.cpp).
inline constexpr uint32_t kWidenBail = 0xFFFFFFFEu;

// The parameters a region function takes after the kernel's own, in this order.
enum RegionParam : unsigned {
  kLocalIdX,
  kLocalIdY,
  kLocalIdZ,
  kGroupIdX,
  kGroupIdY,
  kGroupIdZ,
  kLocalSizeX,
  kLocalSizeY,
  kLocalSizeZ,
  kGroupCountX,
  kGroupCountY,
  kGroupCountZ,
  kEnqueuedSizeX,  // get_enqueued_local_size() (kLocalSize*: the calling group's own size)
  kEnqueuedSizeY,
  kEnqueuedSizeZ,
  kGlobalSizeX,
  kGlobalSizeY,
  kGlobalSizeZ,
  kOffsetX,
  kOffsetY,
  kOffsetZ,
  kLocalLinearId,
  kWorkDim,  // i64 like the above
  kLocalMem,
  kScratch,  // ptr
  // ptr: each work-item's run stamp (u32 by local linear id, workgroup_dispatch.h): the work-items
  // of a sub-group that run a region together have equal stamps (null without sub-group cuts).
  kRunStamps,
  kRegionParamCount
};

// inline_calls.cpp: calling conventions to C, every call to a defined function inlined into the
// kernels. Fills `kernels` (functions that were spir_kernel). False (and `error`) when the call
// graph has a cycle (findRecursion) or a kernel would grow past kMaxInlinedInstructions.
inline constexpr size_t kMaxInlinedInstructions = 2'000'000;
bool inlineIntoKernels(llvm::Module& m, std::vector<llvm::Function*>* kernels, std::string* error);
// True (and `error`, naming the functions of one cycle: "f -> g -> f") when a defined function
// of `m` can reach itself through calls (direct, or indirect to any function whose address is
// taken).
bool findRecursion(llvm::Module& m, std::string* error);
// The defined functions `f` may call: those it names (calls, or takes the address of) and, when it
// makes an indirect call, every function of `addressTaken`.
std::vector<llvm::Function*> possibleCallees(llvm::Function& f,
                                             const std::vector<llvm::Function*>& addressTaken);

// masked_access.cpp: each masked load, store, gather and scatter of `f` whose mask is not a
// constant versioned on it: when every lane is on, the plain load or store (the gather or scatter
// with a constant mask); otherwise the masked one. Returns how many it versioned.
unsigned versionMaskedAccesses(llvm::Function& f);

// local_atomics.cpp: the atomics of `f` on local memory (address space 3) as plain accesses: a
// work-group's local memory is its worker thread's alone. After the widening. Returns how many.
unsigned lowerLocalAtomics(llvm::Function& f);

// scratch_scope.cpp: every access of the work-group function `wg` through its scratch parameter
// (the last) in one alias scope, every other memory access outside it, so that values kept in
// scratch across a loop stay in registers. Leaves `wg` alone when a scratch address escapes.
// Returns how many instructions it annotated.
unsigned scopeScratchAccesses(llvm::Function& wg);

// half_min_max.cpp: after O3, minnum/maxnum/minimum/maximum of halves computed in float (LLVM 15
// cannot select them on half vectors without AVX-512 FP16).
void computeHalfMinMaxInFloat(llvm::Module& m);

// strided_groups.cpp: after O3, the gathers tagged kStridedLanesMetadata of `f`: those whose lanes
// read consecutive elements across gathers of one block become one vector load per lane and a
// transpose, the rest one scalar load per lane. Returns how many gathers became transposes.
unsigned groupStridedLoads(llvm::Function& f);

// scratch_scope.cpp: the address operand of `i` when it is a memory access of a kind the passes
// after the widening know (loads, stores, masked loads, stores, gathers and scatters), else null.
const llvm::Use* memoryAddressUse(llvm::Instruction& i);

// spaced_groups.cpp: after O3, the widening's spaced masked loads (and stores) of `f` at element
// offsets 0 .. k - 1 of one another, every lane on, as one plain load (store) of all their
// elements where nothing between them touches their bytes. Returns how many accesses it joined.
unsigned joinSpacedAccesses(llvm::Function& f);

// copy_pieces.cpp: after O3, the widening's contiguous stores (kLaneBytesMetadata) of a vector
// loaded just before from global memory to global memory, as 16-byte loads and stores in turn
// (pieces of whole lanes). Returns how many stores it split.
unsigned splitCopies(llvm::Function& f);

// stream_stores.cpp: after O3, when the work-group function `wg` has widened stores of 16-64
// bytes to global memory and no atomics, each of them non-temporal (where aligned) when the
// context's field kStreamStoresContextField is nonzero, plain otherwise. Returns the largest
// lane's bytes among those stores (0: none changed).
uint32_t streamStores(llvm::Function& wg);

// vector_math.cpp: before O3, calls of libm functions that libmvec has in vector form name their
// vector variants for the target, so that the loop vectorizer may call them.
void nameVectorVariants(llvm::Module& m, const llvm::TargetMachine* tm);
// vector_math.cpp: after O3, math of several lanes (vector exp/log/sin/cos/pow intrinsics, vectors
// put together lane by lane from calls of one libm function) as calls of libmvec's vector variants.
void callVectorMath(llvm::Module& m, const llvm::TargetMachine* tm);

// constant_operands.cpp: after O3, the constant splat of an integer vector add whose one user is
// another add is loaded (from a private constant global) instead of written in place, so that x86's
// instruction selection keeps Reassociate's `(x + C) + y` rather than moving C after y (onto the
// critical path of chains like MD5's steps). Returns how many operands it rewrote.
unsigned keepSumConstantsFirst(llvm::Module& m);

// stack_sizes.cpp: the stack a work-group function needs, measured at JIT time.
// The largest frame (static allocas) a function may have: x86 addresses its frame with signed
// 32-bit displacements, so LLVM cannot compile one near 2 GiB.
inline constexpr uint64_t kMaxFrameBytes = uint64_t{1} << 30;
// "probe-stack"="inline-asm" on every defined function (x86): frames are touched page by page.
void addStackProbes(llvm::Module& m);
// What the IR knows, after optimization and before code generation: each defined function's
// possible callees and the bytes of its static allocas (the stand-in for a frame the object does
// not list). False (and `error`) when a function's allocas exceed kMaxFrameBytes.
struct StackPlan {
  std::map<std::string, std::vector<std::string>> callees;
  std::map<std::string, uint64_t> allocaBytes;
};
bool planStacks(llvm::Module& m, StackPlan* plan, std::string* error);
// The frame sizes of an ELF object's `.stack_sizes` sections, by function symbol.
std::map<std::string, uint64_t> readStackSizes(llvm::StringRef object);
// `function`'s frame plus the largest need among the functions it may call.
uint64_t stackNeed(const std::string& function, const StackPlan& plan,
                   const std::map<std::string, uint64_t>& frames);

// trap_free_arithmetic.cpp: what OpenCL leaves undefined gets a value, never a trap: integer
// divisions and remainders divide by 1 where the divisor is 0 (or -1 with the minimum dividend),
// through a select; shift counts are masked to the width. Runs before any LLVM optimization could
// take that undefined behaviour as a promise.
void makeArithmeticTrapFree(llvm::Module& m);
// True unless `i` is an integer division or remainder that may trap (one makeArithmeticTrapFree
// has not guarded, with a divisor that is not a safe constant). widen.cpp predicates such
// divisions only when this holds.
bool isTrapFreeDivision(const llvm::Instruction& i);

// alignment_claims.cpp: a load's, store's or memcpy's alignment claim holds for the memory it
// reaches where the module lays that memory out: private and module-scope variables are aligned
// to the claims made at their start, and claims on them (or on by-value argument slots) beyond
// what is known of the address are lowered. Before anything optimizes on the claims.
void honourAlignmentClaims(llvm::Module& m);

// byval_copies.cpp: a by-value argument the kernel may write is copied to a private alloca on
// entry (the argument buffer is shared by every work-item of the launch).
void copyWrittenByValArgs(llvm::Function& kernel);

// workgroup_collectives.cpp: work-group scope OpGroup* (reduce, scans, broadcast, all, any)
// become a static __local accumulator per call site and barriers. Unsupported ones are left for
// lowerBuiltins to refuse.
void lowerWorkGroupCollectives(llvm::Module& m);

// subgroup_collectives.cpp: the kernel's sub-group size (required by !intel_reqd_sub_group_size,
// which must be one of kSubgroupSizes, else kDefaultSubgroupSize; written in the kernel's
// attributes kSubgroupSizeAttribute and kRequiredSubgroupSizeAttribute, 0 when not required), and
// its sub-group operations: those that need other work-items' values exchange them through
// per-work-item slots and a cut (a barrier tagged kSubgroupCutMetadata, as is every
// sub_group_barrier), the others (ids, sizes, masks, ballot arithmetic, block reads and writes)
// become arithmetic (subgroup_builtins.cpp). False (and `error`) for an unsupported required size.
inline constexpr const char* kSubgroupSizeAttribute = "tessera-subgroup-size";
inline constexpr const char* kRequiredSubgroupSizeAttribute = "tessera-required-subgroup-size";
inline constexpr const char* kSubgroupCutMetadata = "tessera.subgroup_cut";
// The cut of a non-uniform operation (cl_khr_subgroup_non_uniform_*, ballot, elect): allowed under
// control flow that differs between a sub-group's lanes; its active lanes are those that arrived
// together (__tessera_subgroup_active).
inline constexpr const char* kNonUniformCutMetadata = "tessera.subgroup_cut_non_uniform";
enum SubgroupCutKind : uint8_t { kNotSubgroupCut = 0, kNonUniformCut = 1, kUniformCut = 2 };
// i1 __tessera_subgroup_active(i64 lane): whether local linear id `lane` runs the current region
// together with this work-item (equal run stamps, kRunStamps); formRegions resolves it.
inline constexpr const char* kSubgroupActiveFunction = "__tessera_subgroup_active";
// ptr __tessera_lane_slot(ptr slot, i64 lane, i64 bytes): the address of local linear id `lane`'s
// copy of the exchange slot `slot` (a kernel alloca of `bytes` bytes); formRegions resolves it
// once the slot lives in scratch.
inline constexpr const char* kLaneSlotFunction = "__tessera_lane_slot";

bool lowerSubgroups(llvm::Function& kernel, std::string* error);
// subgroup_builtins.cpp: Operations (elect, ballot arithmetic, block reads and writes;
// lowerSubgroups lowers them) or Ids (the BuiltIn ids, sizes and masks; after
// checkSubgroupUniformity, which counts the sub-group id and size as uniform within a sub-group).
enum class SubgroupBuiltins { Operations, Ids };
void lowerSubgroupLocalBuiltins(llvm::Function& kernel, uint64_t subgroupSize,
                                SubgroupBuiltins which);
// subgroup_uniformity.cpp: false (and `error`) when a cut tagged kSubgroupCutMetadata lies under
// control flow that may differ between the work-items of a sub-group; then the sub-group ids
// become arithmetic. On the simplified kernel.
bool checkSubgroupUniformity(llvm::Function& kernel, std::string* error);

// builtin_library.cpp: OpenCL.std ext-insts, relational ops and atomics become IR. Leaves
// __spirv_ControlBarrier and work-item builtins alone. False (and `error`) on an unknown builtin.
bool lowerBuiltins(llvm::Module& m, std::string* error);
// Whether `name` is a vendor's builtin that lowerBuiltins provides (Intel's __builtin_IB_lsc_*
// loads, stores, prefetches, fences and atomics): a module importing it needs no linking.
bool providesVendorBuiltin(llvm::StringRef name);

// builtin_image.cpp: Image or Sampler when argument `index` of `kernel` is one (the translator's
// kernel_arg_type metadata names its OpenCL type; in the IR both are pointers), else nothing.
std::optional<ArgKind> imageArgumentKind(const llvm::Function& kernel, unsigned index);

// image_generic.cpp: whether a call of `f` reads or writes images (the image runtime's texel
// functions, the generic read functions of the image builtins).
bool accessesImages(const llvm::Function& f);

// simplify_kernels.cpp: LLVM's per-function simplification pipeline (O2's, no vectorizers) on
// every defined function, after the SPIR-V builtins' declarations are marked (work-item builtins
// readnone; barriers and other __spirv_ calls convergent, barriers noduplicate).
void simplifyKernels(llvm::Module& m, llvm::TargetMachine* tm);

// demanded_loads.cpp: a vector load whose every use is a constant-index extract or a shuffle
// becomes loads of the elements used (one per run of consecutive ones), so that neither the scalar
// nor the widened kernel reads an element the kernel never uses (OpenCV's vload4 of a 3-byte
// pixel at the end of an image).
void narrowVectorLoads(llvm::Function& f);

// vector_recombine.cpp: a vector rebuilt element by element (inserts at every index) from n
// instructions of one kind whose operands are elements of vectors at matching positions, splats
// or constants (CLBlast's `c.x = mad(a.x, b, c.x); c.y = ...`) becomes that instruction on
// vectors, which the widening keeps in whole registers. Returns how many vectors it rebuilt.
unsigned recombineVectorOps(llvm::Function& f);

// static_locals.cpp: offsets of the addrspace(3) variables `kernel` reaches (its own instructions
// and the functions it calls) in a work-group's local memory; each kernel of a module has its own
// layout, so one kernel's variables take no memory from another's work-groups. `overflow`: the
// sizes do not sum in 64 bits (the kernel cannot be built).
struct StaticLocalLayout {
  std::map<const llvm::GlobalVariable*, uint64_t> offsets;
  uint64_t bytes = 0;
  bool overflow = false;
};
StaticLocalLayout layoutStaticLocals(llvm::Module& m, const llvm::Function& kernel);
// Replaces the uses of static locals inside `f` by `localMem` + offset (inserted before `at`).
void replaceStaticLocals(llvm::Function& f, const StaticLocalLayout& layout, llvm::Value* localMem,
                         llvm::Instruction* at);

// work_item_builtins.cpp: get_local_id & co. inside a region function become arithmetic on its
// RegionParam arguments (the first of which is argument `firstRegionParam`).
void replaceWorkItemBuiltins(llvm::Function& region, unsigned firstRegionParam);

// barrier_regions.cpp: cuts the kernel at its barriers (continuation-based synchronization). Region
// 0 starts at the kernel's entry, region j at barrier j; each region is a function of the kernel's
// arguments and the RegionParams that runs one work-item until it reaches a barrier (returns that
// barrier's region id) or returns (kRegionExit). Values live across a barrier move to per-work-item
// scratch slots.
// A work-group barrier (__spirv_ControlBarrier), where formRegions cuts.
bool isWorkGroupBarrier(const llvm::Instruction& i);
struct Regions {
  std::vector<llvm::Function*> functions;
  uint32_t scratchBytesPerWorkItem = 0;
  // Per region: what starts it: kNotSubgroupCut (the entry, a work-group barrier),
  // kNonUniformCut (kNonUniformCutMetadata: the work-items of a sub-group that arrive together
  // take part) or kUniformCut (kSubgroupCutMetadata: whole sub-groups arrive). When any is a cut,
  // the work-group function follows each work-item's next region (workgroup_dispatch.cpp).
  std::vector<uint8_t> subgroupCut;
  // Per region: whether it writes the group's copy of the slots every work-item stores the same
  // value in (slot_sharing.h, SharedSlots); after such a region the work-group function
  // flips the 4-byte word at parityOffset * work-items in scratch, which says which copy is
  // current.
  std::vector<bool> writesShared;
  uint64_t parityOffset = 0;
};
bool formRegions(llvm::Function& kernel, const StaticLocalLayout& locals, Regions* out,
                 std::string* error);

// prefetch.cpp: in each loop of `kernel` that contains a barrier, a prefetch of the address each
// global load will read one iteration later, where that address moves by a known amount of a few
// cache lines or more (tiled kernels' next tile). Returns how many it inserted. Runs before
// formRegions, unless CompileOptions::prefetch is 0 (TESSERA_PREFETCH=0).
unsigned prefetchAcrossBarriers(llvm::Function& kernel);

// On a region: its widened copies run only where lane 0's local linear id is a multiple of the
// width (workgroup_function.cpp checks the row), which the stride analysis may count on
// (lane_strides.cpp: the sub-group of lane 0 then holds the whole chunk when the width divides S).
inline constexpr const char* kLinearAlignedAttribute = "tessera-linear-aligned";
// On a region of a kernel with a required work-group size: that size in x (decimal), an upper
// bound of its local id x the stride analysis uses where an `or` joins it to higher bits
// (lane_strides.cpp; CLBlast's tid = get_local_id(0) | get_local_id(1) << 3).
inline constexpr const char* kRequiredSizeXAttribute = "tessera-required-size-x";

// widen.cpp: a copy of `region` that runs VF consecutive work-items in x (from its kLocalIdX
// argument on) with vector instructions, or null (and `why`) when the region cannot be widened.
// Adds what it did to `stats`.
llvm::Function* widenRegion(llvm::Function& region, unsigned firstRegionParam, unsigned vf,
                            WidenStats* stats, std::string* why);

// row_jam.cpp: a copy of the widened region `wide` that runs `rows` consecutive rows (local id y
// from its kLocalIdY argument on, the linear id from kLocalLinearId on in steps of the local size
// x) with the rows' instructions interleaved, or null when `wide` is not straight-line or is
// larger than kMaxJamInstructions. It returns what the last row's copy returns.
inline constexpr size_t kMaxJamInstructions = 2000;
inline constexpr unsigned kJamRows = 4;
llvm::Function* jamRows(llvm::Function& wide, unsigned firstRegionParam, unsigned rows);

// group_rows.cpp: the only region's loop over the call's groups in x (WorkGroupFn's groupX and
// groupsX, the arguments 1 and 6 of `wg`), put between its y loop (header `yHeader`, latch
// `yLatch`) and its x loops, for a kernel that rowsAcrossGroups (kernel_abi.h) allows.
void loopGroupsInRows(llvm::Function& wg, llvm::BasicBlock* yHeader, llvm::BasicBlock* yLatch);

// fixed_group_size.cpp: in the finished work-group function `wg`, groups whose size and enqueued
// size are both `size` call a copy of it in which those sizes are constants; others run it as it
// was, or with only its scalar loops when `size` is the kernel's `required` one (only partial
// groups are left to it). The copy is named after `wg` with ".fixed" appended.
void copyForGroupSize(llvm::Function& wg, const uint32_t size[3], bool required);

// workgroup_function.cpp: the exported work-group function (WorkGroupFn) that loads the arguments,
// loops over the work-items for each region and dispatches between regions. Fills `info`'s
// argument layout. The region functions are inlined and erased. With `widenVF` > 1 each region
// that widenRegion accepts runs VF work-items per iteration while VF of them remain in x, the
// scalar loop doing the rest.
// How the work-group function widens its regions: `width` work-items per iteration (0: none), in
// the regions with a loop of their own (LLVM's loop vectorizer does the others) or, with
// `everyRegion`, in every region widenRegion accepts.
struct WidenPlan {
  unsigned width = 0;
  bool everyRegion = false;
  // Rows jammed (row_jam.cpp) where a region allows it.
  bool rowJam = true;
};

llvm::Function* buildWorkGroupFunction(llvm::Function& kernel, const Regions& regions,
                                       CompiledKernel* info, WidenPlan widen = {});

}  // namespace tessera::backends::cpu::jit
