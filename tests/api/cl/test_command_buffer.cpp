// cl_khr_command_buffer (0.9.1): creation, every command, sync points, finalize, enqueue (also on a
// substitute queue, across queues with events, simultaneous use), the queries, and every error
// code the extension names.
#include <CL/cl_ext_qcom.h>

#include <cstring>

#include "command_buffer_support.h"

using namespace tessera::cltest;

namespace {

cl_version extensionVersion(const char* name) {
  cl_device_id d = device();
  size_t n = 0;
  REQUIRE(clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, nullptr, &n) == CL_SUCCESS);
  std::vector<cl_name_version> v(n / sizeof(cl_name_version));
  REQUIRE(clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS_WITH_VERSION, n, v.data(), nullptr) ==
          CL_SUCCESS);
  for (const cl_name_version& e : v)
    if (std::strcmp(e.name, name) == 0) return e.version;
  return 0;
}

cl_uint queueRefs(cl_command_queue q) {
  cl_uint n = 0;
  REQUIRE(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof n, &n, nullptr) == CL_SUCCESS);
  return n;
}

}  // namespace

TEST_CASE(
    "Given the device, then both command-buffer extensions are listed with the installed "
    "headers' revisions and the capability queries answer",
    "[cl][command_buffer]") {
  CHECK(extensionVersion("cl_khr_command_buffer") == CL_MAKE_VERSION(0, 9, 1));
  CHECK(extensionVersion("cl_khr_command_buffer_mutable_dispatch") == CL_MAKE_VERSION(0, 9, 0));
  cl_device_id d = device();
  auto caps = deviceInfo<cl_device_command_buffer_capabilities_khr>(
      d, CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR);
  CHECK(caps == (CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR |
                 CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR |
                 CL_COMMAND_BUFFER_CAPABILITY_OUT_OF_ORDER_KHR));
  CHECK(deviceInfo<cl_command_queue_properties>(
            d, CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR) == 0);
  CHECK(
      deviceInfo<cl_mutable_dispatch_fields_khr>(d, CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR) ==
      (CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR | CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR |
       CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR | CL_MUTABLE_DISPATCH_ARGUMENTS_KHR |
       CL_MUTABLE_DISPATCH_EXEC_INFO_KHR));
  CommandBufferApi api;  // every function is found
  CHECK(clGetExtensionFunctionAddressForPlatform(platform(), "clCreateCommandBufferKHRX") ==
        nullptr);
}

TEST_CASE("Given clCreateCommandBufferKHR, then bad queues and properties get the spec's codes",
          "[cl][command_buffer]") {
  CbFixture fx;
  cl_int err = CL_SUCCESS;
  cl_command_queue qs[2] = {fx.queue, fx.queue};
  // "CL_INVALID_VALUE if num_queues is not one." / "if queues is NULL."
  CHECK(fx.cb.create(0, qs, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(fx.cb.create(2, qs, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(fx.cb.create(1, nullptr, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  // "CL_INVALID_COMMAND_QUEUE if any command-queue in queues is not a valid command-queue."
  cl_command_queue bad[1] = {reinterpret_cast<cl_command_queue>(fx.ctx)};
  CHECK(fx.cb.create(1, bad, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_COMMAND_QUEUE);
  // "CL_INVALID_VALUE if values specified in properties are not valid, or if the same property
  // name is specified more than once."
  cl_command_buffer_properties_khr unknown[] = {0x4242, 0, 0};
  CHECK(fx.cb.create(1, qs, unknown, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  cl_command_buffer_properties_khr twice[] = {CL_COMMAND_BUFFER_FLAGS_KHR, 0,
                                              CL_COMMAND_BUFFER_FLAGS_KHR, 0, 0};
  CHECK(fx.cb.create(1, qs, twice, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  cl_command_buffer_properties_khr badFlag[] = {CL_COMMAND_BUFFER_FLAGS_KHR, 1 << 7, 0};
  CHECK(fx.cb.create(1, qs, badFlag, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  // A recordable queue refuses every enqueue but launches into its recording: Tessera refuses it.
  cl_command_queue rq = clCreateCommandQueue(fx.ctx, fx.dev, CL_QUEUE_RECORDABLE_QCOM, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_command_queue rqs[1] = {rq};
  CHECK(fx.cb.create(1, rqs, nullptr, &err) == nullptr);
  CHECK(err == CL_INCOMPATIBLE_COMMAND_QUEUE_KHR);
  clReleaseCommandQueue(rq);
  // Both flags, an out-of-order queue: accepted (no errcode_ret either).
  cl_command_queue ooo =
      clCreateCommandQueue(fx.ctx, fx.dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_command_queue ooos[1] = {ooo};
  cl_command_buffer_properties_khr both[] = {
      CL_COMMAND_BUFFER_FLAGS_KHR,
      CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR | CL_COMMAND_BUFFER_MUTABLE_KHR, 0};
  cl_command_buffer_khr b = fx.cb.create(1, ooos, both, nullptr);
  REQUIRE(b != nullptr);
  CHECK(fx.cb.release(b) == CL_SUCCESS);
  clReleaseCommandQueue(ooo);
}

TEST_CASE(
    "Given an invalid command-buffer handle, then every function answers "
    "CL_INVALID_COMMAND_BUFFER_KHR",
    "[cl][command_buffer]") {
  CbFixture fx;
  cl_mem m = fx.buffer(4);
  auto bad = reinterpret_cast<cl_command_buffer_khr>(fx.queue);
  cl_command_buffer_khr released = fx.newBuffer();
  REQUIRE(fx.cb.release(released) == CL_SUCCESS);
  for (cl_command_buffer_khr b : {cl_command_buffer_khr(nullptr), bad, released}) {
    CHECK(fx.cb.finalize(b) == CL_INVALID_COMMAND_BUFFER_KHR);
    CHECK(fx.cb.retain(b) == CL_INVALID_COMMAND_BUFFER_KHR);
    CHECK(fx.cb.release(b) == CL_INVALID_COMMAND_BUFFER_KHR);
    CHECK(fx.cb.enqueue(0, nullptr, b, 0, nullptr, nullptr) == CL_INVALID_COMMAND_BUFFER_KHR);
    CHECK(fx.cb.barrier(b, nullptr, 0, nullptr, nullptr, nullptr) == CL_INVALID_COMMAND_BUFFER_KHR);
    CHECK(fx.cb.copyBuffer(b, nullptr, m, m, 0, 8, 4, 0, nullptr, nullptr, nullptr) ==
          CL_INVALID_COMMAND_BUFFER_KHR);
    cl_int zero = 0;
    CHECK(fx.cb.fillBuffer(b, nullptr, m, &zero, 4, 0, 16, 0, nullptr, nullptr, nullptr) ==
          CL_INVALID_COMMAND_BUFFER_KHR);
    size_t g = 4;
    CHECK(fx.cb.ndrange(b, nullptr, nullptr, fx.kernel("twice"), 1, nullptr, &g, nullptr, 0,
                        nullptr, nullptr, nullptr) == CL_INVALID_COMMAND_BUFFER_KHR);
    cl_uint n = 0;
    CHECK(fx.cb.info(b, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, sizeof n, &n, nullptr) ==
          CL_INVALID_COMMAND_BUFFER_KHR);
    cl_mutable_base_config_khr config{CL_STRUCTURE_TYPE_MUTABLE_BASE_CONFIG_KHR, nullptr, 0,
                                      nullptr};
    CHECK(fx.cb.update(b, &config) == CL_INVALID_COMMAND_BUFFER_KHR);
  }
}

TEST_CASE(
    "Given a command buffer of a kernel, copies, fills and a barrier, when it is enqueued "
    "twice, then each replay reads the buffers as they are then",
    "[cl][command_buffer]") {
  CbFixture fx;
  const size_t n = 64;
  cl_mem in = fx.buffer(n, iota(n)), mid = fx.buffer(n), out = fx.buffer(n), rect = fx.buffer(n);
  cl_kernel add = fx.kernel("add");
  cl_int v = 5;
  setKernelArgs(add, {{sizeof(cl_mem), &mid}, {sizeof(cl_mem), &in}, {sizeof v, &v}});
  cl_command_buffer_khr b = fx.newBuffer();
  cl_sync_point_khr s[5] = {};
  // mid = in + 5; out = mid; out[8..16) = -1; rect gets a 4x2 block of out; barrier.
  REQUIRE(fx.cb.ndrange(b, nullptr, nullptr, add, 1, nullptr, &n, nullptr, 0, nullptr, &s[0],
                        nullptr) == CL_SUCCESS);
  REQUIRE(fx.cb.copyBuffer(b, nullptr, mid, out, 0, 0, n * sizeof(cl_int), 1, &s[0], &s[1],
                           nullptr) == CL_SUCCESS);
  cl_int minus = -1;
  REQUIRE(fx.cb.fillBuffer(b, nullptr, out, &minus, sizeof minus, 8 * sizeof(cl_int),
                           8 * sizeof(cl_int), 1, &s[1], &s[2], nullptr) == CL_SUCCESS);
  minus = 7;  // the pattern was copied when recorded
  size_t origin[3] = {0, 1, 0}, dorigin[3] = {0, 0, 0}, region[3] = {4 * sizeof(cl_int), 2, 1};
  REQUIRE(fx.cb.copyBufferRect(b, nullptr, out, rect, origin, dorigin, region, 8 * sizeof(cl_int),
                               0, 4 * sizeof(cl_int), 0, 1, &s[2], &s[3], nullptr) == CL_SUCCESS);
  REQUIRE(fx.cb.barrier(b, nullptr, 2, &s[0], &s[4], nullptr) == CL_SUCCESS);
  // Sync points are distinct.
  for (int i = 0; i < 5; ++i)
    for (int j = i + 1; j < 5; ++j) CHECK(s[i] != s[j]);
  // Recording changes nothing yet ("there is no effect on queue state from recording commands").
  CHECK(fx.read(out, n) == std::vector<cl_int>(n, 0));
  // Kernel arguments set later do not change the recorded launch.
  cl_int other = 100;
  REQUIRE(clSetKernelArg(add, 2, sizeof other, &other) == CL_SUCCESS);
  REQUIRE(fx.cb.finalize(b) == CL_SUCCESS);
  for (cl_int round = 0; round < 2; ++round) {
    fx.write(in, iota(n, round * 1000));
    fx.run(b);
    std::vector<cl_int> got = fx.read(out, n), r = fx.read(rect, n);
    for (size_t i = 0; i < n; ++i) {
      INFO("round " << round << " i " << i);
      CHECK(got[i] == (i >= 8 && i < 16 ? -1 : round * 1000 + cl_int(i) + 5));
    }
    // Rows 1 and 2 of an 8-int-wide view, 4 ints each: out[8..12) and out[16..20).
    for (size_t i = 0; i < 4; ++i) CHECK(r[i] == -1);
    for (size_t i = 4; i < 8; ++i) CHECK(r[i] == round * 1000 + cl_int(16 + i - 4) + 5);
  }
  CHECK(fx.cb.release(b) == CL_SUCCESS);
}

TEST_CASE("Given recording commands, then the common errors of every clCommand*KHR are the spec's",
          "[cl][command_buffer]") {
  CbFixture fx;
  cl_mem m = fx.buffer(16);
  cl_kernel k = fx.kernel("twice");
  REQUIRE(clSetKernelArg(k, 0, sizeof m, &m) == CL_SUCCESS);
  cl_command_buffer_khr b = fx.newBuffer();
  size_t g = 16;
  cl_int zero = 0;
  cl_sync_point_khr sp = 0;
  cl_mutable_command_khr handle = nullptr;
  REQUIRE(fx.cb.fillBuffer(b, nullptr, m, &zero, 4, 0, 64, 0, nullptr, &sp, nullptr) == CL_SUCCESS);
  // "CL_INVALID_COMMAND_QUEUE if command_queue is not NULL."
  CHECK(fx.cb.barrier(b, fx.queue, 0, nullptr, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(fx.cb.copyBuffer(b, fx.queue, m, m, 0, 32, 16, 0, nullptr, nullptr, nullptr) ==
        CL_INVALID_COMMAND_QUEUE);
  CHECK(fx.cb.ndrange(b, fx.queue, nullptr, k, 1, nullptr, &g, nullptr, 0, nullptr, nullptr,
                      nullptr) == CL_INVALID_COMMAND_QUEUE);
  // "CL_INVALID_VALUE if mutable_handle is not NULL" (not an ND-range).
  CHECK(fx.cb.barrier(b, nullptr, 0, nullptr, nullptr, &handle) == CL_INVALID_VALUE);
  CHECK(fx.cb.fillBuffer(b, nullptr, m, &zero, 4, 0, 64, 0, nullptr, nullptr, &handle) ==
        CL_INVALID_VALUE);
  // "CL_INVALID_SYNC_POINT_WAIT_LIST_KHR if sync_point_wait_list is NULL and
  // num_sync_points_in_wait_list is > 0, or ... not NULL and ... 0, or ... not valid".
  cl_sync_point_khr unknown = sp + 100, none = 0;
  CHECK(fx.cb.barrier(b, nullptr, 1, nullptr, nullptr, nullptr) ==
        CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  CHECK(fx.cb.barrier(b, nullptr, 0, &sp, nullptr, nullptr) == CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  CHECK(fx.cb.barrier(b, nullptr, 1, &unknown, nullptr, nullptr) ==
        CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  CHECK(fx.cb.barrier(b, nullptr, 1, &none, nullptr, nullptr) ==
        CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  CHECK(fx.cb.ndrange(b, nullptr, nullptr, k, 1, nullptr, &g, nullptr, 1, &unknown, nullptr,
                      nullptr) == CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  // The clEnqueue* checks: out of bounds, overlap, a buffer of another context, a bad kernel.
  CHECK(fx.cb.copyBuffer(b, nullptr, m, m, 0, 60, 16, 0, nullptr, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(fx.cb.copyBuffer(b, nullptr, m, m, 0, 8, 16, 0, nullptr, nullptr, nullptr) ==
        CL_MEM_COPY_OVERLAP);
  CHECK(fx.cb.fillBuffer(b, nullptr, m, &zero, 3, 0, 64, 0, nullptr, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  {
    ClFixture other;
    cl_int err = CL_SUCCESS;
    cl_mem foreign = clCreateBuffer(other.ctx, 0, 64, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(fx.cb.copyBuffer(b, nullptr, foreign, m, 0, 0, 16, 0, nullptr, nullptr, nullptr) ==
          CL_INVALID_CONTEXT);
    clReleaseMemObject(foreign);
  }
  CHECK(fx.cb.copyBuffer(b, nullptr, nullptr, m, 0, 0, 16, 0, nullptr, nullptr, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  CHECK(fx.cb.ndrange(b, nullptr, nullptr, nullptr, 1, nullptr, &g, nullptr, 0, nullptr, nullptr,
                      nullptr) == CL_INVALID_KERNEL);
  CHECK(fx.cb.ndrange(b, nullptr, nullptr, k, 4, nullptr, &g, nullptr, 0, nullptr, nullptr,
                      nullptr) == CL_INVALID_WORK_DIMENSION);
  size_t l = 5;
  CHECK(fx.cb.ndrange(b, nullptr, nullptr, k, 1, nullptr, &g, &l, 0, nullptr, nullptr, nullptr) ==
        CL_INVALID_WORK_GROUP_SIZE);
  cl_kernel unset = fx.kernel("add");
  CHECK(fx.cb.ndrange(b, nullptr, nullptr, unset, 1, nullptr, &g, nullptr, 0, nullptr, nullptr,
                      nullptr) == CL_INVALID_KERNEL_ARGS);
  // "CL_INVALID_VALUE if values specified in properties are not valid"
  cl_ndrange_kernel_command_properties_khr badProps[] = {0x4242, 0, 0};
  CHECK(fx.cb.ndrange(b, nullptr, badProps, k, 1, nullptr, &g, nullptr, 0, nullptr, nullptr,
                      nullptr) == CL_INVALID_VALUE);
  // A failed command records nothing and takes no sync point.
  cl_sync_point_khr next = 0;
  REQUIRE(fx.cb.barrier(b, nullptr, 0, nullptr, &next, nullptr) == CL_SUCCESS);
  CHECK(next == sp + 1);
  // "CL_INVALID_OPERATION if command_buffer has been finalized."
  REQUIRE(fx.cb.finalize(b) == CL_SUCCESS);
  CHECK(fx.cb.barrier(b, nullptr, 0, nullptr, nullptr, nullptr) == CL_INVALID_OPERATION);
  CHECK(fx.cb.fillBuffer(b, nullptr, m, &zero, 4, 0, 64, 0, nullptr, nullptr, nullptr) ==
        CL_INVALID_OPERATION);
  CHECK(fx.cb.ndrange(b, nullptr, nullptr, k, 1, nullptr, &g, nullptr, 0, nullptr, nullptr,
                      nullptr) == CL_INVALID_OPERATION);
  // clFinalizeCommandBufferKHR: "CL_INVALID_OPERATION if command_buffer is not in the Recording
  // state."
  CHECK(fx.cb.finalize(b) == CL_INVALID_OPERATION);
  fx.run(b);
  CHECK(fx.read(m, 16) == std::vector<cl_int>(16, 0));
  fx.cb.release(b);
}

TEST_CASE("Given clGetCommandBufferInfoKHR, then every query answers through the buffer's life",
          "[cl][command_buffer]") {
  CbFixture fx;
  cl_uint before = queueRefs(fx.queue);
  cl_command_buffer_khr b = fx.newBuffer();
  // The buffer holds its queue ("should increment the reference count of attached OpenCL objects
  // such as queues").
  CHECK(queueRefs(fx.queue) == before + 1);
  cl_uint n = 0;
  REQUIRE(fx.cb.info(b, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, sizeof n, &n, nullptr) == CL_SUCCESS);
  CHECK(n == 1);
  cl_command_queue q = nullptr;
  size_t size = 0;
  REQUIRE(fx.cb.info(b, CL_COMMAND_BUFFER_QUEUES_KHR, sizeof q, &q, &size) == CL_SUCCESS);
  CHECK(q == fx.queue);
  CHECK(size == sizeof q);
  cl_uint refs = 0;
  REQUIRE(fx.cb.retain(b) == CL_SUCCESS);
  REQUIRE(fx.cb.info(b, CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR, sizeof refs, &refs, nullptr) ==
          CL_SUCCESS);
  CHECK(refs == 2);
  REQUIRE(fx.cb.release(b) == CL_SUCCESS);
  REQUIRE(fx.cb.info(b, CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR, sizeof refs, &refs, nullptr) ==
          CL_SUCCESS);
  CHECK(refs == 1);
  // Created with NULL properties: "may return ... a param_value_size_ret of 0".
  REQUIRE(fx.cb.info(b, CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR, 0, nullptr, &size) == CL_SUCCESS);
  CHECK(size == 0);
  CHECK(fx.state(b) == CL_COMMAND_BUFFER_STATE_RECORDING_KHR);
  // "CL_INVALID_VALUE if param_name is not one of the supported values or if size in bytes
  // specified by param_value_size is less than size of return type and param_value is not NULL."
  CHECK(fx.cb.info(b, 0x4242, sizeof n, &n, nullptr) == CL_INVALID_VALUE);
  CHECK(fx.cb.info(b, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, 1, &n, nullptr) == CL_INVALID_VALUE);

  // Pending while an enqueue waits for a user event, executable once it completed.
  cl_mem m = fx.buffer(4, {1, 2, 3, 4});
  cl_kernel k = fx.kernel("twice");
  REQUIRE(clSetKernelArg(k, 0, sizeof m, &m) == CL_SUCCESS);
  size_t g = 4;
  REQUIRE(fx.cb.ndrange(b, nullptr, nullptr, k, 1, nullptr, &g, nullptr, 0, nullptr, nullptr,
                        nullptr) == CL_SUCCESS);
  // "CL_INVALID_OPERATION if command_buffer has not been finalized."
  CHECK(fx.cb.enqueue(0, nullptr, b, 0, nullptr, nullptr) == CL_INVALID_OPERATION);
  REQUIRE(fx.cb.finalize(b) == CL_SUCCESS);
  CHECK(fx.state(b) == CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR);
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(fx.ctx, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_event done = nullptr;
  REQUIRE(fx.cb.enqueue(0, nullptr, b, 1, &gate, &done) == CL_SUCCESS);
  CHECK(fx.state(b) == CL_COMMAND_BUFFER_STATE_PENDING_KHR);
  // Not simultaneous-use: "CL_INVALID_OPERATION if command_buffer was not created with the
  // CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR flag and is in the Pending state."
  CHECK(fx.cb.enqueue(0, nullptr, b, 0, nullptr, nullptr) == CL_INVALID_OPERATION);
  cl_command_type type = 0;
  REQUIRE(clGetEventInfo(done, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS);
  CHECK(type == CL_COMMAND_COMMAND_BUFFER_KHR);
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &done) == CL_SUCCESS);
  CHECK(fx.state(b) == CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR);
  CHECK(fx.read(m, 4) == std::vector<cl_int>{2, 4, 6, 8});
  clReleaseEvent(done);
  clReleaseEvent(gate);
  REQUIRE(fx.cb.release(b) == CL_SUCCESS);
  CHECK(queueRefs(fx.queue) == before);

  cl_command_buffer_khr flagged = fx.newBuffer(CL_COMMAND_BUFFER_MUTABLE_KHR);
  cl_command_buffer_properties_khr props[3] = {};
  REQUIRE(fx.cb.info(flagged, CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR, sizeof props, props, &size) ==
          CL_SUCCESS);
  CHECK(size == sizeof props);
  CHECK(props[0] == CL_COMMAND_BUFFER_FLAGS_KHR);
  CHECK(props[1] == CL_COMMAND_BUFFER_MUTABLE_KHR);
  CHECK(props[2] == 0);
  fx.cb.release(flagged);
}

TEST_CASE(
    "Given clEnqueueCommandBufferKHR, then queue lists, substitutes and wait lists get the "
    "spec's codes, and a compatible queue runs the buffer",
    "[cl][command_buffer]") {
  CbFixture fx;
  cl_mem m = fx.buffer(4, {1, 1, 1, 1});
  cl_kernel k = fx.kernel("twice");
  REQUIRE(clSetKernelArg(k, 0, sizeof m, &m) == CL_SUCCESS);
  size_t g = 4;
  cl_command_buffer_khr b = fx.newBuffer();
  REQUIRE(fx.cb.ndrange(b, nullptr, nullptr, k, 1, nullptr, &g, nullptr, 0, nullptr, nullptr,
                        nullptr) == CL_SUCCESS);
  REQUIRE(fx.cb.finalize(b) == CL_SUCCESS);
  cl_command_queue qs[2] = {fx.queue, fx.queue};
  // "CL_INVALID_VALUE if queues is NULL and num_queues is > 0, or queues is not NULL and num_queues
  // is 0." / "if num_queues is > 0 and not the same value as num_queues set on creation."
  CHECK(fx.cb.enqueue(1, nullptr, b, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(fx.cb.enqueue(0, qs, b, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(fx.cb.enqueue(2, qs, b, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  // "CL_INVALID_COMMAND_QUEUE if any element of queues is not a valid command-queue."
  cl_command_queue bad[1] = {reinterpret_cast<cl_command_queue>(m)};
  CHECK(fx.cb.enqueue(1, bad, b, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  cl_int err = CL_SUCCESS;
  // "CL_INCOMPATIBLE_COMMAND_QUEUE_KHR if any element of queues is not compatible": other
  // properties.
  cl_command_queue profiling =
      clCreateCommandQueue(fx.ctx, fx.dev, CL_QUEUE_PROFILING_ENABLE, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(fx.cb.enqueue(1, &profiling, b, 0, nullptr, nullptr) == CL_INCOMPATIBLE_COMMAND_QUEUE_KHR);
  // "CL_INVALID_CONTEXT if any element of queues does not have the same context"
  ClFixture other;
  CHECK(fx.cb.enqueue(1, &other.queue, b, 0, nullptr, nullptr) == CL_INVALID_CONTEXT);
  // Wait lists: "CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and
  // num_events_in_wait_list > 0, or ... not NULL and ... 0, or ... not valid events";
  // "CL_INVALID_CONTEXT if context associated with command_buffer and events in event_wait_list
  // are not the same."
  cl_event foreign = clCreateUserEvent(other.ctx, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_event invalid = reinterpret_cast<cl_event>(m);
  CHECK(fx.cb.enqueue(0, nullptr, b, 1, nullptr, nullptr) == CL_INVALID_EVENT_WAIT_LIST);
  CHECK(fx.cb.enqueue(0, nullptr, b, 0, &foreign, nullptr) == CL_INVALID_EVENT_WAIT_LIST);
  CHECK(fx.cb.enqueue(0, nullptr, b, 1, &invalid, nullptr) == CL_INVALID_EVENT_WAIT_LIST);
  CHECK(fx.cb.enqueue(0, nullptr, b, 1, &foreign, nullptr) == CL_INVALID_CONTEXT);
  clReleaseEvent(foreign);
  // Nothing ran so far. A compatible substitute ("identical properties targeting the same device
  // and in the same OpenCL context") runs it.
  CHECK(fx.read(m, 4) == std::vector<cl_int>(4, 1));
  cl_command_queue twin = clCreateCommandQueue(fx.ctx, fx.dev, 0, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(fx.cb.enqueue(1, &twin, b, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clFinish(twin) == CL_SUCCESS);
  CHECK(fx.read(m, 4) == std::vector<cl_int>(4, 2));
  clReleaseCommandQueue(twin);
  clReleaseCommandQueue(profiling);
  fx.cb.release(b);
}

TEST_CASE(
    "Given two queues, when command buffers and commands wait for each other's events, then "
    "they run in that order",
    "[cl][command_buffer]") {
  CbFixture fx;
  cl_int err = CL_SUCCESS;
  cl_command_queue q2 = clCreateCommandQueue(fx.ctx, fx.dev, 0, &err);
  REQUIRE(err == CL_SUCCESS);
  const size_t n = 32;
  cl_mem a = fx.buffer(n, iota(n)), c = fx.buffer(n);
  cl_kernel twice = fx.kernel("twice"), add = fx.kernel("add");
  REQUIRE(clSetKernelArg(twice, 0, sizeof a, &a) == CL_SUCCESS);
  cl_int one = 1;
  setKernelArgs(add, {{sizeof(cl_mem), &c}, {sizeof(cl_mem), &a}, {sizeof one, &one}});
  // b1 on the first queue doubles a; b2 on the second computes c = a + 1.
  cl_command_buffer_khr b1 = fx.newBuffer(), b2 = fx.newBuffer(0, q2);
  REQUIRE(fx.cb.ndrange(b1, nullptr, nullptr, twice, 1, nullptr, &n, nullptr, 0, nullptr, nullptr,
                        nullptr) == CL_SUCCESS);
  REQUIRE(fx.cb.ndrange(b2, nullptr, nullptr, add, 1, nullptr, &n, nullptr, 0, nullptr, nullptr,
                        nullptr) == CL_SUCCESS);
  REQUIRE(fx.cb.finalize(b1) == CL_SUCCESS);
  REQUIRE(fx.cb.finalize(b2) == CL_SUCCESS);
  cl_event gate = clCreateUserEvent(fx.ctx, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_event e1 = nullptr, e2 = nullptr, e3 = nullptr;
  // b1 waits for the gate, b2 (second queue) for b1, then a direct kernel on the first queue for
  // b2: a = 2a, c = 2a + 1, a = 4a.
  REQUIRE(fx.cb.enqueue(0, nullptr, b1, 1, &gate, &e1) == CL_SUCCESS);
  REQUIRE(fx.cb.enqueue(0, nullptr, b2, 1, &e1, &e2) == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(fx.queue, twice, 1, nullptr, &n, nullptr, 1, &e2, &e3) ==
          CL_SUCCESS);
  cl_int status = 0;
  REQUIRE(clGetEventInfo(e2, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) ==
          CL_SUCCESS);
  CHECK(status > CL_COMPLETE);  // still waiting on the gate
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &e3) == CL_SUCCESS);
  std::vector<cl_int> av = fx.read(a, n), cv = fx.read(c, n, q2);
  for (size_t i = 0; i < n; ++i) {
    CHECK(cv[i] == 2 * cl_int(i) + 1);
    CHECK(av[i] == 4 * cl_int(i));
  }
  for (cl_event e : {gate, e1, e2, e3}) clReleaseEvent(e);
  fx.cb.release(b1);
  fx.cb.release(b2);
  clReleaseCommandQueue(q2);
}

TEST_CASE(
    "Given CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR, when the buffer is enqueued while "
    "pending, then every enqueue runs",
    "[cl][command_buffer]") {
  CbFixture fx;
  cl_mem m = fx.buffer(8, std::vector<cl_int>(8, 1));
  cl_kernel k = fx.kernel("twice");
  REQUIRE(clSetKernelArg(k, 0, sizeof m, &m) == CL_SUCCESS);
  size_t g = 8;
  cl_command_buffer_khr b = fx.newBuffer(CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR);
  REQUIRE(fx.cb.ndrange(b, nullptr, nullptr, k, 1, nullptr, &g, nullptr, 0, nullptr, nullptr,
                        nullptr) == CL_SUCCESS);
  REQUIRE(fx.cb.finalize(b) == CL_SUCCESS);
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(fx.ctx, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(fx.cb.enqueue(0, nullptr, b, 1, &gate, nullptr) == CL_SUCCESS);
  CHECK(fx.state(b) == CL_COMMAND_BUFFER_STATE_PENDING_KHR);
  for (int i = 0; i < 3; ++i)
    REQUIRE(fx.cb.enqueue(0, nullptr, b, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
  CHECK(fx.read(m, 8) == std::vector<cl_int>(8, 16));
  CHECK(fx.state(b) == CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR);
  clReleaseEvent(gate);
  // Released while an enqueue is in flight: "After the command_buffer reference count becomes
  // zero and has finished execution, the command-buffer is deleted."
  gate = clCreateUserEvent(fx.ctx, &err);
  REQUIRE(fx.cb.enqueue(0, nullptr, b, 1, &gate, nullptr) == CL_SUCCESS);
  REQUIRE(fx.cb.release(b) == CL_SUCCESS);
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
  CHECK(fx.read(m, 8) == std::vector<cl_int>(8, 32));
  clReleaseEvent(gate);
}

TEST_CASE(
    "Given a command buffer whose kernel and buffers the application released, then it "
    "still runs them, and an out-of-order queue's buffer runs with sync points",
    "[cl][command_buffer]") {
  CbFixture fx(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_int err = CL_SUCCESS;
  std::vector<cl_int> init = iota(16);
  cl_mem src = clCreateBuffer(fx.ctx, CL_MEM_COPY_HOST_PTR, 64, init.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem dst = fx.buffer(16);
  cl_kernel k = makeKernel(fx.program, "twice");
  REQUIRE(clSetKernelArg(k, 0, sizeof src, &src) == CL_SUCCESS);
  size_t g = 16;
  cl_command_buffer_khr b = fx.newBuffer();
  cl_sync_point_khr s0 = 0;
  REQUIRE(fx.cb.ndrange(b, nullptr, nullptr, k, 1, nullptr, &g, nullptr, 0, nullptr, &s0,
                        nullptr) == CL_SUCCESS);
  REQUIRE(fx.cb.copyBuffer(b, nullptr, src, dst, 0, 0, 64, 1, &s0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(fx.cb.finalize(b) == CL_SUCCESS);
  clReleaseKernel(k);
  clReleaseMemObject(src);
  fx.run(b);
  fx.run(b);
  std::vector<cl_int> got = fx.read(dst, 16);
  for (size_t i = 0; i < 16; ++i) CHECK(got[i] == 4 * cl_int(i));
  fx.cb.release(b);
}

TEST_CASE(
    "Given image commands in a command buffer, then fills and copies between images and "
    "buffers run on each enqueue",
    "[cl][command_buffer]") {
  CbFixture fx;
  if (!deviceInfo<cl_bool>(fx.dev, CL_DEVICE_IMAGE_SUPPORT)) return;
  const size_t w = 8, h = 4;
  const cl_image_format f{CL_R, CL_SIGNED_INT32};
  cl_image_desc d{};
  d.image_type = CL_MEM_OBJECT_IMAGE2D;
  d.image_width = w, d.image_height = h;
  cl_int err = CL_SUCCESS;
  cl_mem imgA = clCreateImage(fx.ctx, 0, &f, &d, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem imgB = clCreateImage(fx.ctx, 0, &f, &d, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem src = fx.buffer(w * h), out = fx.buffer(w * h);
  size_t origin[3] = {0, 0, 0}, region[3] = {w, h, 1};
  size_t fillOrigin[3] = {2, 1, 0}, fillRegion[3] = {3, 2, 1};
  cl_int color[4] = {-7, 0, 0, 0};
  cl_command_buffer_khr b = fx.newBuffer();
  cl_sync_point_khr s[3];
  REQUIRE(fx.cb.copyBufferToImage(b, nullptr, src, imgA, 0, origin, region, 0, nullptr, &s[0],
                                  nullptr) == CL_SUCCESS);
  REQUIRE(fx.cb.fillImage(b, nullptr, imgA, color, fillOrigin, fillRegion, 1, &s[0], &s[1],
                          nullptr) == CL_SUCCESS);
  REQUIRE(fx.cb.copyImage(b, nullptr, imgA, imgB, origin, origin, region, 1, &s[1], &s[2],
                          nullptr) == CL_SUCCESS);
  REQUIRE(fx.cb.copyImageToBuffer(b, nullptr, imgB, out, origin, region, 0, 1, &s[2], nullptr,
                                  nullptr) == CL_SUCCESS);
  // The image entry points' own checks: a region out of bounds, a buffer where an image belongs.
  size_t tooBig[3] = {w + 1, h, 1};
  CHECK(fx.cb.copyImage(b, nullptr, imgA, imgB, origin, origin, tooBig, 0, nullptr, nullptr,
                        nullptr) == CL_INVALID_VALUE);
  CHECK(fx.cb.fillImage(b, nullptr, src, color, origin, region, 0, nullptr, nullptr, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  REQUIRE(fx.cb.finalize(b) == CL_SUCCESS);
  for (cl_int round = 0; round < 2; ++round) {
    fx.write(src, iota(w * h, 100 * round));
    fx.run(b);
    std::vector<cl_int> got = fx.read(out, w * h);
    for (size_t y = 0; y < h; ++y)
      for (size_t x = 0; x < w; ++x) {
        bool filled = x >= 2 && x < 5 && y >= 1 && y < 3;
        INFO("round " << round << " x " << x << " y " << y);
        CHECK(got[y * w + x] == (filled ? -7 : 100 * round + cl_int(y * w + x)));
      }
  }
  fx.cb.release(b);
  clReleaseMemObject(imgA);
  clReleaseMemObject(imgB);
}

TEST_CASE(
    "Given a command buffer on a sub-device's queue, then its launches and copies run there, "
    "and a queue of the root device is not compatible",
    "[cl][command_buffer]") {
  cl_device_id root = device();
  cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_uint count = 0;
  cl_int r0 = clCreateSubDevices(root, props, 0, nullptr, &count);
  std::vector<cl_device_id> subs(count);
  if (r0 == CL_SUCCESS) r0 = clCreateSubDevices(root, props, count, subs.data(), nullptr);
  if (r0 != CL_SUCCESS || count == 0) {
    WARN("clCreateSubDevices answered " << r0 << ": sub-device command buffers not tested");
    return;
  }
  {
    CbFixture fx;  // context and queue on the root device
    cl_int err = CL_SUCCESS;
    cl_context ctx = clCreateContext(nullptr, 1, &subs.back(), nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueue(ctx, subs.back(), 0, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_program p = clCreateProgramWithSource(ctx, 1, &kCommandBufferSource, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clBuildProgram(p, 0, nullptr, "", nullptr, nullptr) == CL_SUCCESS);
    cl_kernel k = makeKernel(p, "twice");
    std::vector<cl_int> init = iota(32);
    cl_mem a = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, 128, init.data(), &err);
    REQUIRE(err == CL_SUCCESS);
    cl_mem b = clCreateBuffer(ctx, 0, 128, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 0, sizeof a, &a) == CL_SUCCESS);
    cl_command_buffer_khr cb = fx.cb.create(1, &q, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    size_t g = 32;
    cl_sync_point_khr s = 0;
    REQUIRE(fx.cb.ndrange(cb, nullptr, nullptr, k, 1, nullptr, &g, nullptr, 0, nullptr, &s,
                          nullptr) == CL_SUCCESS);
    REQUIRE(fx.cb.copyBuffer(cb, nullptr, a, b, 0, 0, 128, 1, &s, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(fx.cb.finalize(cb) == CL_SUCCESS);
    REQUIRE(fx.cb.enqueue(0, nullptr, cb, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(q) == CL_SUCCESS);
    REQUIRE(fx.cb.enqueue(1, &q, cb, 0, nullptr, nullptr) == CL_SUCCESS);
    std::vector<cl_int> got(32);
    REQUIRE(clEnqueueReadBuffer(q, b, CL_TRUE, 0, 128, got.data(), 0, nullptr, nullptr) ==
            CL_SUCCESS);
    for (size_t i = 0; i < 32; ++i) CHECK(got[i] == 4 * cl_int(i));
    // Another context's queue: CL_INVALID_CONTEXT; the root device's queue in a context of both
    // would be another device: CL_INCOMPATIBLE_COMMAND_QUEUE_KHR.
    CHECK(fx.cb.enqueue(1, &fx.queue, cb, 0, nullptr, nullptr) == CL_INVALID_CONTEXT);
    cl_device_id both[2] = {root, subs.back()};
    cl_context shared = clCreateContext(nullptr, 2, both, nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_command_queue onRoot = clCreateCommandQueue(shared, root, 0, &err);
    cl_command_queue onSub = clCreateCommandQueue(shared, subs.back(), 0, &err);
    cl_command_buffer_khr cb2 = fx.cb.create(1, &onSub, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(fx.cb.finalize(cb2) == CL_SUCCESS);
    CHECK(fx.cb.enqueue(1, &onRoot, cb2, 0, nullptr, nullptr) == CL_INCOMPATIBLE_COMMAND_QUEUE_KHR);
    fx.cb.release(cb2);
    clReleaseCommandQueue(onRoot);
    clReleaseCommandQueue(onSub);
    clReleaseContext(shared);
    fx.cb.release(cb);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
  }
  for (cl_device_id d : subs) clReleaseDevice(d);
}
