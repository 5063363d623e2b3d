// End to end: OpenCL C compiled in-process by spirv/opencl_c (what the OpenCL layer will do for
// clBuildProgram), linked by spirv/link, then loaded through zeModuleCreate and run.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "kernel_test_support.h"
#include "spirv/link.h"
#include "spirv/opencl_c.h"
#include "tessera/ze_tessera.h"
#include "ze_test_support.h"

using namespace tessera::test;

namespace {

ze_module_handle_t createModule(KernelFixture& fx, const std::vector<uint32_t>& spirv) {
  return createSpirvModule(fx.context, fx.device, spirv.data(), spirv.size() * sizeof(uint32_t));
}

}  // namespace

TEST_CASE(
    "Given a vector add compiled in-process from OpenCL C, when loaded and run, then it "
    "adds",
    "[module][opencl_c]") {
  tessera::spirv::CompileResult compiled = tessera::spirv::compileOpenCLC(
      "__kernel void vector_add(__global const float* a, __global const float* b,\n"
      "                         __global float* c) {\n"
      "  size_t i = get_global_id(0);\n"
      "  c[i] = a[i] + SCALE * b[i];\n"
      "}\n",
      "-D SCALE=2.0f -cl-mad-enable");
  INFO(compiled.log);
  REQUIRE(compiled.ok);

  KernelFixture fx;
  ze_module_handle_t module = createModule(fx, compiled.spirv);
  ze_kernel_handle_t kernel = fx.kernel(module, "vector_add");
  const uint32_t n = 1024;
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (uint32_t i = 0; i < n; ++i) a[i] = float(i), b[i] = float(n - i);
  setGroupSize(kernel, 64);
  setArgs(kernel, a.data(), b.data(), c.data());
  fx.runOnce([&](ze_command_list_handle_t l) { fx.launch(l, kernel, {n / 64, 1, 1}); });
  for (uint32_t i = 0; i < n; ++i) REQUIRE(c[i] == float(i) + 2.0f * float(n - i));
  fx.dropKernel(kernel);
  zeKernelDestroy(kernel);
  fx.dropModule(module);
  zeModuleDestroy(module);
}

TEST_CASE(
    "Given two units compiled separately and linked, when loaded and run, then the kernel "
    "calls the other unit's function",
    "[module][opencl_c]") {
  auto compile = [](const char* source) {
    tessera::spirv::CompileResult r = tessera::spirv::compileOpenCLC(source, "-cl-std=CL2.0");
    INFO(r.log);
    REQUIRE(r.ok);
    return r.spirv;
  };
  std::vector<uint32_t> user = compile(
      "int scale(int x);\n"
      "__kernel void user(__global int* d) { size_t i = get_global_id(0); d[i] = scale(d[i]); }\n");
  std::vector<uint32_t> library = compile("int scale(int x) { return 3 * x + 1; }\n");
  tessera::spirv::CompileResult linked = tessera::spirv::linkSpirv({user, library}, false);
  INFO(linked.log);
  REQUIRE(linked.ok);

  KernelFixture fx;
  ze_module_handle_t module = createModule(fx, linked.spirv);
  ze_kernel_handle_t kernel = fx.kernel(module, "user");
  std::vector<int> data(256);
  for (int i = 0; i < 256; ++i) data[i] = i;
  setGroupSize(kernel, 32);
  setArgs(kernel, data.data());
  fx.runOnce([&](ze_command_list_handle_t l) { fx.launch(l, kernel, {8, 1, 1}); });
  for (int i = 0; i < 256; ++i) REQUIRE(data[i] == 3 * i + 1);
}

TEST_CASE(
    "Given OpenCL C source in Intel's module format (OCLC), when the module is created, then it "
    "is compiled with pBuildFlags as build options and runs; a compile error is a build failure "
    "with clang's message in the log",
    "[module][opencl_c][oclc][novalidation]") {
  // [novalidation]: the validation layer of Debian's loader refuses formats past NATIVE.
  // Not nul-terminated: inputSize bytes are the source (intel/compute-benchmarks passes a file's
  // bytes as read).
  const std::string source =
      "__kernel void scaled_add(__global const float* a, __global const float* b,\n"
      "                         __global float* c) {\n"
      "  size_t i = get_global_id(0);\n"
      "  c[i] = a[i] + SCALE * b[i];\n"
      "}\n";
  KernelFixture fx;
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC};
  desc.format = TESSERA_ZE_MODULE_FORMAT_OCLC;
  desc.inputSize = source.size();
  desc.pInputModule = reinterpret_cast<const uint8_t*>(source.data());
  desc.pBuildFlags = "-D SCALE=3.0f -cl-mad-enable";
  ze_module_handle_t module = nullptr;
  ze_module_build_log_handle_t log = nullptr;
  REQUIRE(zeModuleCreate(fx.context, fx.device, &desc, &module, &log) == ZE_RESULT_SUCCESS);
  zeModuleBuildLogDestroy(log);
  ze_kernel_handle_t kernel = fx.kernel(module, "scaled_add");
  const uint32_t n = 256;
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (uint32_t i = 0; i < n; ++i) a[i] = float(i), b[i] = 1.0f;
  setGroupSize(kernel, 64);
  setArgs(kernel, a.data(), b.data(), c.data());
  fx.runOnce([&](ze_command_list_handle_t l) { fx.launch(l, kernel, {n / 64, 1, 1}); });
  for (uint32_t i = 0; i < n; ++i) REQUIRE(c[i] == float(i) + 3.0f);
  fx.dropKernel(kernel);
  zeKernelDestroy(kernel);
  fx.dropModule(module);
  zeModuleDestroy(module);

  // Without SCALE defined the source does not compile.
  desc.pBuildFlags = nullptr;
  module = nullptr;
  REQUIRE(zeModuleCreate(fx.context, fx.device, &desc, &module, &log) ==
          ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  CHECK(module == nullptr);
  size_t size = 0;
  REQUIRE(zeModuleBuildLogGetString(log, &size, nullptr) == ZE_RESULT_SUCCESS);
  std::string text(size, '\0');
  REQUIRE(zeModuleBuildLogGetString(log, &size, text.data()) == ZE_RESULT_SUCCESS);
  CHECK(text.find("SCALE") != std::string::npos);
  zeModuleBuildLogDestroy(log);

  // Other values past NATIVE are still not formats.
  desc.format = ze_module_format_t(4);
  CHECK(zeModuleCreate(fx.context, fx.device, &desc, &module, nullptr) ==
        ZE_RESULT_ERROR_INVALID_ENUMERATION);
}
