// Kernels compiled when first needed (ZE_tessera_module_kernels, compiler/lazy_code.h): a module of
// many kernels is created without compiling any, zeKernelCreate compiles the one it names, two
// threads creating one kernel compile it once, a native binary still holds every kernel, and a
// kernel whose code generation fails is refused at zeKernelCreate with its reason logged. Kernels
// created deferred (ZE_tessera_module_kernels 1.1) are compiled at their first launch or code query
// instead, with the arguments set before in place.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <string>
#include <thread>
#include <vector>

#include "kernel_test_support.h"
#include "spirv/opencl_c.h"
#include "tessera/ze_tessera.h"
#include "ze_test_support.h"

using tessera::test::KernelFixture;

namespace {

// Eight kernels, kernel ki writing base + i. Each test uses its own base: the driver keeps the
// kernels it compiled for a SPIR-V module after the module is destroyed (compiler.h, recentLazy_),
// so a test that counts compilations needs SPIR-V no earlier test built.
std::string manyKernels(int base) {
  std::string source;
  for (int i = 0; i < 8; ++i)
    source += "kernel void k" + std::to_string(i) + "(global int* o) { o[get_global_id(0)] = " +
              std::to_string(base + i) + "; }\n";
  return source;
}

// `good` compiles; `bad` recurses, which the JIT refuses when it compiles that kernel.
const char* kOneBad = R"(
int down(int n) { return n <= 0 ? 0 : 1 + down(n - 1); }
kernel void good(global int* o) { o[get_global_id(0)] = 7; }
kernel void bad(global int* o) { o[get_global_id(0)] = down(o[0]); }
)";

std::vector<uint8_t> spirvOf(const std::string& source) {
  tessera::spirv::CompileResult c = tessera::spirv::compileOpenCLC(source.c_str(), "");
  INFO(c.log);
  REQUIRE(c.ok);
  const auto* bytes = reinterpret_cast<const uint8_t*>(c.spirv.data());
  return {bytes, bytes + c.spirv.size() * sizeof(uint32_t)};
}

struct Lazy {
  ze_pfnTesseraModuleBuildKernels_t build = nullptr;
  ze_pfnTesseraModuleGetCompiledKernelCount_t count = nullptr;
  explicit Lazy(ze_driver_handle_t driver) {
    build = tessera::test::extensionFunction<ze_pfnTesseraModuleBuildKernels_t>(
        driver, "zeTesseraModuleBuildKernels");
    count = tessera::test::extensionFunction<ze_pfnTesseraModuleGetCompiledKernelCount_t>(
        driver, "zeTesseraModuleGetCompiledKernelCount");
    REQUIRE(build != nullptr);
    REQUIRE(count != nullptr);
  }
  uint32_t compiled(ze_module_handle_t m) const {
    uint32_t n = 99;
    REQUIRE(count(m, &n) == ZE_RESULT_SUCCESS);
    return n;
  }
};

ze_module_handle_t moduleOf(KernelFixture& fx, const std::vector<uint8_t>& bytes,
                            ze_module_format_t format = ZE_MODULE_FORMAT_IL_SPIRV) {
  ze_module_desc_t desc{
      ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, format, bytes.size(), bytes.data(), "", nullptr};
  ze_module_handle_t m = nullptr;
  REQUIRE(zeModuleCreate(fx.context, fx.device, &desc, &m, nullptr) == ZE_RESULT_SUCCESS);
  return m;
}

ze_result_t createKernel(ze_module_handle_t m, const char* name, ze_kernel_handle_t* k) {
  ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
  return zeKernelCreate(m, &kd, k);
}

std::string logText(ze_module_build_log_handle_t log) {
  size_t size = 0;
  REQUIRE(zeModuleBuildLogGetString(log, &size, nullptr) == ZE_RESULT_SUCCESS);
  std::string text(size, '\0');
  REQUIRE(zeModuleBuildLogGetString(log, &size, text.data()) == ZE_RESULT_SUCCESS);
  zeModuleBuildLogDestroy(log);
  return text.c_str();
}

// Runs kernel `k` over one work-item and returns what it wrote.
int runOne(KernelFixture& fx, ze_kernel_handle_t k) {
  ze_device_mem_alloc_desc_t dd{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
  ze_host_mem_alloc_desc_t hd{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
  void* out = nullptr;
  REQUIRE(zeMemAllocShared(fx.context, &dd, &hd, sizeof(int), 4, fx.device, &out) ==
          ZE_RESULT_SUCCESS);
  *static_cast<int*>(out) = -1;
  REQUIRE(zeKernelSetArgumentValue(k, 0, sizeof out, &out) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetGroupSize(k, 1, 1, 1) == ZE_RESULT_SUCCESS);
  fx.runOnce([&](ze_command_list_handle_t l) { KernelFixture::launch(l, k, {1, 1, 1}); });
  int v = *static_cast<int*>(out);
  zeMemFree(fx.context, out);
  return v;
}

}  // namespace

TEST_CASE(
    "Given a module of eight kernels, when it is created, then no kernel is compiled until "
    "zeKernelCreate names it, and zeTesseraModuleBuildKernels compiles the rest",
    "[module][lazy]") {
  KernelFixture fx;
  Lazy lazy(fx.driver);
  CHECK(tessera::test::extensionVersion(fx.driver, ZE_TESSERA_MODULE_KERNELS_EXT_NAME) ==
        ZE_TESSERA_MODULE_KERNELS_EXT_VERSION);
  ze_module_handle_t m = moduleOf(fx, spirvOf(manyKernels(0)));
  CHECK(lazy.compiled(m) == 0);
  ze_kernel_handle_t k5 = nullptr;
  REQUIRE(createKernel(m, "k5", &k5) == ZE_RESULT_SUCCESS);
  CHECK(lazy.compiled(m) == 1);
  CHECK(runOne(fx, k5) == 5);
  const char* two[] = {"k1", "k2"};
  REQUIRE(lazy.build(m, 2, two, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(lazy.compiled(m) == 3);
  const char* unknown[] = {"nope"};
  CHECK(lazy.build(m, 1, unknown, nullptr) == ZE_RESULT_ERROR_INVALID_KERNEL_NAME);
  CHECK(lazy.build(m, 1, nullptr, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  REQUIRE(lazy.build(m, 0, nullptr, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(lazy.compiled(m) == 8);
  zeKernelDestroy(k5);
  zeModuleDestroy(m);
}

TEST_CASE(
    "Given a module of eight kernels, when eight threads create the same kernel at once, "
    "then every creation succeeds and one kernel is compiled",
    "[module][lazy][threads]") {
  KernelFixture fx;
  Lazy lazy(fx.driver);
  ze_module_handle_t m = moduleOf(fx, spirvOf(manyKernels(100)));
  std::vector<ze_kernel_handle_t> kernels(8, nullptr);
  std::vector<ze_result_t> results(8, ZE_RESULT_ERROR_UNKNOWN);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < kernels.size(); ++i)
    threads.emplace_back([&, i] { results[i] = createKernel(m, "k3", &kernels[i]); });
  for (std::thread& t : threads) t.join();
  for (ze_result_t r : results) CHECK(r == ZE_RESULT_SUCCESS);
  CHECK(lazy.compiled(m) == 1);
  CHECK(runOne(fx, kernels[7]) == 103);
  for (ze_kernel_handle_t k : kernels) zeKernelDestroy(k);
  zeModuleDestroy(m);
}

TEST_CASE(
    "Given a module whose kernels were not compiled, when its native binary is made, then it "
    "holds every kernel: a module from it has them all without compiling",
    "[module][lazy][native]") {
  KernelFixture fx;
  Lazy lazy(fx.driver);
  ze_module_handle_t m = moduleOf(fx, spirvOf(manyKernels(200)));
  CHECK(lazy.compiled(m) == 0);
  size_t size = 0;
  REQUIRE(zeModuleGetNativeBinary(m, &size, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<uint8_t> binary(size);
  REQUIRE(zeModuleGetNativeBinary(m, &size, binary.data()) == ZE_RESULT_SUCCESS);
  CHECK(lazy.compiled(m) == 8);
  ze_module_handle_t loaded = moduleOf(fx, binary, ZE_MODULE_FORMAT_NATIVE);
  CHECK(lazy.compiled(loaded) == 8);
  for (int i = 0; i < 8; ++i) {
    std::string name = "k" + std::to_string(i);
    ze_kernel_handle_t k = nullptr;
    REQUIRE(createKernel(loaded, name.c_str(), &k) == ZE_RESULT_SUCCESS);
    CHECK(runOne(fx, k) == 200 + i);
    zeKernelDestroy(k);
  }
  zeModuleDestroy(loaded);
  zeModuleDestroy(m);
}

TEST_CASE(
    "Given a module with a kernel the JIT cannot compile, when it is created, then it "
    "succeeds, the other kernel runs, and zeKernelCreate of that one answers "
    "MODULE_BUILD_FAILURE every time, with the reason in zeTesseraModuleBuildKernels' log",
    "[module][lazy][errors]") {
  KernelFixture fx;
  Lazy lazy(fx.driver);
  ze_module_handle_t m = moduleOf(fx, spirvOf(kOneBad));
  ze_kernel_handle_t good = nullptr, bad = nullptr;
  REQUIRE(createKernel(m, "good", &good) == ZE_RESULT_SUCCESS);
  CHECK(runOne(fx, good) == 7);
  CHECK(createKernel(m, "bad", &bad) == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  CHECK(bad == nullptr);
  CHECK(createKernel(m, "bad", &bad) == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  ze_module_build_log_handle_t log = nullptr;
  const char* names[] = {"bad"};
  CHECK(lazy.build(m, 1, names, &log) == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  std::string text = logText(log);
  CHECK(text.find("kernel bad") != std::string::npos);
  CHECK(text.find("recursion is not supported") != std::string::npos);
  CHECK(lazy.build(m, 0, nullptr, nullptr) == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  // A native binary cannot hold the bad kernel: it carries no code, and a module made from it
  // compiles from its SPIR-V, with the same answers.
  size_t size = 0;
  REQUIRE(zeModuleGetNativeBinary(m, &size, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<uint8_t> binary(size);
  REQUIRE(zeModuleGetNativeBinary(m, &size, binary.data()) == ZE_RESULT_SUCCESS);
  ze_module_handle_t loaded = moduleOf(fx, binary, ZE_MODULE_FORMAT_NATIVE);
  ze_kernel_handle_t again = nullptr;
  CHECK(createKernel(loaded, "bad", &again) == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  REQUIRE(createKernel(loaded, "good", &again) == ZE_RESULT_SUCCESS);
  CHECK(runOne(fx, again) == 7);
  zeKernelDestroy(again);
  zeKernelDestroy(good);
  zeModuleDestroy(loaded);
  zeModuleDestroy(m);
}

TEST_CASE(
    "Given a module destroyed after one of its kernels was compiled, when a module is made again "
    "from the same SPIR-V, then it has that kernel compiled already and makes no other",
    "[module][lazy][cache]") {
  // Programs that make and destroy a module per test or per run (compute-benchmarks) made the
  // driver translate its SPIR-V and compile its kernels again each time (docs/performance.md,
  // "Object creation").
  KernelFixture fx;
  Lazy lazy(fx.driver);
  const std::vector<uint8_t> spirv = spirvOf(manyKernels(300));
  ze_module_handle_t m = moduleOf(fx, spirv);
  ze_kernel_handle_t k = nullptr;
  REQUIRE(createKernel(m, "k2", &k) == ZE_RESULT_SUCCESS);
  CHECK(lazy.compiled(m) == 1);
  zeKernelDestroy(k);
  zeModuleDestroy(m);

  ze_module_handle_t again = moduleOf(fx, spirv);
  CHECK(lazy.compiled(again) == 1);
  REQUIRE(createKernel(again, "k2", &k) == ZE_RESULT_SUCCESS);
  CHECK(lazy.compiled(again) == 1);
  CHECK(runOne(fx, k) == 302);
  zeKernelDestroy(k);
  zeModuleDestroy(again);
}

namespace {

ze_result_t createDeferred(ze_module_handle_t m, const char* name, ze_kernel_handle_t* k) {
  ze_tessera_kernel_deferred_desc_t deferred{ZE_STRUCTURE_TYPE_TESSERA_KERNEL_DEFERRED_DESC,
                                             nullptr};
  ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, &deferred, 0, name};
  return zeKernelCreate(m, &kd, k);
}

// By-value arguments of every alignment, a __local one and pointers: the table reflection gives
// a deferred kernel must take each value where the code reads it.
const char* kMixed = R"(
typedef struct { char c; double d; int i; } S;
kernel void mixed(global double* o, char c, float3 v, S s, local int* l, long x, short h,
                  double16 w) {
  l[0] = 1;
  o[0] = c; o[1] = v.x + v.y + v.z; o[2] = s.c + s.d + s.i; o[3] = l[0]; o[4] = x; o[5] = h;
  o[6] = w.s0 + w.sf;
}
)";

}  // namespace

TEST_CASE(
    "Given kernels created deferred (ZE_tessera_module_kernels 1.1), then nothing is compiled "
    "until a launch or a query needs the code, and the arguments set before arrive",
    "[module][lazy][deferred]") {
  KernelFixture fx;
  Lazy lazy(fx.driver);
  ze_module_handle_t m = moduleOf(fx, spirvOf(manyKernels(400) + kMixed));
  ze_kernel_handle_t k4 = nullptr, mixed = nullptr;
  REQUIRE(createDeferred(m, "k4", &k4) == ZE_RESULT_SUCCESS);
  REQUIRE(createDeferred(m, "mixed", &mixed) == ZE_RESULT_SUCCESS);
  CHECK(lazy.compiled(m) == 0);
  // The launch compiles it.
  CHECK(runOne(fx, k4) == 404);
  CHECK(lazy.compiled(m) == 1);

  ze_device_mem_alloc_desc_t dd{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
  ze_host_mem_alloc_desc_t hd{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
  void* out = nullptr;
  REQUIRE(zeMemAllocShared(fx.context, &dd, &hd, 8 * sizeof(double), 8, fx.device, &out) ==
          ZE_RESULT_SUCCESS);
  struct S {
    char c;
    double d;
    int i;
  } s{3, 0.5, 40};
  float v[4] = {1, 2, 4, 0};
  double w[16] = {};
  w[0] = 100, w[15] = 28;
  const char c = 7;
  const long x = 1L << 40;
  const short h = -9;
  REQUIRE(zeKernelSetArgumentValue(mixed, 0, sizeof out, &out) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetArgumentValue(mixed, 1, sizeof c, &c) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetArgumentValue(mixed, 2, sizeof v, v) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetArgumentValue(mixed, 3, sizeof s, &s) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetArgumentValue(mixed, 4, 64, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetArgumentValue(mixed, 5, sizeof x, &x) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetArgumentValue(mixed, 6, sizeof h, &h) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetArgumentValue(mixed, 7, sizeof w, w) == ZE_RESULT_SUCCESS);
  // What reflection knows is checked before any code: an index past the last argument.
  CHECK(zeKernelSetArgumentValue(mixed, 8, sizeof c, &c) ==
        ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
  CHECK(lazy.compiled(m) == 1);
  REQUIRE(zeKernelSetGroupSize(mixed, 1, 1, 1) == ZE_RESULT_SUCCESS);
  fx.runOnce([&](ze_command_list_handle_t l) { KernelFixture::launch(l, mixed, {1, 1, 1}); });
  CHECK(lazy.compiled(m) == 2);
  const auto* o = static_cast<const double*>(out);
  CHECK(o[0] == 7);
  CHECK(o[1] == 7);
  CHECK(o[2] == 43.5);
  CHECK(o[3] == 1);
  CHECK(o[4] == double(1L << 40));
  CHECK(o[5] == -9);
  CHECK(o[6] == 128);
  zeMemFree(fx.context, out);

  // A query that needs the code compiles too.
  ze_kernel_handle_t k6 = nullptr;
  REQUIRE(createDeferred(m, "k6", &k6) == ZE_RESULT_SUCCESS);
  CHECK(lazy.compiled(m) == 2);
  ze_kernel_properties_t props{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
  REQUIRE(zeKernelGetProperties(k6, &props) == ZE_RESULT_SUCCESS);
  CHECK(props.numKernelArgs == 1);
  CHECK(lazy.compiled(m) == 3);
  for (ze_kernel_handle_t k : {k4, mixed, k6}) zeKernelDestroy(k);
  zeModuleDestroy(m);
}

TEST_CASE(
    "Given a deferred kernel the JIT cannot compile, then its creation succeeds and every "
    "launch or code query answers MODULE_BUILD_FAILURE with the reason logged",
    "[module][lazy][deferred][errors]") {
  KernelFixture fx;
  Lazy lazy(fx.driver);
  ze_module_handle_t m = moduleOf(fx, spirvOf(kOneBad));
  ze_kernel_handle_t bad = nullptr;
  REQUIRE(createDeferred(m, "bad", &bad) == ZE_RESULT_SUCCESS);
  void* none = nullptr;
  CHECK(zeKernelSetArgumentValue(bad, 0, sizeof none, &none) == ZE_RESULT_SUCCESS);
  ze_group_count_t one{1, 1, 1};
  ze_command_list_handle_t list = fx.list();
  for (int i = 0; i < 2; ++i)
    CHECK(zeCommandListAppendLaunchKernel(list, bad, &one, nullptr, 0, nullptr) ==
          ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  ze_kernel_properties_t props{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
  CHECK(zeKernelGetProperties(bad, &props) == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  uint32_t x = 0, y = 0, z = 0;
  CHECK(zeKernelSuggestGroupSize(bad, 64, 1, 1, &x, &y, &z) ==
        ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  uint32_t size = 0;
  char* text = nullptr;
  CHECK(zeKernelGetSourceAttributes(bad, &size, &text) == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  ze_module_build_log_handle_t log = nullptr;
  const char* names[] = {"bad"};
  CHECK(lazy.build(m, 1, names, &log) == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  CHECK(logText(log).find("recursion is not supported") != std::string::npos);
  zeKernelDestroy(bad);
  zeModuleDestroy(m);
}

TEST_CASE(
    "Given a deferred kernel, when two threads append it to their own lists at once, then both "
    "appends succeed and it is compiled once",
    "[module][lazy][deferred][threads]") {
  KernelFixture fx;
  Lazy lazy(fx.driver);
  ze_module_handle_t m = moduleOf(fx, spirvOf(manyKernels(500)));
  ze_kernel_handle_t k = nullptr;
  REQUIRE(createDeferred(m, "k1", &k) == ZE_RESULT_SUCCESS);
  void* none = nullptr;
  REQUIRE(zeKernelSetArgumentValue(k, 0, sizeof none, &none) == ZE_RESULT_SUCCESS);
  ze_command_list_handle_t lists[2] = {fx.list(), fx.list()};
  ze_result_t results[2] = {ZE_RESULT_ERROR_UNKNOWN, ZE_RESULT_ERROR_UNKNOWN};
  ze_group_count_t one{1, 1, 1};
  std::thread a([&] {
    results[0] = zeCommandListAppendLaunchKernel(lists[0], k, &one, nullptr, 0, nullptr);
  });
  results[1] = zeCommandListAppendLaunchKernel(lists[1], k, &one, nullptr, 0, nullptr);
  a.join();
  CHECK(results[0] == ZE_RESULT_SUCCESS);
  CHECK(results[1] == ZE_RESULT_SUCCESS);
  CHECK(lazy.compiled(m) == 1);
  zeKernelDestroy(k);
  zeModuleDestroy(m);
}

TEST_CASE(
    "Given a module with one of eight kernels compiled, when its binary is taken as it is, then "
    "nothing more is compiled and a module made from it compiles each kernel when first needed",
    "[module][lazy][native][deferred]") {
  KernelFixture fx;
  Lazy lazy(fx.driver);
  auto asIs = tessera::test::extensionFunction<ze_pfnTesseraModuleGetNativeBinaryAsIs_t>(
      fx.driver, "zeTesseraModuleGetNativeBinaryAsIs");
  REQUIRE(asIs != nullptr);
  ze_module_handle_t m = moduleOf(fx, spirvOf(manyKernels(600)));
  ze_kernel_handle_t k = nullptr;
  REQUIRE(createKernel(m, "k3", &k) == ZE_RESULT_SUCCESS);
  zeKernelDestroy(k);
  size_t size = 0;
  REQUIRE(asIs(m, &size, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<uint8_t> binary(size);
  CHECK(asIs(m, &size, binary.data()) == ZE_RESULT_SUCCESS);
  CHECK(lazy.compiled(m) == 1);
  ze_module_handle_t loaded = moduleOf(fx, binary, ZE_MODULE_FORMAT_NATIVE);
  REQUIRE(createKernel(loaded, "k5", &k) == ZE_RESULT_SUCCESS);
  CHECK(runOne(fx, k) == 605);
  zeKernelDestroy(k);
  // Once every kernel has code, the binary carries it: a module from it compiles nothing.
  REQUIRE(lazy.build(m, 0, nullptr, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(asIs(m, &size, nullptr) == ZE_RESULT_SUCCESS);
  binary.resize(size);
  REQUIRE(asIs(m, &size, binary.data()) == ZE_RESULT_SUCCESS);
  ze_module_handle_t whole = moduleOf(fx, binary, ZE_MODULE_FORMAT_NATIVE);
  CHECK(lazy.compiled(whole) == 8);
  zeModuleDestroy(whole);
  zeModuleDestroy(loaded);
  zeModuleDestroy(m);
}
