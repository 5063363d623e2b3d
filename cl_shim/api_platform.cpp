// Platform entry points, the extension-function lookup and the host timer.
#include <cstring>

#include "cl_shim/api.h"
#include "cl_shim/api_log.h"
#include "cl_shim/api_support.h"
#include "cl_shim/command_buffer.h"
#include "cl_shim/device.h"
#include "cl_shim/event.h"
#include "cl_shim/extension_functions.h"
#include "cl_shim/platform.h"
#include "cl_shim/recording.h"
#include "spirv/opencl_c.h"

namespace tessera::cl {

void* extensionFunction(const char* name) {
  if (!name) return nullptr;
  struct Entry {
    const char* name;
    void* fn;
  };
  // The function the name gives, as the API log wants it (api_log.h).
#define TESSERA_CL_EXTENSION(name, fn) {name, reinterpret_cast<void*>(entryPoint<name, &api::fn>())}
  static const Entry table[] = {
      {"clIcdGetPlatformIDsKHR",
       reinterpret_cast<void*>(entryPoint<"clIcdGetPlatformIDsKHR", &::clIcdGetPlatformIDsKHR>())},
      // ocl-icd asks for this one by name before it trusts a platform's dispatch table.
      TESSERA_CL_EXTENSION("clGetPlatformInfo", clGetPlatformInfo),
      // cl_khr_il_program's clCreateProgramWithILKHR: clCreateProgramWithIL's parameters and
      // behaviour under the extension's name.
      TESSERA_CL_EXTENSION("clCreateProgramWithILKHR", clCreateProgramWithIL),
      TESSERA_CL_EXTENSION("clCreateSubDevicesEXT", clCreateSubDevicesEXT),
      TESSERA_CL_EXTENSION("clRetainDeviceEXT", clRetainDeviceEXT),
      TESSERA_CL_EXTENSION("clReleaseDeviceEXT", clReleaseDeviceEXT),
      // cl_intel_subgroups (and cl_khr_subgroups): clGetKernelSubGroupInfoKHR, "copied unchanged
      // from the Khronos sub-groups extension" (kernel_subgroups.cpp).
      TESSERA_CL_EXTENSION("clGetKernelSubGroupInfoKHR", clGetKernelSubGroupInfoKHR),
      // cl_qcom_recordable_queues (cl_shim/api_recording.cpp).
      TESSERA_CL_EXTENSION("clNewRecordingQCOM", clNewRecordingQCOM),
      TESSERA_CL_EXTENSION("clEndRecordingQCOM", clEndRecordingQCOM),
      TESSERA_CL_EXTENSION("clReleaseRecordingQCOM", clReleaseRecordingQCOM),
      TESSERA_CL_EXTENSION("clRetainRecordingQCOM", clRetainRecordingQCOM),
      TESSERA_CL_EXTENSION("clEnqueueRecordingQCOM", clEnqueueRecordingQCOM),
      TESSERA_CL_EXTENSION("clEnqueueRecordingSVMQCOM", clEnqueueRecordingSVMQCOM),
      // cl_khr_command_buffer (cl_shim/api_command_buffer.cpp).
      TESSERA_CL_EXTENSION("clCreateCommandBufferKHR", clCreateCommandBufferKHR),
      TESSERA_CL_EXTENSION("clFinalizeCommandBufferKHR", clFinalizeCommandBufferKHR),
      TESSERA_CL_EXTENSION("clRetainCommandBufferKHR", clRetainCommandBufferKHR),
      TESSERA_CL_EXTENSION("clReleaseCommandBufferKHR", clReleaseCommandBufferKHR),
      TESSERA_CL_EXTENSION("clEnqueueCommandBufferKHR", clEnqueueCommandBufferKHR),
      TESSERA_CL_EXTENSION("clCommandBarrierWithWaitListKHR", clCommandBarrierWithWaitListKHR),
      TESSERA_CL_EXTENSION("clCommandCopyBufferKHR", clCommandCopyBufferKHR),
      TESSERA_CL_EXTENSION("clCommandCopyBufferRectKHR", clCommandCopyBufferRectKHR),
      TESSERA_CL_EXTENSION("clCommandCopyBufferToImageKHR", clCommandCopyBufferToImageKHR),
      TESSERA_CL_EXTENSION("clCommandCopyImageKHR", clCommandCopyImageKHR),
      TESSERA_CL_EXTENSION("clCommandCopyImageToBufferKHR", clCommandCopyImageToBufferKHR),
      TESSERA_CL_EXTENSION("clCommandFillBufferKHR", clCommandFillBufferKHR),
      TESSERA_CL_EXTENSION("clCommandFillImageKHR", clCommandFillImageKHR),
      TESSERA_CL_EXTENSION("clCommandNDRangeKernelKHR", clCommandNDRangeKernelKHR),
      TESSERA_CL_EXTENSION("clGetCommandBufferInfoKHR", clGetCommandBufferInfoKHR),
      // cl_khr_command_buffer_mutable_dispatch.
      TESSERA_CL_EXTENSION("clUpdateMutableCommandsKHR", clUpdateMutableCommandsKHR),
      TESSERA_CL_EXTENSION("clGetMutableCommandInfoKHR", clGetMutableCommandInfoKHR),
  };
#undef TESSERA_CL_EXTENSION
  for (const Entry& e : table)
    if (std::strcmp(e.name, name) == 0) return e.fn;
  return nullptr;
}

namespace api {

cl_int clGetPlatformIDs(cl_uint num_entries, cl_platform_id* platforms, cl_uint* num_platforms) {
  // "CL_INVALID_VALUE if num_entries is equal to zero and platforms is not NULL or if both
  // num_platforms and platforms are NULL."
  if ((num_entries == 0 && platforms) || (!platforms && !num_platforms)) return CL_INVALID_VALUE;
  return guarded([&] {
    Platform* p = Platform::get();
    // cl_khr_icd: "CL_PLATFORM_NOT_FOUND_KHR if zero platforms are available".
    if (!p) {
      if (num_platforms) *num_platforms = 0;
      return CL_PLATFORM_NOT_FOUND_KHR;
    }
    if (num_platforms) *num_platforms = 1;
    if (platforms) platforms[0] = p->handle();
    return CL_SUCCESS;
  });
}

cl_int clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                         size_t param_value_size, void* param_value,
                         size_t* param_value_size_ret) {
  return guarded([&] {
    Platform* p = platform ? Platform::from(platform) : Platform::get();
    if (!p) return CL_INVALID_PLATFORM;
    return p->info(param_name, param_value_size, param_value, param_value_size_ret);
  });
}

void* clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char* func_name) {
  if (!Platform::from(platform)) return nullptr;
  return extensionFunction(func_name);
}

void* clGetExtensionFunctionAddress(const char* func_name) { return extensionFunction(func_name); }

// "A hint from the application ... that it may release the resources allocated by the OpenCL
// compiler": the idle compiler processes end; the next build starts one again.
cl_int clUnloadCompiler() {
  spirv::unloadCompiler();
  return CL_SUCCESS;
}

cl_int clUnloadPlatformCompiler(cl_platform_id platform) {
  if (!Platform::from(platform)) return CL_INVALID_PLATFORM;
  spirv::unloadCompiler();
  return CL_SUCCESS;
}

cl_int clGetHostTimer(cl_device_id device, cl_ulong* host_timestamp) {
  if (!Device::from(device)) return CL_INVALID_DEVICE;
  if (!host_timestamp) return CL_INVALID_VALUE;
  *host_timestamp = hostNowNs();
  return CL_SUCCESS;
}

cl_int clGetDeviceAndHostTimer(cl_device_id device, cl_ulong* device_timestamp,
                               cl_ulong* host_timestamp) {
  if (!Device::from(device)) return CL_INVALID_DEVICE;
  if (!device_timestamp || !host_timestamp) return CL_INVALID_VALUE;
  // One clock for both: the device timer is the host's CLOCK_MONOTONIC.
  *device_timestamp = *host_timestamp = hostNowNs();
  return CL_SUCCESS;
}

}  // namespace api
}  // namespace tessera::cl
