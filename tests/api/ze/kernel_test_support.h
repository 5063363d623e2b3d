// What the kernel-corpus tests share: the execution fixture plus modules and kernels built from
// the test kernel corpus (tests/kernels, compiled to SPIR-V at build time into
// TESSERA_TEST_KERNELS), destroyed kernels first, then modules, then the rest.
#pragma once

#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ze_exec_support.h"

namespace tessera::test {

inline std::vector<uint8_t> readCorpusKernel(const std::string& name) {
  std::ifstream in(std::string(TESSERA_TEST_KERNELS) + "/" + name + ".spv", std::ios::binary);
  REQUIRE(in.good());
  return {std::istreambuf_iterator<char>(in), {}};
}

// The text of a build log (empty for a null handle).
inline std::string buildLogText(ze_module_build_log_handle_t log) {
  if (!log) return {};
  size_t size = 0;
  REQUIRE(zeModuleBuildLogGetString(log, &size, nullptr) == ZE_RESULT_SUCCESS);
  std::string text(size, '\0');
  REQUIRE(zeModuleBuildLogGetString(log, &size, text.data()) == ZE_RESULT_SUCCESS);
  return std::string(text.c_str());
}

// A context, one compute queue and one regular command list on device 0.
// A module from SPIR-V in memory (owned by the caller); fails the test with the build log.
inline ze_module_handle_t createSpirvModule(ze_context_handle_t context, ze_device_handle_t device,
                                            const void* spirv, size_t bytes,
                                            const ze_module_constants_t* constants = nullptr) {
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC,
                        nullptr,
                        ZE_MODULE_FORMAT_IL_SPIRV,
                        bytes,
                        static_cast<const uint8_t*>(spirv),
                        "",
                        constants};
  ze_module_handle_t m = nullptr;
  ze_module_build_log_handle_t log = nullptr;
  ze_result_t r = zeModuleCreate(context, device, &desc, &m, &log);
  INFO("build log: " << buildLogText(log));
  zeModuleBuildLogDestroy(log);
  REQUIRE(r == ZE_RESULT_SUCCESS);
  return m;
}

struct QueueListFixture {
  ze_driver_handle_t driver = initDriver();
  ze_device_handle_t device = devices(driver).at(0);
  ze_context_handle_t context = nullptr;
  ze_command_queue_handle_t queue = nullptr;
  ze_command_list_handle_t list = nullptr;

  QueueListFixture() {
    ze_context_desc_t cd{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    REQUIRE(zeContextCreate(driver, &cd, &context) == ZE_RESULT_SUCCESS);
    ze_command_queue_desc_t qd{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    REQUIRE(zeCommandQueueCreate(context, device, &qd, &queue) == ZE_RESULT_SUCCESS);
    ze_command_list_desc_t ld{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, 0, 0};
    REQUIRE(zeCommandListCreate(context, device, &ld, &list) == ZE_RESULT_SUCCESS);
  }
  ~QueueListFixture() {
    zeCommandListDestroy(list);
    zeCommandQueueDestroy(queue);
    zeContextDestroy(context);
  }
};

class KernelFixture : public ExecFixture {
 public:
  explicit KernelFixture(ze_device_handle_t dev = nullptr) : ExecFixture(dev) {}
  ~KernelFixture() {
    for (auto k : kernels_) zeKernelDestroy(k);
    for (auto m : modules_) zeModuleDestroy(m);
  }

  // Builds corpus file `name` for `dev` (the fixture's device by default); fails with the log.
  ze_module_handle_t module(const std::string& name,
                            const ze_module_constants_t* constants = nullptr,
                            ze_device_handle_t dev = nullptr) {
    auto spv = readCorpusKernel(name);
    INFO("module " << name);
    ze_module_handle_t m =
        createSpirvModule(context, dev ? dev : device, spv.data(), spv.size(), constants);
    modules_.push_back(m);
    return m;
  }

  ze_kernel_handle_t kernel(ze_module_handle_t m, const char* name) {
    ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
    ze_kernel_handle_t k = nullptr;
    INFO("kernel " << name);
    REQUIRE(zeKernelCreate(m, &kd, &k) == ZE_RESULT_SUCCESS);
    kernels_.push_back(k);
    return k;
  }

  // The kernel `name` from corpus file `file`.
  ze_kernel_handle_t kernel(const std::string& file, const char* name) {
    return kernel(module(file), name);
  }

  void dropKernel(ze_kernel_handle_t k) { std::erase(kernels_, k); }
  void dropModule(ze_module_handle_t m) { std::erase(modules_, m); }

  // Appends a launch of `k` with `groups` to `l`.
  static void launch(ze_command_list_handle_t l, ze_kernel_handle_t k, ze_group_count_t groups,
                     ze_event_handle_t signal = nullptr) {
    REQUIRE(zeCommandListAppendLaunchKernel(l, k, &groups, signal, 0, nullptr) ==
            ZE_RESULT_SUCCESS);
  }

  // A queue and list made once per fixture, and a one-shot run of what `append` adds to them.
  template <typename Append>
  void runOnce(Append&& append) {
    if (!queue_) queue_ = queue(), list_ = list();
    append(list_);
    run(queue_, list_);
    REQUIRE(zeCommandListReset(list_) == ZE_RESULT_SUCCESS);
  }

 private:
  std::vector<ze_kernel_handle_t> kernels_;
  std::vector<ze_module_handle_t> modules_;
  ze_command_queue_handle_t queue_ = nullptr;
  ze_command_list_handle_t list_ = nullptr;
};

template <typename T>
void setArg(ze_kernel_handle_t k, uint32_t i, const T& v) {
  INFO("argument " << i);
  REQUIRE(zeKernelSetArgumentValue(k, i, sizeof v, &v) == ZE_RESULT_SUCCESS);
}

// Sets every argument in order.
template <typename... Args>
void setArgs(ze_kernel_handle_t k, const Args&... args) {
  uint32_t i = 0;
  (setArg(k, i++, args), ...);
}

inline void setLocalArg(ze_kernel_handle_t k, uint32_t i, size_t bytes) {
  REQUIRE(zeKernelSetArgumentValue(k, i, bytes, nullptr) == ZE_RESULT_SUCCESS);
}

inline void setGroupSize(ze_kernel_handle_t k, uint32_t x, uint32_t y = 1, uint32_t z = 1) {
  REQUIRE(zeKernelSetGroupSize(k, x, y, z) == ZE_RESULT_SUCCESS);
}

inline void setOffset(ze_kernel_handle_t k, uint32_t x, uint32_t y = 0, uint32_t z = 0) {
  REQUIRE(zeKernelSetGlobalOffsetExp(k, x, y, z) == ZE_RESULT_SUCCESS);
}

}  // namespace tessera::test
