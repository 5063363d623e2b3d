// Create/release cycles of every OpenCL object type (docs/reliability.md). Each case makes and
// releases its objects kCycles times and checks every call; the leak check itself is LeakSanitizer's,
// at process exit, in the AddressSanitizer build (build-asan). In the other builds these are plain
// create/release tests.
#include <CL/cl_ext_qcom.h>

#include <atomic>
#include <cstring>
#include <vector>

#include "cl_program_support.h"
#include "command_buffer_support.h"

using namespace tessera::cltest;

namespace {

constexpr int kCycles = 20;

const char* kSource = R"CL(
__kernel void add(__global int* out, int v) { out[get_global_id(0)] += v; }
)CL";

cl_program sourceProgram(cl_context ctx) {
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(ctx, 1, &kSource, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clBuildProgram(p, 0, nullptr, "", nullptr, nullptr) == CL_SUCCESS);
  return p;
}

}  // namespace

TEST_CASE("Leak cycles: contexts and queues", "[cl][leaks]") {
  cl_device_id dev = device();
  for (int i = 0; i < kCycles; ++i) {
    cl_int err = CL_SUCCESS;
    cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueue(
        ctx, dev, i % 2 ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(clFinish(q) == CL_SUCCESS);
    CHECK(clReleaseCommandQueue(q) == CL_SUCCESS);
    CHECK(clReleaseContext(ctx) == CL_SUCCESS);
  }
}

TEST_CASE("Leak cycles: buffers, sub-buffers and SVM", "[cl][leaks]") {
  ClFixture fx;
  for (int i = 0; i < kCycles; ++i) {
    cl_int err = CL_SUCCESS;
    cl_mem b = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, 4096, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_buffer_region region{1024, 1024};
    cl_mem sub = clCreateSubBuffer(b, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    REQUIRE(err == CL_SUCCESS);
    std::vector<int> data(256, i);
    cl_event e = nullptr;
    REQUIRE(clEnqueueWriteBuffer(fx.queue, sub, CL_FALSE, 0, 1024, data.data(), 0, nullptr, &e) ==
            CL_SUCCESS);
    CHECK(clWaitForEvents(1, &e) == CL_SUCCESS);
    CHECK(clReleaseEvent(e) == CL_SUCCESS);
    // The buffer released before its sub-buffer: the sub-buffer keeps it alive.
    CHECK(clReleaseMemObject(b) == CL_SUCCESS);
    CHECK(clReleaseMemObject(sub) == CL_SUCCESS);
    void* svm = clSVMAlloc(fx.ctx, CL_MEM_READ_WRITE, 4096, 0);
    REQUIRE(svm != nullptr);
    std::memset(svm, 1, 4096);
    clSVMFree(fx.ctx, svm);
    // A buffer using host memory.
    cl_mem h = clCreateBuffer(fx.ctx, CL_MEM_USE_HOST_PTR, 1024, data.data(), &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(clReleaseMemObject(h) == CL_SUCCESS);
  }
}

TEST_CASE("Leak cycles: programs from source and IL, kernels, events", "[cl][leaks]") {
  ClFixture fx;
  cl_int err = CL_SUCCESS;
  cl_mem out = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, 64 * sizeof(int), nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  int zero = 0;
  REQUIRE(clEnqueueFillBuffer(fx.queue, out, &zero, sizeof zero, 0, 64 * sizeof(int), 0, nullptr,
                              nullptr) == CL_SUCCESS);
  for (int i = 0; i < kCycles; ++i) {
    cl_program p = sourceProgram(fx.ctx);
    cl_kernel k = makeKernel(p, "add");
    REQUIRE(clSetKernelArg(k, 0, sizeof out, &out) == CL_SUCCESS);
    int v = 1;
    REQUIRE(clSetKernelArg(k, 1, sizeof v, &v) == CL_SUCCESS);
    size_t global = 64;
    cl_event e = nullptr;
    REQUIRE(clEnqueueNDRangeKernel(fx.queue, k, 1, nullptr, &global, nullptr, 0, nullptr, &e) ==
            CL_SUCCESS);
    CHECK(clWaitForEvents(1, &e) == CL_SUCCESS);
    CHECK(clReleaseEvent(e) == CL_SUCCESS);
    CHECK(clReleaseKernel(k) == CL_SUCCESS);
    CHECK(clReleaseProgram(p) == CL_SUCCESS);

    cl_program il = ilProgram(fx.ctx, "vector_add");
    cl_kernel k2 = makeKernel(il, "vector_add");
    cl_kernel all[4];
    cl_uint n = 0;
    CHECK(clCreateKernelsInProgram(il, 4, all, &n) == CL_SUCCESS);
    for (cl_uint j = 0; j < n; ++j) CHECK(clReleaseKernel(all[j]) == CL_SUCCESS);
    // The program released before its kernel: the kernel keeps it alive.
    CHECK(clReleaseProgram(il) == CL_SUCCESS);
    CHECK(clReleaseKernel(k2) == CL_SUCCESS);

    // A program that fails to build keeps a log.
    const char* bad = "__kernel void broken( { }";
    cl_program b = clCreateProgramWithSource(fx.ctx, 1, &bad, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(clBuildProgram(b, 0, nullptr, "", nullptr, nullptr) == CL_BUILD_PROGRAM_FAILURE);
    (void)buildLog(b, fx.dev);
    CHECK(clReleaseProgram(b) == CL_SUCCESS);
  }
  int host[64];
  REQUIRE(clEnqueueReadBuffer(fx.queue, out, CL_TRUE, 0, sizeof host, host, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  CHECK(host[63] == kCycles);
  CHECK(clReleaseMemObject(out) == CL_SUCCESS);
}

TEST_CASE("Leak cycles: user events, markers and callbacks", "[cl][leaks]") {
  ClFixture fx;
  for (int i = 0; i < kCycles; ++i) {
    cl_int err = CL_SUCCESS;
    cl_event user = clCreateUserEvent(fx.ctx, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_event marker = nullptr;
    REQUIRE(clEnqueueMarkerWithWaitList(fx.queue, 1, &user, &marker) == CL_SUCCESS);
    // The callback runs on a thread of Tessera's, maybe after this iteration: a static counter.
    static std::atomic<int> called{0};
    REQUIRE(clSetEventCallback(marker, CL_COMPLETE,
                               [](cl_event, cl_int, void* p) {
                                 static_cast<std::atomic<int>*>(p)->fetch_add(1);
                               },
                               &called) == CL_SUCCESS);
    REQUIRE(clSetUserEventStatus(user, i % 3 == 2 ? -1 : CL_COMPLETE) == CL_SUCCESS);
    clWaitForEvents(1, &marker);
    CHECK(clFinish(fx.queue) == CL_SUCCESS);
    CHECK(clReleaseEvent(marker) == CL_SUCCESS);
    CHECK(clReleaseEvent(user) == CL_SUCCESS);
    // A user event released while never set.
    cl_event never = clCreateUserEvent(fx.ctx, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(clReleaseEvent(never) == CL_SUCCESS);
  }
}

TEST_CASE("Leak cycles: sub-devices and their contexts", "[cl][leaks]") {
  cl_device_id root = device();
  if (deviceInfo<cl_uint>(root, CL_DEVICE_MAX_COMPUTE_UNITS) < 2) {
    WARN("one compute unit: no sub-devices");
    return;
  }
  for (int i = 0; i < kCycles; ++i) {
    cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_uint n = 0;
    REQUIRE(clCreateSubDevices(root, props, 0, nullptr, &n) == CL_SUCCESS);
    std::vector<cl_device_id> subs(n);
    REQUIRE(clCreateSubDevices(root, props, n, subs.data(), nullptr) == CL_SUCCESS);
    cl_int err = CL_SUCCESS;
    cl_context ctx = clCreateContext(nullptr, 1, &subs[0], nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueue(ctx, subs[0], 0, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(clReleaseCommandQueue(q) == CL_SUCCESS);
    // Sub-devices released before the context that holds one.
    for (auto d : subs) CHECK(clReleaseDevice(d) == CL_SUCCESS);
    CHECK(clReleaseContext(ctx) == CL_SUCCESS);
  }
}

TEST_CASE("Leak cycles: recordable queues and recordings", "[cl][leaks][recordings]") {
  cl_platform_id plat = platform();
  auto newRecording = reinterpret_cast<clNewRecordingQCOM_fn>(
      clGetExtensionFunctionAddressForPlatform(plat, "clNewRecordingQCOM"));
  auto end = reinterpret_cast<clEndRecordingQCOM_fn>(
      clGetExtensionFunctionAddressForPlatform(plat, "clEndRecordingQCOM"));
  auto release = reinterpret_cast<clReleaseRecordingQCOM_fn>(
      clGetExtensionFunctionAddressForPlatform(plat, "clReleaseRecordingQCOM"));
  auto enqueue = reinterpret_cast<clEnqueueRecordingQCOM_fn>(
      clGetExtensionFunctionAddressForPlatform(plat, "clEnqueueRecordingQCOM"));
  REQUIRE((newRecording && end && release && enqueue));
  ClFixture fx;
  cl_program p = sourceProgram(fx.ctx);
  cl_int err = CL_SUCCESS;
  cl_mem out = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, 64 * sizeof(int), nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  for (int i = 0; i < kCycles; ++i) {
    cl_command_queue rq = clCreateCommandQueue(fx.ctx, fx.dev, CL_QUEUE_RECORDABLE_QCOM, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_kernel k = makeKernel(p, "add");
    REQUIRE(clSetKernelArg(k, 0, sizeof out, &out) == CL_SUCCESS);
    int v = 1;
    REQUIRE(clSetKernelArg(k, 1, sizeof v, &v) == CL_SUCCESS);
    cl_recording_qcom r = newRecording(rq, &err);
    REQUIRE(err == CL_SUCCESS);
    size_t global = 64;
    REQUIRE(clEnqueueNDRangeKernel(rq, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) ==
            CL_SUCCESS);
    REQUIRE(end(r) == CL_SUCCESS);
    REQUIRE(enqueue(fx.queue, r, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr,
                    nullptr) == CL_SUCCESS);
    CHECK(clFinish(fx.queue) == CL_SUCCESS);
    CHECK(release(r) == CL_SUCCESS);
    CHECK(clReleaseKernel(k) == CL_SUCCESS);
    CHECK(clReleaseCommandQueue(rq) == CL_SUCCESS);
  }
  CHECK(clReleaseMemObject(out) == CL_SUCCESS);
  CHECK(clReleaseProgram(p) == CL_SUCCESS);
}

TEST_CASE("Leak cycles: command buffers, mutable commands and their enqueues",
          "[cl][leaks][command_buffer]") {
  CbFixture fx;
  cl_mem in = fx.buffer(64), out = fx.buffer(64);
  for (int i = 0; i < kCycles; ++i) {
    cl_kernel k = makeKernel(fx.program, "add");
    cl_int v = i;
    setKernelArgs(k, {{sizeof(cl_mem), &out}, {sizeof(cl_mem), &in}, {sizeof v, &v}});
    cl_command_buffer_khr b = fx.newBuffer(CL_COMMAND_BUFFER_MUTABLE_KHR |
                                           (i % 2 ? CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR : 0));
    cl_mutable_command_khr c = nullptr;
    size_t g = 64;
    cl_sync_point_khr s = 0;
    REQUIRE(fx.cb.ndrange(b, nullptr, nullptr, k, 1, nullptr, &g, nullptr, 0, nullptr, &s, &c) ==
            CL_SUCCESS);
    REQUIRE(fx.cb.copyBuffer(b, nullptr, out, in, 0, 0, 64 * sizeof(cl_int), 1, &s, nullptr,
                             nullptr) == CL_SUCCESS);
    REQUIRE(fx.cb.finalize(b) == CL_SUCCESS);
    CHECK(clReleaseKernel(k) == CL_SUCCESS);  // the buffer holds it
    cl_int w = 2 * i;
    REQUIRE(fx.updateArg(b, c, 2, sizeof w, &w) == CL_SUCCESS);
    cl_event e = nullptr;
    REQUIRE(fx.cb.enqueue(0, nullptr, b, 0, nullptr, &e) == CL_SUCCESS);
    // Released with its enqueue possibly in flight.
    CHECK(fx.cb.release(b) == CL_SUCCESS);
    CHECK(clWaitForEvents(1, &e) == CL_SUCCESS);
    CHECK(clReleaseEvent(e) == CL_SUCCESS);
  }
  CHECK(clFinish(fx.queue) == CL_SUCCESS);
}
