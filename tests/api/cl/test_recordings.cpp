// cl_qcom_recordable_queues: recordable queues, recordings and their replays with per-dispatch
// updates (arguments, SVM arguments, global and local sizes, offsets, exec info), replays on a
// sub-device of the context, the size limit, and every error code the extension lists.
#include <CL/cl_ext_qcom.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "cl_program_support.h"

using namespace tessera::cltest;

namespace {

const char* kSource = R"CL(
__kernel void tag(__global int* out, int t) {
  size_t g = get_global_id(0);
  out[g] = t * 1000 + (int)get_local_size(0);
}
__kernel void add(__global int* out, int v) { out[get_global_id(0)] += v; }
__kernel void fill2d(__global int* out, int w) {
  out[get_global_id(1) * w + get_global_id(0)] = (int)(get_global_id(1) * 100 + get_global_id(0));
}
__kernel __attribute__((reqd_work_group_size(4, 1, 1))) void fixed(__global int* out) {
  out[get_global_id(0)] = (int)get_local_size(0);
}
__kernel void work_dim(__global int* out) { out[get_global_id(0)] = (int)get_work_dim(); }
__kernel void local_copy(__global int* out, __local int* tmp) {
  size_t l = get_local_id(0);
  tmp[l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[get_local_size(0) - 1 - l];
}
)CL";

struct Qcom {
  clNewRecordingQCOM_fn newRecording;
  clEndRecordingQCOM_fn end;
  clReleaseRecordingQCOM_fn release;
  clRetainRecordingQCOM_fn retain;
  clEnqueueRecordingQCOM_fn enqueue;
  clEnqueueRecordingSVMQCOM_fn enqueueSvm;
  Qcom() {
    cl_platform_id p = platform();
    auto get = [&](const char* n) { return clGetExtensionFunctionAddressForPlatform(p, n); };
    newRecording = reinterpret_cast<clNewRecordingQCOM_fn>(get("clNewRecordingQCOM"));
    end = reinterpret_cast<clEndRecordingQCOM_fn>(get("clEndRecordingQCOM"));
    release = reinterpret_cast<clReleaseRecordingQCOM_fn>(get("clReleaseRecordingQCOM"));
    retain = reinterpret_cast<clRetainRecordingQCOM_fn>(get("clRetainRecordingQCOM"));
    enqueue = reinterpret_cast<clEnqueueRecordingQCOM_fn>(get("clEnqueueRecordingQCOM"));
    enqueueSvm = reinterpret_cast<clEnqueueRecordingSVMQCOM_fn>(get("clEnqueueRecordingSVMQCOM"));
    REQUIRE((newRecording && end && release && retain && enqueue && enqueueSvm));
  }
  // A replay without updates.
  cl_int replay(cl_command_queue q, cl_recording_qcom r, cl_event* e = nullptr) const {
    return enqueue(q, r, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr, e);
  }
};

// A context on `dev`, a live (in-order) queue, a recordable queue and the source program.
struct RecFixture : ClFixture {
  Qcom qc;
  cl_command_queue rq = nullptr;
  cl_program program = nullptr;
  explicit RecFixture(cl_device_id d = nullptr) : ClFixture(d) {
    cl_int err = CL_SUCCESS;
    rq = clCreateCommandQueue(ctx, dev, CL_QUEUE_RECORDABLE_QCOM, &err);
    REQUIRE(err == CL_SUCCESS);
    program = clCreateProgramWithSource(ctx, 1, &kSource, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clBuildProgram(program, 0, nullptr, "", nullptr, nullptr) == CL_SUCCESS);
  }
  ~RecFixture() {
    clReleaseProgram(program);
    clReleaseCommandQueue(rq);
  }
  cl_kernel kernel(const char* name) { return makeKernel(program, name); }
  cl_recording_qcom newRecording() {
    cl_int err = CL_SUCCESS;
    cl_recording_qcom r = qc.newRecording(rq, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(r);
    return r;
  }
  void record(cl_kernel k, size_t global, const size_t* local = nullptr, const size_t* offset = nullptr) {
    REQUIRE(clEnqueueNDRangeKernel(rq, k, 1, offset, &global, local, 0, nullptr, nullptr) ==
            CL_SUCCESS);
  }
};

cl_uint queueRefs(cl_command_queue q) {
  cl_uint n = 0;
  REQUIRE(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof n, &n, nullptr) == CL_SUCCESS);
  return n;
}

}  // namespace

TEST_CASE("Given the platform, then cl_qcom_recordable_queues is listed, its functions are found "
          "and CL_DEVICE_RECORDABLE_QUEUE_MAX_SIZE_QCOM answers",
          "[cl][recordings]") {
  cl_platform_id p = platform();
  size_t n = 0;
  REQUIRE(clGetPlatformInfo(p, CL_PLATFORM_EXTENSIONS, 0, nullptr, &n) == CL_SUCCESS);
  std::string ext(n, '\0');
  REQUIRE(clGetPlatformInfo(p, CL_PLATFORM_EXTENSIONS, n, ext.data(), nullptr) == CL_SUCCESS);
  CHECK(ext.find("cl_qcom_recordable_queues") != std::string::npos);
  cl_device_id d = device();
  CHECK(deviceString(d, CL_DEVICE_EXTENSIONS).find("cl_qcom_recordable_queues") != std::string::npos);
  CHECK(deviceInfo<cl_uint>(d, CL_DEVICE_RECORDABLE_QUEUE_MAX_SIZE_QCOM) == 65536);
  Qcom qc;  // every function through clGetExtensionFunctionAddressForPlatform
  for (const char* name : {"clNewRecordingQCOM", "clEndRecordingQCOM", "clReleaseRecordingQCOM",
                           "clRetainRecordingQCOM", "clEnqueueRecordingQCOM",
                           "clEnqueueRecordingSVMQCOM"})
    CHECK(clGetExtensionFunctionAddressForPlatform(p, name) ==
          clGetExtensionFunctionAddressForPlatform(p, name));
  CHECK(clGetExtensionFunctionAddressForPlatform(p, "clNewRecordingQCOMX") == nullptr);
}

TEST_CASE("Given CL_QUEUE_RECORDABLE_QCOM, then both queue creators accept it alone and refuse it "
          "with profiling, out-of-order or on-device",
          "[cl][recordings]") {
  ClFixture fx;
  cl_int err = CL_SUCCESS;
  cl_command_queue q = clCreateCommandQueue(fx.ctx, fx.dev, CL_QUEUE_RECORDABLE_QCOM, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_command_queue_properties props = 0;
  REQUIRE(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, nullptr) == CL_SUCCESS);
  CHECK(props == CL_QUEUE_RECORDABLE_QCOM);
  clReleaseCommandQueue(q);
  cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_RECORDABLE_QCOM, 0};
  q = clCreateCommandQueueWithProperties(fx.ctx, fx.dev, list, &err);
  REQUIRE(err == CL_SUCCESS);
  clReleaseCommandQueue(q);
  for (cl_command_queue_properties bad :
       {CL_QUEUE_PROFILING_ENABLE, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
        CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE}) {
    CHECK(clCreateCommandQueue(fx.ctx, fx.dev, CL_QUEUE_RECORDABLE_QCOM | bad, &err) == nullptr);
    CHECK(err == CL_INVALID_QUEUE_PROPERTIES);
    cl_queue_properties l[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_RECORDABLE_QCOM | bad, 0};
    CHECK(clCreateCommandQueueWithProperties(fx.ctx, fx.dev, l, &err) == nullptr);
    CHECK(err == CL_INVALID_QUEUE_PROPERTIES);
  }
}

TEST_CASE("Given a recordable queue, then only NDRanges inside an active recording are accepted, "
          "without events, and the recording's life follows the seed",
          "[cl][recordings]") {
  RecFixture fx;
  cl_kernel k = fx.kernel("tag");
  std::vector<int> out(64, -1);
  int t = 1;
  REQUIRE(clSetKernelArgSVMPointer(k, 0, out.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof t, &t) == CL_SUCCESS);
  size_t n = 16;
  cl_int err = CL_SUCCESS;

  // No active recording: "Enqueueing a command to a recordable queue when no recording is active
  // will result in a CL_INVALID_OPERATION error".
  CHECK(clEnqueueNDRangeKernel(fx.rq, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) ==
        CL_INVALID_OPERATION);
  // clNewRecordingQCOM's errors.
  CHECK(fx.qc.newRecording(nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_COMMAND_QUEUE);
  CHECK(fx.qc.newRecording(fx.queue, &err) == nullptr);
  CHECK(err == CL_INVALID_QUEUE_PROPERTIES);

  CHECK(queueRefs(fx.rq) == 1);
  cl_recording_qcom r = fx.newRecording();
  // "The new cl_recording_qcom object holds a refcount on <command_queue>"
  CHECK(queueRefs(fx.rq) == 2);
  CHECK(fx.qc.newRecording(fx.rq, &err) == nullptr);
  CHECK(err == CL_INVALID_OPERATION);

  // Every other enqueue: CL_INVALID_OPERATION; no events or wait lists.
  CHECK(clEnqueueMarkerWithWaitList(fx.rq, 0, nullptr, nullptr) == CL_INVALID_OPERATION);
  CHECK(clEnqueueBarrierWithWaitList(fx.rq, 0, nullptr, nullptr) == CL_INVALID_OPERATION);
  CHECK(clEnqueueTask(fx.rq, k, 0, nullptr, nullptr) == CL_INVALID_OPERATION);
  std::vector<int> dst(4);
  CHECK(clEnqueueSVMMemcpy(fx.rq, CL_FALSE, dst.data(), out.data(), 16, 0, nullptr, nullptr) != CL_SUCCESS);
  cl_event e = nullptr;
  CHECK(clEnqueueNDRangeKernel(fx.rq, k, 1, nullptr, &n, nullptr, 0, nullptr, &e) == CL_INVALID_VALUE);
  cl_event ue = clCreateUserEvent(fx.ctx, &err);
  CHECK(clEnqueueNDRangeKernel(fx.rq, k, 1, nullptr, &n, nullptr, 1, &ue, nullptr) ==
        CL_INVALID_EVENT_WAIT_LIST);
  clSetUserEventStatus(ue, CL_COMPLETE);
  clReleaseEvent(ue);
  // The launch checks of clEnqueueNDRangeKernel apply when recording.
  size_t bad = 5, local = 4;
  CHECK(clEnqueueNDRangeKernel(fx.rq, k, 1, nullptr, &bad, &local, 0, nullptr, nullptr) ==
        CL_INVALID_WORK_GROUP_SIZE);
  CHECK(clEnqueueNDRangeKernel(fx.rq, k, 0, nullptr, &n, nullptr, 0, nullptr, nullptr) ==
        CL_INVALID_WORK_DIMENSION);

  // Active: not executable, not releasable.
  CHECK(fx.qc.replay(fx.queue, r) == CL_INVALID_OPERATION);
  CHECK(fx.qc.release(r) == CL_INVALID_OPERATION);

  fx.record(k, n);
  CHECK(out[0] == -1);  // recorded, not run
  REQUIRE(fx.qc.end(r) == CL_SUCCESS);
  CHECK(queueRefs(fx.rq) == 1);
  // clEndRecordingQCOM's errors.
  CHECK(fx.qc.end(r) == CL_INVALID_OPERATION);
  CHECK(fx.qc.end(nullptr) == CL_INVALID_VALUE);
  CHECK(fx.qc.end(reinterpret_cast<cl_recording_qcom>(k)) == CL_INVALID_VALUE);
  // Ended: the queue has no active recording again.
  CHECK(clEnqueueNDRangeKernel(fx.rq, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) ==
        CL_INVALID_OPERATION);

  REQUIRE(fx.qc.replay(fx.queue, r) == CL_SUCCESS);
  REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
  for (size_t i = 0; i < n; ++i) CHECK(out[i] == 1000 + int(n));

  // Retain / release and their errors.
  CHECK(fx.qc.retain(r) == CL_SUCCESS);
  CHECK(fx.qc.release(r) == CL_SUCCESS);
  CHECK(fx.qc.retain(nullptr) == CL_INVALID_OPERATION);
  CHECK(fx.qc.release(nullptr) == CL_INVALID_OPERATION);
  CHECK(fx.qc.release(reinterpret_cast<cl_recording_qcom>(fx.queue)) == CL_INVALID_OPERATION);
  CHECK(fx.qc.release(r) == CL_SUCCESS);
  CHECK(fx.qc.retain(r) == CL_INVALID_OPERATION);  // released: no longer valid
  CHECK(fx.qc.replay(fx.queue, r) == CL_INVALID_VALUE);

  // The recording keeps its queue: released while recording, the queue lives until the end.
  cl_command_queue rq2 = clCreateCommandQueue(fx.ctx, fx.dev, CL_QUEUE_RECORDABLE_QCOM, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_recording_qcom r2 = fx.qc.newRecording(rq2, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clReleaseCommandQueue(rq2) == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(rq2, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(fx.qc.end(r2) == CL_SUCCESS);
  CHECK(fx.qc.release(r2) == CL_SUCCESS);
  clReleaseKernel(k);
}

TEST_CASE(
    "Given bad ranges, then a recordable queue answers the codes a queue answers, and a "
    "replay's updated sizes are checked alike",
    "[cl][recordings][ndrange]") {
  RecFixture fx;
  cl_kernel tag = fx.kernel("tag"), fixed = fx.kernel("fixed");
  std::vector<int> out(64, -1);
  int t = 1;
  REQUIRE(clSetKernelArgSVMPointer(tag, 0, out.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(tag, 1, sizeof t, &t) == CL_SUCCESS);
  REQUIRE(clSetKernelArgSVMPointer(fixed, 0, out.data()) == CL_SUCCESS);
  size_t maxItems[3] = {};
  REQUIRE(clGetDeviceInfo(fx.dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof maxItems, maxItems,
                          nullptr) == CL_SUCCESS);
  size_t zero = 0, seven = 7, eight = 8, l4096 = 4096, tooBig = maxItems[0] * 2;
  size_t hugeOffset = size_t(1) << 40;
  // More groups than Level Zero's 32-bit counts hold, given or chosen.
  size_t manyGroups = 4096 * ((size_t(1) << 32) + 1);
  struct Bad {
    cl_kernel k;
    size_t global;
    const size_t* local;
    const size_t* offset;
    cl_int code;
  };
  const Bad bad[] = {
      {tag, 64, &seven, nullptr, CL_INVALID_WORK_GROUP_SIZE},
      {tag, 64, &zero, nullptr, CL_INVALID_WORK_GROUP_SIZE},
      {tag, tooBig * 2, &tooBig, nullptr, CL_INVALID_WORK_ITEM_SIZE},
      {tag, 64, &eight, &hugeOffset, CL_INVALID_GLOBAL_OFFSET},
      {tag, ~size_t(0) - 4, nullptr, &eight, CL_INVALID_GLOBAL_OFFSET},
      {tag, manyGroups, &l4096, nullptr, CL_INVALID_GLOBAL_WORK_SIZE},
      {tag, manyGroups, nullptr, nullptr, CL_INVALID_GLOBAL_WORK_SIZE},
      {fixed, 6, nullptr, nullptr, CL_INVALID_WORK_GROUP_SIZE},  // the required 4 does not divide
      {fixed, 8, &eight, nullptr, CL_INVALID_WORK_GROUP_SIZE},
  };
  cl_recording_qcom r = fx.newRecording();
  for (size_t i = 0; i < std::size(bad); ++i) {
    const Bad& b = bad[i];
    INFO("case " << i);
    CHECK(clEnqueueNDRangeKernel(fx.queue, b.k, 1, b.offset, &b.global, b.local, 0, nullptr,
                                 nullptr) == b.code);
    CHECK(clEnqueueNDRangeKernel(fx.rq, b.k, 1, b.offset, &b.global, b.local, 0, nullptr,
                                 nullptr) == b.code);
  }
  REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
  fx.record(tag, 64, &eight);
  REQUIRE(fx.qc.end(r) == CL_SUCCESS);

  // A replay's new sizes go through the same checks; the extension lists one code for an invalid
  // size, "CL_INVALID_WORK_GROUP_SIZE if the global or local work group size is invalid", and
  // CL_INVALID_GLOBAL_WORK_SIZE stays the answer for a range too large to launch.
  cl_workgroup_qcom sevenLocal{0, &seven}, tooBigLocal{0, &tooBig}, chosen{0, nullptr};
  cl_workgroup_qcom manyGlobal{0, &manyGroups};
  auto replayWith = [&](const cl_workgroup_qcom* global, const cl_workgroup_qcom* local) {
    return fx.qc.enqueue(fx.queue, r, 0, nullptr, 0, nullptr, global ? 1 : 0, global, local ? 1 : 0,
                         local, 0, nullptr, nullptr);
  };
  CHECK(replayWith(nullptr, &sevenLocal) == CL_INVALID_WORK_GROUP_SIZE);
  CHECK(replayWith(nullptr, &tooBigLocal) == CL_INVALID_WORK_GROUP_SIZE);
  CHECK(replayWith(&manyGlobal, &chosen) == CL_INVALID_GLOBAL_WORK_SIZE);
  // Nothing was recorded by the refused launches, nothing changed by the refused updates.
  REQUIRE(fx.qc.replay(fx.queue, r) == CL_SUCCESS);
  REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
  for (int v : out) CHECK(v == 1008);
  fx.qc.release(r);
  clReleaseKernel(tag);
  clReleaseKernel(fixed);
}

TEST_CASE("watched child: replays with __local sizes past the device", "[.cl_recording_local]") {
  if (!inWatchedChild()) return;
  armWatchdog(240);
  RecFixture fx;
  cl_kernel k = fx.kernel("local_copy");
  std::vector<int> out(16, -1);
  REQUIRE(clSetKernelArgSVMPointer(k, 0, out.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, 16 * sizeof(int), nullptr) == CL_SUCCESS);
  cl_recording_qcom r = fx.newRecording();
  size_t local = 16;
  fx.record(k, 16, &local);
  REQUIRE(fx.qc.end(r) == CL_SUCCESS);
  const cl_ulong deviceLocal = deviceInfo<cl_ulong>(fx.dev, CL_DEVICE_LOCAL_MEM_SIZE);
  // As clEnqueueNDRangeKernel answers them: CL_OUT_OF_RESOURCES, and the recording keeps its
  // values (before the check, 1 TiB reached the executor and ended the process).
  for (size_t bytes : {size_t(deviceLocal) + 4, size_t{1} << 40, size_t{1} << 63, SIZE_MAX}) {
    INFO("__local bytes " << bytes);
    cl_array_arg_qcom arg{0, 1, bytes, nullptr};
    CHECK(fx.qc.enqueue(fx.queue, r, 1, &arg, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr,
                        nullptr) == CL_OUT_OF_RESOURCES);
  }
  REQUIRE(fx.qc.replay(fx.queue, r) == CL_SUCCESS);
  REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
  for (int l = 0; l < 16; ++l) CHECK(out[l] == 15 - l);
  fx.qc.release(r);
  clReleaseKernel(k);
}

TEST_CASE("Given a recording, when a replay gives a __local argument more memory than the device "
          "has, then clEnqueueRecordingQCOM answers CL_OUT_OF_RESOURCES",
          "[cl][recordings][local]") {
  runWatchedChild("watched child: replays with __local sizes past the device");
}

TEST_CASE("Given closed recordings, when enqueued wrongly, then clEnqueueRecordingQCOM answers "
          "each of the seed's codes and a failed replay changes nothing",
          "[cl][recordings]") {
  RecFixture fx;
  cl_kernel k = fx.kernel("tag");
  std::vector<int> out(64, -1), other(64, -1);
  int t = 2;
  REQUIRE(clSetKernelArgSVMPointer(k, 0, out.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof t, &t) == CL_SUCCESS);
  cl_recording_qcom empty = fx.newRecording();
  REQUIRE(fx.qc.end(empty) == CL_SUCCESS);
  cl_recording_qcom r = fx.newRecording();
  size_t local = 4;
  fx.record(k, 16, &local);
  REQUIRE(fx.qc.end(r) == CL_SUCCESS);
  cl_int err = CL_SUCCESS;

  CHECK(fx.qc.replay(nullptr, r) == CL_INVALID_COMMAND_QUEUE);
  CHECK(fx.qc.replay(fx.queue, nullptr) == CL_INVALID_VALUE);
  // "A zero length recording will also cause this error."
  CHECK(fx.qc.replay(fx.queue, empty) == CL_INVALID_OPERATION);
  // "It must not be a recordable queue."
  CHECK(fx.qc.replay(fx.rq, r) == CL_INVALID_OPERATION);
  // "CL_INVALID_QUEUE_PROPERTIES if a recording is enqueued in an on-device queue or out of order
  // queue."
  cl_command_queue ooo =
      clCreateCommandQueue(fx.ctx, fx.dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(fx.qc.replay(ooo, r) == CL_INVALID_QUEUE_PROPERTIES);
  clReleaseCommandQueue(ooo);
  // "CL_INVALID_CONTEXT if <command_queue> was not created on the same context as <recording>."
  {
    ClFixture other_ctx(fx.dev);
    CHECK(fx.qc.replay(other_ctx.queue, r) == CL_INVALID_CONTEXT);
  }
  // Wait lists.
  cl_event ue = clCreateUserEvent(fx.ctx, &err);
  CHECK(fx.qc.enqueue(fx.queue, r, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 1, nullptr,
                      nullptr) == CL_INVALID_EVENT_WAIT_LIST);
  CHECK(fx.qc.enqueue(fx.queue, r, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 0, &ue,
                      nullptr) == CL_INVALID_EVENT_WAIT_LIST);
  cl_event bogus = reinterpret_cast<cl_event>(k);
  CHECK(fx.qc.enqueue(fx.queue, r, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 1, &bogus,
                      nullptr) == CL_INVALID_EVENT_WAIT_LIST);
  clSetUserEventStatus(ue, CL_COMPLETE);
  clReleaseEvent(ue);

  int newTag = 7;
  cl_array_arg_qcom goodArg{0, 1, sizeof newTag, &newTag};
  // "CL_INVALID_KERNEL_ARGS if a dispatch index is out of bounds."
  cl_array_arg_qcom outOfRange{1, 1, sizeof newTag, &newTag};
  cl_array_arg_qcom twoArgs[2] = {goodArg, outOfRange};
  CHECK(fx.qc.enqueue(fx.queue, r, 2, twoArgs, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr,
                      nullptr) == CL_INVALID_KERNEL_ARGS);
  cl_offset_qcom badOffset{3, {1, 0, 0}};
  CHECK(fx.qc.enqueue(fx.queue, r, 0, nullptr, 1, &badOffset, 0, nullptr, 0, nullptr, 0, nullptr,
                      nullptr) == CL_INVALID_KERNEL_ARGS);
  // "CL_INVALID_ARG_INDEX if <arg_array> ... tries to modify a valid dispatch index, but invalid
  // kernel argument index."
  cl_array_arg_qcom badIndex{0, 2, sizeof newTag, &newTag};
  CHECK(fx.qc.enqueue(fx.queue, r, 1, &badIndex, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr,
                      nullptr) == CL_INVALID_ARG_INDEX);
  cl_array_arg_qcom badSvmIndex{0, 9, 0, other.data()};
  CHECK(fx.qc.enqueueSvm(fx.queue, r, 0, nullptr, 1, &badSvmIndex, 0, nullptr, 0, nullptr, 0,
                         nullptr, 0, nullptr, 0, nullptr, nullptr) == CL_INVALID_ARG_INDEX);
  // Values are checked as clSetKernelArg checks them.
  cl_array_arg_qcom badSize{0, 1, 2, &newTag};
  CHECK(fx.qc.enqueue(fx.queue, r, 1, &badSize, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr,
                      nullptr) == CL_INVALID_ARG_SIZE);
  cl_array_arg_qcom svmOnValue{0, 1, 0, other.data()};
  CHECK(fx.qc.enqueueSvm(fx.queue, r, 0, nullptr, 1, &svmOnValue, 0, nullptr, 0, nullptr, 0,
                         nullptr, 0, nullptr, 0, nullptr, nullptr) == CL_INVALID_ARG_VALUE);
  // "CL_INVALID_GLOBAL_WORK_SIZE if a global work size is set to NULL"
  cl_workgroup_qcom nullGlobal{0, nullptr};
  CHECK(fx.qc.enqueue(fx.queue, r, 1, &goodArg, 0, nullptr, 1, &nullGlobal, 0, nullptr, 0, nullptr,
                      nullptr) == CL_INVALID_GLOBAL_WORK_SIZE);
  // "CL_INVALID_WORK_GROUP_SIZE if the global or local work group size is invalid."
  size_t g10 = 10, l3 = 3, huge = 1u << 20;
  cl_workgroup_qcom global10{0, &g10}, local3{0, &l3}, localHuge{0, &huge};
  CHECK(fx.qc.enqueue(fx.queue, r, 0, nullptr, 0, nullptr, 1, &global10, 0, nullptr, 0, nullptr,
                      nullptr) == CL_INVALID_WORK_GROUP_SIZE);  // 10 % the recorded 4
  CHECK(fx.qc.enqueue(fx.queue, r, 0, nullptr, 0, nullptr, 0, nullptr, 1, &local3, 0, nullptr,
                      nullptr) == CL_INVALID_WORK_GROUP_SIZE);
  CHECK(fx.qc.enqueue(fx.queue, r, 0, nullptr, 0, nullptr, 0, nullptr, 1, &localHuge, 0, nullptr,
                      nullptr) == CL_INVALID_WORK_GROUP_SIZE);
  // Exec info: clSetKernelExecInfo's CL_INVALID_VALUE.
  cl_bool yes = CL_TRUE;
  cl_array_kernel_exec_info_qcom badInfo{0, 0x1234, sizeof yes, &yes};
  CHECK(fx.qc.enqueueSvm(fx.queue, r, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 1,
                         &badInfo, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  // Counts without arrays.
  CHECK(fx.qc.enqueue(fx.queue, r, 1, nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr,
                      nullptr) == CL_INVALID_VALUE);

  // None of the failed replays changed the recording (goodArg was in several of them).
  REQUIRE(fx.qc.replay(fx.queue, r) == CL_SUCCESS);
  REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
  for (int i = 0; i < 16; ++i) CHECK(out[i] == 2004);
  CHECK(out[16] == -1);
  fx.qc.release(r);
  fx.qc.release(empty);
  clReleaseKernel(k);
}

TEST_CASE("Given the same kernel recorded twice and another kernel, when replayed with updates by "
          "dispatch index, then each dispatch changes alone, updates persist, and the kernel "
          "objects never see them",
          "[cl][recordings]") {
  RecFixture fx;
  cl_kernel tag = fx.kernel("tag"), add = fx.kernel("add");
  std::vector<int> a(64, -1), b(64, -1), c(64, -1);
  int t = 1, v = 10;
  REQUIRE(clSetKernelArgSVMPointer(tag, 0, a.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(tag, 1, sizeof t, &t) == CL_SUCCESS);
  REQUIRE(clSetKernelArgSVMPointer(add, 0, a.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(add, 1, sizeof v, &v) == CL_SUCCESS);
  size_t four = 4;
  cl_recording_qcom r = fx.newRecording();
  fx.record(tag, 16, &four);  // dispatch 0: a[0..15] = 1004
  fx.record(add, 8);          // dispatch 1: a[0..7] += 10
  t = 2;
  REQUIRE(clSetKernelArgSVMPointer(tag, 0, b.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(tag, 1, sizeof t, &t) == CL_SUCCESS);
  fx.record(tag, 8, &four);   // dispatch 2: b[0..7] = 2004 (the same kernel, its own values)
  REQUIRE(fx.qc.end(r) == CL_SUCCESS);
  // Arguments set after recording do not reach the recording.
  t = 99;
  REQUIRE(clSetKernelArg(tag, 1, sizeof t, &t) == CL_SUCCESS);

  auto run = [&](size_t nArgs, const cl_array_arg_qcom* args, size_t nSvm = 0,
                 const cl_array_arg_qcom* svm = nullptr) {
    std::fill(a.begin(), a.end(), -1);
    std::fill(b.begin(), b.end(), -1);
    std::fill(c.begin(), c.end(), -1);
    cl_event e = nullptr;
    REQUIRE(fx.qc.enqueueSvm(fx.queue, r, nArgs, args, nSvm, svm, 0, nullptr, 0, nullptr, 0,
                             nullptr, 0, nullptr, 0, nullptr, &e) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &e) == CL_SUCCESS);
    clReleaseEvent(e);
  };
  run(0, nullptr);
  for (int i = 0; i < 16; ++i) CHECK(a[i] == 1004 + (i < 8 ? 10 : 0));
  for (int i = 0; i < 8; ++i) CHECK(b[i] == 2004);
  CHECK(b[8] == -1);

  // Dispatch 2 only: its tag and (SVM) output.
  int t5 = 5;
  cl_array_arg_qcom u2{2, 1, sizeof t5, &t5};
  cl_array_arg_qcom s2{2, 0, 0, c.data()};
  run(1, &u2, 1, &s2);
  for (int i = 0; i < 16; ++i) CHECK(a[i] == 1004 + (i < 8 ? 10 : 0));
  CHECK(b[0] == -1);
  for (int i = 0; i < 8; ++i) CHECK(c[i] == 5004);
  // Persistent: a replay without updates keeps them; then dispatch 1 changes too.
  run(0, nullptr);
  for (int i = 0; i < 8; ++i) CHECK(c[i] == 5004);
  int v3 = 3;
  cl_array_arg_qcom u1{1, 1, sizeof v3, &v3};
  run(1, &u1);
  for (int i = 0; i < 8; ++i) CHECK(a[i] == 1007);
  for (int i = 0; i < 8; ++i) CHECK(c[i] == 5004);

  // The kernel objects keep their own values: a direct launch of tag uses t = 99 and b.
  std::fill(b.begin(), b.end(), -1);
  std::fill(c.begin(), c.end(), -1);
  size_t n = 4;
  runKernel(fx.queue, tag, 1, &n, &four);
  CHECK(b[0] == 99004);
  CHECK(c[0] == -1);
  fx.qc.release(r);
  clReleaseKernel(tag);
  clReleaseKernel(add);
}

TEST_CASE("Given a recording, when global sizes, local sizes and offsets are updated, then the "
          "dispatches run with them and keep them",
          "[cl][recordings]") {
  RecFixture fx;
  cl_kernel tag = fx.kernel("tag"), fill2d = fx.kernel("fill2d"), fixed = fx.kernel("fixed");
  std::vector<int> out(256, -1), grid(16 * 16, -1), fx4(64, -1);
  int t = 1, w = 16;
  REQUIRE(clSetKernelArgSVMPointer(tag, 0, out.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(tag, 1, sizeof t, &t) == CL_SUCCESS);
  REQUIRE(clSetKernelArgSVMPointer(fill2d, 0, grid.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(fill2d, 1, sizeof w, &w) == CL_SUCCESS);
  REQUIRE(clSetKernelArgSVMPointer(fixed, 0, fx4.data()) == CL_SUCCESS);
  cl_recording_qcom r = fx.newRecording();
  size_t eight = 8;
  fx.record(tag, 16, &eight);  // dispatch 0
  size_t g2[2] = {4, 4};
  REQUIRE(clEnqueueNDRangeKernel(fx.rq, fill2d, 2, nullptr, g2, nullptr, 0, nullptr, nullptr) ==
          CL_SUCCESS);  // dispatch 1
  fx.record(fixed, 8);  // dispatch 2: the required size
  REQUIRE(fx.qc.end(r) == CL_SUCCESS);

  // The seed's sample: a new global size (and an offset, and a NULL local size: chosen again).
  size_t g0 = 32, off = 64, l0 = 16;
  cl_workgroup_qcom global0{0, &g0}, local0{0, &l0}, localChosen{0, nullptr};
  cl_offset_qcom offset0{0, {off, 555, 555}};  // elements past work_dim ignored
  size_t g1[2] = {8, 3};
  cl_workgroup_qcom global1{1, g1};
  cl_offset_qcom offset1{1, {2, 5, 0}};
  cl_workgroup_qcom globals[2] = {global0, global1};
  cl_offset_qcom offsets[2] = {offset0, offset1};
  REQUIRE(fx.qc.enqueue(fx.queue, r, 0, nullptr, 2, offsets, 2, globals, 1, &local0, 0, nullptr,
                        nullptr) == CL_SUCCESS);
  REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
  for (int i = 0; i < 256; ++i) CHECK(out[i] == (i >= 64 && i < 96 ? 1016 : -1));
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 16; ++x) {
      bool inside = x >= 2 && x < 10 && y >= 5 && y < 8;
      REQUIRE(grid[y * 16 + x] == (inside ? y * 100 + x : -1));
    }
  for (int i = 0; i < 8; ++i) CHECK(fx4[i] == 4);

  // Persistent; then back to a chosen local size (32 items: the implementation picks a divisor).
  std::fill(out.begin(), out.end(), -1);
  REQUIRE(fx.qc.enqueue(fx.queue, r, 0, nullptr, 0, nullptr, 0, nullptr, 1, &localChosen, 0,
                        nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
  CHECK(out[63] == -1);
  CHECK(out[64] / 1000 == 1);
  CHECK(32 % (out[64] % 1000) == 0);
  CHECK(out[95] == out[64]);
  CHECK(out[96] == -1);
  // The required work-group size stays enforced.
  size_t l8 = 8;
  cl_workgroup_qcom local2{2, &l8};
  CHECK(fx.qc.enqueue(fx.queue, r, 0, nullptr, 0, nullptr, 0, nullptr, 1, &local2, 0, nullptr,
                      nullptr) == CL_INVALID_WORK_GROUP_SIZE);
  fx.qc.release(r);
  clReleaseKernel(tag);
  clReleaseKernel(fill2d);
  clReleaseKernel(fixed);
}

TEST_CASE("Given a recording, when replayed with wait lists, then it waits and its event reports "
          "the command; exec info updates are accepted per dispatch",
          "[cl][recordings]") {
  RecFixture fx;
  cl_kernel add = fx.kernel("add");
  std::vector<int> out(16, 0);
  int v = 1;
  REQUIRE(clSetKernelArgSVMPointer(add, 0, out.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(add, 1, sizeof v, &v) == CL_SUCCESS);
  cl_recording_qcom r = fx.newRecording();
  fx.record(add, 16);
  fx.record(add, 16);
  REQUIRE(fx.qc.end(r) == CL_SUCCESS);
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(fx.ctx, &err);
  cl_event done = nullptr;
  void* ptrs[1] = {out.data()};
  cl_bool fine = CL_TRUE;
  cl_array_kernel_exec_info_qcom info[2] = {{0, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, ptrs},
                                            {1, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                                             sizeof fine, &fine}};
  REQUIRE(fx.qc.enqueueSvm(fx.queue, r, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr,
                           2, info, 1, &gate, &done) == CL_SUCCESS);
  cl_int status = 0;
  REQUIRE(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                         nullptr) == CL_SUCCESS);
  CHECK(status != CL_COMPLETE);
  CHECK(out[0] == 0);
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &done) == CL_SUCCESS);
  for (int i = 0; i < 16; ++i) CHECK(out[i] == 2);
  cl_command_queue q = nullptr;
  REQUIRE(clGetEventInfo(done, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, nullptr) == CL_SUCCESS);
  CHECK(q == fx.queue);
  clReleaseEvent(done);
  clReleaseEvent(gate);
  // Many replays back to back, in order.
  for (int i = 0; i < 50; ++i) REQUIRE(fx.qc.replay(fx.queue, r) == CL_SUCCESS);
  REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
  for (int i = 0; i < 16; ++i) CHECK(out[i] == 102);
  // The recording outlives its kernel object.
  clReleaseKernel(add);
  REQUIRE(fx.qc.replay(fx.queue, r) == CL_SUCCESS);
  REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
  CHECK(out[0] == 104);
  fx.qc.release(r);
}

TEST_CASE(
    "Given NDRanges recorded with a work_dim above their dimensions of size 1, then replays "
    "keep each one's get_work_dim()",
    "[cl][recordings][workdim]") {
  RecFixture fx;
  cl_kernel k = fx.kernel("work_dim");
  std::vector<int> a(8, -1), b(8, -1);
  const size_t global[3] = {8, 1, 1};
  cl_recording_qcom rec = fx.newRecording();
  REQUIRE(clSetKernelArgSVMPointer(k, 0, a.data()) == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(fx.rq, k, 3, nullptr, global, nullptr, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  REQUIRE(clSetKernelArgSVMPointer(k, 0, b.data()) == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(fx.rq, k, 2, nullptr, global, nullptr, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  REQUIRE(fx.qc.end(rec) == CL_SUCCESS);
  REQUIRE(fx.qc.replay(fx.queue, rec) == CL_SUCCESS);
  REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
  for (int i = 0; i < 8; ++i) {
    CHECK(a[i] == 3);
    CHECK(b[i] == 2);
  }
  fx.qc.release(rec);
  clReleaseKernel(k);
}

TEST_CASE("Given a recording made on the root device, when replayed on a queue of a sub-device of "
          "the same context, then it runs there with the recording's current values",
          "[cl][recordings]") {
  cl_device_id root = device();
  cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_uint count = 0;
  cl_int r0 = clCreateSubDevices(root, props, 0, nullptr, &count);
  std::vector<cl_device_id> subs(count);
  if (r0 == CL_SUCCESS) r0 = clCreateSubDevices(root, props, count, subs.data(), nullptr);
  if (r0 != CL_SUCCESS || count == 0) {
    WARN("clCreateSubDevices answered " << r0 << ": cross-device replay not tested");
    return;
  }
  {
    RecFixture fx(root);
    cl_int err = CL_SUCCESS;
    cl_command_queue subq = clCreateCommandQueue(fx.ctx, subs[0], 0, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_kernel tag = fx.kernel("tag");
    std::vector<int> out(64, -1), other(64, -1);
    int t = 3;
    REQUIRE(clSetKernelArgSVMPointer(tag, 0, out.data()) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(tag, 1, sizeof t, &t) == CL_SUCCESS);
    size_t four = 4;
    cl_recording_qcom rec = fx.newRecording();
    fx.record(tag, 8, &four);
    fx.record(tag, 8, &four, &four);  // items 4..11 after 0..7
    REQUIRE(fx.qc.end(rec) == CL_SUCCESS);
    // An update before the first replay there: the sub-device's list is made with it.
    int t4 = 4;
    cl_array_arg_qcom u{1, 1, sizeof t4, &t4};
    REQUIRE(fx.qc.enqueue(fx.queue, rec, 1, &u, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr,
                          nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
    std::fill(out.begin(), out.end(), -1);
    REQUIRE(fx.qc.replay(subq, rec) == CL_SUCCESS);
    REQUIRE(clFinish(subq) == CL_SUCCESS);
    for (int i = 0; i < 4; ++i) CHECK(out[i] == 3004);
    for (int i = 4; i < 12; ++i) CHECK(out[i] == 4004);
    // An update after: both devices' lists follow.
    cl_array_arg_qcom s{0, 0, 0, other.data()};
    REQUIRE(fx.qc.enqueueSvm(subq, rec, 0, nullptr, 1, &s, 0, nullptr, 0, nullptr, 0, nullptr, 0,
                             nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(subq) == CL_SUCCESS);
    CHECK(other[0] == 3004);
    std::fill(other.begin(), other.end(), -1);
    REQUIRE(fx.qc.replay(fx.queue, rec) == CL_SUCCESS);
    REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
    CHECK(other[7] == 3004);
    fx.qc.release(rec);
    clReleaseKernel(tag);
    clReleaseCommandQueue(subq);
  }
  for (cl_device_id d : subs) clReleaseDevice(d);
}

TEST_CASE("Given CL_DEVICE_RECORDABLE_QUEUE_MAX_SIZE_QCOM dispatches recorded, then one more is "
          "refused with CL_INVALID_OPERATION and the recording still replays",
          "[cl][recordings][max_size]") {
  RecFixture fx;
  cl_kernel add = fx.kernel("add");
  std::vector<int> out(1, 0);
  int v = 1;
  REQUIRE(clSetKernelArgSVMPointer(add, 0, out.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(add, 1, sizeof v, &v) == CL_SUCCESS);
  cl_uint max = deviceInfo<cl_uint>(fx.dev, CL_DEVICE_RECORDABLE_QUEUE_MAX_SIZE_QCOM);
  cl_recording_qcom r = fx.newRecording();
  size_t one = 1;
  for (cl_uint i = 0; i < max; ++i)
    REQUIRE(clEnqueueNDRangeKernel(fx.rq, add, 1, nullptr, &one, nullptr, 0, nullptr, nullptr) ==
            CL_SUCCESS);
  CHECK(clEnqueueNDRangeKernel(fx.rq, add, 1, nullptr, &one, nullptr, 0, nullptr, nullptr) ==
        CL_INVALID_OPERATION);
  REQUIRE(fx.qc.end(r) == CL_SUCCESS);
  cl_array_arg_qcom last{max - 1, 1, sizeof v, &v};
  cl_array_arg_qcom beyond{max, 1, sizeof v, &v};
  CHECK(fx.qc.enqueue(fx.queue, r, 1, &beyond, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr,
                      nullptr) == CL_INVALID_KERNEL_ARGS);
  REQUIRE(fx.qc.enqueue(fx.queue, r, 1, &last, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr,
                        nullptr) == CL_SUCCESS);
  REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
  CHECK(out[0] == int(max));
  fx.qc.release(r);
  clReleaseKernel(add);
}

TEST_CASE("Given buffers, when a recorded buffer argument is replaced through arg_array, then the "
          "dispatch writes the new buffer and the recording holds it",
          "[cl][recordings]") {
  RecFixture fx;
  cl_int err = CL_SUCCESS;
  cl_mem a = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, 64 * sizeof(int), nullptr, &err);
  if (err != CL_SUCCESS) {
    WARN("clCreateBuffer answered " << err << ": buffer updates not tested on this build");
    return;
  }
  cl_mem b = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, 64 * sizeof(int), nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_kernel tag = fx.kernel("tag");
  int t = 6;
  REQUIRE(clSetKernelArg(tag, 0, sizeof a, &a) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(tag, 1, sizeof t, &t) == CL_SUCCESS);
  size_t four = 4;
  cl_recording_qcom r = fx.newRecording();
  fx.record(tag, 8, &four);
  REQUIRE(fx.qc.end(r) == CL_SUCCESS);
  cl_array_arg_qcom u{0, 0, sizeof b, &b};
  REQUIRE(fx.qc.enqueue(fx.queue, r, 1, &u, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr,
                        nullptr) == CL_SUCCESS);
  // Released by the application, held by the recording.
  clReleaseMemObject(b);
  REQUIRE(fx.qc.replay(fx.queue, r) == CL_SUCCESS);
  REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
  cl_mem bogus = reinterpret_cast<cl_mem>(tag);
  cl_array_arg_qcom bad{0, 0, sizeof bogus, &bogus};
  CHECK(fx.qc.enqueue(fx.queue, r, 1, &bad, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr,
                      nullptr) == CL_INVALID_MEM_OBJECT);
  fx.qc.release(r);
  clReleaseKernel(tag);
  clReleaseMemObject(a);
}
