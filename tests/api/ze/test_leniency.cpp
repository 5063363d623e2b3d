// The reference driver's leniency where the headers leave room (level_zero/api_support.h,
// isStructType; docs/api-coverage.md, "Leniency"): a descriptor or property structure given as a
// parameter with a stype that names no structure type (0, or an uninitialized structure's bytes) is
// taken as the type the parameter names, as Intel's driver takes it and intel/compute-benchmarks
// and AdaptiveCpp rely on; another structure's stype is still INVALID_ARGUMENT.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>

#include "kernel_test_support.h"
#include "ze_test_support.h"

using namespace tessera::test;

namespace {
constexpr auto kUnset = ze_structure_type_t(0);
constexpr auto kUninitialized = ze_structure_type_t(0x3f800000);  // seen from AdaptiveCpp
constexpr auto kWrong = ZE_STRUCTURE_TYPE_FENCE_DESC;  // a real type, of another structure
}  // namespace

TEST_CASE("Given descriptors and property structures whose stype names no type, then each call takes them "
          "as the type it names; another structure's stype is still refused",
          "[leniency][stype]") {
  KernelFixture fx;
  for (ze_structure_type_t stype : {kUnset, kUninitialized, kWrong}) {
    INFO("stype " << stype);
    const ze_result_t expected =
        stype == kWrong ? ZE_RESULT_ERROR_INVALID_ARGUMENT : ZE_RESULT_SUCCESS;

    ze_driver_properties_t driverProps{stype};
    CHECK(zeDriverGetProperties(fx.driver, &driverProps) == expected);
    ze_device_properties_t deviceProps{stype};
    CHECK(zeDeviceGetProperties(fx.device, &deviceProps) == expected);
    if (expected == ZE_RESULT_SUCCESS) CHECK(deviceProps.type == ZE_DEVICE_TYPE_CPU);
    ze_device_module_properties_t moduleProps{stype};
    CHECK(zeDeviceGetModuleProperties(fx.device, &moduleProps) == expected);

    ze_context_desc_t contextDesc{stype};
    ze_context_handle_t context = nullptr;
    CHECK(zeContextCreate(fx.driver, &contextDesc, &context) == expected);
    if (context) zeContextDestroy(context);

    ze_command_list_desc_t listDesc{stype};
    ze_command_list_handle_t list = nullptr;
    CHECK(zeCommandListCreate(fx.context, fx.device, &listDesc, &list) == expected);
    if (list) zeCommandListDestroy(list);
    ze_command_queue_desc_t queueDesc{stype};
    ze_command_queue_handle_t queue = nullptr;
    CHECK(zeCommandQueueCreate(fx.context, fx.device, &queueDesc, &queue) == expected);
    if (queue) zeCommandQueueDestroy(queue);

    ze_event_pool_desc_t poolDesc{stype, nullptr, 0, 1};
    ze_event_pool_handle_t pool = nullptr;
    CHECK(zeEventPoolCreate(fx.context, &poolDesc, 0, nullptr, &pool) == expected);
    if (pool) {
      ze_event_desc_t eventDesc{stype, nullptr, 0};
      ze_event_handle_t event = nullptr;
      CHECK(zeEventCreate(pool, &eventDesc, &event) == expected);
      if (event) zeEventDestroy(event);
      zeEventPoolDestroy(pool);
    }

    ze_host_mem_alloc_desc_t hostDesc{stype};
    void* memory = nullptr;
    CHECK(zeMemAllocHost(fx.context, &hostDesc, 64, 64, &memory) == expected);
    if (memory) {
      ze_memory_allocation_properties_t allocProps{stype};
      CHECK(zeMemGetAllocProperties(fx.context, memory, &allocProps, nullptr) == expected);
      if (expected == ZE_RESULT_SUCCESS) CHECK(allocProps.type == ZE_MEMORY_TYPE_HOST);
      zeMemFree(fx.context, memory);
    }

    ze_module_handle_t module = fx.module("vector_add");
    ze_kernel_desc_t kernelDesc{stype, nullptr, 0, "vector_add"};
    ze_kernel_handle_t kernel = nullptr;
    CHECK(zeKernelCreate(module, &kernelDesc, &kernel) == expected);
    if (kernel) {
      ze_kernel_properties_t kernelProps{stype};
      CHECK(zeKernelGetProperties(kernel, &kernelProps) == expected);
      if (expected == ZE_RESULT_SUCCESS) CHECK(kernelProps.numKernelArgs == 3);
      zeKernelDestroy(kernel);
    }
  }
}
