// The OpenCL C front end of clBuildProgram / clCompileProgram for programs made from source. The
// in-process OpenCL C -> SPIR-V compiler (spirv/, compileOpenCLC(source, options, headers)) is not
// part of this branch yet: until it is, every call fails with a log saying so, and this function
// is the one place to wire it.
#include "cl_shim/program.h"

namespace tessera::cl {

CompileResult compileSource(const std::string& source, const std::string& options,
                            const std::vector<std::pair<std::string, std::string>>& headers) {
  (void)source, (void)options, (void)headers;
  CompileResult r;
  r.error = CL_COMPILER_NOT_AVAILABLE;
  r.log = "Tessera: the OpenCL C compiler is not available in this build; create the program "
          "from SPIR-V (clCreateProgramWithIL) or from a binary instead.";
  return r;
}

}  // namespace tessera::cl
