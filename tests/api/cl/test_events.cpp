// Events: profiling times, callbacks, user events (also failed ones), wait lists across queues,
// markers and barriers, out-of-order queues, and the errors of the event functions.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "cl_program_support.h"

using namespace tessera::cltest;

namespace {

cl_int status(cl_event e) {
  cl_int s = 0;
  REQUIRE(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr) == CL_SUCCESS);
  return s;
}

// What a callback saw, and a way to wait for it without sleeping.
struct CallbackLog {
  std::mutex mutex;
  std::condition_variable cv;
  std::vector<cl_int> statuses;
  static void CL_CALLBACK record(cl_event, cl_int s, void* self) {
    auto* log = static_cast<CallbackLog*>(self);
    std::lock_guard lock(log->mutex);
    log->statuses.push_back(s);
    log->cv.notify_all();
  }
  bool waitFor(size_t n) {
    std::unique_lock lock(mutex);
    return cv.wait_for(lock, std::chrono::seconds(30), [&] { return statuses.size() >= n; });
  }
};

// A vector add of n floats with host (fine-grain system SVM) pointers.
void enqueueAdd(cl_command_queue q, cl_kernel k, std::vector<float>& a, std::vector<float>& b,
                std::vector<float>& c, cl_uint nWait, const cl_event* wait, cl_event* done) {
  REQUIRE(clSetKernelArgSVMPointer(k, 0, a.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArgSVMPointer(k, 1, b.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArgSVMPointer(k, 2, c.data()) == CL_SUCCESS);
  size_t global = a.size();
  REQUIRE(clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, nullptr, nWait, wait, done) ==
          CL_SUCCESS);
}

}  // namespace

TEST_CASE("Given a profiling queue, then a kernel's four times are ordered and on the host clock",
          "[cl][event][profiling]") {
  cl_device_id dev = device();
  ClFixture fx(dev, CL_QUEUE_PROFILING_ENABLE);
  cl_program p = ilProgram(fx.ctx, "vector_add");
  cl_kernel k = makeKernel(p, "vector_add");
  std::vector<float> a(1 << 16, 1.0f), b(a.size(), 2.0f), c(a.size(), 0.0f);
  cl_ulong hostBefore = 0;
  REQUIRE(clGetHostTimer(dev, &hostBefore) == CL_SUCCESS);
  cl_event e = nullptr;
  enqueueAdd(fx.queue, k, a, b, c, 0, nullptr, &e);
  REQUIRE(clWaitForEvents(1, &e) == CL_SUCCESS);
  cl_ulong t[4] = {};
  const cl_profiling_info what[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                     CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
  for (int i = 0; i < 4; ++i)
    REQUIRE(clGetEventProfilingInfo(e, what[i], sizeof t[i], &t[i], nullptr) == CL_SUCCESS);
  cl_ulong complete = 0;
  REQUIRE(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_COMPLETE, sizeof complete, &complete,
                                  nullptr) == CL_SUCCESS);
  CHECK(hostBefore <= t[0]);
  CHECK(t[0] <= t[1]);
  CHECK(t[1] <= t[2]);
  CHECK(t[2] < t[3]);  // 64 Ki additions take time
  CHECK(complete >= t[3]);
  cl_ulong hostAfter = 0;
  REQUIRE(clGetHostTimer(dev, &hostAfter) == CL_SUCCESS);
  CHECK(t[3] <= hostAfter);
  CHECK(c[12345] == 3.0f);
  // Too small a buffer for the answer.
  uint32_t small = 0;
  CHECK(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof small, &small, nullptr) ==
        CL_INVALID_VALUE);
  clReleaseEvent(e);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

TEST_CASE("Given a queue without profiling or a user event, then profiling info is not available",
          "[cl][event][profiling]") {
  ClFixture fx;
  cl_event marker = nullptr;
  REQUIRE(clEnqueueMarkerWithWaitList(fx.queue, 0, nullptr, &marker) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &marker) == CL_SUCCESS);
  cl_ulong t = 0;
  CHECK(clGetEventProfilingInfo(marker, CL_PROFILING_COMMAND_START, sizeof t, &t, nullptr) ==
        CL_PROFILING_INFO_NOT_AVAILABLE);
  cl_int err = 0;
  cl_event user = clCreateUserEvent(fx.ctx, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(clSetUserEventStatus(user, CL_COMPLETE) == CL_SUCCESS);
  CHECK(clGetEventProfilingInfo(user, CL_PROFILING_COMMAND_QUEUED, sizeof t, &t, nullptr) ==
        CL_PROFILING_INFO_NOT_AVAILABLE);
  cl_command_type type = 0;
  REQUIRE(clGetEventInfo(user, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS);
  CHECK(type == CL_COMMAND_USER);
  cl_command_queue q = reinterpret_cast<cl_command_queue>(1);
  REQUIRE(clGetEventInfo(user, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, nullptr) == CL_SUCCESS);
  CHECK(q == nullptr);
  clReleaseEvent(user);
  clReleaseEvent(marker);
}

TEST_CASE("Given a kernel held back by a user event on another queue, then it runs only once the "
          "event is set, and callbacks see each status",
          "[cl][event][callback]") {
  cl_device_id dev = device();
  ClFixture fx(dev);
  cl_int err = 0;
  cl_command_queue other = clCreateCommandQueue(fx.ctx, dev, 0, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_program p = ilProgram(fx.ctx, "vector_add");
  cl_kernel k = makeKernel(p, "vector_add");
  std::vector<float> a(1024, 1.0f), b(a.size(), 5.0f), c(a.size(), 0.0f);

  cl_event gate = clCreateUserEvent(fx.ctx, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_event held = nullptr;
  // The marker on `other` is the gate for the kernel on the main queue.
  cl_event gateMarker = nullptr;
  REQUIRE(clEnqueueMarkerWithWaitList(other, 1, &gate, &gateMarker) == CL_SUCCESS);
  enqueueAdd(fx.queue, k, a, b, c, 1, &gateMarker, &held);
  CallbackLog submitted, complete;
  REQUIRE(clSetEventCallback(held, CL_SUBMITTED, CallbackLog::record, &submitted) == CL_SUCCESS);
  REQUIRE(clSetEventCallback(held, CL_COMPLETE, CallbackLog::record, &complete) == CL_SUCCESS);
  REQUIRE(submitted.waitFor(1));  // submitted at once: the command was handed to the device
  CHECK(status(held) != CL_COMPLETE);
  CHECK(c[0] == 0.0f);
  {
    std::lock_guard lock(complete.mutex);
    CHECK(complete.statuses.empty());
  }
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(complete.waitFor(1));
  CHECK(complete.statuses[0] == CL_COMPLETE);
  REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
  CHECK(c[1023] == 6.0f);
  // A callback registered after completion runs at once.
  CallbackLog late;
  REQUIRE(clSetEventCallback(held, CL_COMPLETE, CallbackLog::record, &late) == CL_SUCCESS);
  CHECK(late.waitFor(1));
  for (cl_event e : {gate, held, gateMarker}) clReleaseEvent(e);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(other);
}

TEST_CASE("Given a user event set to an error, then waits report it and callbacks receive it",
          "[cl][event][callback]") {
  ClFixture fx;
  cl_int err = 0;
  cl_event user = clCreateUserEvent(fx.ctx, &err);
  REQUIRE(err == CL_SUCCESS);
  CallbackLog log;
  REQUIRE(clSetEventCallback(user, CL_COMPLETE, CallbackLog::record, &log) == CL_SUCCESS);
  REQUIRE(clSetUserEventStatus(user, -77) == CL_SUCCESS);
  REQUIRE(log.waitFor(1));
  CHECK(log.statuses[0] == -77);
  CHECK(status(user) == -77);
  CHECK(clWaitForEvents(1, &user) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  clReleaseEvent(user);
}

TEST_CASE("Given an out-of-order queue with markers and barriers, then each waits for what it "
          "should",
          "[cl][event][queue]") {
  ClFixture fx(nullptr, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_command_queue_properties props = 0;
  REQUIRE(clGetCommandQueueInfo(fx.queue, CL_QUEUE_PROPERTIES, sizeof props, &props, nullptr) ==
          CL_SUCCESS);
  CHECK(props == CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_int err = 0;
  cl_event gate = clCreateUserEvent(fx.ctx, &err);
  cl_event marker = nullptr, barrier = nullptr, after = nullptr;
  REQUIRE(clEnqueueMarkerWithWaitList(fx.queue, 1, &gate, &marker) == CL_SUCCESS);
  REQUIRE(clEnqueueBarrierWithWaitList(fx.queue, 0, nullptr, &barrier) == CL_SUCCESS);
  REQUIRE(clEnqueueMarkerWithWaitList(fx.queue, 0, nullptr, &after) == CL_SUCCESS);
  cl_command_type type = 0;
  REQUIRE(clGetEventInfo(barrier, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS);
  CHECK(type == CL_COMMAND_BARRIER);
  // The barrier waits for the marker, which waits for the gate; what follows waits for the barrier.
  CHECK(status(barrier) != CL_COMPLETE);
  CHECK(status(after) != CL_COMPLETE);
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
  CHECK(status(marker) == CL_COMPLETE);
  CHECK(status(after) == CL_COMPLETE);
  // The deprecated forms.
  cl_event old = nullptr;
  CHECK(clEnqueueMarker(fx.queue, &old) == CL_SUCCESS);
  CHECK(clEnqueueMarker(fx.queue, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueBarrier(fx.queue) == CL_SUCCESS);
  CHECK(clEnqueueWaitForEvents(fx.queue, 1, &old) == CL_SUCCESS);
  CHECK(clEnqueueWaitForEvents(fx.queue, 0, nullptr) == CL_INVALID_VALUE);
  CHECK(clFinish(fx.queue) == CL_SUCCESS);
  for (cl_event e : {gate, marker, barrier, after, old}) clReleaseEvent(e);
}

TEST_CASE("Given bad arguments to the event functions, then each returns the spec's code",
          "[cl][event][errors]") {
  ClFixture fx, other;
  cl_int err = 0;
  cl_event mine = clCreateUserEvent(fx.ctx, &err);
  cl_event theirs = clCreateUserEvent(other.ctx, &err);
  cl_event pair[2] = {mine, theirs};
  CHECK(clWaitForEvents(0, pair) == CL_INVALID_VALUE);
  CHECK(clWaitForEvents(1, nullptr) == CL_INVALID_VALUE);
  CHECK(clWaitForEvents(2, pair) == CL_INVALID_CONTEXT);
  // (Through ocl-icd only null handles can be tried: the loader reads a handle's dispatch table
  // before Tessera sees it, so a pointer to anything else never reaches Tessera's checks.)
  CHECK(clRetainEvent(nullptr) == CL_INVALID_EVENT);
  CHECK(clReleaseEvent(nullptr) == CL_INVALID_EVENT);
  CHECK(clGetEventInfo(mine, 0x7777, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clSetUserEventStatus(mine, CL_SUBMITTED) == CL_INVALID_VALUE);
  CHECK(clSetEventCallback(mine, CL_QUEUED, CallbackLog::record, nullptr) == CL_INVALID_VALUE);
  CHECK(clSetEventCallback(mine, CL_COMPLETE, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clCreateUserEvent(nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_CONTEXT);
  // Wait lists: shape, validity and context.
  cl_event m = nullptr;
  CHECK(clEnqueueMarkerWithWaitList(fx.queue, 1, nullptr, &m) == CL_INVALID_EVENT_WAIT_LIST);
  CHECK(clEnqueueMarkerWithWaitList(fx.queue, 0, pair, &m) == CL_INVALID_EVENT_WAIT_LIST);
  cl_event none = nullptr;
  CHECK(clEnqueueMarkerWithWaitList(fx.queue, 1, &none, &m) == CL_INVALID_EVENT_WAIT_LIST);
  CHECK(clEnqueueMarkerWithWaitList(fx.queue, 1, &theirs, &m) == CL_INVALID_CONTEXT);
  // A command's event is not a user event.
  REQUIRE(clEnqueueMarkerWithWaitList(fx.queue, 0, nullptr, &m) == CL_SUCCESS);
  CHECK(clSetUserEventStatus(m, CL_COMPLETE) == CL_INVALID_EVENT);
  clSetUserEventStatus(mine, CL_COMPLETE);
  clSetUserEventStatus(theirs, CL_COMPLETE);
  for (cl_event e : {mine, theirs, m}) clReleaseEvent(e);
}

TEST_CASE("Given sub-devices of every scheme, then a program built for the root runs on each, on "
          "its own PUs",
          "[cl][fission][kernel]") {
  cl_device_id root = device();
  cl_uint units = deviceInfo<cl_uint>(root, CL_DEVICE_MAX_COMPUTE_UNITS);
  if (units < 2) return;
  cl_int err = 0;
  cl_context ctx = clCreateContext(nullptr, 1, &root, nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_program p = ilProgram(ctx, "current_pu");
  cl_kernel k = makeKernel(p, "where");
  // The root's PUs as the OS numbers them: each work-group records its PU.
  const std::vector<std::vector<cl_device_partition_property>> schemes = {
      {CL_DEVICE_PARTITION_EQUALLY, 1, 0},
      {CL_DEVICE_PARTITION_BY_COUNTS, 1, cl_device_partition_property(units - 1),
       CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0},
      {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, 0},
      {CL_DEVICE_PARTITION_BY_NAMES_INTEL, 0, CL_PARTITION_BY_NAMES_LIST_END_INTEL, 0}};
  for (const auto& props : schemes) {
    cl_uint n = 0;
    cl_int r = clCreateSubDevices(root, props.data(), 0, nullptr, &n);
    if (r == CL_DEVICE_PARTITION_FAILED) continue;  // e.g. no domain splits this machine
    REQUIRE(r == CL_SUCCESS);
    std::vector<cl_device_id> subs(n);
    REQUIRE(clCreateSubDevices(root, props.data(), n, subs.data(), nullptr) == CL_SUCCESS);
    std::vector<cl_uint> seen;  // PUs used by earlier sub-devices of this partition
    for (cl_device_id sub : subs) {
      cl_command_queue q = clCreateCommandQueue(ctx, sub, 0, &err);
      REQUIRE(err == CL_SUCCESS);
      std::vector<cl_uint> pu(64, ~0u);
      REQUIRE(clSetKernelArgSVMPointer(k, 0, pu.data()) == CL_SUCCESS);
      size_t global = pu.size(), local = 1;
      REQUIRE(clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &local, 0, nullptr, nullptr) ==
              CL_SUCCESS);
      REQUIRE(clFinish(q) == CL_SUCCESS);
      cl_uint subUnits = deviceInfo<cl_uint>(sub, CL_DEVICE_MAX_COMPUTE_UNITS);
      std::vector<cl_uint> distinct(pu);
      std::sort(distinct.begin(), distinct.end());
      distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
      CHECK(distinct.size() <= subUnits);  // ran on at most its own PUs ...
      for (cl_uint x : distinct) {
        CHECK(x != ~0u);  // ... every work-group ran ...
        // ... and no PU of another sub-device of the same partition.
        CHECK(std::find(seen.begin(), seen.end(), x) == seen.end());
      }
      seen.insert(seen.end(), distinct.begin(), distinct.end());
      clReleaseCommandQueue(q);
    }
    for (cl_device_id sub : subs) clReleaseDevice(sub);
  }
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

namespace {
// A CL_COMPLETE callback that takes a while before it records its call.
void CL_CALLBACK slowCallback(cl_event, cl_int, void* flag) {
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  static_cast<std::atomic<bool>*>(flag)->store(true);
}
}  // namespace

TEST_CASE("Given a CL_COMPLETE callback, when clWaitForEvents or clFinish returns, then the "
          "callback has returned",
          "[cl][event][callback]") {
  // The OpenCL-CTS (command_buffer return_event_callback) checks a callback's effect right after
  // clWaitForEvents; the callback used to be still running on the thread that waited for the event.
  ClFixture fx;
  for (bool viaFinish : {false, true}) {
    cl_int err = 0;
    cl_event gate = clCreateUserEvent(fx.ctx, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_event marker = nullptr;
    REQUIRE(clEnqueueMarkerWithWaitList(fx.queue, 1, &gate, &marker) == CL_SUCCESS);
    std::atomic<bool> called{false};
    REQUIRE(clSetEventCallback(marker, CL_COMPLETE, slowCallback, &called) == CL_SUCCESS);
    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    if (viaFinish)
      REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
    else
      REQUIRE(clWaitForEvents(1, &marker) == CL_SUCCESS);
    CHECK(called.load());
    clReleaseEvent(marker);
    clReleaseEvent(gate);
  }
}
