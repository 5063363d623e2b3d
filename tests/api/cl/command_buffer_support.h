// What the cl_khr_command_buffer tests share: the extension's functions (found through
// clGetExtensionFunctionAddressForPlatform), a fixture with a program of small kernels, buffers.
#pragma once

#include <CL/cl_ext.h>

#include <vector>

#include "cl_program_support.h"

namespace tessera::cltest {

struct CommandBufferApi {
  clCreateCommandBufferKHR_fn create;
  clFinalizeCommandBufferKHR_fn finalize;
  clRetainCommandBufferKHR_fn retain;
  clReleaseCommandBufferKHR_fn release;
  clEnqueueCommandBufferKHR_fn enqueue;
  clCommandBarrierWithWaitListKHR_fn barrier;
  clCommandCopyBufferKHR_fn copyBuffer;
  clCommandCopyBufferRectKHR_fn copyBufferRect;
  clCommandCopyBufferToImageKHR_fn copyBufferToImage;
  clCommandCopyImageKHR_fn copyImage;
  clCommandCopyImageToBufferKHR_fn copyImageToBuffer;
  clCommandFillBufferKHR_fn fillBuffer;
  clCommandFillImageKHR_fn fillImage;
  clCommandNDRangeKernelKHR_fn ndrange;
  clGetCommandBufferInfoKHR_fn info;
  clUpdateMutableCommandsKHR_fn update;
  clGetMutableCommandInfoKHR_fn commandInfo;

  CommandBufferApi() {
    cl_platform_id p = platform();
    auto get = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
          clGetExtensionFunctionAddressForPlatform(p, name));
      INFO(name);
      REQUIRE(fn != nullptr);
    };
    get(create, "clCreateCommandBufferKHR");
    get(finalize, "clFinalizeCommandBufferKHR");
    get(retain, "clRetainCommandBufferKHR");
    get(release, "clReleaseCommandBufferKHR");
    get(enqueue, "clEnqueueCommandBufferKHR");
    get(barrier, "clCommandBarrierWithWaitListKHR");
    get(copyBuffer, "clCommandCopyBufferKHR");
    get(copyBufferRect, "clCommandCopyBufferRectKHR");
    get(copyBufferToImage, "clCommandCopyBufferToImageKHR");
    get(copyImage, "clCommandCopyImageKHR");
    get(copyImageToBuffer, "clCommandCopyImageToBufferKHR");
    get(fillBuffer, "clCommandFillBufferKHR");
    get(fillImage, "clCommandFillImageKHR");
    get(ndrange, "clCommandNDRangeKernelKHR");
    get(info, "clGetCommandBufferInfoKHR");
    get(update, "clUpdateMutableCommandsKHR");
    get(commandInfo, "clGetMutableCommandInfoKHR");
  }
};

inline const char* kCommandBufferSource = R"CL(
__kernel void add(__global int* out, __global const int* in, int v) {
  size_t g = get_global_id(0);
  out[g] = in[g] + v;
}
__kernel void ids(__global int* out) {
  size_t g = get_global_id(0);
  out[g - get_global_offset(0)] = (int)(g * 1000 + get_local_size(0));
}
__kernel void twice(__global int* p) { p[get_global_id(0)] *= 2; }
__kernel void local_sum(__global int* out, __local int* tmp) {
  size_t l = get_local_id(0);
  tmp[l] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    int s = 0;
    for (size_t i = 0; i < get_local_size(0); ++i) s += tmp[i];
    out[get_group_id(0)] = s;
  }
}
)CL";

// A context, an in-order queue, the program and the extension's functions.
struct CbFixture : ClFixture {
  CommandBufferApi cb;
  cl_program program = nullptr;
  std::vector<cl_mem> buffers;
  std::vector<cl_kernel> kernels;

  explicit CbFixture(cl_command_queue_properties props = 0) : ClFixture(nullptr, props) {
    cl_int err = CL_SUCCESS;
    program = clCreateProgramWithSource(ctx, 1, &kCommandBufferSource, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clBuildProgram(program, 0, nullptr, "", nullptr, nullptr) == CL_SUCCESS);
  }
  ~CbFixture() {
    for (cl_kernel k : kernels) clReleaseKernel(k);
    for (cl_mem m : buffers) clReleaseMemObject(m);
    clReleaseProgram(program);
  }
  cl_kernel kernel(const char* name) { return kernels.emplace_back(makeKernel(program, name)); }
  // A buffer of `n` ints holding `values` (zeros when empty).
  cl_mem buffer(size_t n, std::vector<cl_int> values = {}) {
    values.resize(n, 0);
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), values.data(), &err);
    REQUIRE(err == CL_SUCCESS);
    return buffers.emplace_back(m);
  }
  std::vector<cl_int> read(cl_mem m, size_t n, cl_command_queue q = nullptr) {
    std::vector<cl_int> v(n);
    REQUIRE(clEnqueueReadBuffer(q ? q : queue, m, CL_TRUE, 0, n * sizeof(cl_int), v.data(), 0,
                                nullptr, nullptr) == CL_SUCCESS);
    return v;
  }
  void write(cl_mem m, const std::vector<cl_int>& v) {
    REQUIRE(clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, v.size() * sizeof(cl_int), v.data(), 0,
                                 nullptr, nullptr) == CL_SUCCESS);
  }
  // A command buffer on `q` (the fixture's queue) with `flags`.
  cl_command_buffer_khr newBuffer(cl_command_buffer_flags_khr flags = 0,
                                  cl_command_queue q = nullptr) {
    cl_command_queue qs[1] = {q ? q : queue};
    cl_command_buffer_properties_khr props[] = {CL_COMMAND_BUFFER_FLAGS_KHR, flags, 0};
    cl_int err = CL_SUCCESS;
    cl_command_buffer_khr b = cb.create(1, qs, flags ? props : nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(b != nullptr);
    return b;
  }
  cl_command_buffer_state_khr state(cl_command_buffer_khr b) {
    cl_command_buffer_state_khr s = 0;
    REQUIRE(cb.info(b, CL_COMMAND_BUFFER_STATE_KHR, sizeof s, &s, nullptr) == CL_SUCCESS);
    return s;
  }
  // clUpdateMutableCommandsKHR of one argument of one command.
  cl_int updateArg(cl_command_buffer_khr b, cl_mutable_command_khr c, cl_uint index, size_t size,
                   const void* value) {
    cl_mutable_dispatch_arg_khr arg{index, size, value};
    cl_mutable_dispatch_config_khr d{};
    d.type = CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR;
    d.command = c, d.num_args = 1, d.arg_list = &arg;
    cl_mutable_base_config_khr base{CL_STRUCTURE_TYPE_MUTABLE_BASE_CONFIG_KHR, nullptr, 1, &d};
    return cb.update(b, &base);
  }
  void run(cl_command_buffer_khr b) {
    REQUIRE(cb.enqueue(0, nullptr, b, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(queue) == CL_SUCCESS);
  }
};

inline std::vector<cl_int> iota(size_t n, cl_int from = 0) {
  std::vector<cl_int> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = from + cl_int(i);
  return v;
}

}  // namespace tessera::cltest
