// The OpenCL C compiler itself (opencl_c.cpp), run by the compiler process (clc/main.cpp). In an
// application's process use compileOpenCLC (opencl_c.h) instead: the translator may exit().
// Every call has its own compiler instance and LLVM context and runs on a thread of its own with
// an 8 MiB stack.
#pragma once

#include "spirv/opencl_c.h"

namespace tessera::spirv {

// `options` were parsed by the client (compileOpenCLC) and must be valid (ok).
CompileResult compileOpenCLCInProcess(std::string_view source, const CompileOptions& options,
                                      const std::vector<OpenCLHeader>& headers,
                                      IncludeRule includes,
                                      CompileOutput output = CompileOutput::Spirv);

}  // namespace tessera::spirv
