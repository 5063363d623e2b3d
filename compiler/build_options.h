// zeModuleCreate's pBuildFlags: the options of the guide's "Module Build Options" table.
//   -ze-opt-disable            optimizations off (LLVM -O0)
//   -ze-opt-level=N / -ze-opt-level N   0 none, 1 minimal, 2 (default) more; higher is 2
//   -g                         accepted; kernels are compiled without debug information for now
//   -ze-opt-greater-than-4GB-buffer-required, -ze-opt-large-register-file,
//   -ze-opt-has-buffer-offset-arg   GPU-only: accepted and ignored
//   -cl-*                      OpenCL build options passed through an OpenCL layer: accepted and
//                              ignored (the SPIR-V already carries what they decided)
// Anything else fails the build with a log naming the option.
#pragma once

#include <string>

namespace tessera::compiler {

struct BuildOptions {
  unsigned optLevel = 2;
  bool debugInfo = false;
};

// False with `error` set for an option Tessera does not know.
bool parseBuildOptions(const char* flags, BuildOptions& out, std::string& error);

}  // namespace tessera::compiler
