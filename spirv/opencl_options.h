// OpenCL build options (OpenCL 3.0 section 5.8.6 "Compiler Options", 5.8.7 "Linker Options") read
// into what the in-process compiler (opencl_c.h) and linker (link.h) need. No clang here: this file
// only decides which options are valid and what each becomes, so it is cheap to test.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tessera::spirv {

// Splits an options string into words the way a shell would for this purpose: blanks separate
// words, single and double quotes group (and are removed), a backslash escapes the next character
// (outside single quotes). Sets `error` and returns {} on an unterminated quote or a trailing
// backslash.
std::vector<std::string> tokenizeOptions(std::string_view options, std::string& error);

// The OpenCL C version a compile targets (-cl-std=), as 100 * major + 10 * minor.
enum class OpenCLVersion { CL10 = 100, CL11 = 110, CL12 = 120, CL20 = 200, CL30 = 300 };

struct CompileOptions {
  bool ok = false;
  std::string error;  // when !ok: the offending option, for the build log

  OpenCLVersion version = OpenCLVersion::CL12;  // an OpenCL 1.2 device's default
  // Arguments for clang's cc1 that come from the options (macros, include dirs, warnings, math,
  // debug info), in order. Include directories are made absolute here.
  std::vector<std::string> clangArgs;
  // The folders on disk the program names for its headers, from the same options: the -I folders
  // and the absolute, existing folders given as a macro's value (hashcat's
  // `-D INCLUDE_PATH=/usr/share/hashcat/OpenCL` with `#include M2S(INCLUDE_PATH/inc_vendor.h)`).
  // What the compiler may read from (include_filesystem.h) and what the front end's cache key
  // covers (clc/frontend_cache.h); a value of "/" names no folder of headers.
  std::vector<std::string> includeFolders;
  // Options that change no SPIR-V but that the runtime may want to know about.
  bool denormsAreZero = false;      // -cl-denorms-are-zero (SPIR-V has no way to say it)
  bool optDisable = false;          // -cl-opt-disable
  bool debugInfoRequested = false;  // -g: accepted, but no debug info is emitted (see the .cpp)
  // -cl-kernel-arg-info: the compiler always keeps argument info in the SPIR-V; the runtime
  // answers clGetKernelArgInfo only when it was asked for.
  bool kernelArgInfo = false;
  // -cl-uniform-work-group-size: "the global work-size be a multiple of the work-group size
  // specified to clEnqueueNDRangeKernel" (no non-uniform work-groups for the program's kernels).
  bool uniformWorkGroupSize = false;
  // What the runtime applies to the compiled SPIR-V (zeModuleCreate's pBuildFlags): every option
  // but the preprocessor's and the warnings', -cl-opt-disable as -ze-opt-disable (moduleFlagsOf).
  std::string moduleFlags;
};

// Accepts: -D name, -Dname, -D name=value, -I dir, -Idir, -w, -Werror, -cl-std=CL1.0|CL1.1|CL1.2|
// CL2.0|CL3.0, -cl-single-precision-constant, -cl-denorms-are-zero,
// -cl-fp32-correctly-rounded-divide-sqrt, -cl-opt-disable, -cl-mad-enable, -cl-no-signed-zeros,
// -cl-unsafe-math-optimizations, -cl-finite-math-only, -cl-fast-relaxed-math,
// -cl-uniform-work-group-size, -cl-no-subgroup-ifp, -cl-kernel-arg-info, -cl-strict-aliasing
// (deprecated, ignored), -g (accepted, no debug info: see parseCompileOptions). Anything else:
// ok == false.
CompileOptions parseCompileOptions(std::string_view options);

// zeModuleCreate's pBuildFlags for SPIR-V built with these OpenCL build options (a program from
// IL, a binary's recorded options): -D, -I (with their values), -w and -Werror mean nothing once
// OpenCL C has become SPIR-V and are dropped; -cl-opt-disable becomes -ze-opt-disable (the JIT's
// optimization level); every other word is kept, so the module build refuses unknown ones with a
// log. Options that do not tokenize (an unterminated quote) give no flags.
std::string moduleFlagsOf(std::string_view options);

struct LinkOptions {
  bool ok = false;
  std::string error;
  bool createLibrary = false;      // -create-library
  bool enableLinkOptions = false;  // -enable-link-options (only with -create-library)
  // The math options clLinkProgram accepts; they change no SPIR-V, the runtime applies them.
  std::vector<std::string> mathOptions;
};

// Accepts -create-library, -enable-link-options, -cl-denorms-are-zero, -cl-no-signed-zeros,
// -cl-unsafe-math-optimizations, -cl-finite-math-only, -cl-fast-relaxed-math, -cl-no-subgroup-ifp.
LinkOptions parseLinkOptions(std::string_view options);

}  // namespace tessera::spirv
