// OpenCL C -> SPIR-V, for clBuildProgram / clCompileProgram: clang (libclang-cpp) emits LLVM IR
// for spir64-unknown-unknown, SPIRV-LLVM-Translator turns it into SPIR-V 1.0, and spirv/validate
// checks the result. Both run in a compiler process (tessera-clc, spirv/clc/), never in the
// application: the installed translator calls exit() on IR it cannot express.
//
// Failures never end the application: option errors, diagnostics, translator errors and a compiler
// process that ended come back in `log` with ok == false. Thread-safe: concurrent compiles go to
// processes of their own.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spirv/opencl_options.h"

namespace tessera::spirv {

// clCompileProgram's input_headers with their header_include_names: `#include "name"` in the
// source (or in another header) finds `source`. Names may contain directories ("sub/a.h").
struct OpenCLHeader {
  std::string name;
  std::string source;
};

// Which files on disk an `#include` may read (docs/reliability.md, "The compiler's file access").
// Either way: only regular files (a FIFO or device fails its #include at once), no system include
// path (/usr/include is not searched), and the program's own input headers and clang's OpenCL
// headers are found.
enum class IncludeRule : uint32_t {
  // The C preprocessor's semantics, the default: any regular file the user can read, by absolute
  // path, relative to the including file or to an -I folder (`..` and symbolic links included).
  // OpenCL-CTS test_compiler writes `#include "<absolute path>"`.
  Preprocessor = 0,
  // For services that compile source they do not trust (TESSERA_STRICT_INCLUDES=1): only files
  // inside the -I folders of the build options, absolute folders the options give as a macro's
  // value and clang's OpenCL headers; anything else (an absolute path elsewhere, `..` out of a
  // folder, a symbolic link leading out) fails with a log line naming it and none of its text.
  Strict = 1,
};

// What a compile produces: SPIR-V (clCompileProgram's objects, CL_PROGRAM_BINARIES, IL a user
// asked for), or Tessera IR, the LLVM bitcode the JIT reads without SPIR-V (friendly_ir.h; what
// zeModuleCreate takes as TESSERA_ZE_MODULE_FORMAT_LLVM_IR).
enum class CompileOutput : uint32_t { Spirv = 0, TesseraIR = 1 };

struct CompileResult {
  bool ok = false;
  // The options were not valid (CL_INVALID_BUILD_OPTIONS / CL_INVALID_COMPILER_OPTIONS /
  // CL_INVALID_LINKER_OPTIONS); `log` names the option. Nothing was compiled.
  bool invalidOptions = false;
  std::vector<uint32_t> spirv;  // host-order words; empty unless ok and the output is SPIR-V
  std::string ir;               // Tessera IR (LLVM bitcode); empty unless ok and asked for
  std::string log;              // clang's warnings and errors (also when ok), or why it failed
  // The compile read a file outside the folders the frontend cache's key covers (possible under
  // IncludeRule::Preprocessor): the result must not be cached.
  bool readOutsideFolders = false;
  // The options as parseCompileOptions read them, once (unless invalidOptions): what the runtime
  // needs of them (module flags, -cl-kernel-arg-info) is here for the caller.
  CompileOptions options;
};

// The result for options parseCompileOptions refused (`parsed.ok` false): what the client reports
// without starting a process, and the compiler process if it is handed such options anyway.
inline CompileResult invalidOptionsResult(const CompileOptions& parsed) {
  CompileResult result;
  result.invalidOptions = true;
  result.log = "error: " + parsed.error + "\n";
  return result;
}

// The OpenCL C features and extensions the compiled code may use: those a CPU device has
// (fp64, int64 and its atomics, program-scope globals, all atomic orders and scopes, images with
// read-write images and 3D image writes: __IMAGE_SUPPORT__, cl_khr_3d_image_writes); no pipes,
// device enqueue, sub-groups, work-group collectives or fp16. The generic address space (OpenCL C
// 2.0, and 3.0's __opencl_c_generic_address_space) with to_global, to_local, to_private and
// get_fence.
// Every compile defines the macros these imply. `#include` follows TESSERA_STRICT_INCLUDES
// (IncludeRule), read at each call.
//
// `options` are OpenCL build options (opencl_options.h lists them). Kernel argument info is always
// emitted, as if -cl-kernel-arg-info were given: argument names become OpName of the parameters and
// the types and qualifiers OpStrings "kernel_arg_type.<kernel>.<types>," and the like.
CompileResult compileOpenCLC(std::string_view source, std::string_view options,
                             const std::vector<OpenCLHeader>& headers = {},
                             CompileOutput output = CompileOutput::Spirv);

// clLinkProgram of Tessera IR objects (CompileOutput::TesseraIR): `modules` linked into one Tessera
// IR module by LLVM's linker in a compiler process (ir_link.h), in `ir`. `createLibrary` lets
// imports stay unresolved; `definedElsewhere` are names units linked beside them define (a second
// definition is an error). ok == false with the reasons in `log` otherwise.
CompileResult linkTesseraIR(const std::vector<std::string>& modules, bool createLibrary,
                            const std::vector<std::string>& definedElsewhere = {});

// Ends the idle compiler processes (clUnloadPlatformCompiler); compiles under way are not
// affected, and the next compile starts a process again.
void unloadCompiler();

}  // namespace tessera::spirv
