// One valid object of each kind for the generated negative-argument tests: every argument of a
// generated call is valid except the one its case makes wrong, so the code checked is that case's.
#pragma once

#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "kernel_test_support.h"

struct NegativeFixture {
  ze_driver_handle_t driver = nullptr;
  ze_device_handle_t device = nullptr;
  ze_context_handle_t context = nullptr;
  ze_command_queue_handle_t queue = nullptr;
  ze_command_list_handle_t list = nullptr;
  ze_fence_handle_t fence = nullptr;
  ze_event_pool_handle_t eventPool = nullptr;
  ze_event_handle_t event = nullptr;
  ze_module_handle_t module = nullptr;
  ze_module_build_log_handle_t buildLog = nullptr;
  ze_kernel_handle_t kernel = nullptr;
  ze_physical_mem_handle_t physicalMem = nullptr;
  ze_image_handle_t image = nullptr;  // 2D, 8 x 8 RGBA8: a whole-image copy fits in scratch()
  ze_sampler_handle_t sampler = nullptr;

  // Zeroed memory for any pointer argument (outputs, inputs, arrays of handles), 64 KiB, aligned.
  void* scratch() {
    std::memset(scratch_.data(), 0, scratch_.size() * sizeof(uint64_t));
    return scratch_.data();
  }

  // Made once per process; the objects live until exit (the cases never destroy them).
  static NegativeFixture& get() {
    static NegativeFixture* fx = new NegativeFixture;
    return *fx;
  }

 private:
  NegativeFixture() : scratch_(8192, 0) {
    REQUIRE(zeInit(0) == ZE_RESULT_SUCCESS);
    uint32_t n = 1;
    REQUIRE(zeDriverGet(&n, &driver) == ZE_RESULT_SUCCESS);
    n = 1;
    REQUIRE(zeDeviceGet(driver, &n, &device) == ZE_RESULT_SUCCESS);
    ze_context_desc_t cd{ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    REQUIRE(zeContextCreate(driver, &cd, &context) == ZE_RESULT_SUCCESS);
    ze_command_queue_desc_t qd{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    REQUIRE(zeCommandQueueCreate(context, device, &qd, &queue) == ZE_RESULT_SUCCESS);
    ze_command_list_desc_t ld{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
    REQUIRE(zeCommandListCreate(context, device, &ld, &list) == ZE_RESULT_SUCCESS);
    ze_fence_desc_t fd{ZE_STRUCTURE_TYPE_FENCE_DESC};
    REQUIRE(zeFenceCreate(queue, &fd, &fence) == ZE_RESULT_SUCCESS);
    ze_event_pool_desc_t pd{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                            ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 4};
    REQUIRE(zeEventPoolCreate(context, &pd, 1, &device, &eventPool) == ZE_RESULT_SUCCESS);
    ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 0, 0};
    REQUIRE(zeEventCreate(eventPool, &ed, &event) == ZE_RESULT_SUCCESS);
    auto spv = tessera::test::readCorpusKernel("vector_add");
    ze_module_desc_t md{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV,
                        spv.size(), spv.data(), nullptr, nullptr};
    REQUIRE(zeModuleCreate(context, device, &md, &module, &buildLog) == ZE_RESULT_SUCCESS);
    ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "vector_add"};
    REQUIRE(zeKernelCreate(module, &kd, &kernel) == ZE_RESULT_SUCCESS);
    size_t page = 0;
    REQUIRE(zeVirtualMemQueryPageSize(context, device, 1, &page) == ZE_RESULT_SUCCESS);
    ze_physical_mem_desc_t pmd{ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, nullptr, 0, page};
    REQUIRE(zePhysicalMemCreate(context, device, &pmd, &physicalMem) == ZE_RESULT_SUCCESS);
    ze_image_desc_t imd{ZE_STRUCTURE_TYPE_IMAGE_DESC, nullptr, 0, ZE_IMAGE_TYPE_2D,
                        {ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM,
                         ZE_IMAGE_FORMAT_SWIZZLE_R, ZE_IMAGE_FORMAT_SWIZZLE_G,
                         ZE_IMAGE_FORMAT_SWIZZLE_B, ZE_IMAGE_FORMAT_SWIZZLE_A},
                        8, 8, 1, 1, 0};
    REQUIRE(zeImageCreate(context, device, &imd, &image) == ZE_RESULT_SUCCESS);
    ze_sampler_desc_t sd{ZE_STRUCTURE_TYPE_SAMPLER_DESC, nullptr, ZE_SAMPLER_ADDRESS_MODE_CLAMP,
                         ZE_SAMPLER_FILTER_MODE_NEAREST, 0};
    REQUIRE(zeSamplerCreate(context, device, &sd, &sampler) == ZE_RESULT_SUCCESS);
  }

  std::vector<uint64_t> scratch_;
};
