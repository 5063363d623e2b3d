// The platform and root device through ocl-icd: what clinfo and every OpenCL program ask first.
#include <cstring>

#include "cl_test_support.h"

using namespace tessera::cltest;

TEST_CASE("Given ocl-icd pointed at tessera.icd, then one Tessera platform with cl_khr_icd is listed",
          "[cl][platform]") {
  cl_platform_id p = platform();
  char name[64] = {};
  REQUIRE(clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr) == CL_SUCCESS);
  CHECK(std::string(name) == "Tessera");
  size_t n = 0;
  REQUIRE(clGetPlatformInfo(p, CL_PLATFORM_EXTENSIONS, 0, nullptr, &n) == CL_SUCCESS);
  std::string ext(n, '\0');
  REQUIRE(clGetPlatformInfo(p, CL_PLATFORM_EXTENSIONS, n, ext.data(), nullptr) == CL_SUCCESS);
  CHECK(ext.find("cl_khr_icd") != std::string::npos);
  CHECK(ext.find("cl_ext_device_fission") != std::string::npos);
  CHECK(ext.find("cl_intel_device_partition_by_names") != std::string::npos);
  // A buffer too small for the answer is refused.
  char tiny[2];
  CHECK(clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof tiny, tiny, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetPlatformInfo(p, 0xdead, 0, nullptr, &n) == CL_INVALID_VALUE);
}

TEST_CASE("Given the root device, then it is a CPU whose compute units are the machine's PUs",
          "[cl][device]") {
  cl_device_id d = device();
  CHECK(deviceInfo<cl_device_type>(d, CL_DEVICE_TYPE) == CL_DEVICE_TYPE_CPU);
  CHECK(deviceInfo<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS) >= 1);
  CHECK(deviceInfo<cl_device_id>(d, CL_DEVICE_PARENT_DEVICE) == nullptr);
  CHECK(deviceInfo<cl_uint>(d, CL_DEVICE_REFERENCE_COUNT) == 1);
  CHECK(deviceString(d, CL_DEVICE_VERSION).rfind("OpenCL 3.0", 0) == 0);
  CHECK(deviceString(d, CL_DEVICE_OPENCL_C_VERSION).rfind("OpenCL C 1.2", 0) == 0);
  // Root devices ignore retain and release.
  CHECK(clRetainDevice(d) == CL_SUCCESS);
  CHECK(clReleaseDevice(d) == CL_SUCCESS);
  CHECK(deviceInfo<cl_uint>(d, CL_DEVICE_REFERENCE_COUNT) == 1);
  CHECK(clGetDeviceInfo(nullptr, CL_DEVICE_TYPE, 0, nullptr, nullptr) == CL_INVALID_DEVICE);
}

TEST_CASE("Given a context and a queue, then their queries answer and releases count",
          "[cl][context][queue]") {
  ClFixture fx;
  cl_uint refs = 0;
  REQUIRE(clGetContextInfo(fx.ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, nullptr) ==
          CL_SUCCESS);
  CHECK(refs == 1);
  cl_device_id qd = nullptr;
  REQUIRE(clGetCommandQueueInfo(fx.queue, CL_QUEUE_DEVICE, sizeof qd, &qd, nullptr) == CL_SUCCESS);
  CHECK(qd == fx.dev);
  cl_event marker = nullptr;
  REQUIRE(clEnqueueMarkerWithWaitList(fx.queue, 0, nullptr, &marker) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &marker) == CL_SUCCESS);
  cl_int status = 0;
  REQUIRE(clGetEventInfo(marker, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                         nullptr) == CL_SUCCESS);
  CHECK(status == CL_COMPLETE);
  CHECK(clReleaseEvent(marker) == CL_SUCCESS);
  CHECK(clFinish(fx.queue) == CL_SUCCESS);
}

TEST_CASE("Given a user event, when a marker waits on it, then the marker completes only after it is set",
          "[cl][event]") {
  ClFixture fx;
  cl_int err = 0;
  cl_event user = clCreateUserEvent(fx.ctx, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_event marker = nullptr;
  REQUIRE(clEnqueueMarkerWithWaitList(fx.queue, 1, &user, &marker) == CL_SUCCESS);
  cl_int status = 0;
  REQUIRE(clGetEventInfo(marker, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                         nullptr) == CL_SUCCESS);
  CHECK(status != CL_COMPLETE);
  CHECK(clSetUserEventStatus(user, CL_COMPLETE) == CL_SUCCESS);
  CHECK(clSetUserEventStatus(user, CL_COMPLETE) == CL_INVALID_OPERATION);
  REQUIRE(clWaitForEvents(1, &marker) == CL_SUCCESS);
  clReleaseEvent(marker);
  clReleaseEvent(user);
}
