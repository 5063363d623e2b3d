// Level Zero vector add, following the Core Programming Guide's sequence: discover the driver and a
// device, create a context, build a module from SPIR-V, create a kernel, set its group size and
// arguments, append the launch to a command list, execute it on a command queue and synchronize.
// Usage: ze_vector_add [elements]   (run through the loader: ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1)
#include <level_zero/ze_api.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <vector>

#define CHECK(call)                                                                  \
  do {                                                                               \
    ze_result_t r_ = (call);                                                         \
    if (r_ != ZE_RESULT_SUCCESS) {                                                   \
      std::fprintf(stderr, "%s failed: 0x%x\n", #call, static_cast<unsigned>(r_)); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

int main(int argc, char** argv) {
  const uint32_t n = argc > 1 ? static_cast<uint32_t>(std::atoi(argv[1])) : 1u << 20;

  // Discovery: the first driver and its first device.
  CHECK(zeInit(0));
  uint32_t count = 1;
  ze_driver_handle_t driver;
  CHECK(zeDriverGet(&count, &driver));
  count = 1;
  ze_device_handle_t device;
  CHECK(zeDeviceGet(driver, &count, &device));
  ze_device_properties_t props{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
  CHECK(zeDeviceGetProperties(device, &props));

  ze_context_desc_t contextDesc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ze_context_handle_t context;
  CHECK(zeContextCreate(driver, &contextDesc, &context));

  // Module and kernel from the SPIR-V compiled at build time.
  std::ifstream in(TESSERA_SAMPLE_SPV, std::ios::binary);
  std::vector<uint8_t> spirv{std::istreambuf_iterator<char>(in), {}};
  ze_module_desc_t moduleDesc{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV,
                              spirv.size(), spirv.data(), "", nullptr};
  ze_module_handle_t module;
  CHECK(zeModuleCreate(context, device, &moduleDesc, &module, nullptr));
  ze_kernel_desc_t kernelDesc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "vector_add"};
  ze_kernel_handle_t kernel;
  CHECK(zeKernelCreate(module, &kernelDesc, &kernel));

  // Shared allocations: written by the host, read and written by the kernel.
  ze_device_mem_alloc_desc_t deviceDesc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
  ze_host_mem_alloc_desc_t hostDesc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
  float* buffers[3];
  for (float*& b : buffers)
    CHECK(zeMemAllocShared(context, &deviceDesc, &hostDesc, n * sizeof(float), 64, device,
                           reinterpret_cast<void**>(&b)));
  for (uint32_t i = 0; i < n; ++i) buffers[0][i] = float(i), buffers[1][i] = 2.0f * float(i);

  uint32_t gx, gy, gz;
  CHECK(zeKernelSuggestGroupSize(kernel, n, 1, 1, &gx, &gy, &gz));
  CHECK(zeKernelSetGroupSize(kernel, gx, gy, gz));
  for (uint32_t i = 0; i < 3; ++i)
    CHECK(zeKernelSetArgumentValue(kernel, i, sizeof(float*), &buffers[i]));

  // A compute queue (ordinal 0) and a command list for it.
  ze_command_queue_desc_t queueDesc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0, 0,
                                    ZE_COMMAND_QUEUE_MODE_DEFAULT,
                                    ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
  ze_command_queue_handle_t queue;
  CHECK(zeCommandQueueCreate(context, device, &queueDesc, &queue));
  ze_command_list_desc_t listDesc{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, 0, 0};
  ze_command_list_handle_t list;
  CHECK(zeCommandListCreate(context, device, &listDesc, &list));
  ze_group_count_t groups{n / gx, 1, 1};
  CHECK(zeCommandListAppendLaunchKernel(list, kernel, &groups, nullptr, 0, nullptr));
  CHECK(zeCommandListClose(list));
  CHECK(zeCommandQueueExecuteCommandLists(queue, 1, &list, nullptr));
  CHECK(zeCommandQueueSynchronize(queue, UINT64_MAX));

  uint32_t wrong = 0;
  for (uint32_t i = 0; i < n; ++i) wrong += buffers[2][i] != 3.0f * float(i);
  std::printf("vector_add of %u floats on %s: %s (group size %u, %u groups)\n", n, props.name,
              wrong ? "WRONG" : "correct", gx, groups.groupCountX);

  zeCommandListDestroy(list);
  zeCommandQueueDestroy(queue);
  for (float* b : buffers) zeMemFree(context, b);
  zeKernelDestroy(kernel);
  zeModuleDestroy(module);
  zeContextDestroy(context);
  return wrong ? 1 : 0;
}
