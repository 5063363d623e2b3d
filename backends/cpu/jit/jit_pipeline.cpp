#include "backends/cpu/jit/jit_pipeline.h"

#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "backends/cpu/jit/widener.h"

namespace tessera::backends::cpu::jit {
namespace {

llvm::OptimizationLevel pipelineLevel(unsigned level) {
  switch (level) {
    case 0:
      return llvm::OptimizationLevel::O0;
    case 1:
      return llvm::OptimizationLevel::O1;
    case 2:
      return llvm::OptimizationLevel::O2;
    default:
      return llvm::OptimizationLevel::O3;
  }
}

// True when `f` can be called outside a kernel: it reaches no SPIR-V builtin left undefined
// (work-item builtins, barriers are only lowered inside kernels).
bool standalone(const llvm::Function& f) {
  for (const llvm::BasicBlock& bb : f)
    for (const llvm::Instruction& i : bb)
      for (const llvm::Value* op : i.operands()) {
        const auto* g = llvm::dyn_cast<llvm::GlobalValue>(op->stripPointerCasts());
        if (g && g->isDeclaration() && spirvBaseName(g->getName()).startswith("__spirv"))
          return false;
      }
  return true;
}

void optimize(llvm::Module& m, llvm::TargetMachine* tm, unsigned level) {
  // A division the source allows to become x * (1/y) (-cl-fast-relaxed-math, `arcp`): x86's
  // reciprocal estimate has 12 bits (rcpps) and LLVM refines it once, which leaves 3 ulp; OpenCL
  // allows 2.5 for x / y under -cl-fast-relaxed-math (the 3.0 API spec's relaxed-math table), so
  // two refinement steps (OpenCL-CTS math_brute_force, divide fp32 rlx: -3.0 ulp before).
  for (llvm::Function& f : m)
    if (!f.isDeclaration()) f.addFnAttr("reciprocal-estimates", "divf:2,vec-divf:2");
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions options;
  options.LoopVectorization = true;
  options.SLPVectorization = true;
  llvm::PassBuilder pb(tm, options);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm = level == 0 ? pb.buildO0DefaultPipeline(llvm::OptimizationLevel::O0)
                                           : pb.buildPerModuleDefaultPipeline(pipelineLevel(level));
  mpm.run(m, mam);
}

// Work-items per widened iteration (widen.cpp): two of the host's preferred vectors of 32-bit
// lanes (16 for AVX2), at most 16, for the regions with a loop of their own, unless the options
// turn the widening off. Two vectors, because the loops that need widening accumulate
// (acc += a * b): each lane's chain waits on its FMA's latency, and two independent chains nearly
// double the throughput (naive SGEMM 3.9 -> 7.5 GFLOP/s in one loaded run); a row whose x size is
// a multiple of 8 only still runs widened, through the half-width level (workgroup_function.cpp).
// A width n > 1 in the options forces n work-items and every region the widening accepts, loops
// or not.
WidenPlan widenPlan(llvm::Function& f, llvm::TargetMachine* tm, const CompileOptions& options) {
  int setting = options.widen < 0 ? 1 : options.widen;
  if (setting == 0) return {};
  const bool rowJam = options.rowJam != 0;
  if (setting > 1) return {static_cast<unsigned>(setting), true, rowJam};
  uint64_t bits = tm->getTargetTransformInfo(f)
                      .getRegisterBitWidth(llvm::TargetTransformInfo::RGK_FixedWidthVector)
                      .getFixedSize();
  unsigned vf = static_cast<unsigned>(std::min<uint64_t>(2 * (bits / 32), 16));
  return {vf >= 4 ? vf : 0, false, rowJam};
}

// --- the passes, as the list below names them -------------------------------------------------

bool hostTarget(PipelineState& s) {
  s.module.setTargetTriple(s.triple);
  s.module.setDataLayout(s.dataLayout);
  return true;
}

bool inlineKernels(PipelineState& s) {
  return inlineIntoKernels(s.module, &s.kernels, s.error);
}

// A pass that cannot fail, on the module or on the current kernel.
template <void (*pass)(llvm::Module&)>
bool onModule(PipelineState& s) {
  pass(s.module);
  return true;
}
template <void (*pass)(llvm::Function&)>
bool onKernel(PipelineState& s) {
  pass(*s.kernel);
  return true;
}

bool builtins(PipelineState& s) {
  return lowerBuiltins(s.module, s.error);
}

bool simplify(PipelineState& s) {
  if (s.options.optLevel > 0) simplifyKernels(s.module, s.tm);
  return true;
}

bool recombineVectors(PipelineState& s) {
  for (llvm::Function& f : s.module)
    if (!f.isDeclaration()) recombineVectorOps(f);
  return true;
}

bool demandedLoads(PipelineState& s) {
  for (llvm::Function& f : s.module)
    if (!f.isDeclaration()) narrowVectorLoads(f);
  return true;
}

// Whether the host's gathers are slow: LLVM's x86 "fast-gather" tuning marks the cores whose
// gathers beat a load per lane (Intel's since Skylake); AMD's cores lack it, and other targets
// scalarize gathers anyway. Then loads at a constant lane distance are one load per lane
// (widener.h, kStridedLoadsAttr).
bool slowGathers(llvm::TargetMachine* tm) {
  const llvm::MCSubtargetInfo* sti = tm->getMCSubtargetInfo();
  return sti == nullptr || !sti->checkFeatures("+fast-gather");
}

// Whether the host masks vector loads and stores per element natively, bytes and words too
// (AVX-512BW; widener.h, kMaskedSpansAttr).
bool maskedSpans(llvm::TargetMachine* tm) {
  const llvm::MCSubtargetInfo* sti = tm->getMCSubtargetInfo();
  return sti != nullptr && sti->checkFeatures("+avx512f,+avx512bw,+avx512vl");
}

bool planWidening(PipelineState& s) {
  s.widen = s.kernels.empty() ? WidenPlan{} : widenPlan(*s.kernels.front(), s.tm, s.options);
  if (slowGathers(s.tm))
    for (llvm::Function* kernel : s.kernels) kernel->addFnAttr(widening::kStridedLoadsAttr);
  if (maskedSpans(s.tm))
    for (llvm::Function* kernel : s.kernels) kernel->addFnAttr(widening::kMaskedSpansAttr);
  // One record per kernel, in order, for the kernel passes to fill.
  for (llvm::Function* kernel : s.kernels) {
    s.result.kernels.emplace_back();
    CompiledKernel& info = s.result.kernels.back();
    info.name = kernel->getName().str();
    uint64_t size = 0, required = 0;
    if (!kernel->getFnAttribute(kSubgroupSizeAttribute).getValueAsString().getAsInteger(10, size))
      info.subgroupSize = static_cast<uint32_t>(size);
    if (!kernel->getFnAttribute(kRequiredSubgroupSizeAttribute)
             .getValueAsString()
             .getAsInteger(10, required))
      info.requiredSubgroupSize = static_cast<uint32_t>(required);
  }
  return true;
}

bool subgroups(PipelineState& s) {
  return lowerSubgroups(*s.kernel, s.error);
}

bool subgroupUniformity(PipelineState& s) {
  return checkSubgroupUniformity(*s.kernel, s.error);
}

bool staticLocals(PipelineState& s) {
  CompiledKernel& info = s.result.kernels[s.kernelIndex];
  // Only the static __local variables this kernel reaches.
  s.locals = layoutStaticLocals(s.module, *s.kernel);
  if (s.locals.overflow || s.locals.bytes > UINT32_MAX) {
    *s.error = "kernel " + info.name + ": its static __local variables take more than 4 GiB";
    return false;
  }
  info.staticLocalBytes = static_cast<uint32_t>(s.locals.bytes);
  return true;
}

bool prefetch(PipelineState& s) {
  if (s.options.prefetch != 0)
    s.result.kernels[s.kernelIndex].prefetches = prefetchAcrossBarriers(*s.kernel);
  return true;
}

bool regions(PipelineState& s) {
  s.regions = {};
  return formRegions(*s.kernel, s.locals, &s.regions, s.error);
}

bool workGroupFunction(PipelineState& s) {
  llvm::Function* wg =
      buildWorkGroupFunction(*s.kernel, s.regions, &s.result.kernels[s.kernelIndex], s.widen);
  s.result.kernelSymbols.push_back(wg->getName().str());
  return true;
}

bool linkage(PipelineState& s) {
  for (llvm::Function* kernel : s.kernels) kernel->eraseFromParent();
  s.kernels.clear();
  const std::vector<std::string>& exports = s.options.exports;
  for (llvm::Function& f : s.module) {
    if (!f.isDeclaration() && !f.getName().startswith("__tessera_wg.")) {
      bool exported = std::find(exports.begin(), exports.end(), f.getName().str()) != exports.end();
      if (exported && standalone(f)) {
        s.functions.push_back(f.getName().str());
      } else {
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
      }
    }
    if (f.isDeclaration() && !f.use_empty() && spirvBaseName(f.getName()).startswith("__spirv_")) {
      *s.error = "unsupported builtin: " + spirvBaseName(f.getName()).str();
      return false;
    }
  }
  return true;
}

bool dump(PipelineState& s) {
  if (!s.options.dumpModule) return true;
  for (const CompiledKernel& k : s.result.kernels) {
    const WidenStats& w = k.widen;
    llvm::errs() << "tessera: kernel " << k.name << ": width " << w.width
                 << (w.halfWidth ? " then " + std::to_string(w.halfWidth) : "")
                 << (w.loopWidth ? " (" + std::to_string(w.loopWidth) + " in loop regions)" : "")
                 << ", " << w.widenedRegions << " of " << k.barrierCount + 1 << " regions widened, "
                 << w.jammedRegions << " by " << kJamRows << " rows at once (contiguous "
                 << w.contiguous << ", gathers " << w.gathers << ", versioned loads "
                 << w.versionedLoads << ", strided loads " << w.stridedLoads << ", strided stores "
                 << w.stridedStores << ", scatters " << w.scatters << ", vector gathers "
                 << w.vectorGathers << ", vector scatters " << w.vectorScatters << ", per lane "
                 << w.perLane << ", checked branches " << w.checkedBranches
                 << ", predicated branches " << w.predicatedBranches << ", cut paths " << w.cutPaths
                 << ", active bases " << w.activeBases << "), prefetches " << k.prefetches
                 << (rowsAcrossGroups(k) ? ", rows across groups" : "")
                 << (k.fixedGroupSize[0]
                         ? ", a copy for groups of " + std::to_string(k.fixedGroupSize[0]) + " x " +
                               std::to_string(k.fixedGroupSize[1]) + " x " +
                               std::to_string(k.fixedGroupSize[2]) +
                               (k.fixedGroupSizeRequired
                                    ? " (the required size: partial groups scalar)"
                                    : "")
                         : "")
                 << (w.decision.empty() ? "" : "; " + w.decision)
                 << (w.refused.empty() ? "" : "; refused " + w.refused) << "\n";
  }
  s.module.print(llvm::errs(), nullptr);
  return true;
}

bool verify(PipelineState& s) {
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(s.module, &os)) {
    *s.error = "internal error: the work-group functions do not verify: " + os.str();
    return false;
  }
  return true;
}

bool hostGlobals(PipelineState& s) {
  for (llvm::GlobalVariable& g : s.module.globals()) {
    if (!g.isDeclaration() && g.hasExternalLinkage() && !g.getName().startswith("__spirv")) {
      s.globals.emplace_back(g.getName().str(),
                             s.module.getDataLayout().getTypeAllocSize(g.getValueType()));
    }
  }
  return true;
}

bool optimizeModule(PipelineState& s) {
  optimize(s.module, s.tm, s.options.optLevel);
  return true;
}

bool maskedAccesses(PipelineState& s) {
  for (llvm::Function& f : s.module)
    if (!f.isDeclaration()) versionMaskedAccesses(f);
  return true;
}

bool localAtomics(PipelineState& s) {
  for (llvm::Function& f : s.module)
    if (!f.isDeclaration()) lowerLocalAtomics(f);
  return true;
}

// Runs `pass` (returning a count) on every defined function; a work-group function's nonzero
// count goes to its kernel's record (`field`) and, with TESSERA_JIT_DUMP=1, to stderr after
// `what`.
template <typename Pass>
void countPerKernel(PipelineState& s, Pass pass, uint32_t CompiledKernel::*field,
                    const char* what) {
  constexpr llvm::StringLiteral kPrefix = "__tessera_wg.";
  for (llvm::Function& f : s.module) {
    if (f.isDeclaration()) continue;
    const unsigned n = pass(f);
    if (n == 0 || !f.getName().startswith(kPrefix)) continue;
    const llvm::StringRef name = f.getName().drop_front(kPrefix.size());
    for (CompiledKernel& k : s.result.kernels)
      if (k.name == name) {
        k.*field = n;
        if (s.options.dumpModule)
          llvm::errs() << "tessera: kernel " << k.name << ": " << n << " " << what << "\n";
      }
  }
}

bool scratchScope(PipelineState& s) {
  countPerKernel(
      s,
      [](llvm::Function& f) {
        return f.getName().startswith("__tessera_wg.") ? scopeScratchAccesses(f) : 0u;
      },
      &CompiledKernel::scopedAccesses, "memory accesses in scratch's alias scopes");
  return true;
}

// The work-group functions that buildWorkGroupFunction chose a group size for get their copy
// (fixed_group_size.cpp), unless TESSERA_GROUP_COPY=0 turned the copies off.
bool groupSizeCopies(PipelineState& s) {
  for (size_t i = 0; i < s.result.kernels.size(); ++i) {
    CompiledKernel& k = s.result.kernels[i];
    if (k.fixedGroupSize[0] == 0) continue;
    llvm::Function* wg = s.module.getFunction(s.result.kernelSymbols.at(i));
    if (s.options.groupCopy == 0 || wg == nullptr)
      std::fill(std::begin(k.fixedGroupSize), std::end(k.fixedGroupSize), 0u);
    else
      copyForGroupSize(*wg, k.fixedGroupSize, k.fixedGroupSizeRequired);
  }
  return true;
}

bool stridedGroups(PipelineState& s) {
  countPerKernel(s, groupStridedLoads, &CompiledKernel::transposedLoads,
                 "strided loads read as vector loads per lane and a transpose");
  return true;
}

bool spacedGroups(PipelineState& s) {
  countPerKernel(s, joinSpacedAccesses, &CompiledKernel::joinedSpacedAccesses,
                 "spaced accesses joined into whole vectors");
  return true;
}

bool copyPieces(PipelineState& s) {
  countPerKernel(s, splitCopies, &CompiledKernel::splitCopies,
                 "copies from global to global memory in 32-byte pieces");
  return true;
}

bool streamedStores(PipelineState& s) {
  countPerKernel(s, streamStores, &CompiledKernel::streamBytesPerItem,
                 "bytes a work-item writes at most in one store that may go past the caches");
  return true;
}

bool halfMinMax(PipelineState& s) {
  computeHalfMinMaxInFloat(s.module);
  return true;
}

bool vectorVariants(PipelineState& s) {
  nameVectorVariants(s.module, s.tm);
  return true;
}

bool vectorMath(PipelineState& s) {
  callVectorMath(s.module, s.tm);
  return true;
}

bool keepSumsInOrder(PipelineState& s) {
  keepSumConstantsFirst(s.module);
  return true;
}

bool measureStacks(PipelineState& s) {
  return planStacks(s.module, &s.stacks, s.error);
}

bool emit(PipelineState& s) {
  return s.emit(s);
}

constexpr JitPass kPipeline[] = {
    {"host-target", PassScope::Module, hostTarget,
     "the host's triple and DataLayout (from the JIT): every later size and alignment (argument "
     "slots, scratch slots, static locals) must be the host's, not SPIR's"},
    {"inline-into-kernels", PassScope::Module, inlineKernels,
     "calling conventions to C, every call inlined into the kernels (recursion refused first): one "
     "function per kernel, so region formation sees the barriers of helpers"},
    {"trap-free-arithmetic", PassScope::Module, onModule<makeArithmeticTrapFree>,
     "division by zero and oversized shifts get a value, never a trap; before anything optimizes "
     "on that undefined behaviour"},
    {"alignment-claims", PassScope::Module, onModule<honourAlignmentClaims>,
     "an access's alignment claim holds where the module lays the memory out (private and "
     "module-scope variables raised to their claims, claims past the known alignment lowered); "
     "before anything optimizes on the claims, which x86 code takes as facts (vmovaps faults)"},
    {"byval-copies", PassScope::Kernel, onKernel<copyWrittenByValArgs>,
     "by-value arguments the kernel writes copied to allocas; after inlining (writes by helpers "
     "are seen), before regions (the copy is then kept per work-item)"},
    {"subgroups", PassScope::Kernel, subgroups,
     "the kernel's sub-group size; sub-group operations become exchanges through per-work-item "
     "slots around a cut (a barrier) and arithmetic on the work-item's position; after inlining "
     "(one function per kernel), before builtins, which would refuse them"},
    {"workgroup-collectives", PassScope::Module, onModule<lowerWorkGroupCollectives>,
     "work-group reduce/scan/broadcast/all/any become a static __local accumulator and barriers; "
     "before static-locals and regions, which must see both, and before builtins, which refuses "
     "what is left at work-group scope"},
    {"builtins", PassScope::Module, builtins,
     "OpenCL.std, relational, atomic, vector-data, image, printf and async-copy builtins become IR "
     "or host helper calls; before regions, so that work-item loops contain no other calls"},
    {"simplify-kernels", PassScope::Module, simplify,
     "LLVM's function simplification (unless optLevel is 0): OpenCL C arrives unoptimized and the "
     "region passes want registers and canonical loops; after builtins, so their IR is simplified "
     "too"},
    {"recombine-vectors", PassScope::Module, recombineVectors,
     "element-by-element arithmetic rebuilding an OpenCL vector made one vector operation "
     "(vector_recombine.cpp); after simplification (SROA makes the insert chains), before the "
     "widening, which would shuffle every element in and out of its lane-major vectors"},
    {"demanded-loads", PassScope::Module, demandedLoads,
     "vector loads narrowed to the elements their users extract or shuffle (demanded_loads.cpp); "
     "after simplification (SROA leaves the vload builtins' loads with their extracts), before "
     "regions and the widening, which would otherwise read an unused element past a buffer's end "
     "for every lane"},
    {"plan-widening", PassScope::Module, planWidening,
     "how many work-items a widened iteration runs (CompileOptions::widen, the host's vector "
     "width), one plan for the module's kernels"},
    {"subgroup-uniformity", PassScope::Kernel, subgroupUniformity,
     "a kernel whose uniform sub-group operations lie under control flow that may differ between "
     "the lanes of a sub-group fails to build, then the sub-group ids become arithmetic; after "
     "simplification (values out of allocas), before regions"},
    {"static-locals", PassScope::Kernel, staticLocals,
     "offsets of the static __local variables this kernel reaches, used by all its regions"},
    {"prefetch", PassScope::Kernel, prefetch,
     "in loops with a barrier, a prefetch of each strided global load's next-iteration address "
     "(unless CompileOptions::prefetch is 0); before regions, which split such loops"},
    {"regions", PassScope::Kernel, regions,
     "the kernel cut at its barriers into region functions; work-item builtins become parameters"},
    {"work-group-function", PassScope::Kernel, workGroupFunction,
     "the work-group function: loops over the work-items of each region, with the regions the "
     "widening accepts run several work-items per iteration (widen.cpp), and the dispatch between "
     "regions"},
    {"linkage", PassScope::Module, linkage,
     "kernels erased, every function but the work-group functions and standalone exports made "
     "internal (O3 drops what is unused); a builtin still undefined fails the compile"},
    {"scratch-scope", PassScope::Module, scratchScope,
     "scratch accesses of each work-group function in an alias scope of their own, before O3: "
     "LLVM cannot see that the widening's gathers never read scratch, and kept an accumulator "
     "spilled across a region's loop in memory (CLBlast's XgemmDirect)"},
    {"group-size-copy", PassScope::Module, groupSizeCopies,
     "a copy of each work-group function with barriers for the group size launches most likely "
     "use, in which that size is a constant (loop bounds, level checks and scratch addresses "
     "fold)"},
    {"masked-accesses", PassScope::Module, maskedAccesses,
     "each masked load and store the widening made (predicated blocks) is the plain access when "
     "every lane of its chunk is on, a masked gather or scatter the same with a constant mask: "
     "x86 without AVX-512 masks no byte or half elements and LLVM would branch per element "
     "(OpenCV's uchar4 morphology: 11x slower widened); before O3, which shares the lanes' test "
     "between the accesses of a block"},
    {"local-atomics", PassScope::Module, localAtomics,
     "atomics on local memory as plain loads and stores, after the widening kept them in lane "
     "order: a work-group's local memory is its worker thread's alone, and a locked instruction "
     "drains the store buffer (the bench's local-bin histogram)"},
    {"dump", PassScope::Module, dump,
     "TESSERA_JIT_DUMP=1: what the widening did to each kernel and the module, before O3"},
    {"verify", PassScope::Module, verify, "LLVM's verifier on the work-group functions"},
    {"host-globals", PassScope::Module, hostGlobals,
     "the program-scope variables the host may reach (zeModuleGetGlobalPointer), looked up after "
     "emit"},
    {"stack-probes", PassScope::Module, onModule<addStackProbes>,
     "frames touched page by page, so a kernel's stack overflow reaches the guard region"},
    {"vector-variants", PassScope::Module, vectorVariants,
     "calls of libm functions that libmvec has in vector form name those variants, so that the "
     "loop vectorizer vectorizes work-item loops that call them"},
    {"optimize", PassScope::Module, optimizeModule,
     "the O3 pipeline (or the build options' level) with the host TargetMachine: vectorizes the "
     "work-item loops"},
    {"strided-groups", PassScope::Module, stridedGroups,
     "after O3 (which unrolls the loops they sit in), the widening's strided loads (gathers tagged "
     "tessera.strided_lanes): those whose lanes read consecutive elements across a block's "
     "gathers as one vector load per lane and a transpose, the rest one scalar load per lane "
     "(CLBlast's XgemmDirect, its transposed local tile)"},
    {"spaced-groups", PassScope::Module, spacedGroups,
     "after O3, the widening's spaced accesses (masked, every k-th element on: a work-item's "
     "vector read or written component by component) at element offsets 0 .. k - 1 of each "
     "other as one plain access of all their elements: CLBlast's XgemmDirect copying its tiles"},
    {"copy-pieces", PassScope::Module, copyPieces,
     "after O3 (whose SLP would merge them again), the widening's copies from global to global "
     "memory as 16-byte loads and stores in turn, not all the loads of an unrolled copy before "
     "its stores: 10-15% faster streams on an AVX-512 Zen 4 (the bench's copy)"},
    {"stream-stores", PassScope::Module, streamedStores,
     "after copy-pieces (whose pieces it streams too), the widened stores of work-group functions "
     "without atomics go past the caches (non-temporal) in launches that write more than the "
     "device's caches hold (the launcher's choice, read from the context)"},
    {"half-min-max", PassScope::Module, halfMinMax,
     "after O3 (whose InstCombine narrows it back), min/max of halves in float: LLVM 15 cannot "
     "select them on half vectors without AVX-512 FP16, and its failure ends the process"},
    {"vector-math", PassScope::Module, vectorMath,
     "after O3 (whose vectorizers make the vectors), math on several lanes is one call of "
     "libmvec's vector variant per register's worth of lanes instead of a libm call per lane"},
    {"sum-constants-first", PassScope::Module, keepSumsInOrder,
     "after O3 (which would fold it back), a constant splat added before another add is loaded "
     "rather than written in place, so x86's instruction selection keeps it off the sum's "
     "critical path (hashcat's MD5 steps)"},
    {"plan-stacks", PassScope::Module, measureStacks,
     "what the optimized IR knows for measuring stacks (callees, allocas); a frame too large to "
     "compile fails here"},
    {"emit", PassScope::Module, emit,
     "ORC: the module in a JITDylib of its own that resolves libm and the runtime helpers; "
     "addresses looked up, each kernel's stack need from the object's .stack_sizes"},
};

}  // namespace

std::span<const JitPass> pipeline() {
  return kPipeline;
}

namespace {

// TESSERA_JIT_DUMP=times: the time each pass took on a module (Kernel passes summed over its
// kernels), one line on stderr when the module is done.
class PassTimes {
 public:
  explicit PassTimes(size_t passes) : seconds_(passes, 0.0) {}
  template <typename F>
  bool run(size_t pass, F&& f) {
    auto start = std::chrono::steady_clock::now();
    bool ok = f();
    seconds_[pass] +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return ok;
  }
  void print(std::span<const JitPass> passes, const PipelineState& s) const {
    double total = 0;
    std::string line;
    char ms[32];
    for (size_t p = 0; p < passes.size(); ++p) {
      total += seconds_[p];
      std::snprintf(ms, sizeof ms, " %.1f", seconds_[p] * 1e3);
      line += std::string(p ? "," : "") + " " + passes[p].name + ms;
    }
    std::snprintf(ms, sizeof ms, "%.1f", total * 1e3);
    llvm::errs() << "tessera: JIT times of module " << s.module.getModuleIdentifier() << " ("
                 << s.result.kernels.size() << " kernels), ms: total " << ms << ";" << line << "\n";
  }

 private:
  std::vector<double> seconds_;
};

}  // namespace

bool runPipeline(PipelineState& s) {
  const std::span<const JitPass> passes = pipeline();
  PassTimes times(passes.size());
  auto run = [&](size_t p) { return times.run(p, [&] { return passes[p].run(s); }); };
  for (size_t i = 0; i < passes.size();) {
    if (passes[i].scope == PassScope::Module) {
      if (!run(i)) return false;
      ++i;
      continue;
    }
    // A group of Kernel passes: each kernel goes through the whole group before the next.
    size_t end = i;
    while (end < passes.size() && passes[end].scope == PassScope::Kernel) ++end;
    for (size_t k = 0; k < s.kernels.size(); ++k) {
      s.kernel = s.kernels[k];
      s.kernelIndex = k;
      for (size_t p = i; p < end; ++p)
        if (!run(p)) return false;
    }
    s.kernel = nullptr;
    i = end;
  }
  if (s.options.dumpTimes) times.print(passes, s);
  return true;
}

}  // namespace tessera::backends::cpu::jit
