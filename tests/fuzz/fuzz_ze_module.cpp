// zeModuleCreate with arbitrary bytes as SPIR-V, then zeKernelCreate of each kernel it names, a
// look at each kernel's properties, and destruction. One driver and context for the whole run.
#include <level_zero/ze_api.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

ze_context_handle_t context = nullptr;
ze_device_handle_t device = nullptr;

void setUp() {
  if (zeInit(0) != ZE_RESULT_SUCCESS) std::abort();
  uint32_t n = 1;
  ze_driver_handle_t driver = nullptr;
  if (zeDriverGet(&n, &driver) != ZE_RESULT_SUCCESS || n == 0) std::abort();
  n = 1;
  if (zeDeviceGet(driver, &n, &device) != ZE_RESULT_SUCCESS || n == 0) std::abort();
  ze_context_desc_t cd{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  if (zeContextCreate(driver, &cd, &context) != ZE_RESULT_SUCCESS) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setUp();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ze_module_desc_t md{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV, size,
                      data, "", nullptr};
  ze_module_handle_t module = nullptr;
  ze_module_build_log_handle_t log = nullptr;
  ze_result_t r = zeModuleCreate(context, device, &md, &module, &log);
  if (log) {
    size_t bytes = 0;
    if (zeModuleBuildLogGetString(log, &bytes, nullptr) == ZE_RESULT_SUCCESS) {
      std::string text(bytes, '\0');
      zeModuleBuildLogGetString(log, &bytes, text.data());
    }
    zeModuleBuildLogDestroy(log);
  }
  if (r != ZE_RESULT_SUCCESS) return 0;
  uint32_t count = 0;
  if (zeModuleGetKernelNames(module, &count, nullptr) == ZE_RESULT_SUCCESS && count) {
    std::vector<const char*> names(count);
    if (zeModuleGetKernelNames(module, &count, names.data()) == ZE_RESULT_SUCCESS) {
      for (uint32_t i = 0; i < count; ++i) {
        ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, names[i]};
        ze_kernel_handle_t kernel = nullptr;
        if (zeKernelCreate(module, &kd, &kernel) != ZE_RESULT_SUCCESS) continue;
        ze_kernel_properties_t props{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
        zeKernelGetProperties(kernel, &props);
        uint32_t gx = 0, gy = 0, gz = 0;
        zeKernelSuggestGroupSize(kernel, 64, 1, 1, &gx, &gy, &gz);
        zeKernelDestroy(kernel);
      }
    }
  }
  zeModuleDestroy(module);
  return 0;
}
