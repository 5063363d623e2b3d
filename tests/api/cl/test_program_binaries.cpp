// Program binaries of every kind (executables, compiled objects, libraries) round-trip through
// clGetProgramInfo(CL_PROGRAM_BINARIES) and clCreateProgramWithBinary with their
// CL_PROGRAM_BINARY_TYPE, and clLinkProgram resolves functions, variables and structs defined in
// another program.
#include <cstring>

#include "cl_program_support.h"

using namespace tessera::cltest;

namespace {

const char* kCopy = R"(
__kernel void CopyBuffer(__global const int* src, __global int* dst) {
  int id = (int)get_global_id(0);
  dst[id] = src[id];
}
)";
const char* kAnotherCopy = R"(
__kernel void AnotherCopyBuffer(__global const int* src, __global int* dst) {
  int id = (int)get_global_id(0);
  dst[id] = src[id] + 1;
}
)";

cl_program fromSource(cl_context ctx, const char* source) {
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(ctx, 1, &source, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  return p;
}

cl_program_binary_type binaryType(cl_program p, cl_device_id d) {
  cl_program_binary_type t = 0xdead;
  REQUIRE(clGetProgramBuildInfo(p, d, CL_PROGRAM_BINARY_TYPE, sizeof t, &t, nullptr) == CL_SUCCESS);
  return t;
}

// CL_PROGRAM_BINARIES of a one-device program, checked against CL_PROGRAM_BINARY_SIZES.
std::vector<unsigned char> binaryOf(cl_program p) {
  size_t size = 0;
  REQUIRE(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) == CL_SUCCESS);
  REQUIRE(size > 0);
  size_t arraySize = 0;
  REQUIRE(clGetProgramInfo(p, CL_PROGRAM_BINARIES, 0, nullptr, &arraySize) == CL_SUCCESS);
  REQUIRE(arraySize == sizeof(unsigned char*));
  std::vector<unsigned char> bytes(size);
  unsigned char* ptrs[1] = {bytes.data()};
  REQUIRE(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof ptrs, ptrs, nullptr) == CL_SUCCESS);
  return bytes;
}

cl_program reload(ClFixture& fx, const std::vector<unsigned char>& bytes,
                  cl_int* status = nullptr) {
  const unsigned char* ptrs[1] = {bytes.data()};
  size_t size = bytes.size();
  cl_int err = CL_SUCCESS, binaryStatus = CL_SUCCESS;
  cl_program p = clCreateProgramWithBinary(fx.ctx, 1, &fx.dev, &size, ptrs, &binaryStatus, &err);
  if (status) {
    *status = err;
    return p;
  }
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(binaryStatus == CL_SUCCESS);
  return p;
}

cl_program link(ClFixture& fx, std::vector<cl_program> inputs, const char* options = nullptr) {
  cl_int err = CL_SUCCESS;
  cl_program p = clLinkProgram(fx.ctx, 1, &fx.dev, options, cl_uint(inputs.size()), inputs.data(),
                               nullptr, nullptr, &err);
  std::string log = p ? buildLog(p, fx.dev) : "";
  INFO("link log: " << log);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(p != nullptr);
  return p;
}

// Runs kernel `name` (src, dst) over 64 ints 0..63 and returns dst.
std::vector<cl_int> runCopy(ClFixture& fx, cl_program p, const char* name) {
  cl_kernel k = makeKernel(p, name);
  std::vector<cl_int> in(64), out(64, -1);
  for (int i = 0; i < 64; ++i) in[i] = i;
  cl_int err = CL_SUCCESS;
  cl_mem src = clCreateBuffer(fx.ctx, CL_MEM_COPY_HOST_PTR, 64 * sizeof(cl_int), in.data(), &err);
  cl_mem dst = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, 64 * sizeof(cl_int), nullptr, &err);
  REQUIRE(clSetKernelArg(k, 0, sizeof src, &src) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof dst, &dst) == CL_SUCCESS);
  size_t n = 64;
  REQUIRE(clEnqueueNDRangeKernel(fx.queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(fx.queue, dst, CL_TRUE, 0, 64 * sizeof(cl_int), out.data(), 0,
                              nullptr, nullptr) == CL_SUCCESS);
  clReleaseMemObject(src);
  clReleaseMemObject(dst);
  clReleaseKernel(k);
  return out;
}

void checkCopy(ClFixture& fx, cl_program p, const char* name, int plus) {
  INFO(name);
  std::vector<cl_int> out = runCopy(fx, p, name);
  for (int i = 0; i < 64; ++i) REQUIRE(out[i] == i + plus);
}

}  // namespace

TEST_CASE(
    "Given a compiled object, when its binary is reloaded, then it is a compiled object that links",
    "[cl][program][binary]") {
  ClFixture fx;
  cl_program object = fromSource(fx.ctx, kCopy);
  REQUIRE(clCompileProgram(object, 1, &fx.dev, nullptr, 0, nullptr, nullptr, nullptr, nullptr) ==
          CL_SUCCESS);
  CHECK(binaryType(object, fx.dev) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  cl_program reloaded = reload(fx, binaryOf(object));
  CHECK(binaryType(reloaded, fx.dev) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  // "If program is created with clCreateProgramWithBinary, then the program binary must be an
  // executable binary (not a compiled binary or library)."
  CHECK(clBuildProgram(reloaded, 1, &fx.dev, nullptr, nullptr, nullptr) == CL_INVALID_BINARY);
  cl_int err = CL_SUCCESS;
  CHECK(clCreateKernel(reloaded, "CopyBuffer", &err) == nullptr);
  CHECK(err == CL_INVALID_PROGRAM_EXECUTABLE);
  cl_program linked = link(fx, {reloaded});
  CHECK(binaryType(linked, fx.dev) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  checkCopy(fx, linked, "CopyBuffer", 0);
  for (cl_program p : {object, reloaded, linked}) clReleaseProgram(p);
}

TEST_CASE(
    "Given a library, when its binary is reloaded, then it is a library that links with objects",
    "[cl][program][binary]") {
  ClFixture fx;
  cl_program object = fromSource(fx.ctx, kCopy);
  REQUIRE(clCompileProgram(object, 1, &fx.dev, nullptr, 0, nullptr, nullptr, nullptr, nullptr) ==
          CL_SUCCESS);
  cl_program library = link(fx, {object}, "-create-library");
  CHECK(binaryType(library, fx.dev) == CL_PROGRAM_BINARY_TYPE_LIBRARY);
  cl_program reloaded = reload(fx, binaryOf(library));
  CHECK(binaryType(reloaded, fx.dev) == CL_PROGRAM_BINARY_TYPE_LIBRARY);
  // A library made from a reloaded object, as the CTS's program_binary_type does.
  cl_program objectAgain = reload(fx, binaryOf(object));
  cl_program library2 = link(fx, {objectAgain}, "-create-library");
  CHECK(binaryType(library2, fx.dev) == CL_PROGRAM_BINARY_TYPE_LIBRARY);

  cl_program another = fromSource(fx.ctx, kAnotherCopy);
  REQUIRE(clCompileProgram(another, 1, &fx.dev, nullptr, 0, nullptr, nullptr, nullptr, nullptr) ==
          CL_SUCCESS);
  cl_program linked = link(fx, {another, reloaded}, "");
  CHECK(binaryType(linked, fx.dev) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  checkCopy(fx, linked, "CopyBuffer", 0);
  checkCopy(fx, linked, "AnotherCopyBuffer", 1);
  for (cl_program p : {object, library, reloaded, objectAgain, library2, another, linked})
    clReleaseProgram(p);
}

TEST_CASE("Given executables built and linked, when their binaries are reloaded, then they run",
          "[cl][program][binary]") {
  ClFixture fx;
  SECTION("built from source") {
    cl_program built = fromSource(fx.ctx, kCopy);
    REQUIRE(clBuildProgram(built, 1, &fx.dev, nullptr, nullptr, nullptr) == CL_SUCCESS);
    cl_program reloaded = reload(fx, binaryOf(built));
    CHECK(binaryType(reloaded, fx.dev) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    REQUIRE(clBuildProgram(reloaded, 1, &fx.dev, nullptr, nullptr, nullptr) == CL_SUCCESS);
    checkCopy(fx, reloaded, "CopyBuffer", 0);
    clReleaseProgram(built);
    clReleaseProgram(reloaded);
  }
  SECTION("linked from two objects") {
    cl_program a = fromSource(fx.ctx, kCopy), b = fromSource(fx.ctx, kAnotherCopy);
    for (cl_program p : {a, b})
      REQUIRE(clCompileProgram(p, 1, &fx.dev, nullptr, 0, nullptr, nullptr, nullptr, nullptr) ==
              CL_SUCCESS);
    cl_program linked = link(fx, {a, b});
    cl_program reloaded = reload(fx, binaryOf(linked));
    CHECK(binaryType(reloaded, fx.dev) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    REQUIRE(clBuildProgram(reloaded, 1, &fx.dev, nullptr, nullptr, nullptr) == CL_SUCCESS);
    checkCopy(fx, reloaded, "CopyBuffer", 0);
    checkCopy(fx, reloaded, "AnotherCopyBuffer", 1);
    for (cl_program p : {a, b, linked, reloaded}) clReleaseProgram(p);
  }
  SECTION("linked from IL units of different SPIR-V versions") {
    // export_lib and import_user come out of the corpus build as SPIR-V 1.4 and 1.0: one module
    // per unit, their binary the units' SPIR-V.
    cl_program lib = ilProgram(fx.ctx, "export_lib", false);
    cl_program user = ilProgram(fx.ctx, "import_user", false);
    for (cl_program p : {lib, user})
      REQUIRE(clCompileProgram(p, 1, &fx.dev, nullptr, 0, nullptr, nullptr, nullptr, nullptr) ==
              CL_SUCCESS);
    cl_program linked = link(fx, {user, lib});
    cl_program reloaded = reload(fx, binaryOf(linked));
    CHECK(binaryType(reloaded, fx.dev) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    REQUIRE(clBuildProgram(reloaded, 1, &fx.dev, nullptr, nullptr, nullptr) == CL_SUCCESS);
    cl_kernel k = makeKernel(reloaded, "import_user");
    std::vector<int> data{0, 1, 2, 3, 4, 5, 6, 7};
    REQUIRE(clSetKernelArgSVMPointer(k, 0, data.data()) == CL_SUCCESS);
    size_t n = data.size();
    runKernel(fx.queue, k, 1, &n);
    for (int i = 0; i < 8; ++i) CHECK(data[i] == 3 * i + 1);
    clReleaseKernel(k);
    for (cl_program p : {lib, user, linked, reloaded}) clReleaseProgram(p);
  }
}

TEST_CASE("Given a damaged object binary, then clCreateProgramWithBinary refuses it",
          "[cl][program][binary]") {
  ClFixture fx;
  cl_program object = fromSource(fx.ctx, kCopy);
  REQUIRE(clCompileProgram(object, 1, &fx.dev, nullptr, 0, nullptr, nullptr, nullptr, nullptr) ==
          CL_SUCCESS);
  std::vector<unsigned char> good = binaryOf(object);
  for (size_t cut : {size_t{8}, size_t{24}, good.size() - 4}) {
    INFO("cut at " << cut);
    std::vector<unsigned char> bad(good.begin(), good.begin() + cut);
    cl_int err = CL_SUCCESS;
    CHECK(reload(fx, bad, &err) == nullptr);
    CHECK(err == CL_INVALID_BINARY);
  }
  std::vector<unsigned char> wrongType = good;
  wrongType[12] = 0x77;  // the binary type word
  cl_int err = CL_SUCCESS;
  CHECK(reload(fx, wrongType, &err) == nullptr);
  CHECK(err == CL_INVALID_BINARY);
  std::vector<unsigned char> garbage = good;
  for (size_t i = 40; i < garbage.size(); ++i) garbage[i] = 0x5a;  // SPIR-V that is not
  CHECK(reload(fx, garbage, &err) == nullptr);
  CHECK(err == CL_INVALID_BINARY);
  clReleaseProgram(object);
}

TEST_CASE(
    "Given programs that define a variable, a struct and a function, when another program uses "
    "them extern and they are linked, then the link resolves them and the kernel reads them",
    "[cl][program][link]") {
  ClFixture fx;
  // The CTS's two_file_regular_variable_access / _struct_access / _function_access, then a kernel
  // that uses all three.
  cl_program defs = fromSource(fx.ctx, R"(
constant float foo = 4.0f;
constant struct bar { float x, y, z, r; int color; } foos = {0.f, 1.5f, 0.f, 0.f, 7};
int square_sum(int x, int y) { return x * x + y * y; }
)");
  cl_program uses = fromSource(fx.ctx, R"(
extern constant float foo;
extern constant struct bar { float x, y, z, r; int color; } foos;
extern int square_sum(int, int);
__kernel void use(__global float* out) {
  out[get_global_id(0)] = foo + foos.y + (float)foos.color + (float)square_sum(3, 4);
}
)");
  for (cl_program p : {defs, uses})
    REQUIRE(clCompileProgram(p, 1, &fx.dev, nullptr, 0, nullptr, nullptr, nullptr, nullptr) ==
            CL_SUCCESS);
  auto runUse = [&](cl_program linked) {
    cl_kernel k = makeKernel(linked, "use");
    cl_int err = CL_SUCCESS;
    cl_mem out = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, 4 * sizeof(float), nullptr, &err);
    REQUIRE(clSetKernelArg(k, 0, sizeof out, &out) == CL_SUCCESS);
    size_t n = 4;
    REQUIRE(clEnqueueNDRangeKernel(fx.queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) ==
            CL_SUCCESS);
    float v[4] = {};
    REQUIRE(clEnqueueReadBuffer(fx.queue, out, CL_TRUE, 0, sizeof v, v, 0, nullptr, nullptr) ==
            CL_SUCCESS);
    for (float x : v) CHECK(x == 4.0f + 1.5f + 7.0f + 25.0f);
    clReleaseMemObject(out);
    clReleaseKernel(k);
  };
  cl_program linked = link(fx, {defs, uses});
  runUse(linked);
  // Also through a library.
  cl_program library = link(fx, {defs}, "-create-library");
  cl_program viaLibrary = link(fx, {uses, library});
  runUse(viaLibrary);
  for (cl_program p : {defs, uses, linked, library, viaLibrary}) clReleaseProgram(p);
}

TEST_CASE("Given a __global variable defined in one program, when linked, then kernels share it",
          "[cl][program][link]") {
  ClFixture fx;
  cl_program defs = fromSource(fx.ctx, "__global int counter = 40;\n");
  cl_program uses = fromSource(fx.ctx, R"(
extern __global int counter;
__kernel void bump(__global int* out) { if (get_global_id(0) == 0) counter += 2; }
__kernel void read(__global int* out) { out[get_global_id(0)] = counter; }
)");
  for (cl_program p : {defs, uses})
    REQUIRE(clCompileProgram(p, 1, &fx.dev, "-cl-std=CL3.0", 0, nullptr, nullptr, nullptr,
                             nullptr) == CL_SUCCESS);
  cl_program linked = link(fx, {uses, defs});
  cl_int err = CL_SUCCESS;
  cl_mem out = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, 8 * sizeof(cl_int), nullptr, &err);
  cl_kernel bump = makeKernel(linked, "bump"), read = makeKernel(linked, "read");
  for (cl_kernel k : {bump, read}) REQUIRE(clSetKernelArg(k, 0, sizeof out, &out) == CL_SUCCESS);
  size_t n = 8;
  REQUIRE(clEnqueueNDRangeKernel(fx.queue, bump, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(fx.queue, read, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  cl_int v[8] = {};
  REQUIRE(clEnqueueReadBuffer(fx.queue, out, CL_TRUE, 0, sizeof v, v, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  for (cl_int x : v) CHECK(x == 42);
  size_t total = 0;
  REQUIRE(clGetProgramBuildInfo(linked, fx.dev, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                sizeof total, &total, nullptr) == CL_SUCCESS);
  CHECK(total >= sizeof(cl_int));
  clReleaseMemObject(out);
  clReleaseKernel(bump);
  clReleaseKernel(read);
  for (cl_program p : {defs, uses, linked}) clReleaseProgram(p);
}

TEST_CASE("Given invalid linker options, then clLinkProgram returns CL_INVALID_LINKER_OPTIONS",
          "[cl][program][link][errors]") {
  ClFixture fx;
  cl_program object = fromSource(fx.ctx, kCopy);
  REQUIRE(clCompileProgram(object, 1, &fx.dev, nullptr, 0, nullptr, nullptr, nullptr, nullptr) ==
          CL_SUCCESS);
  for (const char* options : {"-no-such-option", "-cl-std=CL1.2", "-enable-link-options", "-D X=1",
                              "-create-library -cl-opt-disable"}) {
    INFO(options);
    cl_int err = CL_SUCCESS;
    CHECK(clLinkProgram(fx.ctx, 1, &fx.dev, options, 1, &object, nullptr, nullptr, &err) ==
          nullptr);
    CHECK(err == CL_INVALID_LINKER_OPTIONS);
  }
  // The valid ones link.
  for (const char* options : {"-cl-fast-relaxed-math", "-cl-denorms-are-zero -cl-no-signed-zeros",
                              "-create-library -enable-link-options -cl-finite-math-only"}) {
    INFO(options);
    cl_program p = link(fx, {object}, options);
    clReleaseProgram(p);
  }
  clReleaseProgram(object);
}
