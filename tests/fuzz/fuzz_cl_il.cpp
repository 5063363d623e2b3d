// clCreateProgramWithIL with arbitrary bytes, clBuildProgram, then clCreateKernelsInProgram and
// each kernel's argument info.
#include <cstddef>
#include <cstdint>

#include "fuzz_cl_common.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  tessera::fuzz::cl();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto& c = tessera::fuzz::cl();
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithIL(c.context, data, size, &err);
  if (err != CL_SUCCESS) return 0;
  tessera::fuzz::buildAndRelease(p, "");
  return 0;
}
