// The OpenCL C front end of clBuildProgram / clCompileProgram for programs made from source: the
// compiler process of spirv/clc (tessera-clc: clang as a library, then the translator's IR passes
// for Tessera IR, or its writer for SPIR-V), reached through spirv::compileOpenCLC.
#include <cstring>

#include "cl_shim/program.h"
#include "spirv/opencl_c.h"

namespace tessera::cl {

CompileResult compileSource(const std::string& source, const std::string& options,
                            const std::vector<std::pair<std::string, std::string>>& headers,
                            spirv::CompileOutput output) {
  std::vector<spirv::OpenCLHeader> inputs;
  for (const auto& [name, text] : headers) inputs.push_back({name, text});
  spirv::CompileResult c = spirv::compileOpenCLC(source, options, inputs, output);
  CompileResult r;
  r.log = std::move(c.log);
  if (c.invalidOptions) {
    // clBuildProgram: "CL_INVALID_BUILD_OPTIONS if the build options specified by options are
    // invalid"; clCompileProgram turns it into CL_INVALID_COMPILER_OPTIONS.
    r.error = CL_INVALID_BUILD_OPTIONS;
    return r;
  }
  if (!c.ok) {
    r.error = CL_COMPILE_PROGRAM_FAILURE;
    return r;
  }
  r.moduleFlags = std::move(c.options.moduleFlags);
  r.argInfo = c.options.kernelArgInfo;
  r.uniformGroups =
      c.options.version < spirv::OpenCLVersion::CL20 || c.options.uniformWorkGroupSize;
  if (output == spirv::CompileOutput::TesseraIR) {
    r.module.assign(c.ir.begin(), c.ir.end());
  } else {
    r.module.resize(c.spirv.size() * sizeof(uint32_t));
    std::memcpy(r.module.data(), c.spirv.data(), r.module.size());
  }
  return r;
}

}  // namespace tessera::cl
