// CL_DEVICE_MAX_PARAMETER_SIZE is enforced (issue 28, item 6): "Max size in bytes of all arguments
// that can be passed to a kernel". A kernel whose arguments take that many bytes builds and runs;
// one byte more fails clBuildProgram with CL_BUILD_PROGRAM_FAILURE and a log line naming it.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "cl_program_support.h"

using namespace tessera::cltest;

namespace {

const char* kSource =
    "typedef struct { char bytes[N]; } Block;\n"
    "__kernel void params(Block b, __global char* out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = b.bytes[i * (N / 64)];\n"
    "}\n";

}  // namespace

TEST_CASE(
    "Given kernels whose arguments take CL_DEVICE_MAX_PARAMETER_SIZE bytes and one more, then "
    "the first builds and runs and the second fails the build with a log naming it",
    "[cl][program][arguments]") {
  ClFixture fx;
  const size_t max = deviceInfo<size_t>(fx.dev, CL_DEVICE_MAX_PARAMETER_SIZE);
  REQUIRE(max >= 1024);  // the spec's minimum for a device that is not CL_DEVICE_TYPE_CUSTOM
  {
    const std::string options = "-D N=" + std::to_string(max - 8);
    cl_program p = builtProgram(fx, kSource, options.c_str());
    cl_kernel k = makeKernel(p, "params");
    std::vector<char> block(max - 8);
    for (size_t i = 0; i < block.size(); ++i) block[i] = char(i * 7 + 1);
    std::vector<char> out(64, 0);
    REQUIRE(clSetKernelArg(k, 0, block.size(), block.data()) == CL_SUCCESS);
    REQUIRE(clSetKernelArgSVMPointer(k, 1, out.data()) == CL_SUCCESS);
    size_t global = 64;
    REQUIRE(clEnqueueNDRangeKernel(fx.queue, k, 1, nullptr, &global, nullptr, 0, nullptr,
                                   nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
    const size_t step = (max - 8) / 64;
    for (size_t i = 0; i < 64; ++i) CHECK(out[i] == block[i * step]);
    clReleaseKernel(k);
    clReleaseProgram(p);
  }
  const std::string options = "-D N=" + std::to_string(max - 7);
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(fx.ctx, 1, &kSource, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(clBuildProgram(p, 1, &fx.dev, options.c_str(), nullptr, nullptr) ==
        CL_BUILD_PROGRAM_FAILURE);
  const std::string log = buildLog(p, fx.dev);
  INFO("log: " << log);
  CHECK(log.find("kernel params takes " + std::to_string(max + 1) + " bytes of arguments") !=
        std::string::npos);
  clReleaseProgram(p);
}
