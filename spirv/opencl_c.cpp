#include "spirv/opencl_c_inprocess.h"

#include <LLVMSPIRVLib/LLVMSPIRVLib.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/Stack.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticBuffer.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/thread.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

#include <new>
#include <sstream>

#include "spirv/friendly_ir.h"
#include "spirv/include_filesystem.h"
#include "spirv/merge_types.h"
#include "spirv/zero_length_arrays.h"
#include "spirv/opencl_options.h"
#include "spirv/validate.h"

namespace tessera::spirv {

namespace {

// The in-memory directory that holds the program source and the input headers (the compile's
// working directory). Diagnostics drop it: "program.cl:3:5: error: ...".
constexpr const char* kMemoryDir = "/tessera-opencl-input";
constexpr const char* kSourceName = "program.cl";

// What a CPU device has (see opencl_c.h). clang's spir target would otherwise claim everything.
constexpr const char* kCpuExtensions =
    "-cl-ext=-all,+cl_khr_byte_addressable_store,+cl_khr_global_int32_base_atomics,"
    "+cl_khr_global_int32_extended_atomics,+cl_khr_local_int32_base_atomics,"
    "+cl_khr_local_int32_extended_atomics,+cl_khr_int64_base_atomics,"
    "+cl_khr_int64_extended_atomics,+cl_khr_fp64,+__opencl_c_fp64,+cl_khr_fp16,"
    "+__opencl_c_program_scope_global_variables,+__opencl_c_atomic_order_acq_rel,"
    "+__opencl_c_atomic_order_seq_cst,+cl_khr_3d_image_writes,+__opencl_c_images,"
    "+__opencl_c_read_write_images,+__opencl_c_3d_image_writes,+__opencl_c_subgroups,"
    "+cl_intel_subgroups,+cl_intel_subgroups_short,+__opencl_c_generic_address_space";

// Not cl_khr_subgroups: the device does not advertise it (its spec assumes independent forward
// progress of sub-groups, which the device does not have), and clang 15 would define its macro only
// from OpenCL C 2.0. cl_intel_subgroups (any version) and __opencl_c_subgroups (3.0) bring the
// sub-group functions instead.
// Sub-group extensions clang 15's -cl-ext does not know (its builtin tables declare the
// cl_khr_subgroup_* functions once the extension's macro is defined; the cl_intel_subgroups
// functions come from kIntelSubgroupDeclarations). The JIT implements them all
// (backends/cpu/jit/subgroup_*.cpp).
constexpr const char* kSubgroupMacros[] = {
    "-Dcl_khr_subgroup_extended_types=1",   "-Dcl_khr_subgroup_non_uniform_vote=1",
    "-Dcl_khr_subgroup_ballot=1",           "-Dcl_khr_subgroup_non_uniform_arithmetic=1",
    "-Dcl_khr_subgroup_shuffle=1",          "-Dcl_khr_subgroup_shuffle_relative=1",
    "-Dcl_khr_subgroup_clustered_reduce=1", "-Dcl_intel_subgroups_char=1",
    "-Dcl_intel_subgroups_long=1",          "-Dcl_intel_required_subgroup_size=1"};

// cl_intel_subgroups (with _short, _char, _long): the shuffles and the buffer block reads and
// writes, which clang 15 declares only in opencl-c.h (not in the builtin tables used here). The
// translator turns them into OpSubgroupShuffle*INTEL and OpSubgroupBlock{Read,Write}INTEL
// (SPV_INTEL_subgroups). Read through -include from an in-memory file outside kMemoryDir.
constexpr const char* kIntelSubgroupsHeader = "/tessera-opencl-builtins/intel_subgroups.h";
constexpr const char* kIntelSubgroupDeclarations = R"(
#if defined(cl_intel_subgroups)
#define __TESSERA_SHUFFLES(T)                                                           \
  T __attribute__((overloadable, convergent)) intel_sub_group_shuffle(T, uint);        \
  T __attribute__((overloadable, convergent)) intel_sub_group_shuffle_xor(T, uint);    \
  T __attribute__((overloadable, convergent)) intel_sub_group_shuffle_down(T, T, uint); \
  T __attribute__((overloadable, convergent)) intel_sub_group_shuffle_up(T, T, uint);
#define __TESSERA_SHUFFLES_N(T)                                                          \
  __TESSERA_SHUFFLES(T) __TESSERA_SHUFFLES(T##2) __TESSERA_SHUFFLES(T##3)               \
  __TESSERA_SHUFFLES(T##4) __TESSERA_SHUFFLES(T##8) __TESSERA_SHUFFLES(T##16)
__TESSERA_SHUFFLES_N(char)
__TESSERA_SHUFFLES_N(uchar)
__TESSERA_SHUFFLES_N(short)
__TESSERA_SHUFFLES_N(ushort)
__TESSERA_SHUFFLES_N(int)
__TESSERA_SHUFFLES_N(uint)
__TESSERA_SHUFFLES_N(long)
__TESSERA_SHUFFLES_N(ulong)
__TESSERA_SHUFFLES_N(float)
#if defined(cl_khr_fp64)
__TESSERA_SHUFFLES_N(double)
#endif
#if defined(cl_khr_fp16)
// OpenCL C 1.2 allows `half` values only where the program enabled cl_khr_fp16; the header runs
// before the program's own pragmas, and leaves the extension as it found it (disabled).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__TESSERA_SHUFFLES_N(half)
#pragma OPENCL EXTENSION cl_khr_fp16 : disable
#endif
#undef __TESSERA_SHUFFLES_N
#undef __TESSERA_SHUFFLES
#define __TESSERA_BLOCK(S, T, N)                                                         \
  T##N __attribute__((overloadable, convergent, pure))                                  \
      intel_sub_group_block_read##S##N(const __global T*);                              \
  void __attribute__((overloadable, convergent))                                         \
      intel_sub_group_block_write##S##N(__global T*, T##N);
#define __TESSERA_BLOCKS(S, T) \
  __TESSERA_BLOCK(S, T, ) __TESSERA_BLOCK(S, T, 2) __TESSERA_BLOCK(S, T, 4) __TESSERA_BLOCK(S, T, 8)
__TESSERA_BLOCKS(, uint)
__TESSERA_BLOCKS(_ui, uint)
__TESSERA_BLOCKS(_us, ushort)
__TESSERA_BLOCKS(_uc, uchar)
__TESSERA_BLOCK(_uc, uchar, 16)
__TESSERA_BLOCKS(_ul, ulong)
#undef __TESSERA_BLOCKS
#undef __TESSERA_BLOCK
#endif
)";

// clang runs deep recursions on nested input; give it the stack its own driver gives cc1.
constexpr unsigned kCompilerStack = 8u << 20;

const char* clStd(OpenCLVersion version) {
  switch (version) {
    case OpenCLVersion::CL10:
      return "-cl-std=CL1.0";
    case OpenCLVersion::CL11:
      return "-cl-std=CL1.1";
    case OpenCLVersion::CL12:
      return "-cl-std=CL1.2";
    case OpenCLVersion::CL20:
      return "-cl-std=CL2.0";
    case OpenCLVersion::CL30:
      return "-cl-std=CL3.0";
  }
  return "-cl-std=CL1.2";
}

// cc1 arguments: what `clang -target spir64 -emit-llvm -c` passes, with typed pointers (the
// translator reads no opaque pointers), the TableGen builtin declarations (much faster than
// parsing opencl-c.h) and argument info always on.
//
// No LLVM pass runs here (-disable-llvm-passes; -O2 still shapes the frontend's output: no
// optnone, lifetime markers). The SPIR-V 1.0 translator is written for clang's own output; LLVM's
// optimizer produces IR it cannot carry or carries wrongly: `freeze` (CLBlast's GEMM, pyopencl's
// scans), odd-width integers such as i2 from switch lowering (hashcat: "InvalidBitWidth"), a
// scalar condition selecting vectors (pyopencl's Ranlux), phis and variables the validator then
// refuses. A program clang accepts must not be lost that way, and nothing is lost by waiting: the
// JIT optimizes every kernel after translation anyway, on the host's triple
// (backends/cpu/jit/simplify_kernels.cpp, then O3 over the work-group function). The price is a
// larger SPIR-V (CL_PROGRAM_BINARIES) and a little more JIT time.
std::vector<std::string> clangArguments(const CompileOptions& options) {
  std::vector<std::string> args = {"-triple",
                                   "spir64-unknown-unknown",
                                   "-no-opaque-pointers",
                                   "-O2",
                                   "-disable-llvm-passes",
                                   clStd(options.version),
                                   "-finclude-default-header",
                                   "-fdeclare-opencl-builtins",
                                   kCpuExtensions,
                                   "-cl-kernel-arg-info",
                                   "-discard-value-names",
                                   "-ffp-contract=on",
                                   "-resource-dir",
                                   TESSERA_CLANG_RESOURCE_DIR,
                                   // No /usr/local/include or /usr/include: only the OpenCL
                                   // headers, -I folders and input headers are the program's.
                                   "-nostdsysteminc",
                                   "-ferror-limit",
                                   "19"};
  // The spec's predefined macros (OpenCL C, "Preprocessor Directives and Macros"): for devices
  // newer than OpenCL 2.0, __OPENCL_VERSION__ "must be defined but may substitute any
  // implementation-defined integer value greater than 200" (300: the device's version);
  // __IMAGE_SUPPORT__ "is an integer constant of 1 if images are supported and is undefined
  // otherwise".
  // clang's opencl-c-base.h claims every header-only feature and extension for the spir target
  // (read-write images, work-group collectives, sub-groups, integer dot products) when __SPIR__ is
  // defined; without it only -cl-ext and the definitions below decide. The two atomic scopes are
  // header-only features in clang 15 (-cl-ext ignores them); the device has both. clang 15 does not
  // know OpenCL C 3.0's __opencl_c_fp16 either (the half type and its builtins, as cl_khr_fp16).
  // Work-group collectives (work_group_reduce/scan/broadcast/all/any) are a header-only feature
  // too: OpenCL C 2.0 has them always, 3.0 with __opencl_c_work_group_collective_functions
  // (backends/cpu/jit/workgroup_collectives.cpp lowers them).
  args.insert(args.end(), {"-D__OPENCL_VERSION__=300", "-D__IMAGE_SUPPORT__=1", "-U__SPIR__"});
  args.insert(args.end(), std::begin(kSubgroupMacros), std::end(kSubgroupMacros));
  args.insert(args.end(), {"-include", kIntelSubgroupsHeader});
  if (options.version == OpenCLVersion::CL30) {
    args.insert(args.end(), {"-D__opencl_c_atomic_scope_device=1",
                             "-D__opencl_c_atomic_scope_all_devices=1", "-D__opencl_c_fp16=1",
                             "-D__opencl_c_work_group_collective_functions=1"});
  }
  args.insert(args.end(), options.clangArgs.begin(), options.clangArgs.end());
  // After the user's -I: `#include <name>` of an input header resolves too.
  args.insert(args.end(), {"-I", kMemoryDir, "-x", "cl", kSourceName});
  return args;
}

std::string headerPath(const std::string& name) {
  llvm::SmallString<256> path(kMemoryDir);
  llvm::sys::path::append(path, name);
  llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
  return std::string(path);
}

// The folders the program may include from on disk (include_filesystem.h): those the options name
// (CompileOptions::includeFolders) and clang's resource directory. Like -I, it is the application
// that names the folders in the options; the source alone cannot reach outside them.
std::vector<std::string> includeFolders(const CompileOptions& options) {
  std::vector<std::string> folders = {TESSERA_CLANG_RESOURCE_DIR};
  folders.insert(folders.end(), options.includeFolders.begin(), options.includeFolders.end());
  return folders;
}

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> inputFileSystem(
    std::string_view source, const std::vector<OpenCLHeader>& headers,
    llvm::IntrusiveRefCntPtr<IncludeFileSystem> disk, std::string& log) {
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  for (const OpenCLHeader& header : headers) {
    bool added = !header.name.empty() &&
                 memory->addFile(headerPath(header.name), 0,
                                 llvm::MemoryBuffer::getMemBufferCopy(header.source, header.name));
    if (!added) log += "warning: input header '" + header.name + "' ignored (invalid name)\n";
  }
  memory->addFile(
      kIntelSubgroupsHeader, 0,
      llvm::MemoryBuffer::getMemBuffer(kIntelSubgroupDeclarations, "intel_subgroups.h"));
  std::string sourcePath = std::string(kMemoryDir) + "/" + kSourceName;
  memory->addFile(sourcePath, 0,
                  llvm::MemoryBuffer::getMemBufferCopy(
                      llvm::StringRef(source.data(), source.size()), kSourceName));
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(std::move(disk));
  overlay->pushOverlay(memory);
  return overlay;
}

// clang names input headers by their full in-memory path; the build log reads better without it.
void removeMemoryDir(std::string& log) {
  const std::string prefix = std::string(kMemoryDir) + "/";
  for (size_t at = log.find(prefix); at != std::string::npos; at = log.find(prefix, at)) {
    log.erase(at, prefix.size());
  }
}

// clang's messages about the arguments themselves (there should be none: the options were checked).
void appendBufferedDiagnostics(const clang::TextDiagnosticBuffer& buffer, std::string& log) {
  for (auto it = buffer.err_begin(); it != buffer.err_end(); ++it)
    log += "error: " + it->second + "\n";
  for (auto it = buffer.warn_begin(); it != buffer.warn_end(); ++it) {
    log += "warning: " + it->second + "\n";
  }
}

// OpenCL C source -> LLVM module (typed pointers); null with the reason in `log` on failure.
std::unique_ptr<llvm::Module> emitLLVM(llvm::LLVMContext& context, std::string_view source,
                                       const CompileOptions& options,
                                       const std::vector<OpenCLHeader>& headers,
                                       IncludeRule includes, CompileResult& result) {
  std::string& log = result.log;
  std::vector<std::string> args = clangArguments(options);
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());

  auto invocation = std::make_shared<clang::CompilerInvocation>();
  {
    clang::TextDiagnosticBuffer buffer;
    auto diagOptions = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
    clang::DiagnosticsEngine diags(llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(), diagOptions,
                                   &buffer, /*ShouldOwnClient=*/false);
    bool parsed = clang::CompilerInvocation::CreateFromArgs(*invocation, argv, diags);
    appendBufferedDiagnostics(buffer, log);
    if (!parsed) return nullptr;
  }
  invocation->getFileSystemOpts().WorkingDir = kMemoryDir;
  invocation->getDiagnosticOpts().ShowColors = false;

  llvm::raw_string_ostream logStream(log);
  clang::CompilerInstance compiler;
  compiler.setInvocation(invocation);
  compiler.setVerboseOutputStream(logStream);  // "1 error generated."
  compiler.createDiagnostics(
      new clang::TextDiagnosticPrinter(logStream, &compiler.getDiagnosticOpts()),
      /*ShouldOwnClient=*/true);
  auto disk = llvm::makeIntrusiveRefCnt<IncludeFileSystem>(includeFolders(options), kMemoryDir,
                                                           includes == IncludeRule::Strict);
  compiler.createFileManager(inputFileSystem(source, headers, disk, log));

  clang::EmitLLVMOnlyAction action(&context);
  bool ok = compiler.ExecuteAction(action);
  logStream.flush();
  log += disk->refusals();
  result.readOutsideFolders = disk->readOutsideFolders();
  removeMemoryDir(log);
  if (!ok) return nullptr;
  return action.takeModule();
}

// SPIR-V wants the blocks of a function in an order where each block comes after the blocks that
// dominate it ("the order of blocks in a function must satisfy the rule that blocks appear before
// all blocks they dominate"); clang may place a loop's exit before its body, and llvm-spirv 15
// keeps LLVM's layout, so a value defined in the body is used before its definition. Laying the
// blocks out in reverse post-order (after dropping unreachable ones) satisfies the rule.
void orderBlocksByDominance(llvm::Module& module) {
  for (llvm::Function& f : module) {
    if (f.isDeclaration()) continue;
    llvm::EliminateUnreachableBlocks(f);
    llvm::ReversePostOrderTraversal<llvm::Function*> order(&f);
    llvm::BasicBlock* previous = nullptr;
    for (llvm::BasicBlock* block : order) {
      if (previous) block->moveAfter(previous);
      previous = block;
    }
  }
}

// A C99 `inline` function that is neither static nor extern is an inline definition: clang gives
// it available_externally linkage, the body to inline while the symbol is expected from another
// unit. The optimizer would inline and drop it; unoptimized, the translator writes the body with
// Import linkage, which is invalid SPIR-V ("Function definition may not be decorated with Import
// Linkage type": pyopencl's headers and generated kernels are full of these). OpenCL programs
// rarely provide the external definition, and other implementations accept the inline one, so it
// becomes this unit's own (internal) definition.
void keepInlineDefinitions(llvm::Module& module) {
  for (llvm::Function& f : module) {
    if (f.hasAvailableExternallyLinkage()) f.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  for (llvm::GlobalVariable& g : module.globals()) {
    if (g.hasAvailableExternallyLinkage()) g.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
}

// A pointer to one of clang's opaque OpenCL types (%opencl.sampler_t, %opencl.image2d_ro_t,
// %opencl.event_t, ...): SPIR-V's opaque handles (OpTypeSampler, OpTypeImage, OpTypeEvent).
bool isOpaqueHandle(llvm::Type* t) {
  auto* p = llvm::dyn_cast<llvm::PointerType>(t);
  if (p == nullptr || p->isOpaque()) return false;
  auto* s = llvm::dyn_cast<llvm::StructType>(p->getNonOpaquePointerElementType());
  return s != nullptr && s->isOpaque() && s->hasName() && s->getName().startswith("opencl.");
}

// Unoptimized, clang keeps every kernel argument and local variable in a stack slot, handles
// included. SPIR-V has no memory of sampler type in the Function storage class that llvm-spirv
// 15 writes consistently: a kernel that stores an inline sampler (`const sampler_t s = ...;`, the
// result of __translate_sampler_initializer) into its slot, followed by one that stores a
// sampler_t argument, fails its store check ("Inconsistent operand types", an abort). Handles are
// values: their slots (stored once, read) become SSA values, as mem2reg would make them.
void promoteHandleSlots(llvm::Module& module) {
  for (llvm::Function& f : module) {
    if (f.isDeclaration()) continue;
    std::vector<llvm::AllocaInst*> slots;
    for (llvm::Instruction& i : f.getEntryBlock())
      if (auto* a = llvm::dyn_cast<llvm::AllocaInst>(&i))
        if (isOpaqueHandle(a->getAllocatedType()) && llvm::isAllocaPromotable(a)) slots.push_back(a);
    if (slots.empty()) continue;
    llvm::DominatorTree tree(f);
    llvm::PromoteMemToReg(slots, tree);
  }
}

std::vector<uint32_t> translateToSpirv(llvm::Module& module, std::string& log) {
  keepInlineDefinitions(module);
  orderBlocksByDominance(module);
  promoteHandleSlots(module);
  // Zero-length arrays, which no SPIR-V version can declare, lowered with every offset kept
  // (zero_length_arrays.h); what the lowering cannot carry goes to the translator as before, which
  // names the type it refuses.
  std::string unlowered;
  if (!lowerZeroLengthArrays(module, unlowered))
    log += "note: zero-length arrays left as written: " + unlowered + "\n";
  // SPIR-V 1.0, what OpenCL devices take, unless the module needs more: the translator writes the
  // lowest version its instructions allow, and asserts (aborts) on an instruction the maximum does
  // not allow. The sub-group builtins of cl_khr_subgroup_{ballot, non_uniform_vote, shuffle, ...}
  // are OpGroupNonUniform* instructions, SPIR-V 1.3; cl_intel_subgroups' shuffles and block
  // reads need SPV_INTEL_subgroups. Not 1.4 as the maximum: allowed 1.4, the translator declares it
  // for every program with a program-scope variable (it lists them in the entry points'
  // interfaces), and a module that needs 1.4 without the translator knowing it (a scalar condition
  // selecting vectors) is raised after writing (validateAtNeededVersion, validate.h), so 1.3 keeps
  // every other program's SPIR-V (CL_PROGRAM_BINARIES) what OpenCL 1.x devices take.
  // SPV_KHR_no_integer_wrap_decoration carries clang's `nsw`/`nuw` (signed int arithmetic does
  // not overflow in OpenCL C: C99 6.5p5) as NoSignedWrap/NoUnsignedWrap decorations, which the
  // reader turns back into flags: without it the SPIR-V of CL_PROGRAM_BINARIES and of the SPIR-V
  // front end (TESSERA_CL_BUILD_IR=0) lost them, and the JIT got from it other code than from the
  // same program's Tessera IR (`p[i + 1]` and `p[i]` not known to be one element apart).
  SPIRV::TranslatorOpts opts(SPIRV::VersionNumber::SPIRV_1_3,
                             {{SPIRV::ExtensionID::SPV_INTEL_subgroups, true},
                              {SPIRV::ExtensionID::SPV_KHR_no_integer_wrap_decoration, true}});
  // Type names and qualifiers for clGetKernelArgInfo, as OpStrings.
  opts.setPreserveOCLKernelArgTypeMetadataThroughString(true);
  std::ostringstream out;
  std::string error;
  if (!llvm::writeSpirv(&module, opts, out, error)) {
    log += "error: LLVM IR -> SPIR-V translation failed: " + error + "\n";
    return {};
  }
  std::string bytes = out.str();
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

// Tessera IR (friendly_ir.h) as bitcode; empty with the reason in `log` on failure.
std::string translateToTesseraIR(llvm::Module& module, std::string& log) {
  keepInlineDefinitions(module);
  promoteHandleSlots(module);
  if (!toTesseraIR(module, log)) return {};
  std::string bitcode;
  llvm::raw_string_ostream out(bitcode);
  llvm::WriteBitcodeToFile(module, out);
  out.flush();
  return bitcode;
}

void compileHere(std::string_view source, const CompileOptions& options,
                 const std::vector<OpenCLHeader>& headers, IncludeRule includes,
                 CompileOutput output, CompileResult& result) {
  clang::noteBottomOfStack();
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module =
      emitLLVM(context, source, options, headers, includes, result);
  if (module == nullptr) return;
  if (output == CompileOutput::TesseraIR) {
    result.ir = translateToTesseraIR(*module, result.log);
    result.ok = !result.ir.empty();
    return;
  }
  std::vector<uint32_t> words = translateToSpirv(*module, result.log);
  if (words.empty()) return;
  // The translator's duplicate OpTypeSampler (merge_types.h): its mistake, not the program's, so
  // no warning.
  std::vector<uint32_t> merged;
  if (mergeDuplicateTypes(words, merged)) words = std::move(merged);
  // At the version the module's instructions need, which may be later than the one the translator
  // declared (validate.h).
  ValidationResult validation = validateAtNeededVersion(words);
  if (!validation.ok) {
    result.log += "error: the compiled SPIR-V does not validate: " + validation.log + "\n";
    return;
  }
  result.spirv = std::move(words);
  result.ok = true;
}

}  // namespace

CompileResult compileOpenCLCInProcess(std::string_view source, const CompileOptions& parsed,
                                      const std::vector<OpenCLHeader>& headers,
                                      IncludeRule includes, CompileOutput output) {
  if (!parsed.ok) return invalidOptionsResult(parsed);
  CompileResult result;
  // No exception may cross LLVM's frames or leave the thread: catch here, report after the join.
  bool outOfMemory = false;
  llvm::thread worker(llvm::Optional<unsigned>(kCompilerStack), [&] {
    try {
      compileHere(source, parsed, headers, includes, output, result);
    } catch (const std::bad_alloc&) {
      outOfMemory = true;
    }
  });
  worker.join();
  if (outOfMemory) {
    result = CompileResult{};
    result.log = "error: out of memory while compiling\n";
  }
  return result;
}

}  // namespace tessera::spirv
