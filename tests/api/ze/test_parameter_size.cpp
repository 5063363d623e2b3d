// ze_device_module_properties_t::maxArgumentsSize is enforced (issue 28, item 6): a kernel whose
// arguments take that many bytes builds and runs, one byte more fails zeModuleCreate with
// MODULE_BUILD_FAILURE and a log line naming the kernel (core/module/module.cpp).
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "kernel_test_support.h"
#include "spirv/opencl_c.h"

using namespace tessera::test;

namespace {

// A kernel taking a struct of `bytes` bytes by value and a pointer (8 bytes).
std::vector<uint32_t> blockKernel(uint32_t bytes) {
  tessera::spirv::CompileResult compiled = tessera::spirv::compileOpenCLC(
      "typedef struct { char bytes[N]; } Block;\n"
      "__kernel void params(Block b, __global char* out) {\n"
      "  size_t i = get_global_id(0);\n"
      "  out[i] = b.bytes[i * (N / 64)];\n"
      "}\n",
      ("-D N=" + std::to_string(bytes)).c_str());
  INFO(compiled.log);
  REQUIRE(compiled.ok);
  return compiled.spirv;
}

ze_result_t create(KernelFixture& fx, const std::vector<uint32_t>& spirv, ze_module_handle_t& m,
                   std::string& log) {
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC,
                        nullptr,
                        ZE_MODULE_FORMAT_IL_SPIRV,
                        spirv.size() * sizeof(uint32_t),
                        reinterpret_cast<const uint8_t*>(spirv.data()),
                        "",
                        nullptr};
  ze_module_build_log_handle_t handle = nullptr;
  ze_result_t r = zeModuleCreate(fx.context, fx.device, &desc, &m, &handle);
  size_t n = 0;
  REQUIRE(zeModuleBuildLogGetString(handle, &n, nullptr) == ZE_RESULT_SUCCESS);
  log.assign(n, '\0');
  REQUIRE(zeModuleBuildLogGetString(handle, &n, log.data()) == ZE_RESULT_SUCCESS);
  zeModuleBuildLogDestroy(handle);
  return r;
}

}  // namespace

TEST_CASE(
    "Given kernels whose arguments take maxArgumentsSize bytes and one more, then the first "
    "builds and runs and the second fails with MODULE_BUILD_FAILURE naming it",
    "[module][arguments]") {
  KernelFixture fx;
  ze_device_module_properties_t props{ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES};
  REQUIRE(zeDeviceGetModuleProperties(fx.device, &props) == ZE_RESULT_SUCCESS);
  const uint32_t max = props.maxArgumentsSize;
  REQUIRE(max >= 1024);
  {
    ze_module_handle_t m = nullptr;
    std::string log;
    REQUIRE(create(fx, blockKernel(max - 8), m, log) == ZE_RESULT_SUCCESS);
    ze_kernel_handle_t k = fx.kernel(m, "params");
    std::vector<char> block(max - 8);
    for (size_t i = 0; i < block.size(); ++i) block[i] = char(i * 7 + 1);
    std::vector<char> out(64, 0);
    char* p = out.data();
    REQUIRE(zeKernelSetArgumentValue(k, 0, block.size(), block.data()) == ZE_RESULT_SUCCESS);
    REQUIRE(zeKernelSetArgumentValue(k, 1, sizeof p, &p) == ZE_RESULT_SUCCESS);
    setGroupSize(k, 64);
    fx.runOnce([&](ze_command_list_handle_t l) { KernelFixture::launch(l, k, {1, 1, 1}); });
    const size_t step = (max - 8) / 64;
    for (size_t i = 0; i < 64; ++i) CHECK(out[i] == block[i * step]);
    fx.dropKernel(k);
    zeKernelDestroy(k);
    zeModuleDestroy(m);
  }
  ze_module_handle_t m = nullptr;
  std::string log;
  CHECK(create(fx, blockKernel(max - 7), m, log) == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  CHECK(m == nullptr);
  INFO("log: " << log);
  CHECK(log.find("kernel params takes " + std::to_string(max + 1) + " bytes of arguments") !=
        std::string::npos);
}
