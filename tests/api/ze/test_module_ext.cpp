// Module features beyond create/kernel/launch, on the test kernel corpus: build options that change
// the compile, dynamic linking of modules (export_lib + import_user), module globals, function
// pointers and kernel source attributes.
#include <level_zero/ze_api.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <fstream>
#include <iterator>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include "kernel_test_support.h"
#include "ze_test_support.h"

namespace {

struct Fixture : tessera::test::QueueListFixture {
  ze_result_t tryModule(const std::string& name, const char* flags, ze_module_handle_t* m,
                        std::string* log = nullptr) {
    auto spv = tessera::test::readCorpusKernel(name);
    ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC,
                          nullptr,
                          ZE_MODULE_FORMAT_IL_SPIRV,
                          spv.size(),
                          spv.data(),
                          flags,
                          nullptr};
    ze_module_build_log_handle_t l = nullptr;
    ze_result_t r = zeModuleCreate(context, device, &desc, m, &l);
    std::string text = tessera::test::buildLogText(l);
    if (log) *log = text;
    zeModuleBuildLogDestroy(l);
    return r;
  }
  ze_module_handle_t module(const std::string& name, const char* flags = "") {
    ze_module_handle_t m = nullptr;
    std::string log;
    ze_result_t r = tryModule(name, flags, &m, &log);
    INFO("build log: " << log);
    REQUIRE(r == ZE_RESULT_SUCCESS);
    return m;
  }
  ze_kernel_handle_t kernel(ze_module_handle_t m, const char* name) {
    ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
    ze_kernel_handle_t k = nullptr;
    REQUIRE(zeKernelCreate(m, &kd, &k) == ZE_RESULT_SUCCESS);
    return k;
  }
  void launch(ze_kernel_handle_t k, uint32_t groups, uint32_t groupSize) {
    REQUIRE(zeKernelSetGroupSize(k, groupSize, 1, 1) == ZE_RESULT_SUCCESS);
    ze_group_count_t g{groups, 1, 1};
    REQUIRE(zeCommandListAppendLaunchKernel(list, k, &g, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListClose(list) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueExecuteCommandLists(queue, 1, &list, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueSynchronize(queue, UINT64_MAX) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListReset(list) == ZE_RESULT_SUCCESS);
  }
};

template <typename T>
void setArg(ze_kernel_handle_t k, uint32_t i, const T& v) {
  REQUIRE(zeKernelSetArgumentValue(k, i, sizeof v, &v) == ZE_RESULT_SUCCESS);
}

ze_module_property_flags_t moduleFlags(ze_module_handle_t m) {
  ze_module_properties_t p{ZE_STRUCTURE_TYPE_MODULE_PROPERTIES};
  REQUIRE(zeModuleGetProperties(m, &p) == ZE_RESULT_SUCCESS);
  return p.flags;
}

}  // namespace

// --- build options ------------------------------------------------------------------------------

TEST_CASE(
    "Given -ze-opt-disable or -ze-opt-level=0/1, when vector_add and a barrier reduction are "
    "built and run, then the unoptimized code computes the same results",
    "[module][options]") {
  const char* flags =
      GENERATE("-ze-opt-disable", "-ze-opt-level=0", "-ze-opt-level 1", "-ze-opt-level=2 -g",
               "-ze-opt-large-register-file -cl-fast-relaxed-math");
  INFO("flags: " << flags);
  Fixture fx;
  {
    ze_module_handle_t module = fx.module("vector_add", flags);
    ze_kernel_handle_t kernel = fx.kernel(module, "vector_add");
    const uint32_t n = 256;
    std::vector<float> a(n), b(n), c(n, -1.0f);
    std::iota(a.begin(), a.end(), 0.0f);
    for (uint32_t i = 0; i < n; ++i) b[i] = 0.5f * float(i);
    float *pa = a.data(), *pb = b.data(), *pc = c.data();
    setArg(kernel, 0, pa);
    setArg(kernel, 1, pb);
    setArg(kernel, 2, pc);
    fx.launch(kernel, n / 32, 32);
    for (uint32_t i = 0; i < n; ++i) REQUIRE(c[i] == 1.5f * float(i));
    CHECK(zeKernelDestroy(kernel) == ZE_RESULT_SUCCESS);
    CHECK(zeModuleDestroy(module) == ZE_RESULT_SUCCESS);
  }
  {
    ze_module_handle_t module = fx.module("local_reduce", flags);
    ze_kernel_handle_t kernel = fx.kernel(module, "local_reduce");
    const uint32_t groupSize = 16, groups = 4;
    std::vector<int> in(groupSize * groups), out(groups, -1);
    std::iota(in.begin(), in.end(), 1);
    int *pin = in.data(), *pout = out.data();
    setArg(kernel, 0, pin);
    setArg(kernel, 1, pout);
    REQUIRE(zeKernelSetArgumentValue(kernel, 2, groupSize * sizeof(int), nullptr) ==
            ZE_RESULT_SUCCESS);
    fx.launch(kernel, groups, groupSize);
    for (uint32_t g = 0; g < groups; ++g) {
      int expected = 0;
      for (uint32_t i = 0; i < groupSize; ++i) expected += in[g * groupSize + i];
      REQUIRE(out[g] == expected);
    }
    CHECK(zeKernelDestroy(kernel) == ZE_RESULT_SUCCESS);
    CHECK(zeModuleDestroy(module) == ZE_RESULT_SUCCESS);
  }
}

TEST_CASE(
    "Given -ze-opt-disable, when the module is built, then its code differs from the "
    "default optimized build's",
    "[module][options][native]") {
  Fixture fx;
  auto objectOf = [&](const char* flags) {
    ze_module_handle_t m = fx.module("vector_add", flags);
    size_t size = 0;
    REQUIRE(zeModuleGetNativeBinary(m, &size, nullptr) == ZE_RESULT_SUCCESS);
    std::vector<uint8_t> binary(size);
    REQUIRE(zeModuleGetNativeBinary(m, &size, binary.data()) == ZE_RESULT_SUCCESS);
    CHECK(zeModuleDestroy(m) == ZE_RESULT_SUCCESS);
    // The object code: from the ELF header to the trailing checksum.
    const uint8_t elf[] = {0x7f, 'E', 'L', 'F'};
    auto at = std::search(binary.begin(), binary.end(), std::begin(elf), std::end(elf));
    REQUIRE(at != binary.end());
    return std::vector<uint8_t>(at, binary.end() - 8);
  };
  std::vector<uint8_t> optimized = objectOf(""), unoptimized = objectOf("-ze-opt-disable");
  CHECK(optimized != unoptimized);
  CHECK(objectOf("-ze-opt-level=0") == unoptimized);  // the same code, from the compiler's cache
}

TEST_CASE(
    "Given an unknown or malformed build option, when the module is created, then the build "
    "fails with a log naming it",
    "[module][options]") {
  Fixture fx;
  const char* flags = GENERATE("-ze-no-such-option", "-ze-opt-level=x", "-ze-opt-level");
  ze_module_handle_t m = nullptr;
  std::string log;
  CHECK(fx.tryModule("vector_add", flags, &m, &log) == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  CHECK(m == nullptr);
  CHECK(log.find("-ze-") != std::string::npos);
}

// --- dynamic linking ----------------------------------------------------------------------------

TEST_CASE(
    "Given import_user and export_lib, when they are linked dynamically, then the import "
    "resolves and the kernel calls the other module's function",
    "[module][link]") {
  Fixture fx;
  ze_module_handle_t user = fx.module("import_user");
  ze_module_handle_t lib = fx.module("export_lib");
  CHECK((moduleFlags(user) & ZE_MODULE_PROPERTY_FLAG_IMPORTS) != 0);
  CHECK((moduleFlags(lib) & ZE_MODULE_PROPERTY_FLAG_IMPORTS) == 0);
  ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "import_user"};
  ze_kernel_handle_t k = nullptr;
  CHECK(zeKernelCreate(user, &kd, &k) == ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED);

  ze_module_handle_t both[] = {user, lib};
  ze_module_build_log_handle_t log = nullptr;
  REQUIRE(zeModuleDynamicLink(2, both, &log) == ZE_RESULT_SUCCESS);
  CHECK(zeModuleBuildLogDestroy(log) == ZE_RESULT_SUCCESS);
  CHECK((moduleFlags(user) & ZE_MODULE_PROPERTY_FLAG_IMPORTS) == 0);
  // "Modules will only be linked once": linking again changes nothing and succeeds.
  CHECK(zeModuleDynamicLink(2, both, nullptr) == ZE_RESULT_SUCCESS);

  ze_kernel_handle_t kernel = fx.kernel(user, "import_user");
  const uint32_t n = 64;
  std::vector<int> data(n);
  std::iota(data.begin(), data.end(), -10);
  int* p = data.data();
  setArg(kernel, 0, p);
  fx.launch(kernel, n / 16, 16);
  for (uint32_t i = 0; i < n; ++i) REQUIRE(data[i] == 3 * (int(i) - 10) + 1);
  CHECK(zeKernelDestroy(kernel) == ZE_RESULT_SUCCESS);
  CHECK(zeModuleDestroy(user) == ZE_RESULT_SUCCESS);
  CHECK(zeModuleDestroy(lib) == ZE_RESULT_SUCCESS);
}

TEST_CASE(
    "Given import_user alone, when it is linked, then the link fails with a log naming the "
    "unresolved symbol and the module stays unlinked",
    "[module][link]") {
  Fixture fx;
  ze_module_handle_t user = fx.module("import_user");
  ze_module_handle_t other = fx.module("vector_add");
  ze_module_handle_t set[] = {user, other};
  ze_module_build_log_handle_t log = nullptr;
  CHECK(zeModuleDynamicLink(2, set, &log) == ZE_RESULT_ERROR_MODULE_LINK_FAILURE);
  REQUIRE(log != nullptr);
  std::string text = tessera::test::buildLogText(log);
  INFO("link log: " << text);
  CHECK(text.find("tessera_scale") != std::string::npos);
  CHECK(zeModuleBuildLogDestroy(log) == ZE_RESULT_SUCCESS);
  CHECK((moduleFlags(user) & ZE_MODULE_PROPERTY_FLAG_IMPORTS) != 0);
  ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "import_user"};
  ze_kernel_handle_t k = nullptr;
  CHECK(zeKernelCreate(user, &kd, &k) == ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED);
  CHECK(zeModuleDestroy(user) == ZE_RESULT_SUCCESS);
  CHECK(zeModuleDestroy(other) == ZE_RESULT_SUCCESS);
}

TEST_CASE(
    "Given two modules exporting the same function, when an importer links against both, "
    "then the ambiguous import fails the link",
    "[module][link]") {
  Fixture fx;
  ze_module_handle_t user = fx.module("import_user");
  ze_module_handle_t lib1 = fx.module("export_lib");
  ze_module_handle_t lib2 = fx.module("export_lib", "-ze-opt-disable");
  ze_module_handle_t set[] = {user, lib1, lib2};
  ze_module_build_log_handle_t log = nullptr;
  CHECK(zeModuleDynamicLink(3, set, &log) == ZE_RESULT_ERROR_MODULE_LINK_FAILURE);
  std::string text = tessera::test::buildLogText(log);
  CHECK(text.find("tessera_scale") != std::string::npos);
  zeModuleBuildLogDestroy(log);
  for (ze_module_handle_t m : set) CHECK(zeModuleDestroy(m) == ZE_RESULT_SUCCESS);
}

TEST_CASE(
    "Given bad arguments, when zeModuleDynamicLink is called, then it returns the spec's "
    "errors",
    "[module][link][novalidation]") {
  Fixture fx;
  CHECK(zeModuleDynamicLink(1, nullptr, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  ze_module_handle_t bogus[] = {reinterpret_cast<ze_module_handle_t>(&fx)};
  CHECK(zeModuleDynamicLink(1, bogus, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
}

// --- module globals and function pointers -------------------------------------------------------

TEST_CASE(
    "Given a module with program-scope globals, when their pointers are queried, then the "
    "kernel and the host see the same variables",
    "[module][global]") {
  Fixture fx;
  ze_module_handle_t module = fx.module("module_global");
  size_t size = 0;
  void* ptr = nullptr;
  REQUIRE(zeModuleGetGlobalPointer(module, "counter", &size, &ptr) == ZE_RESULT_SUCCESS);
  CHECK(size == sizeof(int));
  REQUIRE(ptr != nullptr);
  auto* counter = static_cast<int*>(ptr);
  CHECK(*counter == 5);

  size_t tableSize = 0;
  void* table = nullptr;
  REQUIRE(zeModuleGetGlobalPointer(module, "table", &tableSize, &table) == ZE_RESULT_SUCCESS);
  CHECK(tableSize == 4 * sizeof(float));
  CHECK(static_cast<float*>(table)[3] == 4.0f);
  // Both outputs are optional.
  CHECK(zeModuleGetGlobalPointer(module, "counter", nullptr, nullptr) == ZE_RESULT_SUCCESS);

  ze_kernel_handle_t kernel = fx.kernel(module, "bump_counter");
  int out = -1;
  int* pout = &out;
  setArg(kernel, 0, pout);
  *counter = 41;  // the host writes the global; the kernel reads it, then increments it
  fx.launch(kernel, 1, 1);
  CHECK(out == 41);
  CHECK(*counter == 42);

  CHECK(zeModuleGetGlobalPointer(module, "no_such_global", &size, &ptr) ==
        ZE_RESULT_ERROR_INVALID_GLOBAL_NAME);
  CHECK(zeModuleGetGlobalPointer(module, "bump_counter", &size, &ptr) ==
        ZE_RESULT_ERROR_INVALID_GLOBAL_NAME);
  CHECK(zeKernelDestroy(kernel) == ZE_RESULT_SUCCESS);
  CHECK(zeModuleDestroy(module) == ZE_RESULT_SUCCESS);
}

TEST_CASE(
    "Given two modules from the same SPIR-V, when their globals are queried, then each "
    "module has its own variables",
    "[module][global]") {
  Fixture fx;
  ze_module_handle_t a = fx.module("module_global");
  ze_module_handle_t b = fx.module("module_global");  // same binary and options
  void *pa = nullptr, *pb = nullptr;
  REQUIRE(zeModuleGetGlobalPointer(a, "counter", nullptr, &pa) == ZE_RESULT_SUCCESS);
  REQUIRE(zeModuleGetGlobalPointer(b, "counter", nullptr, &pb) == ZE_RESULT_SUCCESS);
  CHECK(pa != pb);
  CHECK(zeModuleDestroy(a) == ZE_RESULT_SUCCESS);
  CHECK(zeModuleDestroy(b) == ZE_RESULT_SUCCESS);
}

TEST_CASE(
    "Given export_lib, when the exported function's pointer is queried, then it is callable "
    "from the host, and unknown names are refused",
    "[module][function]") {
  Fixture fx;
  ze_module_handle_t lib = fx.module("export_lib");
  void* fn = nullptr;
  REQUIRE(zeModuleGetFunctionPointer(lib, "tessera_scale", &fn) == ZE_RESULT_SUCCESS);
  REQUIRE(fn != nullptr);
  auto scale = reinterpret_cast<int (*)(int)>(fn);
  CHECK(scale(4) == 13);
  CHECK(scale(-2) == -5);
  CHECK(zeModuleGetFunctionPointer(lib, "no_such_function", &fn) ==
        ZE_RESULT_ERROR_INVALID_FUNCTION_NAME);
  ze_module_handle_t va = fx.module("vector_add");
  // A kernel is not a function the module exports.
  CHECK(zeModuleGetFunctionPointer(va, "vector_add", &fn) == ZE_RESULT_ERROR_INVALID_FUNCTION_NAME);
  ze_module_handle_t user = fx.module("import_user");
  CHECK(zeModuleGetFunctionPointer(user, "tessera_scale", &fn) ==
        ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED);
  CHECK(zeModuleDestroy(user) == ZE_RESULT_SUCCESS);
  CHECK(zeModuleDestroy(va) == ZE_RESULT_SUCCESS);
  CHECK(zeModuleDestroy(lib) == ZE_RESULT_SUCCESS);
}

TEST_CASE(
    "Given a module calling through function pointers (SPV_INTEL_function_pointers), when it is "
    "built with Intel's options, then calls through an address from zeModuleGetFunctionPointer "
    "and through the module's own function constants run, widened or not",
    "[module][function][function_pointers]") {
  Fixture fx;
  // level-zero-tests builds module_fptr_call.spv with these; on a CPU every function's address
  // can be taken and a module is always linkable, so they change nothing.
  ze_module_handle_t m =
      fx.module("function_pointers", "-ze-take-global-address -ze-library-compilation");
  constexpr uint32_t kGroups = 4, kGroupSize = 16, kItems = kGroups * kGroupSize;
  std::vector<int> data(kItems, -1);
  int* p = data.data();
  ze_kernel_handle_t viaHost = fx.kernel(m, "call_fptr");
  for (auto [name, factor, addend] : {std::tuple{"add_int", 1, 1}, std::tuple{"times_three", 3, 0}}) {
    INFO(name);
    void* fn = nullptr;
    REQUIRE(zeModuleGetFunctionPointer(m, name, &fn) == ZE_RESULT_SUCCESS);
    std::fill(data.begin(), data.end(), -1);
    setArg(viaHost, 0, uint64_t(reinterpret_cast<uintptr_t>(fn)));
    setArg(viaHost, 1, p);
    fx.launch(viaHost, kGroups, kGroupSize);
    for (uint32_t i = 0; i < kItems; ++i) CHECK(data[i] == int(i) * factor + addend);
  }
  ze_kernel_handle_t own = fx.kernel(m, "call_own");
  for (uint32_t which : {0u, 1u}) {
    std::fill(data.begin(), data.end(), -1);
    setArg(own, 0, which);
    setArg(own, 1, p);
    fx.launch(own, kGroups, kGroupSize);
    for (uint32_t i = 0; i < kItems; ++i) CHECK(data[i] == (which ? int(i) * 3 : int(i) + 1));
  }
  CHECK(zeKernelDestroy(own) == ZE_RESULT_SUCCESS);
  CHECK(zeKernelDestroy(viaHost) == ZE_RESULT_SUCCESS);
  CHECK(zeModuleDestroy(m) == ZE_RESULT_SUCCESS);
}

TEST_CASE(
    "Given null arguments, when globals and function pointers are queried, then the spec's "
    "errors come back",
    "[module][global][function][novalidation]") {
  Fixture fx;
  ze_module_handle_t lib = fx.module("export_lib");
  void* p = nullptr;
  CHECK(zeModuleGetGlobalPointer(nullptr, "x", nullptr, &p) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeModuleGetGlobalPointer(lib, nullptr, nullptr, &p) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeModuleGetFunctionPointer(nullptr, "x", &p) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeModuleGetFunctionPointer(lib, nullptr, &p) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeModuleGetFunctionPointer(lib, "tessera_scale", nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeModuleDestroy(lib) == ZE_RESULT_SUCCESS);
}

// --- kernel source attributes -------------------------------------------------------------------

TEST_CASE(
    "Given kernels with and without attributes, when their source attributes are queried, "
    "then they come back as OpenCL C text owned by the kernel",
    "[kernel][attributes]") {
  Fixture fx;
  ze_module_handle_t module = fx.module("reqd_size");
  ze_kernel_handle_t reqd = fx.kernel(module, "reqd_size");
  uint32_t size = 0;
  char* text = nullptr;
  REQUIRE(zeKernelGetSourceAttributes(reqd, &size, &text) == ZE_RESULT_SUCCESS);
  REQUIRE(text != nullptr);
  CHECK(std::string(text) == "reqd_work_group_size(8,4,2)");
  CHECK(size == std::strlen(text) + 1);

  ze_kernel_handle_t hinted = fx.kernel(module, "hinted");
  char* hintedText = nullptr;
  REQUIRE(zeKernelGetSourceAttributes(hinted, &size, &hintedText) == ZE_RESULT_SUCCESS);
  CHECK(std::string(hintedText) == "work_group_size_hint(16,1,1) vec_type_hint(float4)");
  CHECK(size == std::strlen(hintedText) + 1);
  // A caller's buffer of *pSize bytes is filled too (truncated and terminated).
  std::vector<char> buffer(10, 'x');
  char* pb = buffer.data();
  uint32_t small = 10;
  REQUIRE(zeKernelGetSourceAttributes(hinted, &small, &pb) == ZE_RESULT_SUCCESS);
  CHECK(std::string(buffer.data()) == "work_grou");
  CHECK(small == 10);

  ze_module_handle_t plain = fx.module("vector_add");
  ze_kernel_handle_t none = fx.kernel(plain, "vector_add");
  char* empty = nullptr;
  REQUIRE(zeKernelGetSourceAttributes(none, &size, &empty) == ZE_RESULT_SUCCESS);
  CHECK(std::string(empty).empty());
  CHECK(size == 1);

  for (ze_kernel_handle_t k : {reqd, hinted, none}) CHECK(zeKernelDestroy(k) == ZE_RESULT_SUCCESS);
  CHECK(zeModuleDestroy(module) == ZE_RESULT_SUCCESS);
  CHECK(zeModuleDestroy(plain) == ZE_RESULT_SUCCESS);
}

TEST_CASE(
    "Given null arguments, when source attributes are queried, then the spec's errors come "
    "back",
    "[kernel][attributes][novalidation]") {
  Fixture fx;
  ze_module_handle_t module = fx.module("vector_add");
  ze_kernel_handle_t k = fx.kernel(module, "vector_add");
  uint32_t size = 0;
  char* text = nullptr;
  CHECK(zeKernelGetSourceAttributes(nullptr, &size, &text) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeKernelGetSourceAttributes(k, nullptr, &text) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  // A null pString asks for the size (optional since the 1.5 specification).
  size = 0;
  CHECK(zeKernelGetSourceAttributes(k, &size, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(size >= 1);
  CHECK(zeKernelDestroy(k) == ZE_RESULT_SUCCESS);
  CHECK(zeModuleDestroy(module) == ZE_RESULT_SUCCESS);
}

// --- native binaries ----------------------------------------------------------------------------

namespace {

std::vector<uint8_t> nativeBinary(ze_module_handle_t m) {
  size_t size = 0;
  REQUIRE(zeModuleGetNativeBinary(m, &size, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(size > 0);
  std::vector<uint8_t> binary(size);
  REQUIRE(zeModuleGetNativeBinary(m, &size, binary.data()) == ZE_RESULT_SUCCESS);
  REQUIRE(size == binary.size());
  return binary;
}

ze_result_t createNative(Fixture& fx, const std::vector<uint8_t>& binary, ze_module_handle_t* m,
                         std::string* log) {
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC,
                        nullptr,
                        ZE_MODULE_FORMAT_NATIVE,
                        binary.size(),
                        binary.data(),
                        nullptr,
                        nullptr};
  ze_module_build_log_handle_t l = nullptr;
  ze_result_t r = zeModuleCreate(fx.context, fx.device, &desc, m, &l);
  *log = tessera::test::buildLogText(l);
  zeModuleBuildLogDestroy(l);
  return r;
}

// The binary's trailing checksum (FNV-1a 64 of everything before it), for editing tests.
void reseal(std::vector<uint8_t>& binary) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < binary.size() - 8; ++i) {
    h ^= binary[i];
    h *= 0x100000001b3ull;
  }
  std::memcpy(binary.data() + binary.size() - 8, &h, 8);
}

}  // namespace

TEST_CASE(
    "Given a module's native binary, when a module is created from it, then its kernels, "
    "globals and functions work without the SPIR-V being compiled again",
    "[module][native]") {
  Fixture fx;
  std::vector<uint8_t> binary;
  {
    ze_module_handle_t original = fx.module("module_global", "-ze-opt-level=1");
    binary = nativeBinary(original);
    // Too small a buffer is refused rather than truncated.
    size_t small = binary.size() - 1;
    std::vector<uint8_t> buffer(small);
    CHECK(zeModuleGetNativeBinary(original, &small, buffer.data()) == ZE_RESULT_ERROR_INVALID_SIZE);
    CHECK(zeModuleDestroy(original) == ZE_RESULT_SUCCESS);
  }
  ze_module_handle_t module = nullptr;
  std::string log;
  REQUIRE(createNative(fx, binary, &module, &log) == ZE_RESULT_SUCCESS);
  uint32_t count = 0;
  REQUIRE(zeModuleGetKernelNames(module, &count, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(count == 1);
  void* ptr = nullptr;
  size_t size = 0;
  REQUIRE(zeModuleGetGlobalPointer(module, "counter", &size, &ptr) == ZE_RESULT_SUCCESS);
  CHECK(size == sizeof(int));
  auto* counter = static_cast<int*>(ptr);
  CHECK(*counter == 5);  // the initial value, not what the original module's kernels made of it
  ze_kernel_handle_t kernel = fx.kernel(module, "bump_counter");
  int out = -1;
  int* pout = &out;
  setArg(kernel, 0, pout);
  fx.launch(kernel, 1, 1);
  CHECK(out == 5);
  CHECK(*counter == 6);
  // The loaded module's binary is the same binary again.
  CHECK(nativeBinary(module) == binary);
  CHECK(zeKernelDestroy(kernel) == ZE_RESULT_SUCCESS);
  CHECK(zeModuleDestroy(module) == ZE_RESULT_SUCCESS);

  ze_module_handle_t lib = fx.module("export_lib");
  ze_module_handle_t libNative = nullptr;
  REQUIRE(createNative(fx, nativeBinary(lib), &libNative, &log) == ZE_RESULT_SUCCESS);
  void* fn = nullptr;
  REQUIRE(zeModuleGetFunctionPointer(libNative, "tessera_scale", &fn) == ZE_RESULT_SUCCESS);
  CHECK(reinterpret_cast<int (*)(int)>(fn)(5) == 16);
  CHECK(zeModuleDestroy(libNative) == ZE_RESULT_SUCCESS);
  CHECK(zeModuleDestroy(lib) == ZE_RESULT_SUCCESS);
}

TEST_CASE(
    "Given an unlinked module's native binary, when it is loaded and linked, then the "
    "import resolves and the kernel runs",
    "[module][native][link]") {
  Fixture fx;
  ze_module_handle_t user = fx.module("import_user");
  ze_module_handle_t loaded = nullptr;
  std::string log;
  REQUIRE(createNative(fx, nativeBinary(user), &loaded, &log) == ZE_RESULT_SUCCESS);
  CHECK((moduleFlags(loaded) & ZE_MODULE_PROPERTY_FLAG_IMPORTS) != 0);
  ze_module_handle_t lib = fx.module("export_lib");
  ze_module_handle_t set[] = {loaded, lib};
  REQUIRE(zeModuleDynamicLink(2, set, nullptr) == ZE_RESULT_SUCCESS);
  ze_kernel_handle_t kernel = fx.kernel(loaded, "import_user");
  std::vector<int> data{1, 2, 3, 4};
  int* p = data.data();
  setArg(kernel, 0, p);
  fx.launch(kernel, 1, 4);
  CHECK(data == std::vector<int>{4, 7, 10, 13});
  CHECK(zeKernelDestroy(kernel) == ZE_RESULT_SUCCESS);
  for (ze_module_handle_t m : {user, loaded, lib}) CHECK(zeModuleDestroy(m) == ZE_RESULT_SUCCESS);
}

TEST_CASE(
    "Given a native binary that is corrupt or made for another CPU, when a module is "
    "created from it, then INVALID_NATIVE_BINARY comes back with a log saying why",
    "[module][native]") {
  Fixture fx;
  ze_module_handle_t original = fx.module("vector_add");
  std::vector<uint8_t> good = nativeBinary(original);
  CHECK(zeModuleDestroy(original) == ZE_RESULT_SUCCESS);
  ze_module_handle_t m = nullptr;
  std::string log;

  SECTION("a flipped byte") {
    auto bad = good;
    bad[bad.size() / 2] ^= 0x40;
    CHECK(createNative(fx, bad, &m, &log) == ZE_RESULT_ERROR_INVALID_NATIVE_BINARY);
    CHECK(log.find("checksum") != std::string::npos);
  }
  SECTION("truncated") {
    std::vector<uint8_t> bad(good.begin(), good.begin() + good.size() / 3);
    CHECK(createNative(fx, bad, &m, &log) == ZE_RESULT_ERROR_INVALID_NATIVE_BINARY);
  }
  SECTION("SPIR-V given as a native binary") {
    auto spv = tessera::test::readCorpusKernel("vector_add");
    CHECK(createNative(fx, spv, &m, &log) == ZE_RESULT_ERROR_INVALID_NATIVE_BINARY);
    CHECK(log.find("header") != std::string::npos);
  }
  SECTION("another CPU") {
    // Layout: "TESSNAT1", u32 version, u32 length of the CPU name, the name, ...
    auto bad = good;
    uint32_t length = 0;
    std::memcpy(&length, bad.data() + 12, 4);
    REQUIRE(length > 0);
    bad[16] = bad[16] == 'z' ? 'y' : 'z';
    reseal(bad);
    CHECK(createNative(fx, bad, &m, &log) == ZE_RESULT_ERROR_INVALID_NATIVE_BINARY);
    INFO("log: " << log);
    CHECK(log.find("compiled for CPU") != std::string::npos);
  }
  CHECK(m == nullptr);
}
