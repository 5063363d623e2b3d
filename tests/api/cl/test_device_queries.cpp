// Every clGetDeviceInfo query of the OpenCL 3.0 headers (CL/cl.h), on the root device and on a
// sub-device: each answers, its size query agrees with the value it writes, and a buffer one byte
// too small is refused. (clinfo, run by the clients.clinfo test, asks them all as well.)
#include "cl_test_support.h"

using namespace tessera::cltest;

namespace {

const cl_device_info kQueries[] = {
      CL_DEVICE_ADDRESS_BITS,
      CL_DEVICE_ATOMIC_FENCE_CAPABILITIES,
      CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES,
      CL_DEVICE_AVAILABLE,
      CL_DEVICE_BUILT_IN_KERNELS,
      CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION,
      CL_DEVICE_COMPILER_AVAILABLE,
      CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES,
      CL_DEVICE_DOUBLE_FP_CONFIG,
      CL_DEVICE_ENDIAN_LITTLE,
      CL_DEVICE_ERROR_CORRECTION_SUPPORT,
      CL_DEVICE_EXECUTION_CAPABILITIES,
      CL_DEVICE_EXTENSIONS,
      CL_DEVICE_EXTENSIONS_WITH_VERSION,
      CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT,
      CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE,
      CL_DEVICE_GLOBAL_MEM_CACHE_SIZE,
      CL_DEVICE_GLOBAL_MEM_CACHE_TYPE,
      CL_DEVICE_GLOBAL_MEM_SIZE,
      CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE,
      CL_DEVICE_HOST_UNIFIED_MEMORY,
      CL_DEVICE_ILS_WITH_VERSION,
      CL_DEVICE_IL_VERSION,
      CL_DEVICE_IMAGE2D_MAX_HEIGHT,
      CL_DEVICE_IMAGE2D_MAX_WIDTH,
      CL_DEVICE_IMAGE3D_MAX_DEPTH,
      CL_DEVICE_IMAGE3D_MAX_HEIGHT,
      CL_DEVICE_IMAGE3D_MAX_WIDTH,
      CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT,
      CL_DEVICE_IMAGE_MAX_ARRAY_SIZE,
      CL_DEVICE_IMAGE_MAX_BUFFER_SIZE,
      CL_DEVICE_IMAGE_PITCH_ALIGNMENT,
      CL_DEVICE_IMAGE_SUPPORT,
      CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED,
      CL_DEVICE_LINKER_AVAILABLE,
      CL_DEVICE_LOCAL_MEM_SIZE,
      CL_DEVICE_LOCAL_MEM_TYPE,
      CL_DEVICE_MAX_CLOCK_FREQUENCY,
      CL_DEVICE_MAX_COMPUTE_UNITS,
      CL_DEVICE_MAX_CONSTANT_ARGS,
      CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE,
      CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE,
      CL_DEVICE_MAX_MEM_ALLOC_SIZE,
      CL_DEVICE_MAX_NUM_SUB_GROUPS,
      CL_DEVICE_MAX_ON_DEVICE_EVENTS,
      CL_DEVICE_MAX_ON_DEVICE_QUEUES,
      CL_DEVICE_MAX_PARAMETER_SIZE,
      CL_DEVICE_MAX_PIPE_ARGS,
      CL_DEVICE_MAX_READ_IMAGE_ARGS,
      CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS,
      CL_DEVICE_MAX_SAMPLERS,
      CL_DEVICE_MAX_WORK_GROUP_SIZE,
      CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS,
      CL_DEVICE_MAX_WORK_ITEM_SIZES,
      CL_DEVICE_MAX_WRITE_IMAGE_ARGS,
      CL_DEVICE_MEM_BASE_ADDR_ALIGN,
      CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE,
      CL_DEVICE_NAME,
      CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR,
      CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE,
      CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT,
      CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF,
      CL_DEVICE_NATIVE_VECTOR_WIDTH_INT,
      CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG,
      CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT,
      CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT,
      CL_DEVICE_NUMERIC_VERSION,
      CL_DEVICE_OPENCL_C_ALL_VERSIONS,
      CL_DEVICE_OPENCL_C_FEATURES,
      CL_DEVICE_OPENCL_C_VERSION,
      CL_DEVICE_PARENT_DEVICE,
      CL_DEVICE_PARTITION_AFFINITY_DOMAIN,
      CL_DEVICE_PARTITION_MAX_SUB_DEVICES,
      CL_DEVICE_PARTITION_PROPERTIES,
      CL_DEVICE_PARTITION_TYPE,
      CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS,
      CL_DEVICE_PIPE_MAX_PACKET_SIZE,
      CL_DEVICE_PIPE_SUPPORT,
      CL_DEVICE_PLATFORM,
      CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT,
      CL_DEVICE_PREFERRED_INTEROP_USER_SYNC,
      CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT,
      CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT,
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR,
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE,
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT,
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF,
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT,
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG,
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT,
      CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
      CL_DEVICE_PRINTF_BUFFER_SIZE,
      CL_DEVICE_PROFILE,
      CL_DEVICE_PROFILING_TIMER_RESOLUTION,
      CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE,
      CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE,
      CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES,
      CL_DEVICE_QUEUE_ON_HOST_PROPERTIES,
      CL_DEVICE_QUEUE_PROPERTIES,
      CL_DEVICE_REFERENCE_COUNT,
      CL_DEVICE_SINGLE_FP_CONFIG,
      CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS,
      CL_DEVICE_SVM_CAPABILITIES,
      CL_DEVICE_TYPE,
      CL_DEVICE_VENDOR,
      CL_DEVICE_VENDOR_ID,
      CL_DEVICE_VERSION,
      CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT,
      CL_DRIVER_VERSION,
      CL_DEVICE_HALF_FP_CONFIG,
      CL_DEVICE_PARENT_DEVICE_EXT,
      CL_DEVICE_PARTITION_TYPES_EXT,
      CL_DEVICE_AFFINITY_DOMAINS_EXT,
      CL_DEVICE_REFERENCE_COUNT_EXT,
      CL_DEVICE_PARTITION_STYLE_EXT,
};

// Queries whose answer may be empty: a list with no element.
bool mayBeEmpty(cl_device_info q) {
  return q == CL_DEVICE_PARTITION_TYPE || q == CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION ||
         q == CL_DEVICE_PARTITION_TYPES_EXT || q == CL_DEVICE_AFFINITY_DOMAINS_EXT;
}

void checkAll(cl_device_id d) {
  for (cl_device_info q : kQueries) {
    INFO("query 0x" << std::hex << q);
    size_t size = 0;
    REQUIRE(clGetDeviceInfo(d, q, 0, nullptr, &size) == CL_SUCCESS);
    if (!mayBeEmpty(q)) CHECK(size > 0);
    std::vector<unsigned char> value(size + 8, 0xab);
    size_t written = 0;
    REQUIRE(clGetDeviceInfo(d, q, size, value.data(), &written) == CL_SUCCESS);
    CHECK(written == size);
    CHECK(value[size] == 0xab);  // nothing beyond the answer
    if (size > 0) CHECK(clGetDeviceInfo(d, q, size - 1, value.data(), nullptr) == CL_INVALID_VALUE);
  }
  size_t size = 0;
  CHECK(clGetDeviceInfo(d, 0xffff, 0, nullptr, &size) == CL_INVALID_VALUE);
}

}  // namespace

TEST_CASE("Given every 3.0 device query, then the root device answers each consistently",
          "[cl][device][queries]") {
  checkAll(device());
}

TEST_CASE("Given every 3.0 device query, then a sub-device answers each consistently",
          "[cl][device][queries][fission]") {
  cl_device_id root = device();
  if (deviceInfo<cl_uint>(root, CL_DEVICE_MAX_COMPUTE_UNITS) < 2) return;
  cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_device_id sub = nullptr;
  cl_uint n = 0;
  REQUIRE(clCreateSubDevices(root, props, 0, nullptr, &n) == CL_SUCCESS);
  std::vector<cl_device_id> subs(n);
  REQUIRE(clCreateSubDevices(root, props, n, subs.data(), nullptr) == CL_SUCCESS);
  sub = subs[0];
  checkAll(sub);
  for (cl_device_id s : subs) clReleaseDevice(s);
}

TEST_CASE(
    "Given cl_khr_fp16, when the half queries are read, then they report what the device does: "
    "round to nearest, infinities and NaN, denormals, fma, and vector widths",
    "[cl][device][queries][half]") {
  cl_device_id d = device();
  CHECK(deviceString(d, CL_DEVICE_EXTENSIONS).find("cl_khr_fp16") != std::string::npos);
  // OpenCL 3.0, CL_DEVICE_HALF_FP_CONFIG: "If half precision is supported by the device, then the
  // minimum half precision floating-point capability is: CL_FP_ROUND_TO_ZERO or
  // CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN"; the JIT also keeps denormals and rounds fma once.
  auto config = deviceInfo<cl_device_fp_config>(d, CL_DEVICE_HALF_FP_CONFIG);
  const cl_device_fp_config required =
      CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM | CL_FP_FMA;
  CHECK((config & required) == required);
  CHECK((config & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) == 0);  // a single-precision flag only
  CHECK(deviceInfo<cl_uint>(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF) ==
        deviceInfo<cl_uint>(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT));
  CHECK(deviceInfo<cl_uint>(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF) ==
        deviceInfo<cl_uint>(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT));
}
