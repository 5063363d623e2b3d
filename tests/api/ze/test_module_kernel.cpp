// Modules, kernels and launches through the ze* API, on the test kernel corpus (tests/kernels,
// compiled to SPIR-V at build time): the guide's module and kernel sequence, results checked
// against host references, and the error cases the spec names.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <fstream>
#include <iterator>
#include <numeric>
#include <string>
#include <vector>

#include "kernel_test_support.h"
#include "ze_test_support.h"

namespace {

struct Fixture : tessera::test::QueueListFixture {
  ze_module_handle_t module(const std::string& name, const char* flags = "") {
    auto spv = tessera::test::readCorpusKernel(name);
    ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV,
                          spv.size(), spv.data(), flags, nullptr};
    ze_module_handle_t m = nullptr;
    ze_module_build_log_handle_t log = nullptr;
    ze_result_t r = zeModuleCreate(context, device, &desc, &m, &log);
    size_t size = 0;
    zeModuleBuildLogGetString(log, &size, nullptr);
    std::string text(size, '\0');
    zeModuleBuildLogGetString(log, &size, text.data());
    INFO("build log: " << text);
    REQUIRE(r == ZE_RESULT_SUCCESS);
    zeModuleBuildLogDestroy(log);
    return m;
  }
  ze_kernel_handle_t kernel(ze_module_handle_t m, const char* name) {
    ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
    ze_kernel_handle_t k = nullptr;
    REQUIRE(zeKernelCreate(m, &kd, &k) == ZE_RESULT_SUCCESS);
    return k;
  }
  void run() {
    REQUIRE(zeCommandListClose(list) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueExecuteCommandLists(queue, 1, &list, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueSynchronize(queue, UINT64_MAX) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListReset(list) == ZE_RESULT_SUCCESS);
  }
};

template <typename T>
void setArg(ze_kernel_handle_t k, uint32_t i, const T& v) {
  REQUIRE(zeKernelSetArgumentValue(k, i, sizeof v, &v) == ZE_RESULT_SUCCESS);
}

}  // namespace

TEST_CASE("Given the vector-add SPIR-V, when the guide's module, kernel and launch sequence runs, "
          "then c = a + b",
          "[module][kernel][launch]") {
  Fixture fx;
  ze_module_handle_t module = fx.module("vector_add");
  uint32_t count = 0;
  REQUIRE(zeModuleGetKernelNames(module, &count, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(count == 1);
  const char* name = nullptr;
  REQUIRE(zeModuleGetKernelNames(module, &count, &name) == ZE_RESULT_SUCCESS);
  CHECK(std::string(name) == "vector_add");
  ze_kernel_handle_t kernel = fx.kernel(module, "vector_add");

  const uint32_t n = 1000;  // not a multiple of the group size below: the last group is partial
  std::vector<float> a(n), b(n), c(n, -1.0f);
  std::iota(a.begin(), a.end(), 0.0f);
  for (uint32_t i = 0; i < n; ++i) b[i] = 2.0f * float(i);
  uint32_t gx = 0, gy = 0, gz = 0;
  REQUIRE(zeKernelSuggestGroupSize(kernel, n, 1, 1, &gx, &gy, &gz) == ZE_RESULT_SUCCESS);
  CHECK(n % gx == 0);
  REQUIRE(zeKernelSetGroupSize(kernel, gx, gy, gz) == ZE_RESULT_SUCCESS);
  float *pa = a.data(), *pb = b.data(), *pc = c.data();
  setArg(kernel, 0, pa);
  setArg(kernel, 1, pb);
  setArg(kernel, 2, pc);
  ze_group_count_t groups{n / gx, 1, 1};
  REQUIRE(zeCommandListAppendLaunchKernel(fx.list, kernel, &groups, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  fx.run();
  for (uint32_t i = 0; i < n; ++i) REQUIRE(c[i] == 3.0f * float(i));
  CHECK(zeKernelDestroy(kernel) == ZE_RESULT_SUCCESS);
  CHECK(zeModuleDestroy(module) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given a launch appended, when the kernel's arguments change afterwards, then the "
          "launch keeps the values it was appended with",
          "[kernel][launch]") {
  Fixture fx;
  ze_module_handle_t module = fx.module("saxpy");
  ze_kernel_handle_t kernel = fx.kernel(module, "saxpy");
  std::vector<float> x(64, 1.0f), y(64, 1.0f);
  REQUIRE(zeKernelSetGroupSize(kernel, 16, 1, 1) == ZE_RESULT_SUCCESS);
  float alpha = 2.0f;
  float *px = x.data(), *py = y.data();
  setArg(kernel, 0, alpha);
  setArg(kernel, 1, px);
  setArg(kernel, 2, py);
  ze_group_count_t groups{4, 1, 1};
  REQUIRE(zeCommandListAppendLaunchKernel(fx.list, kernel, &groups, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  alpha = 100.0f;
  setArg(kernel, 0, alpha);
  fx.run();
  for (float v : y) REQUIRE(v == 3.0f);
  zeKernelDestroy(kernel);
  zeModuleDestroy(module);
}

TEST_CASE("Given a reduction with __local memory and barriers in a loop, when it runs, then each "
          "group's sum is right",
          "[kernel][launch][barrier]") {
  Fixture fx;
  ze_module_handle_t module = fx.module("local_reduce");
  ze_kernel_handle_t kernel = fx.kernel(module, "local_reduce");
  const uint32_t groupSize = 64, groups = 10;
  std::vector<int> in(groupSize * groups), out(groups, 0);
  std::iota(in.begin(), in.end(), 1);
  REQUIRE(zeKernelSetGroupSize(kernel, groupSize, 1, 1) == ZE_RESULT_SUCCESS);
  int *pin = in.data(), *pout = out.data();
  setArg(kernel, 0, pin);
  setArg(kernel, 1, pout);
  // A local-memory argument: a null value and its size.
  REQUIRE(zeKernelSetArgumentValue(kernel, 2, groupSize * sizeof(int), nullptr) ==
          ZE_RESULT_SUCCESS);
  ze_group_count_t count{groups, 1, 1};
  REQUIRE(zeCommandListAppendLaunchKernel(fx.list, kernel, &count, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  fx.run();
  for (uint32_t g = 0; g < groups; ++g) {
    int expect = 0;
    for (uint32_t i = 0; i < groupSize; ++i) expect += in[g * groupSize + i];
    CHECK(out[g] == expect);
  }
  zeKernelDestroy(kernel);
  zeModuleDestroy(module);
}

TEST_CASE("Given an indirect launch, when an earlier command writes the group count, then the "
          "launch uses the count it finds when it runs",
          "[kernel][launch][indirect]") {
  Fixture fx;
  ze_module_handle_t module = fx.module("vector_add");
  ze_kernel_handle_t kernel = fx.kernel(module, "vector_add");
  std::vector<float> a(64, 1.0f), b(64, 2.0f), c(64, 0.0f);
  REQUIRE(zeKernelSetGroupSize(kernel, 8, 1, 1) == ZE_RESULT_SUCCESS);
  float *pa = a.data(), *pb = b.data(), *pc = c.data();
  setArg(kernel, 0, pa);
  setArg(kernel, 1, pb);
  setArg(kernel, 2, pc);
  ze_group_count_t stored{1, 1, 1}, wanted{4, 1, 1};
  REQUIRE(zeCommandListAppendMemoryCopy(fx.list, &stored, &wanted, sizeof wanted, nullptr, 0,
                                        nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendBarrier(fx.list, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendLaunchKernelIndirect(fx.list, kernel, &stored, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  fx.run();
  for (int i = 0; i < 32; ++i) REQUIRE(c[i] == 3.0f);
  for (int i = 32; i < 64; ++i) REQUIRE(c[i] == 0.0f);
  zeKernelDestroy(kernel);
  zeModuleDestroy(module);
}

TEST_CASE("Given bad modules and kernel calls, then the spec's errors come back and a build log "
          "says why",
          "[module][kernel][errors]") {
  Fixture fx;
  std::vector<uint8_t> junk(64, 0x42);
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV,
                        junk.size(), junk.data(), "", nullptr};
  ze_module_handle_t m = nullptr;
  ze_module_build_log_handle_t log = nullptr;
  CHECK(zeModuleCreate(fx.context, fx.device, &desc, &m, &log) ==
        ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  CHECK(m == nullptr);
  size_t size = 0;
  REQUIRE(zeModuleBuildLogGetString(log, &size, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(size > 1);
  CHECK(zeModuleBuildLogDestroy(log) == ZE_RESULT_SUCCESS);

  auto spv = tessera::test::readCorpusKernel("vector_add");
  desc.pInputModule = spv.data();
  desc.inputSize = spv.size();
  desc.pBuildFlags = "-no-such-option";
  CHECK(zeModuleCreate(fx.context, fx.device, &desc, &m, nullptr) ==
        ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  desc.pBuildFlags = "-ze-opt-level=1 -ze-opt-large-register-file -g";
  REQUIRE(zeModuleCreate(fx.context, fx.device, &desc, &m, nullptr) == ZE_RESULT_SUCCESS);

  ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "no_such_kernel"};
  ze_kernel_handle_t k = nullptr;
  CHECK(zeKernelCreate(m, &kd, &k) == ZE_RESULT_ERROR_INVALID_KERNEL_NAME);
  kd.pKernelName = "vector_add";
  REQUIRE(zeKernelCreate(m, &kd, &k) == ZE_RESULT_SUCCESS);
  float f = 0;
  CHECK(zeKernelSetArgumentValue(k, 3, sizeof(void*), &f) ==
        ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
  CHECK(zeKernelSetArgumentValue(k, 0, 4, &f) == ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
  CHECK(zeKernelSetGroupSize(k, 0, 1, 1) == ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
  CHECK(zeKernelSetGroupSize(k, 4096, 2, 1) == ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
  // Pointer arguments not set are null and the launch is appended (leniency: docs/api-coverage.md,
  // test_leniency.cpp); the list is never run.
  ze_group_count_t groups{1, 1, 1};
  CHECK(zeCommandListAppendLaunchKernel(fx.list, k, &groups, nullptr, 0, nullptr) ==
        ZE_RESULT_SUCCESS);
  CHECK(zeCommandListAppendLaunchKernel(fx.list, k, nullptr, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  ze_kernel_properties_t props{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
  REQUIRE(zeKernelGetProperties(k, &props) == ZE_RESULT_SUCCESS);
  CHECK(props.numKernelArgs == 3);
  size_t nameSize = 0;
  REQUIRE(zeKernelGetName(k, &nameSize, nullptr) == ZE_RESULT_SUCCESS);
  std::string name(nameSize, '\0');
  REQUIRE(zeKernelGetName(k, &nameSize, name.data()) == ZE_RESULT_SUCCESS);
  CHECK(std::string(name.c_str()) == "vector_add");
  CHECK(zeKernelDestroy(k) == ZE_RESULT_SUCCESS);
  CHECK(zeModuleDestroy(m) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given a kernel with a required work-group size, then other sizes are refused and its "
          "properties report it",
          "[kernel][errors]") {
  Fixture fx;
  ze_module_handle_t module = fx.module("reqd_size");
  ze_kernel_handle_t kernel = fx.kernel(module, "reqd_size");
  CHECK(zeKernelSetGroupSize(kernel, 4, 4, 2) == ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
  CHECK(zeKernelSetGroupSize(kernel, 8, 4, 2) == ZE_RESULT_SUCCESS);
  ze_kernel_properties_t props{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
  REQUIRE(zeKernelGetProperties(kernel, &props) == ZE_RESULT_SUCCESS);
  CHECK(props.requiredGroupSizeX == 8);
  CHECK(props.requiredGroupSizeY == 4);
  CHECK(props.requiredGroupSizeZ == 2);
  zeKernelDestroy(kernel);
  zeModuleDestroy(module);
}
