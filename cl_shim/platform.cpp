#include "cl_shim/platform.h"

#include <cstdio>
#include <cstring>
#include <mutex>

#include "cl_shim/api_support.h"
#include "cl_shim/device.h"
#include "cl_shim/image_format.h"
#include "cl_shim/partition_dump.h"
#include "cl_shim/subgroups.h"

namespace tessera::cl {

const char* Platform::kIcdSuffix = "TESSERA";

Platform* Platform::get() {
  static Platform* platform = [] {
    auto* p = new Platform;  // lives as long as the process: handles to it stay valid at exit
    std::vector<std::string> warnings;
    p->settings_ = config::OpenClSettings::fromEnvironment(warnings);
    for (const std::string& w : warnings) std::fprintf(stderr, "tessera: warning: %s\n", w.c_str());
    startPartitionDump(p->settings_.dumpPartitions);  // before the root devices are made
    if (!p->init()) {
      p->releaseApi();
      return static_cast<Platform*>(nullptr);
    }
    return p;
  }();
  return platform;
}

bool Platform::init() {
  if (zeInit(0) != ZE_RESULT_SUCCESS) return false;
  uint32_t count = 0;
  if (zeDriverGet(&count, nullptr) != ZE_RESULT_SUCCESS || count == 0) return false;
  std::vector<ze_driver_handle_t> drivers(count);
  if (zeDriverGet(&count, drivers.data()) != ZE_RESULT_SUCCESS) return false;
  for (ze_driver_handle_t d : drivers) {
    auto get = [&](const char* name, auto& fn) {
      void* f = nullptr;
      if (zeDriverGetExtensionFunctionAddress(d, name, &f) == ZE_RESULT_SUCCESS)
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(f);
      return fn != nullptr;
    };
    ZeExtensions e;
    bool tessera = get("zeTesseraDeviceGetTopologyProperties", e.topologyProperties) &&
                   get("zeTesseraDeviceGetPus", e.pus) &&
                   get("zeTesseraDeviceGetNumaNodes", e.numaNodes) &&
                   get("zeTesseraDeviceGetCaches", e.caches) &&
                   get("zeTesseraModuleGetIL", e.moduleIL) &&
                   get("zeTesseraModuleGetKernelTable", e.kernelTable) &&
                   get("zeTesseraKernelSuggestGroupSize", e.suggestGroupSize) &&
                   get("zeTesseraCommandListAppendLaunchKernelShaped", e.appendLaunchShaped) &&
                   get("zeDeviceGetVectorWidthPropertiesExt", e.vectorWidths);
    get("zeTesseraDeviceCreatePartition", e.createPartition);  // without it: no fission
    get("zeTesseraKernelSetWorkDim", e.kernelWorkDim);
    get("zeTesseraModuleBuildKernels", e.buildKernels);
    get("zeTesseraModuleGetNativeBinaryAsIs", e.nativeBinaryAsIs);
    if (!tessera) continue;
    driver_ = d;
    ext_ = e;
    break;
  }
  if (!driver_) return false;
  uint32_t n = 0;
  if (zeDeviceGet(driver_, &n, nullptr) != ZE_RESULT_SUCCESS || n == 0) return false;
  std::vector<ze_device_handle_t> devices(n);
  if (zeDeviceGet(driver_, &n, devices.data()) != ZE_RESULT_SUCCESS) return false;
  for (ze_device_handle_t d : devices) {
    roots_.push_back(new Device(*this, d, nullptr, {}));
    recordDeviceForDump(*roots_.back());
  }
  return true;
}

const std::string& Platform::extensions() {
  static const std::string list = [] {
    std::string s;
    for (const cl_name_version& e : extensionsWithVersion()) s += std::string(e.name) + " ";
    if (!s.empty()) s.pop_back();
    return s;
  }();
  return list;
}

std::vector<cl_name_version> Platform::extensionsWithVersion() {
  // Platform extensions: what every Tessera device supports.
  std::vector<cl_name_version> list;
  auto add = [&](const char* name, cl_version v) {
    cl_name_version e{};
    e.version = v;
    std::snprintf(e.name, sizeof e.name, "%s", name);
    list.push_back(e);
  };
  add("cl_khr_icd", CL_MAKE_VERSION(1, 0, 0));
  add("cl_khr_il_program", CL_MAKE_VERSION(1, 0, 0));
  add("cl_ext_device_fission", CL_MAKE_VERSION(1, 0, 0));
  add("cl_intel_device_partition_by_names", CL_MAKE_VERSION(1, 0, 0));
  add("cl_khr_global_int32_base_atomics", CL_MAKE_VERSION(1, 0, 0));
  add("cl_khr_global_int32_extended_atomics", CL_MAKE_VERSION(1, 0, 0));
  add("cl_khr_local_int32_base_atomics", CL_MAKE_VERSION(1, 0, 0));
  add("cl_khr_local_int32_extended_atomics", CL_MAKE_VERSION(1, 0, 0));
  add("cl_khr_int64_base_atomics", CL_MAKE_VERSION(1, 0, 0));
  add("cl_khr_int64_extended_atomics", CL_MAKE_VERSION(1, 0, 0));
  add("cl_khr_byte_addressable_store", CL_MAKE_VERSION(1, 0, 0));
  add("cl_khr_fp64", CL_MAKE_VERSION(1, 0, 0));
  add("cl_khr_fp16", CL_MAKE_VERSION(1, 0, 0));
  add("cl_qcom_recordable_queues", CL_MAKE_VERSION(1, 0, 0));  // cl_shim/recording.h
  // The revisions of the installed CL/cl_ext.h, which cl_shim/command_buffer.h implements.
  add("cl_khr_command_buffer", CL_MAKE_VERSION(0, 9, 1));
  add("cl_khr_command_buffer_mutable_dispatch", CL_MAKE_VERSION(0, 9, 0));
  if (kSubgroupsEnabled) {
    // Sub-groups on the JIT's vector lanes (backends/cpu/runtime/kernel_abi.h, "Sub-groups"), with
    // the OpenCL C functions of each extension (the compiler defines exactly these,
    // spirv/opencl_c.cpp) and clGetKernelSubGroupInfoKHR (cl_intel_subgroups copies it).
    add("cl_khr_subgroup_extended_types", CL_MAKE_VERSION(1, 0, 0));
    add("cl_khr_subgroup_non_uniform_vote", CL_MAKE_VERSION(1, 0, 0));
    add("cl_khr_subgroup_ballot", CL_MAKE_VERSION(1, 0, 0));
    add("cl_khr_subgroup_non_uniform_arithmetic", CL_MAKE_VERSION(1, 0, 0));
    add("cl_khr_subgroup_shuffle", CL_MAKE_VERSION(1, 0, 0));
    add("cl_khr_subgroup_shuffle_relative", CL_MAKE_VERSION(1, 0, 0));
    add("cl_khr_subgroup_clustered_reduce", CL_MAKE_VERSION(1, 0, 0));
    add("cl_intel_subgroups", CL_MAKE_VERSION(1, 0, 0));
    add("cl_intel_required_subgroup_size", CL_MAKE_VERSION(1, 0, 0));
  }
  if (kImagesEnabled) {
    // Writes to image3d_t in kernels, and 2D images over a buffer's memory (image_create.cpp).
    add("cl_khr_3d_image_writes", CL_MAKE_VERSION(1, 0, 0));
    add("cl_khr_image2d_from_buffer", CL_MAKE_VERSION(1, 0, 0));
  }
  return list;
}

cl_int Platform::info(cl_platform_info param, size_t size, void* value, size_t* sizeRet) const {
  InfoWriter out(size, value, sizeRet);
  switch (param) {
    case CL_PLATFORM_PROFILE: return out.string("FULL_PROFILE");
    case CL_PLATFORM_VERSION: return out.string("OpenCL 3.0 Tessera " TESSERA_VERSION);
    case CL_PLATFORM_NUMERIC_VERSION: return out.scalar<cl_version>(CL_MAKE_VERSION(3, 0, 0));
    case CL_PLATFORM_NAME: return out.string("Tessera");
    case CL_PLATFORM_VENDOR: return out.string("The Tessera project");
    case CL_PLATFORM_EXTENSIONS: return out.string(extensions());
    case CL_PLATFORM_EXTENSIONS_WITH_VERSION: return out.array(extensionsWithVersion());
    case CL_PLATFORM_HOST_TIMER_RESOLUTION: return out.scalar<cl_ulong>(1);  // ns, CLOCK_MONOTONIC
    case CL_PLATFORM_ICD_SUFFIX_KHR: return out.string(kIcdSuffix);
    default: return CL_INVALID_VALUE;
  }
}

}  // namespace tessera::cl
