// Platform entry points, the extension-function lookup and the host timer.
#include <cstring>

#include "cl_shim/api.h"
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
  static const Entry table[] = {
      {"clIcdGetPlatformIDsKHR", reinterpret_cast<void*>(&::clIcdGetPlatformIDsKHR)},
      // ocl-icd asks for this one by name before it trusts a platform's dispatch table.
      {"clGetPlatformInfo", reinterpret_cast<void*>(&api::clGetPlatformInfo)},
      // cl_khr_il_program's clCreateProgramWithILKHR: clCreateProgramWithIL's parameters and
      // behaviour under the extension's name.
      {"clCreateProgramWithILKHR", reinterpret_cast<void*>(&api::clCreateProgramWithIL)},
      {"clCreateSubDevicesEXT", reinterpret_cast<void*>(&api::clCreateSubDevicesEXT)},
      {"clRetainDeviceEXT", reinterpret_cast<void*>(&api::clRetainDeviceEXT)},
      {"clReleaseDeviceEXT", reinterpret_cast<void*>(&api::clReleaseDeviceEXT)},
      // cl_intel_subgroups (and cl_khr_subgroups): clGetKernelSubGroupInfoKHR, "copied unchanged
      // from the Khronos sub-groups extension" (kernel_subgroups.cpp).
      {"clGetKernelSubGroupInfoKHR", reinterpret_cast<void*>(&api::clGetKernelSubGroupInfoKHR)},
      // cl_qcom_recordable_queues (cl_shim/api_recording.cpp).
      {"clNewRecordingQCOM", reinterpret_cast<void*>(&api::clNewRecordingQCOM)},
      {"clEndRecordingQCOM", reinterpret_cast<void*>(&api::clEndRecordingQCOM)},
      {"clReleaseRecordingQCOM", reinterpret_cast<void*>(&api::clReleaseRecordingQCOM)},
      {"clRetainRecordingQCOM", reinterpret_cast<void*>(&api::clRetainRecordingQCOM)},
      {"clEnqueueRecordingQCOM", reinterpret_cast<void*>(&api::clEnqueueRecordingQCOM)},
      {"clEnqueueRecordingSVMQCOM", reinterpret_cast<void*>(&api::clEnqueueRecordingSVMQCOM)},
      // cl_khr_command_buffer (cl_shim/api_command_buffer.cpp).
      {"clCreateCommandBufferKHR", reinterpret_cast<void*>(&api::clCreateCommandBufferKHR)},
      {"clFinalizeCommandBufferKHR", reinterpret_cast<void*>(&api::clFinalizeCommandBufferKHR)},
      {"clRetainCommandBufferKHR", reinterpret_cast<void*>(&api::clRetainCommandBufferKHR)},
      {"clReleaseCommandBufferKHR", reinterpret_cast<void*>(&api::clReleaseCommandBufferKHR)},
      {"clEnqueueCommandBufferKHR", reinterpret_cast<void*>(&api::clEnqueueCommandBufferKHR)},
      {"clCommandBarrierWithWaitListKHR", reinterpret_cast<void*>(&api::clCommandBarrierWithWaitListKHR)},
      {"clCommandCopyBufferKHR", reinterpret_cast<void*>(&api::clCommandCopyBufferKHR)},
      {"clCommandCopyBufferRectKHR", reinterpret_cast<void*>(&api::clCommandCopyBufferRectKHR)},
      {"clCommandCopyBufferToImageKHR", reinterpret_cast<void*>(&api::clCommandCopyBufferToImageKHR)},
      {"clCommandCopyImageKHR", reinterpret_cast<void*>(&api::clCommandCopyImageKHR)},
      {"clCommandCopyImageToBufferKHR", reinterpret_cast<void*>(&api::clCommandCopyImageToBufferKHR)},
      {"clCommandFillBufferKHR", reinterpret_cast<void*>(&api::clCommandFillBufferKHR)},
      {"clCommandFillImageKHR", reinterpret_cast<void*>(&api::clCommandFillImageKHR)},
      {"clCommandNDRangeKernelKHR", reinterpret_cast<void*>(&api::clCommandNDRangeKernelKHR)},
      {"clGetCommandBufferInfoKHR", reinterpret_cast<void*>(&api::clGetCommandBufferInfoKHR)},
      // cl_khr_command_buffer_mutable_dispatch.
      {"clUpdateMutableCommandsKHR", reinterpret_cast<void*>(&api::clUpdateMutableCommandsKHR)},
      {"clGetMutableCommandInfoKHR", reinterpret_cast<void*>(&api::clGetMutableCommandInfoKHR)},
  };
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
