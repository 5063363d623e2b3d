// Programs: creation from IL, binaries and source, build, compile and link, queries and errors.
#include <cstring>

#include "cl_program_support.h"

using namespace tessera::cltest;

namespace {

void CL_CALLBACK countCall(cl_program, void* data) { ++*static_cast<int*>(data); }

// Runs vector_add from `p` over n elements of host memory (fine-grain system SVM).
void checkVectorAdd(cl_command_queue q, cl_program p, size_t n = 64) {
  cl_kernel k = makeKernel(p, "vector_add");
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (size_t i = 0; i < n; ++i) a[i] = float(i), b[i] = float(2 * i);
  REQUIRE(clSetKernelArgSVMPointer(k, 0, a.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArgSVMPointer(k, 1, b.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArgSVMPointer(k, 2, c.data()) == CL_SUCCESS);
  runKernel(q, k, 1, &n);
  for (size_t i = 0; i < n; ++i) REQUIRE(c[i] == float(3 * i));
  clReleaseKernel(k);
}

}  // namespace

TEST_CASE("Given SPIR-V, when a program is built from IL, then its queries describe it and it runs",
          "[cl][program]") {
  ClFixture fx;
  auto spv = corpusSpirv("vector_add");
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithIL(fx.ctx, spv.data(), spv.size(), &err);
  REQUIRE(err == CL_SUCCESS);
  cl_build_status status = 0;
  REQUIRE(clGetProgramBuildInfo(p, fx.dev, CL_PROGRAM_BUILD_STATUS, sizeof status, &status,
                                nullptr) == CL_SUCCESS);
  CHECK(status == CL_BUILD_NONE);
  size_t numKernels = 0;
  CHECK(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof numKernels, &numKernels, nullptr) ==
        CL_INVALID_PROGRAM_EXECUTABLE);
  CHECK(clCreateKernel(p, "vector_add", &err) == nullptr);
  CHECK(err == CL_INVALID_PROGRAM_EXECUTABLE);

  int calls = 0;
  REQUIRE(clBuildProgram(p, 1, &fx.dev, "-cl-fast-relaxed-math", countCall, &calls) == CL_SUCCESS);
  CHECK(calls == 1);
  REQUIRE(clGetProgramBuildInfo(p, fx.dev, CL_PROGRAM_BUILD_STATUS, sizeof status, &status,
                                nullptr) == CL_SUCCESS);
  CHECK(status == CL_BUILD_SUCCESS);
  size_t n = 0;
  REQUIRE(clGetProgramBuildInfo(p, fx.dev, CL_PROGRAM_BUILD_OPTIONS, 0, nullptr, &n) == CL_SUCCESS);
  std::string options(n, '\0');
  REQUIRE(clGetProgramBuildInfo(p, fx.dev, CL_PROGRAM_BUILD_OPTIONS, n, options.data(), nullptr) ==
          CL_SUCCESS);
  CHECK(std::string(options.c_str()) == "-cl-fast-relaxed-math");
  cl_program_binary_type type = 0;
  REQUIRE(clGetProgramBuildInfo(p, fx.dev, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr) ==
          CL_SUCCESS);
  CHECK(type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  size_t globals = 1;
  CHECK(clGetProgramBuildInfo(p, fx.dev, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                              sizeof globals, &globals, nullptr) == CL_SUCCESS);

  REQUIRE(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof numKernels, &numKernels, nullptr) ==
          CL_SUCCESS);
  CHECK(numKernels == 1);
  CHECK(programString(p, CL_PROGRAM_KERNEL_NAMES) == "vector_add");
  CHECK(programString(p, CL_PROGRAM_SOURCE).empty());
  REQUIRE(clGetProgramInfo(p, CL_PROGRAM_IL, 0, nullptr, &n) == CL_SUCCESS);
  REQUIRE(n == spv.size());
  std::vector<unsigned char> il(n);
  REQUIRE(clGetProgramInfo(p, CL_PROGRAM_IL, n, il.data(), nullptr) == CL_SUCCESS);
  CHECK(il == spv);
  cl_uint numDevices = 0;
  REQUIRE(clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof numDevices, &numDevices, nullptr) ==
          CL_SUCCESS);
  CHECK(numDevices == 1);
  cl_device_id dev = nullptr;
  REQUIRE(clGetProgramInfo(p, CL_PROGRAM_DEVICES, sizeof dev, &dev, nullptr) == CL_SUCCESS);
  CHECK(dev == fx.dev);
  cl_context ctx = nullptr;
  REQUIRE(clGetProgramInfo(p, CL_PROGRAM_CONTEXT, sizeof ctx, &ctx, nullptr) == CL_SUCCESS);
  CHECK(ctx == fx.ctx);
  cl_bool ctors = CL_TRUE;
  REQUIRE(clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, sizeof ctors, &ctors,
                           nullptr) == CL_SUCCESS);
  CHECK(ctors == CL_FALSE);
  CHECK(clGetProgramInfo(p, 0xdead, 0, nullptr, &n) == CL_INVALID_VALUE);
  char tiny[2];
  CHECK(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof tiny, tiny, nullptr) ==
        CL_INVALID_VALUE);

  checkVectorAdd(fx.queue, p);

  cl_uint refs = 0;
  CHECK(clRetainProgram(p) == CL_SUCCESS);
  REQUIRE(clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof refs, &refs, nullptr) ==
          CL_SUCCESS);
  CHECK(refs == 2);
  CHECK(clReleaseProgram(p) == CL_SUCCESS);
  CHECK(clReleaseProgram(p) == CL_SUCCESS);
  CHECK(clReleaseProgram(p) == CL_INVALID_PROGRAM);
}

TEST_CASE("Given bad arguments, then program creation and build answer the spec's error codes",
          "[cl][program][errors]") {
  ClFixture fx;
  auto spv = corpusSpirv("vector_add");
  cl_int err = CL_SUCCESS;
  CHECK(clCreateProgramWithIL(nullptr, spv.data(), spv.size(), &err) == nullptr);
  CHECK(err == CL_INVALID_CONTEXT);
  CHECK(clCreateProgramWithIL(fx.ctx, nullptr, spv.size(), &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clCreateProgramWithIL(fx.ctx, spv.data(), 0, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  const char notSpirv[] = "this is not SPIR-V at all";
  CHECK(clCreateProgramWithIL(fx.ctx, notSpirv, 24, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);

  const char* kernels = "vector_add";
  CHECK(clCreateProgramWithBuiltInKernels(fx.ctx, 1, &fx.dev, kernels, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);

  cl_program p = ilProgram(fx.ctx, "vector_add", false);
  CHECK(clBuildProgram(nullptr, 0, nullptr, nullptr, nullptr, nullptr) == CL_INVALID_PROGRAM);
  CHECK(clBuildProgram(p, 1, nullptr, nullptr, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clBuildProgram(p, 0, &fx.dev, nullptr, nullptr, nullptr) == CL_INVALID_VALUE);
  int data = 0;
  CHECK(clBuildProgram(p, 0, nullptr, nullptr, nullptr, &data) == CL_INVALID_VALUE);
  cl_device_id bogus = reinterpret_cast<cl_device_id>(&data);
  CHECK(clBuildProgram(p, 1, &bogus, nullptr, nullptr, nullptr) == CL_INVALID_DEVICE);
  CHECK(clGetProgramBuildInfo(p, bogus, CL_PROGRAM_BUILD_STATUS, 0, nullptr, nullptr) ==
        CL_INVALID_DEVICE);
  // Deprecated by OpenCL 2.2 (no program-scope constructors or destructors here).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  CHECK(clSetProgramReleaseCallback(p, countCall, nullptr) == CL_INVALID_OPERATION);
#pragma GCC diagnostic pop

  // "CL_INVALID_OPERATION if there are kernel objects attached to program."
  REQUIRE(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr) == CL_SUCCESS);
  cl_kernel k = makeKernel(p, "vector_add");
  CHECK(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr) == CL_INVALID_OPERATION);
  CHECK(clCreateKernel(p, "no_such_kernel", &err) == nullptr);
  CHECK(err == CL_INVALID_KERNEL_NAME);
  CHECK(clCreateKernel(p, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  clReleaseKernel(k);
  CHECK(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr) == CL_SUCCESS);
  clReleaseProgram(p);
}

TEST_CASE("Given corrupt SPIR-V, when it is built, then the build fails with a log",
          "[cl][program][errors]") {
  ClFixture fx;
  auto spv = corpusSpirv("vector_add");
  // Keep the header, cut the module in the middle of its functions.
  spv.resize((spv.size() / 2) & ~size_t(3));
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithIL(fx.ctx, spv.data(), spv.size(), &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr) == CL_BUILD_PROGRAM_FAILURE);
  cl_build_status status = 0;
  REQUIRE(clGetProgramBuildInfo(p, fx.dev, CL_PROGRAM_BUILD_STATUS, sizeof status, &status,
                                nullptr) == CL_SUCCESS);
  CHECK(status == CL_BUILD_ERROR);
  CHECK_FALSE(buildLog(p, fx.dev).empty());
  CHECK(clCreateKernel(p, "vector_add", &err) == nullptr);
  CHECK(err == CL_INVALID_PROGRAM_EXECUTABLE);
  clReleaseProgram(p);

  // An unknown build option fails the build, and the log names it.
  p = ilProgram(fx.ctx, "vector_add", false);
  CHECK(clBuildProgram(p, 0, nullptr, "-tessera-no-such-option", nullptr, nullptr) ==
        CL_BUILD_PROGRAM_FAILURE);
  CHECK(buildLog(p, fx.dev).find("-tessera-no-such-option") != std::string::npos);
  clReleaseProgram(p);
}

TEST_CASE("Given a built program, when its binary is reloaded, then it runs without compiling",
          "[cl][program][binary]") {
  ClFixture fx;
  cl_program p = ilProgram(fx.ctx, "vector_add");
  size_t size = 0;
  REQUIRE(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) == CL_SUCCESS);
  REQUIRE(size > 0);
  std::vector<unsigned char> binary(size);
  unsigned char* ptrs[1] = {binary.data()};
  REQUIRE(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof ptrs, ptrs, nullptr) == CL_SUCCESS);
  CHECK(std::memcmp(binary.data(), "TESSNAT1", 8) == 0);
  clReleaseProgram(p);

  const unsigned char* bins[1] = {binary.data()};
  cl_int status = -1, err = CL_SUCCESS;
  cl_program b = clCreateProgramWithBinary(fx.ctx, 1, &fx.dev, &size, bins, &status, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(status == CL_SUCCESS);
  cl_program_binary_type type = 0;
  REQUIRE(clGetProgramBuildInfo(b, fx.dev, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr) ==
          CL_SUCCESS);
  CHECK(type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  REQUIRE(clBuildProgram(b, 0, nullptr, nullptr, nullptr, nullptr) == CL_SUCCESS);
  CHECK(programString(b, CL_PROGRAM_KERNEL_NAMES) == "vector_add");
  size_t ilSize = 1;
  REQUIRE(clGetProgramInfo(b, CL_PROGRAM_IL, 0, nullptr, &ilSize) == CL_SUCCESS);
  CHECK(ilSize == 0);
  checkVectorAdd(fx.queue, b);
  clReleaseProgram(b);

  // Garbage is not a binary; the status says which device refused it.
  std::vector<unsigned char> garbage(256, 0x5a);
  const unsigned char* gb[1] = {garbage.data()};
  size_t gsize = garbage.size();
  CHECK(clCreateProgramWithBinary(fx.ctx, 1, &fx.dev, &gsize, gb, &status, &err) == nullptr);
  CHECK(err == CL_INVALID_BINARY);
  CHECK(status == CL_INVALID_BINARY);
  // A corrupted binary fails its checksum.
  binary[binary.size() / 2] ^= 0xff;
  CHECK(clCreateProgramWithBinary(fx.ctx, 1, &fx.dev, &size, bins, &status, &err) == nullptr);
  CHECK(err == CL_INVALID_BINARY);
  size_t zero = 0;
  CHECK(clCreateProgramWithBinary(fx.ctx, 1, &fx.dev, &zero, bins, &status, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(status == CL_INVALID_VALUE);
  CHECK(clCreateProgramWithBinary(fx.ctx, 0, &fx.dev, &size, bins, &status, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  int x = 0;
  cl_device_id bogus = reinterpret_cast<cl_device_id>(&x);
  CHECK(clCreateProgramWithBinary(fx.ctx, 1, &bogus, &size, bins, &status, &err) == nullptr);
  CHECK(err == CL_INVALID_DEVICE);
}

TEST_CASE("Given OpenCL C source in pieces, then it is kept as given and bad pieces are refused",
          "[cl][program][source]") {
  ClFixture fx;
  const char* parts[2] = {"__kernel void k(__global int* p) ", "{ p[0] = 1; }"};
  size_t lengths[2] = {0, 13};
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(fx.ctx, 2, parts, lengths, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(programString(p, CL_PROGRAM_SOURCE) == std::string(parts[0]) + parts[1]);
  size_t ilSize = 1;
  REQUIRE(clGetProgramInfo(p, CL_PROGRAM_IL, 0, nullptr, &ilSize) == CL_SUCCESS);
  CHECK(ilSize == 0);
  CHECK(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr) == CL_SUCCESS);
  clReleaseProgram(p);

  CHECK(clCreateProgramWithSource(fx.ctx, 0, parts, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  const char* withNull[2] = {parts[0], nullptr};
  CHECK(clCreateProgramWithSource(fx.ctx, 2, withNull, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
}

TEST_CASE("Given compiled IL programs, when they are linked, then imports resolve or the log says why",
          "[cl][program][link]") {
  ClFixture fx;
  cl_program lib = ilProgram(fx.ctx, "export_lib", false);
  cl_program user = ilProgram(fx.ctx, "import_user", false);
  REQUIRE(clCompileProgram(lib, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr) ==
          CL_SUCCESS);
  REQUIRE(clCompileProgram(user, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr) ==
          CL_SUCCESS);
  cl_program_binary_type type = 0;
  REQUIRE(clGetProgramBuildInfo(user, fx.dev, CL_PROGRAM_BINARY_TYPE, sizeof type, &type,
                                nullptr) == CL_SUCCESS);
  CHECK(type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  const char* name = "h.h";
  CHECK(clCompileProgram(user, 0, nullptr, nullptr, 1, nullptr, &name, nullptr, nullptr) ==
        CL_INVALID_VALUE);

  cl_program both[2] = {user, lib};
  cl_int err = CL_SUCCESS;
  int calls = 0;
  cl_program linked =
      clLinkProgram(fx.ctx, 0, nullptr, nullptr, 2, both, countCall, &calls, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(linked != nullptr);
  CHECK(calls == 1);
  CHECK(programString(linked, CL_PROGRAM_KERNEL_NAMES) == "import_user");
  CHECK(clBuildProgram(linked, 0, nullptr, nullptr, nullptr, nullptr) == CL_INVALID_OPERATION);
  cl_kernel k = makeKernel(linked, "import_user");
  std::vector<int> data{0, 1, 2, 3, 4, 5, 6, 7};
  REQUIRE(clSetKernelArgSVMPointer(k, 0, data.data()) == CL_SUCCESS);
  size_t n = data.size();
  runKernel(fx.queue, k, 1, &n);
  for (int i = 0; i < 8; ++i) CHECK(data[i] == 3 * i + 1);
  clReleaseKernel(k);
  clReleaseProgram(linked);

  // Alone, the import has no provider: the link fails and the log names the symbol.
  cl_program failed = clLinkProgram(fx.ctx, 1, &fx.dev, nullptr, 1, &user, nullptr, nullptr, &err);
  CHECK(err == CL_LINK_PROGRAM_FAILURE);
  REQUIRE(failed != nullptr);
  CHECK(buildLog(failed, fx.dev).find("tessera_scale") != std::string::npos);
  cl_build_status status = 0;
  REQUIRE(clGetProgramBuildInfo(failed, fx.dev, CL_PROGRAM_BUILD_STATUS, sizeof status, &status,
                                nullptr) == CL_SUCCESS);
  CHECK(status == CL_BUILD_ERROR);
  clReleaseProgram(failed);

  // Inputs must be compiled; programs must be valid.
  cl_program raw = ilProgram(fx.ctx, "vector_add", false);
  CHECK(clLinkProgram(fx.ctx, 0, nullptr, nullptr, 1, &raw, nullptr, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_OPERATION);
  CHECK(clLinkProgram(fx.ctx, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  cl_program bogus = reinterpret_cast<cl_program>(&calls);
  CHECK(clLinkProgram(fx.ctx, 0, nullptr, nullptr, 1, &bogus, nullptr, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_PROGRAM);
  clReleaseProgram(raw);
  clReleaseProgram(user);
  clReleaseProgram(lib);
}

TEST_CASE("Given an IL program with specialization constants, then set values reach the kernel",
          "[cl][program][spec]") {
  ClFixture fx;
  cl_program p = ilProgram(fx.ctx, "spec_constants", false);
  cl_int c1 = 20;
  cl_char c5 = 2;
  cl_uchar c3 = 0;
  CHECK(clSetProgramSpecializationConstant(p, 1, sizeof c1, &c1) == CL_SUCCESS);
  CHECK(clSetProgramSpecializationConstant(p, 5, sizeof c5, &c5) == CL_SUCCESS);
  CHECK(clSetProgramSpecializationConstant(p, 3, sizeof c3, &c3) == CL_SUCCESS);
  CHECK(clSetProgramSpecializationConstant(p, 99, sizeof c1, &c1) == CL_INVALID_SPEC_ID);
  CHECK(clSetProgramSpecializationConstant(p, 1, 8, &c1) == CL_INVALID_VALUE);
  CHECK(clSetProgramSpecializationConstant(p, 1, sizeof c1, nullptr) == CL_INVALID_VALUE);
  REQUIRE(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr) == CL_SUCCESS);
  cl_kernel k = makeKernel(p, "spec_constants");
  std::vector<cl_long> out(4, -1);
  REQUIRE(clSetKernelArgSVMPointer(k, 0, out.data()) == CL_SUCCESS);
  size_t one = 1;
  runKernel(fx.queue, k, 1, &one);
  CHECK(out[0] == 22);  // c1 + c5 + (c3 ? 100 : 0)
  CHECK(out[1] == 1);   // (long)1.5
  CHECK(out[2] == 0x100000000LL);
  CHECK(out[3] == 40);
  clReleaseKernel(k);
  clReleaseProgram(p);

  // Only IL programs take specialization constants.
  const char* src = "__kernel void k() {}";
  cl_int err = CL_SUCCESS;
  cl_program s = clCreateProgramWithSource(fx.ctx, 1, &src, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(clSetProgramSpecializationConstant(s, 1, sizeof c1, &c1) == CL_INVALID_PROGRAM);
  clReleaseProgram(s);
}
