// clGetDeviceInfo: every query of the OpenCL 3.0 headers, answered for a Tessera CPU device (an
// OpenCL 3.0 device with the OpenCL 1.2 feature set and OpenCL C 1.2), plus cl_ext_device_fission's
// five selectors.
#include <algorithm>
#include <string>

#include "cl_shim/api_support.h"
#include "cl_shim/command_buffer.h"
#include "cl_shim/device.h"
#include "cl_shim/image.h"
#include "cl_shim/platform.h"
#include "cl_shim/recording.h"
#include "cl_shim/subgroups.h"

namespace tessera::cl {
namespace {

// What core/module/module.cpp enforces (limits::kMaxArgumentsSize, maxArgumentsSize): a program
// with a kernel whose arguments take more fails clBuildProgram (tests/api/cl/test_parameter_size).
constexpr size_t kMaxParameterSize = 4096;
constexpr cl_uint kMemBaseAddrAlignBits = 1024;  // 128 bytes: the largest type, long16
constexpr size_t kPrintfBufferSize = 1024 * 1024;
// Program-scope globals live in the JIT's data sections; 64 MiB for one variable is tested
// (the spec's minimum is 64 KB).
constexpr size_t kMaxGlobalVariableSize = 64u << 20;
// The CTS tag whose suites this build was run against (docs/conformance.md); the query's format
// is "vYYYY-MM-DD-XX".
constexpr const char* kConformanceVersion = "v2023-05-16-00";

cl_device_fp_config fpConfig(ze_device_fp_flags_t f, bool single) {
  cl_device_fp_config c = 0;
  if (f & ZE_DEVICE_FP_FLAG_DENORM) c |= CL_FP_DENORM;
  if (f & ZE_DEVICE_FP_FLAG_INF_NAN) c |= CL_FP_INF_NAN;
  if (f & ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST) c |= CL_FP_ROUND_TO_NEAREST;
  if (f & ZE_DEVICE_FP_FLAG_ROUND_TO_ZERO) c |= CL_FP_ROUND_TO_ZERO;
  if (f & ZE_DEVICE_FP_FLAG_ROUND_TO_INF) c |= CL_FP_ROUND_TO_INF;
  if (f & ZE_DEVICE_FP_FLAG_FMA) c |= CL_FP_FMA;
  if (single && (f & ZE_DEVICE_FP_FLAG_ROUNDED_DIVIDE_SQRT)) c |= CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT;
  return c;
}

std::vector<cl_name_version> openclCVersions() {
  std::vector<cl_name_version> v;
  for (cl_version ver : {CL_MAKE_VERSION(1, 0, 0), CL_MAKE_VERSION(1, 1, 0), CL_MAKE_VERSION(1, 2, 0),
                         CL_MAKE_VERSION(3, 0, 0)}) {
    cl_name_version e{};
    e.version = ver;
    std::snprintf(e.name, sizeof e.name, "OpenCL C");
    v.push_back(e);
  }
  return v;
}

// The OpenCL C 3.0 feature macros the compiler defines under -cl-std=CL3.0 (spirv/opencl_c.cpp),
// each one working: "CL_DEVICE_OPENCL_C_FEATURES: Returns an array of optional OpenCL C features
// supported by the compiler for the device". tests/api/cl/test_features.cpp checks that the two
// agree macro by macro.
std::vector<cl_name_version> openclCFeatures(const Device& d) {
  std::vector<cl_name_version> v;
  auto add = [&](const char* f) {
    cl_name_version e{};
    e.version = CL_MAKE_VERSION(3, 0, 0);
    std::snprintf(e.name, sizeof e.name, "%s", f);
    v.push_back(e);
  };
  for (const char* f : {"__opencl_c_int64", "__opencl_c_fp64", "__opencl_c_fp16",
                        "__opencl_c_program_scope_global_variables",
                        "__opencl_c_atomic_order_acq_rel", "__opencl_c_atomic_order_seq_cst",
                        "__opencl_c_atomic_scope_device", "__opencl_c_atomic_scope_all_devices",
                        "__opencl_c_generic_address_space",
                        "__opencl_c_work_group_collective_functions"})
    add(f);
  // Images: "__opencl_c_images ... supported if CL_DEVICE_IMAGE_SUPPORT is CL_TRUE", with writes to
  // 3D images (cl_khr_3d_image_writes) and, when they work, read_write images.
  if (d.imageSupport()) {
    add("__opencl_c_images");
    add("__opencl_c_3d_image_writes");
    if (kReadWriteImages) add("__opencl_c_read_write_images");
  }
  // Sub-groups (the 3.0 API spec's appendix on optional features): "OpenCL C compilers supporting
  // sub-groups will define the feature macro __opencl_c_subgroups".
  if (d.subgroupSupport()) add("__opencl_c_subgroups");
  return v;
}

std::vector<cl_name_version> ilVersions() {
  std::vector<cl_name_version> v;
  for (cl_version ver : {CL_MAKE_VERSION(1, 0, 0), CL_MAKE_VERSION(1, 1, 0), CL_MAKE_VERSION(1, 2, 0)}) {
    cl_name_version e{};
    e.version = ver;
    std::snprintf(e.name, sizeof e.name, "SPIR-V");
    v.push_back(e);
  }
  return v;
}

}  // namespace

cl_int Device::info(cl_device_info param, size_t size, void* value, size_t* sizeRet) {
  InfoWriter out(size, value, sizeRet);
  auto u = [&](cl_uint v) { return out.scalar(v); };
  auto ul = [&](cl_ulong v) { return out.scalar(v); };
  auto sz = [&](size_t v) { return out.scalar(v); };
  auto b = [&](bool v) { return out.scalar<cl_bool>(v ? CL_TRUE : CL_FALSE); };
  switch (param) {
    case CL_DEVICE_TYPE: return out.scalar<cl_device_type>(CL_DEVICE_TYPE_CPU);
    case CL_DEVICE_VENDOR_ID: return u(props_.vendorId);
    case CL_DEVICE_MAX_COMPUTE_UNITS: return u(computeUnits());
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: return u(3);
    case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
      std::vector<size_t> s{compute_.maxGroupSizeX, compute_.maxGroupSizeY, compute_.maxGroupSizeZ};
      return out.array(s);
    }
    case CL_DEVICE_MAX_WORK_GROUP_SIZE: return sz(compute_.maxTotalGroupSize);
    // Level Zero's ZE_extension_device_vector_sizes (tessera/ze_tessera.h says how they are chosen).
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR: return u(widths_.preferred_vector_width_char);
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR: return u(widths_.native_vector_width_char);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT: return u(widths_.preferred_vector_width_short);
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT: return u(widths_.native_vector_width_short);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT: return u(widths_.preferred_vector_width_int);
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT: return u(widths_.native_vector_width_int);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT: return u(widths_.preferred_vector_width_float);
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT: return u(widths_.native_vector_width_float);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG: return u(widths_.preferred_vector_width_long);
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG: return u(widths_.native_vector_width_long);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE: return u(widths_.preferred_vector_width_double);
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE: return u(widths_.native_vector_width_double);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF: return u(widths_.preferred_vector_width_half);
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: return u(widths_.native_vector_width_half);
    case CL_DEVICE_MAX_CLOCK_FREQUENCY: return u(props_.coreClockRate);
    case CL_DEVICE_ADDRESS_BITS: return u(64);
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE: return ul(props_.maxMemAllocSize);
    // Images: Level Zero's limits (imageLimits), every one 0 "if CL_DEVICE_IMAGE_SUPPORT is
    // CL_FALSE".
    case CL_DEVICE_IMAGE_SUPPORT: return b(imageSupport());
    case CL_DEVICE_MAX_READ_IMAGE_ARGS: return u(imageLimits(*this).readArgs);
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS: return u(imageLimits(*this).writeArgs);
    case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS: return u(imageLimits(*this).readWriteArgs);
    case CL_DEVICE_MAX_SAMPLERS: return u(imageLimits(*this).samplers);
    case CL_DEVICE_IMAGE_PITCH_ALIGNMENT: return u(imageLimits(*this).pitchAlignment);
    case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT: return u(imageLimits(*this).baseAlignment);
    case CL_DEVICE_IMAGE2D_MAX_WIDTH: return sz(imageLimits(*this).width2D);
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT: return sz(imageLimits(*this).height2D);
    case CL_DEVICE_IMAGE3D_MAX_WIDTH: return sz(imageLimits(*this).width3D);
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT: return sz(imageLimits(*this).height3D);
    case CL_DEVICE_IMAGE3D_MAX_DEPTH: return sz(imageLimits(*this).depth3D);
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE: return sz(imageLimits(*this).bufferPixels);
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: return sz(imageLimits(*this).arraySize);
    case CL_DEVICE_MAX_PARAMETER_SIZE: return sz(kMaxParameterSize);
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN: return u(kMemBaseAddrAlignBits);
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: return u(kMemBaseAddrAlignBits / 8);
    case CL_DEVICE_SINGLE_FP_CONFIG: return out.scalar(fpConfig(module_.fp32flags, true));
    case CL_DEVICE_DOUBLE_FP_CONFIG: return out.scalar(fpConfig(module_.fp64flags, false));
    case CL_DEVICE_HALF_FP_CONFIG: return out.scalar(fpConfig(module_.fp16flags, false));
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
      return out.scalar<cl_device_mem_cache_type>(CL_READ_WRITE_CACHE);
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: return u(cacheLineSize());
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: return ul(lastLevelCacheSize());
    case CL_DEVICE_GLOBAL_MEM_SIZE: return ul(globalMemSize());
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: return ul(props_.maxMemAllocSize);
    case CL_DEVICE_MAX_CONSTANT_ARGS: return u(64);
    case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
    case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE: return sz(kMaxGlobalVariableSize);
    case CL_DEVICE_LOCAL_MEM_TYPE: return out.scalar<cl_device_local_mem_type>(CL_GLOBAL);
    case CL_DEVICE_LOCAL_MEM_SIZE: return ul(compute_.maxSharedLocalMemory);
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT: return b(false);
    case CL_DEVICE_HOST_UNIFIED_MEMORY: return b(true);
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION: return sz(1);  // ns
    case CL_DEVICE_ENDIAN_LITTLE: return b(true);
    case CL_DEVICE_AVAILABLE: return b(true);
    case CL_DEVICE_COMPILER_AVAILABLE: return b(true);
    case CL_DEVICE_LINKER_AVAILABLE: return b(true);
    case CL_DEVICE_EXECUTION_CAPABILITIES:
      return out.scalar<cl_device_exec_capabilities>(CL_EXEC_KERNEL);
    case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
      return out.scalar<cl_command_queue_properties>(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                                     CL_QUEUE_PROFILING_ENABLE);
    case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES: return out.scalar<cl_command_queue_properties>(0);
    case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
    case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
    case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
    case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
    case CL_DEVICE_MAX_PIPE_ARGS:
    case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
    case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
    case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT: return u(0);
    // "Maximum number of sub-groups in a work-group that a device is capable of executing on a
    // single compute unit, for any given kernel-instance running on the device. The minimum value
    // is 1 if the device supports sub-groups, and must be 0 for devices that do not support
    // sub-groups."
    case CL_DEVICE_MAX_NUM_SUB_GROUPS: return u(maxNumSubGroups(*this));
    // cl_intel_required_subgroup_size: "Returns the set of sub-group sizes supported by the
    // device."
    case CL_DEVICE_SUB_GROUP_SIZES_INTEL:
      if (!subgroupSupport()) return CL_INVALID_VALUE;
      return out.array(subGroupSizes(*this));
    case CL_DEVICE_PLATFORM: return out.scalar<cl_platform_id>(platform_.handle());
    case CL_DEVICE_NAME: return out.string(props_.name);
    case CL_DEVICE_VENDOR: {
      // The processor's own vendor identification (CPUID), as PoCL reports it: applications
      // take vendor-specific kernels for the GPU companies' names (OpenCV 4.6 chose its
      // Intel-GPU-only gaussianBlur5x5_8UC1_cols4 and warpAffine_*_8u for "Intel(R) Corporation",
      // and they compute wrong results on a CPU, PoCL's too). CL_DEVICE_VENDOR_ID stays the PCI id.
      switch (props_.vendorId) {
        case 0x8086: return out.string("GenuineIntel");
        case 0x1022: return out.string("AuthenticAMD");
        default: return out.string("Unknown vendor");
      }
    }
    case CL_DRIVER_VERSION: return out.string(TESSERA_VERSION);
    case CL_DEVICE_PROFILE: return out.string("FULL_PROFILE");
    case CL_DEVICE_VERSION: return out.string("OpenCL 3.0 Tessera " TESSERA_VERSION);
    case CL_DEVICE_NUMERIC_VERSION: return out.scalar<cl_version>(CL_MAKE_VERSION(3, 0, 0));
    case CL_DEVICE_OPENCL_C_VERSION: return out.string("OpenCL C 1.2 Tessera");
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS: return out.array(openclCVersions());
    case CL_DEVICE_OPENCL_C_FEATURES: return out.array(openclCFeatures(*this));
    case CL_DEVICE_EXTENSIONS: return out.string(Platform::extensions());
    // cl_qcom_recordable_queues: "Maximum number of commands that may be recorded in a
    // cl_recording_qcom object."
    case CL_DEVICE_RECORDABLE_QUEUE_MAX_SIZE_QCOM: return out.scalar<cl_uint>(kRecordingMaxSize);
    case CL_DEVICE_EXTENSIONS_WITH_VERSION: return out.array(Platform::extensionsWithVersion());
    // cl_khr_command_buffer, cl_khr_command_buffer_mutable_dispatch (command_buffer.h). "Bitmask
    // of the minimum properties with which a command-queue must be created to allow a
    // command-buffer to be executed on it": none.
    case CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR:
      return out.scalar<cl_device_command_buffer_capabilities_khr>(kCommandBufferCapabilities);
    case CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR:
      return out.scalar<cl_command_queue_properties>(0);
    case CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR:
      return out.scalar<cl_mutable_dispatch_fields_khr>(kMutableDispatchFields);
    case CL_DEVICE_IL_VERSION: return out.string("SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2");
    case CL_DEVICE_ILS_WITH_VERSION: return out.array(ilVersions());
    case CL_DEVICE_BUILT_IN_KERNELS: return out.string("");
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION: return out.array(std::vector<cl_name_version>{});
    case CL_DEVICE_PRINTF_BUFFER_SIZE: return sz(kPrintfBufferSize);
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: return b(true);
    case CL_DEVICE_PARENT_DEVICE:
    case CL_DEVICE_PARENT_DEVICE_EXT:
      return out.scalar<cl_device_id>(parent_ ? parent_->handle() : nullptr);
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
      return u(partitionProperties().empty() ? 0 : computeUnits());
    case CL_DEVICE_PARTITION_PROPERTIES: {
      auto list = partitionProperties();
      if (list.empty()) list.push_back(0);  // "If the device cannot be partitioned ... 0"
      return out.array(list);
    }
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: return out.scalar(reportedAffinityDomains());
    case CL_DEVICE_PARTITION_TYPE: return out.array(style_.coreList());
    case CL_DEVICE_PARTITION_TYPES_EXT: {
      std::vector<cl_device_partition_property_ext> l;
      if (!style_.intelNames && computeUnits() >= 1)
        l = {CL_DEVICE_PARTITION_EQUALLY_EXT, CL_DEVICE_PARTITION_BY_COUNTS_EXT,
             CL_DEVICE_PARTITION_BY_NAMES_EXT, CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN_EXT};
      return out.array(l);  // "If no partition style is supported then the size ... is zero."

    }
    case CL_DEVICE_AFFINITY_DOMAINS_EXT: {
      std::vector<cl_device_partition_property_ext> l;
      if (!style_.intelNames) {
        for (auto z : affinityDomains()) {
          switch (z) {
            case ZE_TESSERA_AFFINITY_DOMAIN_NUMA: l.push_back(CL_AFFINITY_DOMAIN_NUMA_EXT); break;
            case ZE_TESSERA_AFFINITY_DOMAIN_L4_CACHE: l.push_back(CL_AFFINITY_DOMAIN_L4_CACHE_EXT); break;
            case ZE_TESSERA_AFFINITY_DOMAIN_L3_CACHE: l.push_back(CL_AFFINITY_DOMAIN_L3_CACHE_EXT); break;
            case ZE_TESSERA_AFFINITY_DOMAIN_L2_CACHE: l.push_back(CL_AFFINITY_DOMAIN_L2_CACHE_EXT); break;
            case ZE_TESSERA_AFFINITY_DOMAIN_L1_CACHE: l.push_back(CL_AFFINITY_DOMAIN_L1_CACHE_EXT); break;
            default: break;
          }
        }
      }
      return out.array(l);
    }
    case CL_DEVICE_PARTITION_STYLE_EXT: {
      auto l = style_.extList();
      if (l.empty()) l.push_back(CL_PROPERTIES_LIST_END_EXT);
      return out.array(l);
    }
    case CL_DEVICE_REFERENCE_COUNT:
    case CL_DEVICE_REFERENCE_COUNT_EXT:
      // "If the device is a root level device, a reference count of 1 is returned."
      return u(isRoot() ? 1 : apiRefs());
    case CL_DEVICE_SVM_CAPABILITIES:
      return out.scalar<cl_device_svm_capabilities>(
          CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
          CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS);
    // "Is CL_TRUE if this device supports independent forward progress of sub-groups, CL_FALSE
    // otherwise." The sub-groups of a work-group run one after the other on one thread, each
    // up to the next barrier: a sub-group spinning on another's store would never see it.
    case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS: return b(false);
    case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
    case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES: {
      // What an OpenCL 2.x device has (the spec's backwards-compatibility appendix lists these):
      // every order and scope, the host's atomics being coherent across all PUs and with the host.
      // Work-item scope applies to fences only.
      cl_device_atomic_capabilities c =
          CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
          CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
          CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
      if (param == CL_DEVICE_ATOMIC_FENCE_CAPABILITIES) c |= CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM;
      return out.scalar(c);
    }
    // Partial last work-groups (cl_shim/ndrange.cpp, backends/cpu/runtime/kernel_abi.h) for
    // programs of OpenCL C 2.0 and later built without -cl-uniform-work-group-size.
    case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT: return b(true);
    // work_group_reduce/scan/broadcast/all/any: backends/cpu/jit/workgroup_collectives.cpp
    // (tests/api/cl/test_workgroup_collectives.cpp checks each against the host).
    case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT: return b(true);
    // to_global, to_local, to_private and get_fence: backends/cpu/memory_spaces.h.
    case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT: return b(true);
    case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
      return out.scalar<cl_device_device_enqueue_capabilities>(0);
    case CL_DEVICE_PIPE_SUPPORT: return b(false);
    case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: return sz(1);
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED: return out.string(kConformanceVersion);
    default: return CL_INVALID_VALUE;
  }
}

}  // namespace tessera::cl
