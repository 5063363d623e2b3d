// clCreateProgramWithSource + clBuildProgram with arbitrary OpenCL C, then clCreateKernelsInProgram
// and each kernel's argument info. An input that starts with a line "//opts: ..." passes the rest
// of that line as build options.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_cl_common.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  tessera::fuzz::cl();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string source(reinterpret_cast<const char*>(data), size);
  std::string options;
  if (source.rfind("//opts:", 0) == 0) {
    size_t eol = source.find('\n');
    options = source.substr(7, eol == std::string::npos ? std::string::npos : eol - 7);
  }
  auto& c = tessera::fuzz::cl();
  const char* text = source.data();
  size_t length = source.size();
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(c.context, 1, &text, &length, &err);
  if (err != CL_SUCCESS) return 0;
  tessera::fuzz::buildAndRelease(p, options.c_str());
  return 0;
}
