// cl_qcom_recordable_queues: host time per dispatch of a recording of 100 small ND-ranges replayed
// (clEnqueueRecordingQCOM, with and without one argument update) against the same 100
// clEnqueueNDRangeKernel calls on a regular in-order queue; likewise a cl_khr_command_buffer of the
// same 100 launches (clEnqueueCommandBufferKHR, and after clUpdateMutableCommandsKHR). Timed: the enqueue calls alone (the
// kernels run on the device's threads meanwhile; clFinish between samples, untimed), and separately
// enqueue + clFinish; see main() for how kernel execution is kept out of the first. Through the ICD loader: OCL_ICD_VENDORS names Tessera's .icd folder.
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
void settle() { std::this_thread::sleep_for(std::chrono::microseconds(500)); }

using tessera::bench::nowUs;
using tessera::bench::Stats;
using tessera::bench::stats;
void report(const char* what, const Stats& s) {
  std::printf("%-62s median %8.4f us/dispatch  [p10 %.4f, p90 %.4f]\n", what, s.median, s.p10,
              s.p90);
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
  auto newRecording = reinterpret_cast<clNewRecordingQCOM_fn>(
      clGetExtensionFunctionAddressForPlatform(platform, "clNewRecordingQCOM"));
  auto endRecording = reinterpret_cast<clEndRecordingQCOM_fn>(
      clGetExtensionFunctionAddressForPlatform(platform, "clEndRecordingQCOM"));
  auto releaseRecording = reinterpret_cast<clReleaseRecordingQCOM_fn>(
      clGetExtensionFunctionAddressForPlatform(platform, "clReleaseRecordingQCOM"));
  auto enqueueRecording = reinterpret_cast<clEnqueueRecordingQCOM_fn>(
      clGetExtensionFunctionAddressForPlatform(platform, "clEnqueueRecordingQCOM"));
  if (!newRecording || !endRecording || !releaseRecording || !enqueueRecording) {
    std::fprintf(stderr, "cl_qcom_recordable_queues missing\n");
    return 1;
  }
  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  CL_CHECK(err);
  cl_command_queue live = clCreateCommandQueue(context, device, 0, &err);
  CL_CHECK(err);
  cl_command_queue recordable = clCreateCommandQueue(context, device, CL_QUEUE_RECORDABLE_QCOM, &err);
  CL_CHECK(err);
  cl_program program = clCreateProgramWithSource(context, 1, &kSource, nullptr, &err);
  CL_CHECK(err);
  CL_CHECK(clBuildProgram(program, 1, &device, "", nullptr, nullptr));
  cl_kernel kernel = clCreateKernel(program, "tiny", &err);
  CL_CHECK(err);
  std::vector<int> out(kItems * kDispatches, 0);
  int v = 1;
  CL_CHECK(clSetKernelArgSVMPointer(kernel, 0, out.data()));
  CL_CHECK(clSetKernelArg(kernel, 1, sizeof v, &v));
  const size_t items = kItems;

  cl_recording_qcom recording = newRecording(recordable, &err);
  CL_CHECK(err);
  for (int i = 0; i < kDispatches; ++i)
    CL_CHECK(clEnqueueNDRangeKernel(recordable, kernel, 1, nullptr, &items, nullptr, 0, nullptr, nullptr));
  CL_CHECK(endRecording(recording));

  // The same launches in a mutable, simultaneous-use command buffer on the live queue.
  auto cbFn = [&](const char* name) {
    void* f = clGetExtensionFunctionAddressForPlatform(platform, name);
    if (!f) {
      std::fprintf(stderr, "%s missing\n", name);
      std::exit(1);
    }
    return f;
  };
  auto createCb = reinterpret_cast<clCreateCommandBufferKHR_fn>(cbFn("clCreateCommandBufferKHR"));
  auto commandNDRange = reinterpret_cast<clCommandNDRangeKernelKHR_fn>(cbFn("clCommandNDRangeKernelKHR"));
  auto finalizeCb = reinterpret_cast<clFinalizeCommandBufferKHR_fn>(cbFn("clFinalizeCommandBufferKHR"));
  auto enqueueCb = reinterpret_cast<clEnqueueCommandBufferKHR_fn>(cbFn("clEnqueueCommandBufferKHR"));
  auto updateCb = reinterpret_cast<clUpdateMutableCommandsKHR_fn>(cbFn("clUpdateMutableCommandsKHR"));
  auto releaseCb = reinterpret_cast<clReleaseCommandBufferKHR_fn>(cbFn("clReleaseCommandBufferKHR"));
  cl_command_buffer_properties_khr cbProps[] = {
      CL_COMMAND_BUFFER_FLAGS_KHR, CL_COMMAND_BUFFER_MUTABLE_KHR | CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR, 0};
  cl_command_buffer_khr cb = createCb(1, &live, cbProps, &err);
  CL_CHECK(err);
  std::vector<cl_mutable_command_khr> handles(kDispatches);
  for (int i = 0; i < kDispatches; ++i)
    CL_CHECK(commandNDRange(cb, nullptr, nullptr, kernel, 1, nullptr, &items, nullptr, 0, nullptr,
                            nullptr, &handles[i]));
  CL_CHECK(finalizeCb(cb));

  // Each path is measured twice per sample. Gated: a barrier waiting on a user event is enqueued
  // first (untimed), so nothing runs while the enqueue calls are timed: host cost alone, kernel
  // execution excluded (on a machine of 2 PUs the device's threads would otherwise take the host
  // thread's CPU in the middle of the timed calls). Ungated: enqueue + clFinish from an idle device.
  std::vector<double> direct, directFinish, replay, replayFinish, update, updateFinish;
  std::vector<double> cbReplay, cbReplayFinish, cbUpdate, cbUpdateFinish;
  int value = 0;
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
  auto runDirect = [&] {
    for (int i = 0; i < kDispatches; ++i)
      CL_CHECK(clEnqueueNDRangeKernel(live, kernel, 1, nullptr, &items, nullptr, 0, nullptr, nullptr));
  };
  auto runReplay = [&] {
    CL_CHECK(enqueueRecording(live, recording, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 0,
                           nullptr, nullptr));
  };
  // One argument update, a different value (and dispatch) each time.
  auto runUpdate = [&] {
    ++value;
    cl_array_arg_qcom arg{cl_uint(value % kDispatches), 1, sizeof value, &value};
    CL_CHECK(enqueueRecording(live, recording, 1, &arg, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr,
                           nullptr));
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
  for (int s = 0; s < samples; ++s) {
    direct.push_back(gate(runDirect));
    replay.push_back(gate(runReplay));
    update.push_back(gate(runUpdate));
    directFinish.push_back(ungated(runDirect));
    replayFinish.push_back(ungated(runReplay));
    updateFinish.push_back(ungated(runUpdate));
    cbReplay.push_back(gate(runCb));
    cbUpdate.push_back(gate(runCbUpdate));
    cbReplayFinish.push_back(ungated(runCb));
    cbUpdateFinish.push_back(ungated(runCbUpdate));
    if (out[0] == 0) {
      std::fprintf(stderr, "nothing ran\n");
      return 1;
    }
  }

  std::printf("cl_recording_bench: %d dispatches of %zu work-items, %d samples\n", kDispatches,
              kItems, samples);
  Stats d = stats(direct), r = stats(replay), u = stats(update);
  report("direct: 100 x clEnqueueNDRangeKernel (enqueue calls, gated)", d);
  report("replay: clEnqueueRecordingQCOM (enqueue call, gated)", r);
  report("replay + 1 argument update (enqueue call, gated)", u);
  report("direct, enqueue + clFinish (from idle)", stats(directFinish));
  report("replay, enqueue + clFinish (from idle)", stats(replayFinish));
  report("replay + 1 argument update, enqueue + clFinish (from idle)", stats(updateFinish));
  Stats c = stats(cbReplay), cu = stats(cbUpdate);
  report("command buffer: clEnqueueCommandBufferKHR (gated)", c);
  report("command buffer + clUpdateMutableCommandsKHR of 1 argument (gated)", cu);
  report("command buffer, enqueue + clFinish (from idle)", stats(cbReplayFinish));
  report("command buffer + update, enqueue + clFinish (from idle)", stats(cbUpdateFinish));
  std::printf("ratio command buffer / direct: %.3f; with update: %.3f\n", c.median / d.median,
              cu.median / d.median);
  std::printf("ratio replay / direct: %.3f (target <= 0.2); with update: %.3f\n",
              r.median / d.median, u.median / d.median);
  std::printf("replay per dispatch: %.4f us (target <= 0.3); with update: %.4f us\n", r.median,
              u.median);

  CL_CHECK(releaseCb(cb));
  CL_CHECK(releaseRecording(recording));
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(recordable);
  clReleaseCommandQueue(live);
  clReleaseContext(context);
  return 0;
}
