// Recorded OpenCL work against direct enqueues: host time per dispatch of 100 small ND-ranges
// replayed as a cl_qcom_recordable_queues recording (clEnqueueRecordingQCOM, with and without one
// argument update) and as a cl_khr_command_buffer (clEnqueueCommandBufferKHR, and after
// clUpdateMutableCommandsKHR of one argument with cl_khr_command_buffer_mutable_dispatch), against
// the same 100 clEnqueueNDRangeKernel calls on a regular in-order queue. Timed: the enqueue calls
// alone (the kernels run on the device's threads meanwhile; clFinish between samples, untimed),
// and separately enqueue + clFinish; see main() for how kernel execution is kept out of the first.
// Through the ICD loader on the first platform: OCL_ICD_VENDORS names Tessera's .icd folder (or
// another implementation's .icd, e.g. PoCL's: what the platform lacks is left out).
// BENCH_SCALE (default 1) scales the number of samples.
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_ext_qcom.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <thread>
#include <vector>

#include "bench_stats.h"
#include "cl_check.h"

namespace {

const char* kSource = R"CL(
__kernel void tiny(__global int* out, int v) { out[get_global_id(0)] = v; }
)CL";

constexpr int kDispatches = 100;
constexpr size_t kItems = 64;

// After clFinish the device's threads spin for up to TESSERA_SPIN_US (100 us) before they sleep; on
// a machine with few PUs they would take the host thread's CPU during the next timed section. Each
// timed section starts from an idle device.
void settle() {
  std::this_thread::sleep_for(std::chrono::microseconds(500));
}

using tessera::bench::nowUs;
using tessera::bench::Stats;
using tessera::bench::stats;
void report(const char* what, const Stats& s) {
  std::printf("%-66s median %8.4f us/dispatch  [p10 %.4f, p90 %.4f]\n", what, s.median, s.p10,
              s.p90);
}

template <typename F>
F function(cl_platform_id platform, const char* name) {
  return reinterpret_cast<F>(clGetExtensionFunctionAddressForPlatform(platform, name));
}

}  // namespace

int main() {
  double scale = 1.0;
  if (const char* s = std::getenv("BENCH_SCALE")) scale = std::atof(s);
  const int samples = std::max(5, int(400 * scale));

  cl_platform_id platform = nullptr;
  CL_CHECK(clGetPlatformIDs(1, &platform, nullptr));
  cl_device_id device = nullptr;
  CL_CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr));
  char name[256] = {};
  CL_CHECK(clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, nullptr));

  auto newRecording = function<clNewRecordingQCOM_fn>(platform, "clNewRecordingQCOM");
  auto endRecording = function<clEndRecordingQCOM_fn>(platform, "clEndRecordingQCOM");
  auto releaseRecording = function<clReleaseRecordingQCOM_fn>(platform, "clReleaseRecordingQCOM");
  auto enqueueRecording = function<clEnqueueRecordingQCOM_fn>(platform, "clEnqueueRecordingQCOM");
  const bool recordings = newRecording && endRecording && releaseRecording && enqueueRecording;
  auto createCb = function<clCreateCommandBufferKHR_fn>(platform, "clCreateCommandBufferKHR");
  auto commandNDRange =
      function<clCommandNDRangeKernelKHR_fn>(platform, "clCommandNDRangeKernelKHR");
  auto finalizeCb = function<clFinalizeCommandBufferKHR_fn>(platform, "clFinalizeCommandBufferKHR");
  auto enqueueCb = function<clEnqueueCommandBufferKHR_fn>(platform, "clEnqueueCommandBufferKHR");
  auto releaseCb = function<clReleaseCommandBufferKHR_fn>(platform, "clReleaseCommandBufferKHR");
  auto updateCb = function<clUpdateMutableCommandsKHR_fn>(platform, "clUpdateMutableCommandsKHR");
  const bool commandBuffers = createCb && commandNDRange && finalizeCb && enqueueCb && releaseCb;
  const bool mutableDispatch = commandBuffers && updateCb;

  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  CL_CHECK(err);
  cl_command_queue live = clCreateCommandQueue(context, device, 0, &err);
  CL_CHECK(err);
  cl_program program = clCreateProgramWithSource(context, 1, &kSource, nullptr, &err);
  CL_CHECK(err);
  CL_CHECK(clBuildProgram(program, 1, &device, "", nullptr, nullptr));
  cl_kernel kernel = clCreateKernel(program, "tiny", &err);
  CL_CHECK(err);
  // The output: host memory through fine-grained system SVM where the device has it (no buffer to
  // hold per launch), else a buffer.
  std::vector<int> out(kItems * kDispatches, 0);
  cl_device_svm_capabilities svm = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, nullptr) != CL_SUCCESS)
    svm = 0;
  cl_mem outBuffer = nullptr;
  if (svm & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM) {
    CL_CHECK(clSetKernelArgSVMPointer(kernel, 0, out.data()));
  } else {
    outBuffer = clCreateBuffer(context, CL_MEM_READ_WRITE, out.size() * sizeof(int), nullptr, &err);
    CL_CHECK(err);
    CL_CHECK(clSetKernelArg(kernel, 0, sizeof outBuffer, &outBuffer));
  }
  auto firstValue = [&] {
    if (!outBuffer) return out[0];
    int v = 0;
    CL_CHECK(clEnqueueReadBuffer(live, outBuffer, CL_TRUE, 0, sizeof v, &v, 0, nullptr, nullptr));
    return v;
  };
  int v = 1;
  CL_CHECK(clSetKernelArg(kernel, 1, sizeof v, &v));
  const size_t items = kItems;

  cl_command_queue recordable = nullptr;
  cl_recording_qcom recording = nullptr;
  if (recordings) {
    recordable = clCreateCommandQueue(context, device, CL_QUEUE_RECORDABLE_QCOM, &err);
    CL_CHECK(err);
    recording = newRecording(recordable, &err);
    CL_CHECK(err);
    for (int i = 0; i < kDispatches; ++i)
      CL_CHECK(clEnqueueNDRangeKernel(recordable, kernel, 1, nullptr, &items, nullptr, 0, nullptr,
                                      nullptr));
    CL_CHECK(endRecording(recording));
  }
  // The same launches in a command buffer on the live queue: mutable and simultaneous-use where
  // the platform has them.
  cl_command_buffer_khr cb = nullptr;
  std::vector<cl_mutable_command_khr> handles(kDispatches);
  if (commandBuffers) {
    cl_device_command_buffer_capabilities_khr caps = 0;
    CL_CHECK(clGetDeviceInfo(device, CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR, sizeof caps, &caps,
                             nullptr));
    cl_command_buffer_flags_khr flags = (mutableDispatch ? CL_COMMAND_BUFFER_MUTABLE_KHR : 0) |
                                        (caps & CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR
                                             ? CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR
                                             : 0);
    cl_command_buffer_properties_khr props[] = {CL_COMMAND_BUFFER_FLAGS_KHR, flags, 0};
    cb = createCb(1, &live, props, &err);
    CL_CHECK(err);
    for (int i = 0; i < kDispatches; ++i)
      CL_CHECK(commandNDRange(cb, nullptr, nullptr, kernel, 1, nullptr, &items, nullptr, 0, nullptr,
                              nullptr, mutableDispatch ? &handles[i] : nullptr));
    CL_CHECK(finalizeCb(cb));
  }

  // Each path is measured twice per sample. Gated: a barrier waiting on a user event is enqueued
  // first (untimed), so nothing runs while the enqueue calls are timed: host cost alone, kernel
  // execution excluded (on a machine of 2 PUs the device's threads would otherwise take the host
  // thread's CPU in the middle of the timed calls). Ungated: enqueue + clFinish from an idle
  // device.
  auto gate = [&](auto&& timed) {
    cl_int e = CL_SUCCESS;
    cl_event g = clCreateUserEvent(context, &e);
    CL_CHECK(e);
    CL_CHECK(clEnqueueBarrierWithWaitList(live, 1, &g, nullptr));
    double t0 = nowUs();
    timed();
    double t1 = nowUs();
    CL_CHECK(clSetUserEventStatus(g, CL_COMPLETE));
    CL_CHECK(clFinish(live));
    CL_CHECK(clReleaseEvent(g));
    return (t1 - t0) / kDispatches;
  };
  auto ungated = [&](auto&& timed) {
    settle();
    double t0 = nowUs();
    timed();
    CL_CHECK(clFinish(live));
    return (nowUs() - t0) / kDispatches;
  };
  int value = 0;
  auto runDirect = [&] {
    for (int i = 0; i < kDispatches; ++i)
      CL_CHECK(
          clEnqueueNDRangeKernel(live, kernel, 1, nullptr, &items, nullptr, 0, nullptr, nullptr));
  };
  auto runReplay = [&] {
    CL_CHECK(enqueueRecording(live, recording, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 0,
                              nullptr, nullptr));
  };
  // One argument update, a different value (and dispatch) each time.
  auto runUpdate = [&] {
    ++value;
    cl_array_arg_qcom arg{cl_uint(value % kDispatches), 1, sizeof value, &value};
    CL_CHECK(enqueueRecording(live, recording, 1, &arg, 0, nullptr, 0, nullptr, 0, nullptr, 0,
                              nullptr, nullptr));
  };
  auto runCb = [&] { CL_CHECK(enqueueCb(0, nullptr, cb, 0, nullptr, nullptr)); };
  auto runCbUpdate = [&] {
    ++value;
    cl_mutable_dispatch_arg_khr arg{1, sizeof value, &value};
    cl_mutable_dispatch_config_khr d{};
    d.type = CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR;
    d.command = handles[value % kDispatches], d.num_args = 1, d.arg_list = &arg;
    cl_mutable_base_config_khr base{CL_STRUCTURE_TYPE_MUTABLE_BASE_CONFIG_KHR, nullptr, 1, &d};
    CL_CHECK(updateCb(cb, &base));
    runCb();
  };
  struct Path {
    const char* gated;
    const char* fromIdle;
    bool present;
    std::function<void()> run;
    std::vector<double> g, f;
  };
  std::vector<Path> paths = {
      {"direct: 100 x clEnqueueNDRangeKernel (enqueue calls, gated)",
       "direct, enqueue + clFinish (from idle)",
       true,
       runDirect,
       {},
       {}},
      {"replay: clEnqueueRecordingQCOM (enqueue call, gated)",
       "replay, enqueue + clFinish (from idle)",
       recordings,
       runReplay,
       {},
       {}},
      {"replay + 1 argument update (enqueue call, gated)",
       "replay + 1 argument update, enqueue + clFinish (from idle)",
       recordings,
       runUpdate,
       {},
       {}},
      {"command buffer: clEnqueueCommandBufferKHR (gated)",
       "command buffer, enqueue + clFinish (from idle)",
       commandBuffers,
       runCb,
       {},
       {}},
      {"command buffer + clUpdateMutableCommandsKHR of 1 argument (gated)",
       "command buffer + update, enqueue + clFinish (from idle)",
       mutableDispatch,
       runCbUpdate,
       {},
       {}},
  };
  for (int s = 0; s < samples; ++s) {
    for (Path& p : paths)
      if (p.present) p.g.push_back(gate(p.run));
    for (Path& p : paths)
      if (p.present) p.f.push_back(ungated(p.run));
    if (s == 0 && firstValue() == 0) {
      std::fprintf(stderr, "nothing ran\n");
      return 1;
    }
  }

  std::printf("cl_recording_bench on %s: %d dispatches of %zu work-items, %d samples\n", name,
              kDispatches, kItems, samples);
  std::vector<Stats> gated(paths.size());
  for (size_t i = 0; i < paths.size(); ++i)
    if (paths[i].present) report(paths[i].gated, gated[i] = stats(paths[i].g));
  for (Path& p : paths)
    if (p.present) report(p.fromIdle, stats(p.f));
  const double direct = gated[0].median;
  if (recordings) {
    std::printf("ratio replay / direct: %.3f (target <= 0.2); with update: %.3f\n",
                gated[1].median / direct, gated[2].median / direct);
    std::printf("replay per dispatch: %.4f us (target <= 0.3); with update: %.4f us\n",
                gated[1].median, gated[2].median);
  }
  if (commandBuffers) std::printf("ratio command buffer / direct: %.3f", gated[3].median / direct);
  if (mutableDispatch) std::printf("; with update: %.3f", gated[4].median / direct);
  if (commandBuffers) std::printf("\n");

  if (cb) CL_CHECK(releaseCb(cb));
  if (recording) CL_CHECK(releaseRecording(recording));
  if (outBuffer) clReleaseMemObject(outBuffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  if (recordable) clReleaseCommandQueue(recordable);
  clReleaseCommandQueue(live);
  clReleaseContext(context);
  return 0;
}
