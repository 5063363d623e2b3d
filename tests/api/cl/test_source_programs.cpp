// Programs from OpenCL C source, compiled in-process: build options, the build log, compile and link
// of separate units with input headers, argument info, and results checked on the host.
#include "cl_program_support.h"

using namespace tessera::cltest;

namespace {

cl_program sourceProgram(cl_context ctx, const char* source) {
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(ctx, 1, &source, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  return p;
}

// Runs kernel `name` of `p` over n items of an int buffer and returns the buffer.
std::vector<cl_int> runInts(ClFixture& fx, cl_program p, const char* name, size_t n) {
  cl_kernel k = makeKernel(p, name);
  std::vector<cl_int> out(n, -1);
  cl_int err = 0;
  cl_mem buf = clCreateBuffer(fx.ctx, CL_MEM_WRITE_ONLY, n * sizeof(cl_int), nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 0, sizeof buf, &buf) == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(fx.queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(fx.queue, buf, CL_TRUE, 0, n * sizeof(cl_int), out.data(), 0, nullptr,
                              nullptr) == CL_SUCCESS);
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  return out;
}

}  // namespace

TEST_CASE("Given source with macros, when built with -D options, then the kernel sees them",
          "[cl][program][source]") {
  ClFixture fx;
  cl_program p = sourceProgram(fx.ctx, R"(
#ifndef STEP
#error STEP is not defined
#endif
__kernel void fill(__global int* out) { out[get_global_id(0)] = BASE + STEP * (int)get_global_id(0); }
)");
  REQUIRE(clBuildProgram(p, 1, &fx.dev, "-D STEP=3 -DBASE=100 -cl-std=CL1.2", nullptr, nullptr) ==
          CL_SUCCESS);
  char options[64] = {};
  REQUIRE(clGetProgramBuildInfo(p, fx.dev, CL_PROGRAM_BUILD_OPTIONS, sizeof options, options,
                                nullptr) == CL_SUCCESS);
  CHECK(std::string(options) == "-D STEP=3 -DBASE=100 -cl-std=CL1.2");
  auto out = runInts(fx, p, "fill", 1000);
  for (size_t i = 0; i < out.size(); ++i) REQUIRE(out[i] == 100 + 3 * int(i));
  // Built again without the macro: the #error is the build's log.
  CHECK(clBuildProgram(p, 1, &fx.dev, "-DBASE=1", nullptr, nullptr) == CL_BUILD_PROGRAM_FAILURE);
  CHECK(buildLog(p, fx.dev).find("STEP is not defined") != std::string::npos);
  cl_build_status status = 0;
  clGetProgramBuildInfo(p, fx.dev, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr);
  CHECK(status == CL_BUILD_ERROR);
  clReleaseProgram(p);
}

TEST_CASE("Given source with errors or bad options, then the build fails as the spec says",
          "[cl][program][source][errors]") {
  ClFixture fx;
  cl_program bad = sourceProgram(fx.ctx, "__kernel void k(__global int* p) {\n  p[0] = nope;\n}\n");
  CHECK(clBuildProgram(bad, 0, nullptr, nullptr, nullptr, nullptr) == CL_BUILD_PROGRAM_FAILURE);
  std::string log = buildLog(bad, fx.dev);
  INFO(log);
  CHECK(log.find(":2:") != std::string::npos);  // the line of the error
  CHECK(log.find("nope") != std::string::npos);
  cl_int err = 0;
  CHECK(clCreateKernel(bad, "k", &err) == nullptr);
  CHECK(err == CL_INVALID_PROGRAM_EXECUTABLE);
  clReleaseProgram(bad);

  cl_program ok = sourceProgram(fx.ctx, "__kernel void k(__global int* p) { p[0] = 1; }");
  CHECK(clBuildProgram(ok, 0, nullptr, "-no-such-option", nullptr, nullptr) ==
        CL_INVALID_BUILD_OPTIONS);
  CHECK(clCompileProgram(ok, 0, nullptr, "-no-such-option", 0, nullptr, nullptr, nullptr, nullptr) ==
        CL_INVALID_COMPILER_OPTIONS);
  // Every option of the spec's list is accepted.
  CHECK(clBuildProgram(ok, 0, nullptr,
                       "-cl-fast-relaxed-math -cl-mad-enable -cl-no-signed-zeros -cl-finite-math-only "
                       "-cl-unsafe-math-optimizations -cl-single-precision-constant "
                       "-cl-denorms-are-zero -cl-fp32-correctly-rounded-divide-sqrt -w -Werror "
                       "-cl-kernel-arg-info -cl-opt-disable -I /tmp",
                       nullptr, nullptr) == CL_SUCCESS);
  CHECK(clBuildProgram(ok, 0, nullptr, "-cl-std=CL3.0", nullptr, nullptr) == CL_SUCCESS);
  clReleaseProgram(ok);
}

TEST_CASE("Given two source units and a header, when compiled and linked, then the call resolves",
          "[cl][program][source][link]") {
  ClFixture fx;
  cl_program header = sourceProgram(fx.ctx, "int twice(int x);\n#define OFFSET 7\n");
  cl_program user = sourceProgram(fx.ctx, R"(
#include "lib.h"
__kernel void use(__global int* out) { int i = get_global_id(0); out[i] = twice(i) + OFFSET; }
)");
  cl_program lib = sourceProgram(fx.ctx, "int twice(int x) { return 2 * x; }\n");
  const char* names[1] = {"lib.h"};
  REQUIRE(clCompileProgram(user, 1, &fx.dev, nullptr, 1, &header, names, nullptr, nullptr) ==
          CL_SUCCESS);
  REQUIRE(clCompileProgram(lib, 1, &fx.dev, nullptr, 0, nullptr, nullptr, nullptr, nullptr) ==
          CL_SUCCESS);
  cl_program_binary_type type = 0;
  REQUIRE(clGetProgramBuildInfo(user, fx.dev, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr) ==
          CL_SUCCESS);
  CHECK(type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  cl_program inputs[2] = {user, lib};
  cl_int err = 0;
  cl_program linked = clLinkProgram(fx.ctx, 1, &fx.dev, nullptr, 2, inputs, nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  auto out = runInts(fx, linked, "use", 256);
  for (size_t i = 0; i < out.size(); ++i) REQUIRE(out[i] == 2 * int(i) + 7);
  // Without the library the import stays unresolved.
  cl_program alone = clLinkProgram(fx.ctx, 1, &fx.dev, nullptr, 1, &user, nullptr, nullptr, &err);
  CHECK(err == CL_LINK_PROGRAM_FAILURE);
  if (alone) {
    CHECK(buildLog(alone, fx.dev).find("twice") != std::string::npos);
    clReleaseProgram(alone);
  }
  for (cl_program p : {header, user, lib, linked}) clReleaseProgram(p);
}

TEST_CASE("Given a kernel built from source, then its argument info names types and qualifiers",
          "[cl][program][source][kernel]") {
  ClFixture fx;
  cl_program p = sourceProgram(fx.ctx, R"(
__kernel void info(__global const uint* restrict src, __local float4* scratch, __constant int* table,
                   unsigned short count) {}
)");
  REQUIRE(clBuildProgram(p, 0, nullptr, "-cl-kernel-arg-info", nullptr, nullptr) == CL_SUCCESS);
  cl_kernel k = makeKernel(p, "info");
  auto argString = [&](cl_uint i, cl_kernel_arg_info what) {
    size_t n = 0;
    REQUIRE(clGetKernelArgInfo(k, i, what, 0, nullptr, &n) == CL_SUCCESS);
    std::string s(n, '\0');
    REQUIRE(clGetKernelArgInfo(k, i, what, n, s.data(), nullptr) == CL_SUCCESS);
    return std::string(s.c_str());
  };
  CHECK(argString(0, CL_KERNEL_ARG_NAME) == "src");
  CHECK(argString(0, CL_KERNEL_ARG_TYPE_NAME) == "uint*");
  CHECK(argString(1, CL_KERNEL_ARG_TYPE_NAME) == "float4*");
  CHECK(argString(3, CL_KERNEL_ARG_TYPE_NAME) == "ushort");
  cl_kernel_arg_address_qualifier aq = 0;
  REQUIRE(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, nullptr) ==
          CL_SUCCESS);
  CHECK(aq == CL_KERNEL_ARG_ADDRESS_LOCAL);
  REQUIRE(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, nullptr) ==
          CL_SUCCESS);
  CHECK(aq == CL_KERNEL_ARG_ADDRESS_CONSTANT);
  cl_kernel_arg_type_qualifier tq = 0;
  REQUIRE(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, nullptr) ==
          CL_SUCCESS);
  CHECK((tq & CL_KERNEL_ARG_TYPE_CONST));
  CHECK((tq & CL_KERNEL_ARG_TYPE_RESTRICT));
  clReleaseKernel(k);
  clReleaseProgram(p);
}

// What LLVM's optimizer makes of these is IR the SPIR-V 1.0 translator cannot carry: `freeze`
// ((i / d) * d + i % d; CLBlast's GEMM), a switch on an i2 (hashcat: "InvalidBitWidth"), and a
// scalar condition selecting vectors (pyopencl's Ranlux). Source goes to the translator
// unoptimized, so all of them build, and compute what the source says.
TEST_CASE("Given kernels whose optimized IR SPIR-V 1.0 cannot carry, when built from source, then "
          "they build and compute right",
          "[cl][program][source]") {
  ClFixture fx;
  cl_program p = sourceProgram(fx.ctx, R"(
__kernel void divmod(__global int* out) {
  uint i = get_global_id(0), d = 7;
  out[i] = (int)((i / d) * d + (i % d));  // freeze under -O2
}
__kernel void narrow(__global int* out) {
  int r;
  switch ((int)get_global_id(0) & 3) { case 0: r = 11; break; case 1: r = 7; break; case 2: r = 5; break; default: r = 3; }
  out[get_global_id(0)] = r;  // a switch on i2 under -O2
}
__kernel void vsel(__global int* out) {
  size_t i = get_global_id(0);
  int4 a = (int4)((int)i, 1, 2, 3), b = (int4)(-(int)i, 4, 5, 6);
  int4 v = (i & 1) ? a : b * 2;  // a scalar condition selecting whole vectors
  out[i] = v.x + v.y + v.z + v.w;
}
)");
  REQUIRE(clBuildProgram(p, 1, &fx.dev, "", nullptr, nullptr) == CL_SUCCESS);
  auto divmod = runInts(fx, p, "divmod", 100);
  auto narrow = runInts(fx, p, "narrow", 100);
  auto vsel = runInts(fx, p, "vsel", 100);
  const int table[4] = {11, 7, 5, 3};
  for (int i = 0; i < 100; ++i) {
    CHECK(divmod[i] == i);
    CHECK(narrow[i] == table[i & 3]);
    CHECK(vsel[i] == ((i & 1) ? i + 6 : -2 * i + 30));
  }
  clReleaseProgram(p);
}

// C99 inline definitions (`inline` without static or extern; pyopencl's headers): clang gives them
// available_externally linkage, which unoptimized becomes an invalid Import-linkage definition
// unless the compiler keeps the body as the unit's own.
TEST_CASE("Given a C99 inline function without static, when built from source, then it is called",
          "[cl][program][source]") {
  ClFixture fx;
  cl_program p = sourceProgram(fx.ctx, R"(
inline int twice(int x) { return 2 * x; }
inline int plus_one(int x) { return twice(x) / 2 + 1; }
__kernel void inl(__global int* out) { out[get_global_id(0)] = plus_one((int)get_global_id(0)); }
)");
  REQUIRE(clBuildProgram(p, 1, &fx.dev, "", nullptr, nullptr) == CL_SUCCESS);
  auto out = runInts(fx, p, "inl", 64);
  for (int i = 0; i < 64; ++i) CHECK(out[i] == i + 1);
  clReleaseProgram(p);
}
