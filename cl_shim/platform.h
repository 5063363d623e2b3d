// The one Tessera platform: the Level Zero driver behind it, its root devices, and the Tessera
// extension functions cl_shim uses. Made on the first clIcdGetPlatformIDsKHR / clGetPlatformIDs and
// kept for the life of the process.
#pragma once

#include <level_zero/ze_api.h>

#include <string>
#include <vector>

#include "cl_shim/object.h"
#include "config/settings.h"
#include "tessera/ze_tessera.h"

namespace tessera::cl {

class Device;

// Tessera's Level Zero extensions, reached through zeDriverGetExtensionFunctionAddress.
struct ZeExtensions {
  ze_pfnTesseraDeviceGetTopologyProperties_t topologyProperties = nullptr;
  ze_pfnTesseraDeviceGetPus_t pus = nullptr;
  ze_pfnTesseraDeviceGetNumaNodes_t numaNodes = nullptr;
  ze_pfnTesseraDeviceGetCaches_t caches = nullptr;
  ze_pfnTesseraDeviceCreatePartition_t createPartition = nullptr;
  ze_pfnTesseraModuleGetIL_t moduleIL = nullptr;
  // A module's kernels as the driver reflected them (ZE_tessera_module_il 1.1): a Tessera IR
  // unit's reflection.
  ze_pfnTesseraModuleGetKernelTable_t kernelTable = nullptr;
  // Kernels compiled when first needed (ZE_tessera_module_kernels): several at once, and the
  // reason one cannot be.
  ze_pfnTesseraModuleBuildKernels_t buildKernels = nullptr;
  // A module's native binary without compiling for it (ZE_tessera_module_kernels 1.1):
  // CL_PROGRAM_BINARIES. Without it: zeModuleGetNativeBinary.
  ze_pfnTesseraModuleGetNativeBinaryAsIs_t nativeBinaryAsIs = nullptr;
  ze_pfnTesseraKernelSetWorkDim_t kernelWorkDim = nullptr;  // without it: Level Zero's rule
  // The group size of a NULL local size (ZE_tessera_kernel_group_size).
  ze_pfnTesseraKernelSuggestGroupSize_t suggestGroupSize = nullptr;
  // A launch with its group size, offset and work dimension in one call (ZE_tessera_launch_shape).
  ze_pfnTesseraCommandListAppendLaunchKernelShaped_t appendLaunchShaped = nullptr;
  // CL_DEVICE_{PREFERRED,NATIVE}_VECTOR_WIDTH_* (ZE_extension_device_vector_sizes).
  ze_pfnDeviceGetVectorWidthPropertiesExt_t vectorWidths = nullptr;
};

class Platform : public Object<_cl_platform_id, 0x504c5431 /* "PLT1" */> {
 public:
  // Null when Level Zero has no Tessera driver (the ICD then reports no platform).
  static Platform* get();
  static Platform* from(cl_platform_id h) { return Object::from<Platform>(h); }

  ze_driver_handle_t driver() const { return driver_; }
  const ZeExtensions& ext() const { return ext_; }
  // The OpenCL library's variables (config/settings.def), read once as the platform is made.
  const config::OpenClSettings& settings() const { return settings_; }
  const std::vector<Device*>& rootDevices() const { return roots_; }

  cl_int info(cl_platform_info param, size_t size, void* value, size_t* sizeRet) const;
  static const std::string& extensions();
  static std::vector<cl_name_version> extensionsWithVersion();
  static const char* kIcdSuffix;

 private:
  Platform() = default;
  bool init();

  ze_driver_handle_t driver_ = nullptr;
  ZeExtensions ext_;
  config::OpenClSettings settings_;
  std::vector<Device*> roots_;
};

}  // namespace tessera::cl
