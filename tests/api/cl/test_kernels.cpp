// Kernels: creation, arguments (and their errors), argument info, work-group info, cloning, and the
// entry points for what the device does not have (native kernels, sub-groups).
#include <cstring>

#include "cl_program_support.h"

using namespace tessera::cltest;

namespace {

std::string kernelString(cl_kernel k, cl_kernel_info what) {
  size_t n = 0;
  REQUIRE(clGetKernelInfo(k, what, 0, nullptr, &n) == CL_SUCCESS);
  std::string s(n, '\0');
  REQUIRE(clGetKernelInfo(k, what, n, s.data(), nullptr) == CL_SUCCESS);
  return std::string(s.c_str());
}

std::string argString(cl_kernel k, cl_uint i, cl_kernel_arg_info what) {
  size_t n = 0;
  REQUIRE(clGetKernelArgInfo(k, i, what, 0, nullptr, &n) == CL_SUCCESS);
  std::string s(n, '\0');
  REQUIRE(clGetKernelArgInfo(k, i, what, n, s.data(), nullptr) == CL_SUCCESS);
  return std::string(s.c_str());
}

template <typename T>
T argInfo(cl_kernel k, cl_uint i, cl_kernel_arg_info what) {
  T v{};
  REQUIRE(clGetKernelArgInfo(k, i, what, sizeof v, &v, nullptr) == CL_SUCCESS);
  return v;
}

}  // namespace

TEST_CASE("Given a built program, then its kernels are created and describe themselves",
          "[cl][kernel]") {
  KernelFixture fx("vector_add", "vector_add");
  CHECK(kernelString(fx.kernel, CL_KERNEL_FUNCTION_NAME) == "vector_add");
  cl_uint numArgs = 0;
  REQUIRE(clGetKernelInfo(fx.kernel, CL_KERNEL_NUM_ARGS, sizeof numArgs, &numArgs, nullptr) ==
          CL_SUCCESS);
  CHECK(numArgs == 3);
  cl_program p = nullptr;
  REQUIRE(clGetKernelInfo(fx.kernel, CL_KERNEL_PROGRAM, sizeof p, &p, nullptr) == CL_SUCCESS);
  CHECK(p == fx.program);
  cl_context c = nullptr;
  REQUIRE(clGetKernelInfo(fx.kernel, CL_KERNEL_CONTEXT, sizeof c, &c, nullptr) == CL_SUCCESS);
  CHECK(c == fx.ctx);
  CHECK(kernelString(fx.kernel, CL_KERNEL_ATTRIBUTES).empty());
  CHECK(clRetainKernel(fx.kernel) == CL_SUCCESS);
  cl_uint refs = 0;
  REQUIRE(clGetKernelInfo(fx.kernel, CL_KERNEL_REFERENCE_COUNT, sizeof refs, &refs, nullptr) ==
          CL_SUCCESS);
  CHECK(refs == 2);
  CHECK(clReleaseKernel(fx.kernel) == CL_SUCCESS);
  CHECK(clGetKernelInfo(fx.kernel, 0xdead, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetKernelInfo(nullptr, CL_KERNEL_NUM_ARGS, 0, nullptr, nullptr) == CL_INVALID_KERNEL);
  CHECK(clRetainKernel(nullptr) == CL_INVALID_KERNEL);
  CHECK(clReleaseKernel(nullptr) == CL_INVALID_KERNEL);

  // Every kernel of a program at once.
  cl_program ranges = ilProgram(fx.ctx, "corpus_ranges");
  cl_uint n = 0;
  REQUIRE(clCreateKernelsInProgram(ranges, 0, nullptr, &n) == CL_SUCCESS);
  CHECK(n == 6);
  std::vector<cl_kernel> ks(n);
  CHECK(clCreateKernelsInProgram(ranges, n - 1, ks.data(), nullptr) == CL_INVALID_VALUE);
  REQUIRE(clCreateKernelsInProgram(ranges, n, ks.data(), nullptr) == CL_SUCCESS);
  CHECK(kernelString(ks[0], CL_KERNEL_FUNCTION_NAME) == "range1d");
  CHECK(programString(ranges, CL_PROGRAM_KERNEL_NAMES) ==
        "range1d;range2d;range3d;range_info;write_group_count;add_value");
  for (cl_kernel k : ks) clReleaseKernel(k);
  clReleaseProgram(ranges);
}

TEST_CASE("Given a kernel, when arguments are set wrongly, then clSetKernelArg says how",
          "[cl][kernel][errors]") {
  ClFixture fx;
  cl_program p = ilProgram(fx.ctx, "local_reduce");
  cl_kernel k = makeKernel(p, "local_reduce");  // (__global const int*, __global int*, __local int*)
  cl_mem none = nullptr;
  CHECK(clSetKernelArg(k, 3, sizeof none, &none) == CL_INVALID_ARG_INDEX);
  CHECK(clSetKernelArg(k, 0, 4, &none) == CL_INVALID_ARG_SIZE);
  CHECK(clSetKernelArg(k, 0, sizeof none, &none) == CL_SUCCESS);  // a NULL buffer is a NULL pointer
  CHECK(clSetKernelArg(k, 1, sizeof none, nullptr) == CL_SUCCESS);
  int notAMem = 0;
  cl_mem bogus = reinterpret_cast<cl_mem>(&notAMem);
  CHECK(clSetKernelArg(k, 1, sizeof bogus, &bogus) == CL_INVALID_MEM_OBJECT);
  CHECK(clSetKernelArg(k, 2, 64, &notAMem) == CL_INVALID_ARG_VALUE);
  CHECK(clSetKernelArg(k, 2, 0, nullptr) == CL_INVALID_ARG_SIZE);
  CHECK(clSetKernelArg(k, 2, 64, nullptr) == CL_SUCCESS);
  cl_ulong local = 0;
  REQUIRE(clGetKernelWorkGroupInfo(k, fx.dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local,
                                   nullptr) == CL_SUCCESS);
  CHECK(local >= 64);
  CHECK(clSetKernelArg(nullptr, 0, sizeof none, &none) == CL_INVALID_KERNEL);
  CHECK(clSetKernelArgSVMPointer(k, 2, &local) == CL_INVALID_ARG_VALUE);
  CHECK(clSetKernelArgSVMPointer(k, 5, &local) == CL_INVALID_ARG_INDEX);
  clReleaseKernel(k);
  clReleaseProgram(p);

  // By-value arguments must have the reflected size and a value.
  p = ilProgram(fx.ctx, "saxpy");
  k = makeKernel(p, "saxpy");
  float alpha = 2.0f;
  double wrong = 2.0;
  CHECK(clSetKernelArg(k, 0, sizeof wrong, &wrong) == CL_INVALID_ARG_SIZE);
  CHECK(clSetKernelArg(k, 0, sizeof alpha, nullptr) == CL_INVALID_ARG_VALUE);
  CHECK(clSetKernelArg(k, 0, sizeof alpha, &alpha) == CL_SUCCESS);
  // Exec info.
  void* ptrs[1] = {&alpha};
  CHECK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, ptrs) == CL_SUCCESS);
  cl_bool fine = CL_TRUE;
  CHECK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof fine, &fine) ==
        CL_SUCCESS);
  CHECK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 1, &fine) ==
        CL_INVALID_VALUE);
  CHECK(clSetKernelExecInfo(k, 0xdead, sizeof fine, &fine) == CL_INVALID_VALUE);
  CHECK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, nullptr) ==
        CL_INVALID_VALUE);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

TEST_CASE("Given kernels built with argument names, then clGetKernelArgInfo describes them",
          "[cl][kernel][arginfo]") {
  ClFixture fx;
  cl_program p = ilProgram(fx.ctx, "saxpy");
  cl_kernel k = makeKernel(p, "saxpy");  // (float alpha, __constant float* x, __global float* y)
  CHECK(argString(k, 0, CL_KERNEL_ARG_NAME) == "alpha");
  CHECK(argString(k, 1, CL_KERNEL_ARG_NAME) == "x");
  CHECK(argString(k, 2, CL_KERNEL_ARG_NAME) == "y");
  CHECK(argInfo<cl_kernel_arg_address_qualifier>(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER) ==
        CL_KERNEL_ARG_ADDRESS_PRIVATE);
  CHECK(argInfo<cl_kernel_arg_address_qualifier>(k, 1, CL_KERNEL_ARG_ADDRESS_QUALIFIER) ==
        CL_KERNEL_ARG_ADDRESS_CONSTANT);
  CHECK(argInfo<cl_kernel_arg_address_qualifier>(k, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER) ==
        CL_KERNEL_ARG_ADDRESS_GLOBAL);
  CHECK(argInfo<cl_kernel_arg_access_qualifier>(k, 2, CL_KERNEL_ARG_ACCESS_QUALIFIER) ==
        CL_KERNEL_ARG_ACCESS_NONE);
  CHECK(argString(k, 0, CL_KERNEL_ARG_TYPE_NAME) == "float");
  CHECK(argString(k, 1, CL_KERNEL_ARG_TYPE_NAME) == "float*");
  CHECK(argString(k, 2, CL_KERNEL_ARG_TYPE_NAME) == "float*");
  CHECK((argInfo<cl_kernel_arg_type_qualifier>(k, 1, CL_KERNEL_ARG_TYPE_QUALIFIER) &
         CL_KERNEL_ARG_TYPE_CONST) != 0);
  CHECK(argInfo<cl_kernel_arg_type_qualifier>(k, 0, CL_KERNEL_ARG_TYPE_QUALIFIER) ==
        CL_KERNEL_ARG_TYPE_NONE);
  CHECK(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_NAME, 0, nullptr, nullptr) == CL_INVALID_ARG_INDEX);
  CHECK(clGetKernelArgInfo(k, 0, 0xdead, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  clReleaseKernel(k);
  clReleaseProgram(p);

  p = ilProgram(fx.ctx, "struct_by_value");
  k = makeKernel(p, "struct_by_value");
  CHECK(argString(k, 0, CL_KERNEL_ARG_TYPE_NAME) == "Params");
  CHECK(argString(k, 1, CL_KERNEL_ARG_TYPE_NAME) == "float4");
  CHECK(argString(k, 2, CL_KERNEL_ARG_TYPE_NAME) == "char");
  clReleaseKernel(k);
  clReleaseProgram(p);

  p = ilProgram(fx.ctx, "local_reduce");
  k = makeKernel(p, "local_reduce");
  CHECK(argInfo<cl_kernel_arg_address_qualifier>(k, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER) ==
        CL_KERNEL_ARG_ADDRESS_LOCAL);
  CHECK(argString(k, 2, CL_KERNEL_ARG_TYPE_NAME) == "int*");
  clReleaseKernel(k);
  clReleaseProgram(p);
}

TEST_CASE("Given kernels, then clGetKernelWorkGroupInfo answers per device",
          "[cl][kernel][workgroup]") {
  ClFixture fx;
  cl_program p = ilProgram(fx.ctx, "reqd_size");
  cl_kernel k = makeKernel(p, "reqd_size");
  size_t wg = 0;
  REQUIRE(clGetKernelWorkGroupInfo(k, fx.dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, nullptr) ==
          CL_SUCCESS);
  CHECK(wg == deviceInfo<size_t>(fx.dev, CL_DEVICE_MAX_WORK_GROUP_SIZE));
  size_t compiled[3] = {};
  REQUIRE(clGetKernelWorkGroupInfo(k, nullptr, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compiled,
                                   compiled, nullptr) == CL_SUCCESS);
  CHECK(compiled[0] == 8);
  CHECK(compiled[1] == 4);
  CHECK(compiled[2] == 2);
  size_t multiple = 0;
  REQUIRE(clGetKernelWorkGroupInfo(k, fx.dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                   sizeof multiple, &multiple, nullptr) == CL_SUCCESS);
  CHECK(multiple >= 1);
  cl_ulong priv = 0;
  CHECK(clGetKernelWorkGroupInfo(k, fx.dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof priv, &priv,
                                 nullptr) == CL_SUCCESS);
  size_t global[3];
  CHECK(clGetKernelWorkGroupInfo(k, fx.dev, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof global, global,
                                 nullptr) == CL_INVALID_VALUE);
  int x = 0;
  CHECK(clGetKernelWorkGroupInfo(k, reinterpret_cast<cl_device_id>(&x), CL_KERNEL_WORK_GROUP_SIZE,
                                 sizeof wg, &wg, nullptr) == CL_INVALID_DEVICE);
  // A kernel from IL: "For kernels not created from OpenCL C source and the
  // clCreateProgramWithSource API call the string returned from this query will be empty."
  CHECK(kernelString(k, CL_KERNEL_ATTRIBUTES).empty());
  // Sub-groups: a kernel from IL has a sub-group size too (test_subgroup_queries.cpp).
  size_t in[1] = {8}, out = 0;
  CHECK(clGetKernelSubGroupInfo(k, fx.dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof in, in,
                                sizeof out, &out, nullptr) == CL_SUCCESS);
  CHECK(out >= 1);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

TEST_CASE("Given a kernel with arguments set, when it is cloned, then the clone keeps them",
          "[cl][kernel][clone]") {
  ClFixture fx;
  cl_program p = ilProgram(fx.ctx, "corpus_ranges");
  cl_kernel k = makeKernel(p, "add_value");  // (__global int* data, int v)
  std::vector<int> data(16, 1);
  int v = 5;
  REQUIRE(clSetKernelArgSVMPointer(k, 0, data.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof v, &v) == CL_SUCCESS);
  cl_int err = CL_SUCCESS;
  cl_kernel c = clCloneKernel(k, &err);
  REQUIRE(err == CL_SUCCESS);
  // Changing the original afterwards leaves the clone alone.
  int w = 100;
  REQUIRE(clSetKernelArg(k, 1, sizeof w, &w) == CL_SUCCESS);
  size_t n = data.size();
  runKernel(fx.queue, c, 1, &n);
  for (int x : data) CHECK(x == 6);
  runKernel(fx.queue, k, 1, &n);
  for (int x : data) CHECK(x == 106);
  CHECK(kernelString(c, CL_KERNEL_FUNCTION_NAME) == "add_value");
  CHECK(clCloneKernel(nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_KERNEL);
  // A clone is attached to the program too.
  clReleaseKernel(k);
  CHECK(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr) == CL_INVALID_OPERATION);
  clReleaseKernel(c);
  clReleaseProgram(p);
}

TEST_CASE("Given no native kernels or device queues, then their entry points refuse",
          "[cl][unsupported]") {
  ClFixture fx;
  auto fn = [](void*) {};
  CHECK(clEnqueueNativeKernel(fx.queue, fn, nullptr, 0, 0, nullptr, nullptr, 0, nullptr,
                              nullptr) == CL_INVALID_OPERATION);
  CHECK(clEnqueueNativeKernel(nullptr, fn, nullptr, 0, 0, nullptr, nullptr, 0, nullptr, nullptr) ==
        CL_INVALID_COMMAND_QUEUE);
  CHECK(clSetDefaultDeviceCommandQueue(fx.ctx, fx.dev, fx.queue) == CL_INVALID_OPERATION);
  // "Returns CL_INVALID_OPERATION if device does not support on-device queues": with any queue,
  // null included (what the CTS's api consistency test passes).
  CHECK(clSetDefaultDeviceCommandQueue(fx.ctx, fx.dev, nullptr) == CL_INVALID_OPERATION);
  CHECK(clSetDefaultDeviceCommandQueue(nullptr, fx.dev, fx.queue) == CL_INVALID_CONTEXT);
}

TEST_CASE("Given SPIR-V without parameter names, then argument info is not available",
          "[cl][kernel][arginfo]") {
  ClFixture fx;
  // vector_add with every OpName removed (the debug section may be left out entirely).
  auto bytes = corpusSpirv("vector_add");
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  std::vector<uint32_t> stripped(words.begin(), words.begin() + 5);
  for (size_t i = 5; i < words.size();) {
    uint32_t n = words[i] >> 16;
    REQUIRE(n > 0);
    if ((words[i] & 0xffff) != 5 /* OpName */)
      stripped.insert(stripped.end(), words.begin() + i, words.begin() + i + n);
    i += n;
  }
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithIL(fx.ctx, stripped.data(), stripped.size() * 4, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr) == CL_SUCCESS);
  cl_kernel k = makeKernel(p, "vector_add");
  size_t n = 0;
  CHECK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, 0, nullptr, &n) ==
        CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  CHECK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, 0, nullptr, &n) ==
        CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  clReleaseKernel(k);
  clReleaseProgram(p);
}
