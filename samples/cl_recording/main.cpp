// cl_qcom_recordable_queues, the extension's sample flow: OpenCL C compiled in-process, kernels
// recorded once on a recordable queue, the recording replayed on a regular queue as it is, with a
// changed argument and global size, and with an SVM argument; every result checked on the host.
// The QCOM functions come from clGetExtensionFunctionAddressForPlatform.
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext_qcom.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

const char* kSource = R"CL(
__kernel void scale(__global const float* in, __global float* out, float factor) {
  size_t i = get_global_id(0);
  out[i] = in[i] * factor;
}
__kernel void add_one(__global float* data) { data[get_global_id(0)] += 1.0f; }
)CL";

#define CHECK(call)                                                              \
  do {                                                                           \
    cl_int e_ = (call);                                                          \
    if (e_ != CL_SUCCESS) {                                                      \
      std::fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, e_); \
      std::exit(1);                                                              \
    }                                                                            \
  } while (0)

int failures = 0;
void expect(bool ok, const char* what) {
  if (!ok) {
    std::printf("WRONG: %s\n", what);
    ++failures;
  }
}

}  // namespace

int main() {
  cl_platform_id platform = nullptr;
  CHECK(clGetPlatformIDs(1, &platform, nullptr));
  cl_device_id device = nullptr;
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr));

  auto newRecording = reinterpret_cast<clNewRecordingQCOM_fn>(
      clGetExtensionFunctionAddressForPlatform(platform, "clNewRecordingQCOM"));
  auto endRecording = reinterpret_cast<clEndRecordingQCOM_fn>(
      clGetExtensionFunctionAddressForPlatform(platform, "clEndRecordingQCOM"));
  auto releaseRecording = reinterpret_cast<clReleaseRecordingQCOM_fn>(
      clGetExtensionFunctionAddressForPlatform(platform, "clReleaseRecordingQCOM"));
  auto enqueueRecording = reinterpret_cast<clEnqueueRecordingQCOM_fn>(
      clGetExtensionFunctionAddressForPlatform(platform, "clEnqueueRecordingQCOM"));
  auto enqueueRecordingSVM = reinterpret_cast<clEnqueueRecordingSVMQCOM_fn>(
      clGetExtensionFunctionAddressForPlatform(platform, "clEnqueueRecordingSVMQCOM"));
  if (!newRecording || !endRecording || !releaseRecording || !enqueueRecording ||
      !enqueueRecordingSVM) {
    std::printf("cl_qcom_recordable_queues is not available\n");
    return 1;
  }

  // 1) Querying max recordable queue size.
  cl_uint maxSize = 0;
  CHECK(clGetDeviceInfo(device, CL_DEVICE_RECORDABLE_QUEUE_MAX_SIZE_QCOM, sizeof maxSize, &maxSize,
                        nullptr));
  std::printf("CL_DEVICE_RECORDABLE_QUEUE_MAX_SIZE_QCOM: %u\n", maxSize);

  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  CHECK(err);
  cl_command_queue live = clCreateCommandQueue(context, device, 0, &err);
  CHECK(err);
  cl_program program = clCreateProgramWithSource(context, 1, &kSource, nullptr, &err);
  CHECK(err);
  CHECK(clBuildProgram(program, 1, &device, "", nullptr, nullptr));
  cl_kernel scale = clCreateKernel(program, "scale", &err);
  CHECK(err);
  cl_kernel addOne = clCreateKernel(program, "add_one", &err);
  CHECK(err);

  // Buffers, as the seed's sample has them.
  const size_t n = 1024;
  std::vector<float> in(n), in2(n), out(n, 0.0f);
  for (size_t i = 0; i < n; ++i) in[i] = float(i), in2[i] = float(2 * i);
  cl_mem bufIn = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float),
                                in.data(), &err);
  CHECK(err);
  cl_mem bufIn2 = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                 n * sizeof(float), in2.data(), &err);
  CHECK(err);
  cl_mem bufOut = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                 n * sizeof(float), out.data(), &err);
  CHECK(err);
  auto readOut = [&] {
    CHECK(clEnqueueReadBuffer(live, bufOut, CL_TRUE, 0, n * sizeof(float), out.data(), 0, nullptr,
                              nullptr));
  };
  auto clearOut = [&] {
    float zero = 0.0f;
    CHECK(clEnqueueFillBuffer(live, bufOut, &zero, sizeof zero, 0, n * sizeof(float), 0, nullptr,
                              nullptr));
  };
  CHECK(clSetKernelArg(scale, 0, sizeof(cl_mem), &bufIn));
  CHECK(clSetKernelArg(scale, 1, sizeof(cl_mem), &bufOut));
  float factor = 3.0f;
  CHECK(clSetKernelArg(scale, 2, sizeof factor, &factor));
  CHECK(clSetKernelArg(addOne, 0, sizeof(cl_mem), &bufOut));

  // 2) Creating and executing a recording.
  cl_command_queue recordable =
      clCreateCommandQueue(context, device, CL_QUEUE_RECORDABLE_QCOM, &err);
  CHECK(err);
  cl_recording_qcom recording = newRecording(recordable, &err);
  CHECK(err);
  size_t global = n / 2;
  CHECK(clEnqueueNDRangeKernel(recordable, scale, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  CHECK(clEnqueueNDRangeKernel(recordable, addOne, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  CHECK(endRecording(recording));

  cl_event event = nullptr;
  CHECK(enqueueRecording(live, recording, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr, 0, nullptr,
                         &event));
  CHECK(clWaitForEvents(1, &event));
  CHECK(clReleaseEvent(event));
  readOut();
  bool ok = true;
  for (size_t i = 0; i < n; ++i) ok &= out[i] == (i < n / 2 ? in[i] * 3.0f + 1.0f : 0.0f);
  expect(ok, "replay as recorded");

  // 3) A changed argument (dispatch 0's input buffer) and global size (both dispatches: all n).
  clearOut();
  cl_array_arg_qcom updateArgs[1] = {{0, 0, sizeof(cl_mem), &bufIn2}};
  size_t newGlobal[1] = {n};
  cl_workgroup_qcom updateGlobal[2] = {{0, newGlobal}, {1, newGlobal}};
  CHECK(enqueueRecording(live, recording, 1, updateArgs, 0, nullptr, 2, updateGlobal, 0, nullptr, 0,
                         nullptr, &event));
  CHECK(clWaitForEvents(1, &event));
  CHECK(clReleaseEvent(event));
  readOut();
  ok = true;
  for (size_t i = 0; i < n; ++i) ok &= out[i] == in2[i] * 3.0f + 1.0f;
  expect(ok, "replay with a changed argument and global size");

  // A by-value argument: the factor of dispatch 0 (the earlier updates are kept).
  float half = 0.5f;
  cl_array_arg_qcom updateFactor[1] = {{0, 2, sizeof half, &half}};
  CHECK(enqueueRecording(live, recording, 1, updateFactor, 0, nullptr, 0, nullptr, 0, nullptr, 0,
                         nullptr, &event));
  CHECK(clWaitForEvents(1, &event));
  CHECK(clReleaseEvent(event));
  readOut();
  ok = true;
  for (size_t i = 0; i < n; ++i) ok &= out[i] == in2[i] * 0.5f + 1.0f;
  expect(ok, "replay with a changed factor (earlier updates kept)");

  // 4) An SVM allocation as dispatch 0's output and dispatch 1's data, through
  // clEnqueueRecordingSVMQCOM's arg_svm_array.
  float* svm = static_cast<float*>(clSVMAlloc(context, CL_MEM_READ_WRITE, n * sizeof(float), 0));
  expect(svm != nullptr, "clSVMAlloc");
  std::fill(svm, svm + n, 0.0f);
  cl_array_arg_qcom setSvmArgs[2] = {{0, 1, 0, svm}, {1, 0, 0, svm}};
  CHECK(enqueueRecordingSVM(live, recording, 0, nullptr, 2, setSvmArgs, 0, nullptr, 0, nullptr, 0,
                            nullptr, 0, nullptr, 0, nullptr, &event));
  CHECK(clWaitForEvents(1, &event));
  CHECK(clReleaseEvent(event));
  ok = true;
  for (size_t i = 0; i < n; ++i) ok &= svm[i] == in2[i] * 0.5f + 1.0f;
  expect(ok, "replay with an SVM argument");

  CHECK(releaseRecording(recording));
  clSVMFree(context, svm);
  for (cl_mem m : {bufIn, bufIn2, bufOut}) clReleaseMemObject(m);
  clReleaseKernel(scale);
  clReleaseKernel(addOne);
  clReleaseProgram(program);
  clReleaseCommandQueue(recordable);
  clReleaseCommandQueue(live);
  clReleaseContext(context);
  if (failures) {
    std::printf("%d check(s) failed\n", failures);
    return 1;
  }
  std::printf("all recordings replayed correctly\n");
  return 0;
}
