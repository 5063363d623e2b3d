// The error cases the spec names for modules, kernels and launches: unknown kernel names, unlinked
// modules, bad argument indices and sizes, bad group sizes, null handles and pointers on every
// entry point, structures of the wrong type, kernels on copy-only lists, modules destroyed under
// live kernels, and corrupt SPIR-V, which must fail with a build log and never crash.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernel_test_support.h"
#include "tessera/ze_tessera.h"

using tessera::test::KernelFixture;
using tessera::test::setArgs;

namespace {

const auto kNullHandle = ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
const auto kNullPointer = ZE_RESULT_ERROR_INVALID_NULL_POINTER;
const auto kBadGroupSize = ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
constexpr unsigned kWatchdogSeconds = 240;

ze_kernel_handle_t tryKernel(ze_module_handle_t m, const char* name, ze_result_t& r) {
  ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
  ze_kernel_handle_t k = nullptr;
  r = zeKernelCreate(m, &kd, &k);
  return k;
}

}  // namespace

TEST_CASE("Given names a module does not define, then zeKernelCreate answers INVALID_KERNEL_NAME",
          "[errors][kernel]") {
  KernelFixture fx;
  auto m = fx.module("corpus_ranges");
  for (const char* name : {"", "range", "range1d_", "RANGE1D", "range1d ", "vector_add"}) {
    INFO("name '" << name << "'");
    ze_result_t r;
    ze_kernel_handle_t k = tryKernel(m, name, r);
    CHECK(r == ZE_RESULT_ERROR_INVALID_KERNEL_NAME);
    CHECK(k == nullptr);
  }
  ze_result_t r;
  ze_kernel_handle_t k = tryKernel(m, "range1d", r);
  REQUIRE(r == ZE_RESULT_SUCCESS);
  CHECK(zeKernelDestroy(k) == ZE_RESULT_SUCCESS);
}

TEST_CASE(
    "Given a module that imports a function and was never linked, then it reports imports "
    "and zeKernelCreate answers INVALID_MODULE_UNLINKED",
    "[errors][module][link]") {
  KernelFixture fx;
  auto m = fx.module("import_user");
  ze_module_properties_t mp{ZE_STRUCTURE_TYPE_MODULE_PROPERTIES};
  REQUIRE(zeModuleGetProperties(m, &mp) == ZE_RESULT_SUCCESS);
  CHECK((mp.flags & ZE_MODULE_PROPERTY_FLAG_IMPORTS) != 0);
  ze_result_t r;
  ze_kernel_handle_t k = tryKernel(m, "import_user", r);
  CHECK(r == ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED);
  CHECK(k == nullptr);
  // A module without imports says so.
  auto plain = fx.module("corpus_ranges");
  ze_module_properties_t pp{ZE_STRUCTURE_TYPE_MODULE_PROPERTIES};
  REQUIRE(zeModuleGetProperties(plain, &pp) == ZE_RESULT_SUCCESS);
  CHECK((pp.flags & ZE_MODULE_PROPERTY_FLAG_IMPORTS) == 0);
}

TEST_CASE(
    "Given bad argument indices and sizes, then zeKernelSetArgumentValue refuses them and "
    "keeps the kernel usable",
    "[errors][kernel][args]") {
  KernelFixture fx;
  auto k = fx.kernel("corpus_private", "private_array");  // (int*, int*, Mix by value: 24 bytes)
  int buffer[8] = {};
  int* p = buffer;
  char mix[24] = {};
  for (uint32_t index : {3u, 4u, 100u, UINT32_MAX}) {
    INFO("index " << index);
    CHECK(zeKernelSetArgumentValue(k, index, sizeof p, &p) ==
          ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
  }
  for (size_t size : {size_t(0), size_t(4), size_t(7), size_t(16)}) {
    INFO("pointer size " << size);
    CHECK(zeKernelSetArgumentValue(k, 0, size, &p) == ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
  }
  // Fewer bytes than the struct has are its first bytes, more are taken when those past it are
  // zero (the leniencies of test_leniency.cpp); none, or more with a byte past it that is not
  // zero, are refused.
  char wider[32] = {};
  wider[31] = 1;
  for (size_t size : {size_t(0), size_t(32)}) {
    INFO("struct size " << size);
    CHECK(zeKernelSetArgumentValue(k, 2, size, wider) ==
          ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
  }
  CHECK(zeKernelSetArgumentValue(k, 2, 25, wider) == ZE_RESULT_SUCCESS);
  CHECK(zeKernelSetArgumentValue(k, 2, 20, mix) == ZE_RESULT_SUCCESS);
  CHECK(zeKernelSetArgumentValue(k, 2, sizeof mix, mix) == ZE_RESULT_SUCCESS);

  // A __local argument takes a size and no value; a size of zero is refused.
  auto r = fx.kernel("corpus_reduce", "reduce_guarded");
  CHECK(zeKernelSetArgumentValue(r, 5, 0, nullptr) == ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
  CHECK(zeKernelSetArgumentValue(r, 5, 256, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(zeKernelSetArgumentValue(r, 6, 256, nullptr) ==
        ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
}

TEST_CASE("Given bad group sizes, then zeKernelSetGroupSize answers INVALID_GROUP_SIZE_DIMENSION",
          "[errors][kernel][groupsize]") {
  KernelFixture fx;
  auto k = fx.kernel("corpus_ranges", "range1d");
  struct Size {
    uint32_t x, y, z;
  };
  for (Size s : {Size{0, 1, 1}, Size{1, 0, 1}, Size{1, 1, 0}, Size{0, 0, 0}, Size{4097, 1, 1},
                 Size{1, 4097, 1}, Size{1, 1, 4097}, Size{64, 64, 2}, Size{2048, 2, 2},
                 Size{UINT32_MAX, 1, 1}, Size{65536, 65536, 1},
                 // Products that wrap 64 bits (2^31 * 2^31 * 4 = 2^64 was SUCCESS, as 0).
                 Size{1u << 31, 1u << 31, 4}, Size{UINT32_MAX, UINT32_MAX, UINT32_MAX},
                 Size{1u << 16, 1u << 16, 1u << 16}}) {
    INFO(s.x << " x " << s.y << " x " << s.z);
    CHECK(zeKernelSetGroupSize(k, s.x, s.y, s.z) == kBadGroupSize);
  }
  for (Size s : {Size{4096, 1, 1}, Size{1, 4096, 1}, Size{1, 1, 4096}, Size{16, 16, 16}}) {
    INFO(s.x << " x " << s.y << " x " << s.z);
    CHECK(zeKernelSetGroupSize(k, s.x, s.y, s.z) == ZE_RESULT_SUCCESS);
  }

  // reqd_work_group_size(8, 4, 2): only that size.
  auto r = fx.kernel("reqd_size", "reqd_size");
  for (Size s : {Size{8, 4, 1}, Size{4, 4, 2}, Size{2, 4, 8}, Size{64, 1, 1}, Size{8, 8, 2}}) {
    INFO("reqd: " << s.x << " x " << s.y << " x " << s.z);
    CHECK(zeKernelSetGroupSize(r, s.x, s.y, s.z) == kBadGroupSize);
  }
  CHECK(zeKernelSetGroupSize(r, 8, 4, 2) == ZE_RESULT_SUCCESS);
  uint32_t x = 0, y = 0, z = 0;
  REQUIRE(zeKernelSuggestGroupSize(r, 1024, 1, 1, &x, &y, &z) == ZE_RESULT_SUCCESS);
  CHECK((x == 8 && y == 4 && z == 2));
}

namespace {

uint32_t maxSharedLocalMemory(ze_device_handle_t device) {
  ze_device_compute_properties_t cp{ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
  REQUIRE(zeDeviceGetComputeProperties(device, &cp) == ZE_RESULT_SUCCESS);
  REQUIRE(cp.maxSharedLocalMemory >= 64 * 1024);
  return cp.maxSharedLocalMemory;
}

}  // namespace

TEST_CASE("watched child: local memory sizes past the device or past 64 bits are refused",
          "[.kernel_errors_child_local]") {
  if (!tessera::test::inWatchedChild()) return;
  tessera::test::armWatchdog(kWatchdogSeconds);
  KernelFixture fx;
  const uint64_t max = maxSharedLocalMemory(fx.device);
  // three_locals(__global int* out, __local int* a, __local short* b), 64 bytes of static __local.
  auto k = fx.kernel("corpus_locals", "three_locals");
  std::vector<int> out(64, -1);
  int* p = out.data();
  REQUIRE(zeKernelSetArgumentValue(k, 0, sizeof p, &p) == ZE_RESULT_SUCCESS);
  tessera::test::setGroupSize(k, 16);
  const auto kBadSize = ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
  // One __local argument larger than a work-group can have: 1 TiB, 2^63, SIZE_MAX, max + 1.
  for (uint64_t bytes : {uint64_t{1} << 40, uint64_t{1} << 63, uint64_t(SIZE_MAX), max + 1}) {
    INFO("__local bytes " << bytes);
    CHECK(zeKernelSetArgumentValue(k, 1, bytes, nullptr) == kBadSize);
    CHECK(zeKernelSetArgumentValue(k, 2, bytes, nullptr) == kBadSize);
  }
  // Two that fit alone but not together (with the static 64 bytes): the append refuses them, as
  // the reference driver does, with OUT_OF_DEVICE_MEMORY; nothing is appended.
  auto l = fx.list();
  REQUIRE(zeKernelSetArgumentValue(k, 1, max / 2 + 128, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetArgumentValue(k, 2, max / 2 + 128, nullptr) == ZE_RESULT_SUCCESS);
  ze_group_count_t one{1, 1, 1};
  CHECK(zeCommandListAppendLaunchKernel(l, k, &one, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
  CHECK(zeCommandListAppendLaunchKernelIndirect(l, k, &one, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
  uint32_t count = 1;
  CHECK(zeCommandListAppendLaunchMultipleKernelsIndirect(
            l, 1, &k, &count, &one, nullptr, 0, nullptr) == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
  // Exactly the device's local memory fits and runs.
  // (Each start is 128-byte aligned: 64 static bytes take 128.)
  REQUIRE(zeKernelSetArgumentValue(k, 1, max - 256, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetArgumentValue(k, 2, 16 * sizeof(short), nullptr) == ZE_RESULT_SUCCESS);
  KernelFixture::launch(l, k, one);
  auto q = fx.queue();
  fx.run(q, l);
  for (int lid = 0; lid < 16; ++lid) {
    INFO("work-item " << lid);
    CHECK(out[lid] == 3 * (15 - lid) + 1000 + lid);
  }
}

TEST_CASE(
    "Given __local argument sizes past the device's local memory, alone or in a sum that wraps 64 "
    "bits, then zeKernelSetArgumentValue or the append refuses them",
    "[errors][kernel][local]") {
  // Before the checks a 1 TiB size was accepted and two sizes wrapping their sum corrupted the
  // heap: run in a watched child.
  tessera::test::runWatchedChild(
      "watched child: local memory sizes past the device or past 64 bits are refused");
}

TEST_CASE(
    "Given kernels of one module, then each kernel's localMemSize counts only the static __local "
    "variables it uses",
    "[kernel][local]") {
  KernelFixture fx;
  auto m = fx.module("corpus_locals");
  ze_kernel_properties_t props{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
  REQUIRE(zeKernelGetProperties(fx.kernel(m, "three_locals"), &props) == ZE_RESULT_SUCCESS);
  CHECK(props.localMemSize == 16 * sizeof(int));
  props = {ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
  REQUIRE(zeKernelGetProperties(fx.kernel(m, "linear_ids"), &props) == ZE_RESULT_SUCCESS);
  CHECK(props.localMemSize == 0);
}

TEST_CASE(
    "Given a kernel with 64 MiB of static __local memory, then zeKernelCreate (where Tessera "
    "compiles it) fails with MODULE_BUILD_FAILURE and a log line naming it",
    "[errors][module][local]") {
  KernelFixture fx;
  auto spv = tessera::test::readCorpusKernel("static_local_huge");
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC,
                        nullptr,
                        ZE_MODULE_FORMAT_IL_SPIRV,
                        spv.size(),
                        spv.data(),
                        "",
                        nullptr};
  ze_module_handle_t m = nullptr;
  REQUIRE(zeModuleCreate(fx.context, fx.device, &desc, &m, nullptr) == ZE_RESULT_SUCCESS);
  ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "huge_static_local"};
  ze_kernel_handle_t k = nullptr;
  CHECK(zeKernelCreate(m, &kd, &k) == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  CHECK(k == nullptr);
  auto build = tessera::test::extensionFunction<ze_pfnTesseraModuleBuildKernels_t>(
      fx.driver, "zeTesseraModuleBuildKernels");
  REQUIRE(build != nullptr);
  ze_module_build_log_handle_t log = nullptr;
  CHECK(build(m, 0, nullptr, &log) == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  std::string text = tessera::test::buildLogText(log);
  zeModuleBuildLogDestroy(log);
  INFO("log: " << text);
  CHECK(text.find("kernel huge_static_local uses 67108864 bytes of static __local memory") !=
        std::string::npos);
  zeModuleDestroy(m);
}

TEST_CASE(
    "Given group counts whose product wraps 64 bits, then the launch appends answer "
    "INVALID_ARGUMENT and append nothing",
    "[errors][launch][groupcount]") {
  KernelFixture fx;
  auto k = fx.kernel("corpus_ranges", "range1d");
  int buffer[4] = {};
  int* p = buffer;
  setArgs(k, p, 4u);
  auto l = fx.list();
  // 2^22 * 2^21 * 2^21 = 2^64, which wrapped to 0 groups and passed the 2^32 - 1 limit.
  for (ze_group_count_t g : {ze_group_count_t{1u << 22, 1u << 21, 1u << 21},
                             ze_group_count_t{UINT32_MAX, UINT32_MAX, UINT32_MAX},
                             ze_group_count_t{1u << 16, 1u << 16, 1}}) {
    INFO(g.groupCountX << " x " << g.groupCountY << " x " << g.groupCountZ);
    CHECK(zeCommandListAppendLaunchKernel(l, k, &g, nullptr, 0, nullptr) ==
          ZE_RESULT_ERROR_INVALID_ARGUMENT);
    CHECK(zeCommandListAppendLaunchCooperativeKernel(l, k, &g, nullptr, 0, nullptr) ==
          ZE_RESULT_ERROR_INVALID_ARGUMENT);
  }
  auto q = fx.queue();
  fx.run(q, l);
  CHECK(buffer[0] == 0);
}

TEST_CASE("watched child: spec constant arrays missing", "[.kernel_errors_child_constants]") {
  if (!tessera::test::inWatchedChild()) return;
  tessera::test::armWatchdog(kWatchdogSeconds);
  KernelFixture fx;
  auto spv = tessera::test::readCorpusKernel("spec_constants");
  uint32_t ids[2] = {1, 5};
  uint32_t one = 3;
  uint8_t five = 4;
  const void* values[2] = {&one, &five};
  const void* nullValue[2] = {&one, nullptr};
  ze_module_constants_t constants{2, ids, values};
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC,
                        nullptr,
                        ZE_MODULE_FORMAT_IL_SPIRV,
                        spv.size(),
                        spv.data(),
                        "",
                        &constants};
  ze_module_handle_t m = nullptr;
  constants = {2, nullptr, values};
  CHECK(zeModuleCreate(fx.context, fx.device, &desc, &m, nullptr) == kNullPointer);
  constants = {2, ids, nullptr};
  CHECK(zeModuleCreate(fx.context, fx.device, &desc, &m, nullptr) == kNullPointer);
  constants = {2, ids, nullValue};
  CHECK(zeModuleCreate(fx.context, fx.device, &desc, &m, nullptr) == kNullPointer);
  CHECK(m == nullptr);
  // No count: the arrays are not read.
  constants = {0, nullptr, nullptr};
  REQUIRE(zeModuleCreate(fx.context, fx.device, &desc, &m, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(zeModuleDestroy(m) == ZE_RESULT_SUCCESS);
  constants = {2, ids, values};
  REQUIRE(zeModuleCreate(fx.context, fx.device, &desc, &m, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(zeModuleDestroy(m) == ZE_RESULT_SUCCESS);
}

TEST_CASE(
    "Given numConstants > 0 with null pConstantIds, pConstantValues or a null value, then "
    "zeModuleCreate answers INVALID_NULL_POINTER",
    "[errors][module][null]") {
  // A null pConstantIds crashed the process before it was checked: run in a watched child.
  tessera::test::runWatchedChild("watched child: spec constant arrays missing");
}

TEST_CASE(
    "Given null handles and pointers, then every module, kernel and launch entry point "
    "answers INVALID_NULL_HANDLE or INVALID_NULL_POINTER",
    "[errors][null]") {
  KernelFixture fx;
  auto spv = tessera::test::readCorpusKernel("corpus_ranges");
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC,
                        nullptr,
                        ZE_MODULE_FORMAT_IL_SPIRV,
                        spv.size(),
                        spv.data(),
                        "",
                        nullptr};
  ze_module_handle_t m = nullptr;
  ze_module_build_log_handle_t log = nullptr;

  SECTION("modules and build logs") {
    CHECK(zeModuleCreate(nullptr, fx.device, &desc, &m, nullptr) == kNullHandle);
    CHECK(zeModuleCreate(fx.context, nullptr, &desc, &m, nullptr) == kNullHandle);
    CHECK(zeModuleCreate(fx.context, fx.device, nullptr, &m, nullptr) == kNullPointer);
    CHECK(zeModuleCreate(fx.context, fx.device, &desc, nullptr, nullptr) == kNullPointer);
    ze_module_desc_t noInput = desc;
    noInput.pInputModule = nullptr;
    CHECK(zeModuleCreate(fx.context, fx.device, &noInput, &m, nullptr) == kNullPointer);
    CHECK(zeModuleDestroy(nullptr) == kNullHandle);
    CHECK(zeModuleBuildLogDestroy(nullptr) == kNullHandle);
    size_t size = 0;
    CHECK(zeModuleBuildLogGetString(nullptr, &size, nullptr) == kNullHandle);
    REQUIRE(zeModuleCreate(fx.context, fx.device, &desc, &m, &log) == ZE_RESULT_SUCCESS);
    CHECK(zeModuleBuildLogGetString(log, nullptr, nullptr) == kNullPointer);
    uint32_t count = 0;
    CHECK(zeModuleGetKernelNames(nullptr, &count, nullptr) == kNullHandle);
    CHECK(zeModuleGetKernelNames(m, nullptr, nullptr) == kNullPointer);
    ze_module_properties_t mp{ZE_STRUCTURE_TYPE_MODULE_PROPERTIES};
    CHECK(zeModuleGetProperties(nullptr, &mp) == kNullHandle);
    CHECK(zeModuleGetProperties(m, nullptr) == kNullPointer);
    ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "range1d"};
    ze_kernel_handle_t k = nullptr;
    CHECK(zeKernelCreate(nullptr, &kd, &k) == kNullHandle);
    CHECK(zeKernelCreate(m, nullptr, &k) == kNullPointer);
    CHECK(zeKernelCreate(m, &kd, nullptr) == kNullPointer);
    kd.pKernelName = nullptr;
    CHECK(zeKernelCreate(m, &kd, &k) == kNullPointer);
    CHECK(zeModuleBuildLogDestroy(log) == ZE_RESULT_SUCCESS);
    CHECK(zeModuleDestroy(m) == ZE_RESULT_SUCCESS);
  }
  SECTION("kernels") {
    auto k = fx.kernel("corpus_ranges", "range1d");
    uint32_t x = 0, y = 0, z = 0, total = 0;
    CHECK(zeKernelDestroy(nullptr) == kNullHandle);
    CHECK(zeKernelSetGroupSize(nullptr, 1, 1, 1) == kNullHandle);
    CHECK(zeKernelSuggestGroupSize(nullptr, 64, 1, 1, &x, &y, &z) == kNullHandle);
    CHECK(zeKernelSuggestGroupSize(k, 64, 1, 1, nullptr, &y, &z) == kNullPointer);
    CHECK(zeKernelSuggestGroupSize(k, 64, 1, 1, &x, nullptr, &z) == kNullPointer);
    // The guide's group-size example passes nullptr for Z; the header makes it required.
    CHECK(zeKernelSuggestGroupSize(k, 64, 1, 1, &x, &y, nullptr) == kNullPointer);
    CHECK(zeKernelSuggestMaxCooperativeGroupCount(nullptr, &total) == kNullHandle);
    CHECK(zeKernelSuggestMaxCooperativeGroupCount(k, nullptr) == kNullPointer);
    int v = 0;
    CHECK(zeKernelSetArgumentValue(nullptr, 0, sizeof v, &v) == kNullHandle);
    CHECK(zeKernelSetIndirectAccess(nullptr, 0) == kNullHandle);
    ze_kernel_indirect_access_flags_t flags = 0;
    CHECK(zeKernelGetIndirectAccess(nullptr, &flags) == kNullHandle);
    CHECK(zeKernelGetIndirectAccess(k, nullptr) == kNullPointer);
    CHECK(zeKernelSetCacheConfig(nullptr, 0) == kNullHandle);
    ze_kernel_properties_t kp{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
    CHECK(zeKernelGetProperties(nullptr, &kp) == kNullHandle);
    CHECK(zeKernelGetProperties(k, nullptr) == kNullPointer);
    size_t size = 0;
    CHECK(zeKernelGetName(nullptr, &size, nullptr) == kNullHandle);
    CHECK(zeKernelGetName(k, nullptr, nullptr) == kNullPointer);
    CHECK(zeKernelSetGlobalOffsetExp(nullptr, 0, 0, 0) == kNullHandle);
  }
  SECTION("launches") {
    auto k = fx.kernel("corpus_ranges", "range1d");
    int buffer[4] = {};
    int* p = buffer;
    setArgs(k, p, 4u);
    auto l = fx.list();
    ze_group_count_t g{1, 1, 1};
    CHECK(zeCommandListAppendLaunchKernel(nullptr, k, &g, nullptr, 0, nullptr) == kNullHandle);
    CHECK(zeCommandListAppendLaunchKernel(l, nullptr, &g, nullptr, 0, nullptr) == kNullHandle);
    CHECK(zeCommandListAppendLaunchKernel(l, k, nullptr, nullptr, 0, nullptr) == kNullPointer);
    CHECK(zeCommandListAppendLaunchKernel(l, k, &g, nullptr, 1, nullptr) ==
          ZE_RESULT_ERROR_INVALID_SIZE);
    CHECK(zeCommandListAppendLaunchCooperativeKernel(nullptr, k, &g, nullptr, 0, nullptr) ==
          kNullHandle);
    CHECK(zeCommandListAppendLaunchCooperativeKernel(l, nullptr, &g, nullptr, 0, nullptr) ==
          kNullHandle);
    CHECK(zeCommandListAppendLaunchCooperativeKernel(l, k, nullptr, nullptr, 0, nullptr) ==
          kNullPointer);
    CHECK(zeCommandListAppendLaunchKernelIndirect(nullptr, k, &g, nullptr, 0, nullptr) ==
          kNullHandle);
    CHECK(zeCommandListAppendLaunchKernelIndirect(l, nullptr, &g, nullptr, 0, nullptr) ==
          kNullHandle);
    CHECK(zeCommandListAppendLaunchKernelIndirect(l, k, nullptr, nullptr, 0, nullptr) ==
          kNullPointer);
    ze_kernel_handle_t ks[1] = {k};
    uint32_t count = 1;
    CHECK(zeCommandListAppendLaunchMultipleKernelsIndirect(nullptr, 1, ks, &count, &g, nullptr, 0,
                                                           nullptr) == kNullHandle);
    CHECK(zeCommandListAppendLaunchMultipleKernelsIndirect(l, 1, nullptr, &count, &g, nullptr, 0,
                                                           nullptr) == kNullPointer);
    CHECK(zeCommandListAppendLaunchMultipleKernelsIndirect(l, 1, ks, nullptr, &g, nullptr, 0,
                                                           nullptr) == kNullPointer);
    CHECK(zeCommandListAppendLaunchMultipleKernelsIndirect(l, 1, ks, &count, nullptr, nullptr, 0,
                                                           nullptr) == kNullPointer);
    // None of them was appended: the list runs empty.
    auto q = fx.queue();
    fx.run(q, l);
    CHECK(buffer[0] == 0);
  }
}

TEST_CASE(
    "Given structures of the wrong type, then module and kernel calls answer "
    "INVALID_ARGUMENT",
    "[errors][stype][novalidation]") {
  // [novalidation]: the structure type is the driver's check; the layer may answer first.
  KernelFixture fx;
  auto spv = tessera::test::readCorpusKernel("corpus_ranges");
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC,
                        nullptr,
                        ZE_MODULE_FORMAT_IL_SPIRV,
                        spv.size(),
                        spv.data(),
                        "",
                        nullptr};
  ze_module_handle_t m = nullptr;
  CHECK(zeModuleCreate(fx.context, fx.device, &desc, &m, nullptr) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(m == nullptr);
  m = fx.module("corpus_ranges");
  ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, 0, "range1d"};
  ze_kernel_handle_t k = nullptr;
  CHECK(zeKernelCreate(m, &kd, &k) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(k == nullptr);
  // Property structures (outputs) of another type are filled as the parameter's: their stype is
  // not read (docs/api-coverage.md, "Leniency").
  ze_module_properties_t mp{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
  CHECK(zeModuleGetProperties(m, &mp) == ZE_RESULT_SUCCESS);
  CHECK(mp.stype == ZE_STRUCTURE_TYPE_MODULE_PROPERTIES);
  k = fx.kernel(m, "range1d");
  ze_kernel_properties_t kp{ZE_STRUCTURE_TYPE_MODULE_PROPERTIES};
  CHECK(zeKernelGetProperties(k, &kp) == ZE_RESULT_SUCCESS);
  CHECK(kp.stype == ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES);
}

TEST_CASE(
    "Given a copy-only command list, then kernel launches on it answer "
    "INVALID_COMMAND_LIST_TYPE",
    "[errors][launch][copy]") {
  KernelFixture fx;
  auto k = fx.kernel("corpus_ranges", "add_value");
  int buffer[8] = {};
  int* p = buffer;
  setArgs(k, p, 1);
  tessera::test::setGroupSize(k, 8);
  ze_group_count_t g{1, 1, 1};
  uint32_t count = 1;
  ze_kernel_handle_t ks[1] = {k};
  const auto kWrongType = ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE;
  for (bool immediate : {false, true}) {
    INFO((immediate ? "immediate" : "regular"));
    auto l = immediate ? fx.immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS, 1) : fx.list(1);
    CHECK(zeCommandListAppendLaunchKernel(l, k, &g, nullptr, 0, nullptr) == kWrongType);
    CHECK(zeCommandListAppendLaunchCooperativeKernel(l, k, &g, nullptr, 0, nullptr) == kWrongType);
    CHECK(zeCommandListAppendLaunchKernelIndirect(l, k, &g, nullptr, 0, nullptr) == kWrongType);
    CHECK(zeCommandListAppendLaunchMultipleKernelsIndirect(l, 1, ks, &count, &g, nullptr, 0,
                                                           nullptr) == kWrongType);
  }
  CHECK(buffer[0] == 0);
}

TEST_CASE(
    "Given a module with live kernels, then zeModuleDestroy succeeds (as Intel's driver) and "
    "the kernels keep working until destroyed",
    "[errors][module][lifetime]") {
  KernelFixture fx;
  auto spv = tessera::test::readCorpusKernel("corpus_ranges");
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC,
                        nullptr,
                        ZE_MODULE_FORMAT_IL_SPIRV,
                        spv.size(),
                        spv.data(),
                        "",
                        nullptr};
  ze_module_handle_t m = nullptr;
  REQUIRE(zeModuleCreate(fx.context, fx.device, &desc, &m, nullptr) == ZE_RESULT_SUCCESS);
  ze_result_t r;
  auto k1 = tryKernel(m, "range1d", r);
  REQUIRE(r == ZE_RESULT_SUCCESS);
  auto k2 = tryKernel(m, "range1d", r);  // a second kernel object for the same function
  REQUIRE(r == ZE_RESULT_SUCCESS);
  CHECK(k1 != k2);
  REQUIRE(zeKernelDestroy(k1) == ZE_RESULT_SUCCESS);
  CHECK(zeModuleDestroy(m) == ZE_RESULT_SUCCESS);  // docs/api-coverage.md, "Leniency"

  // The remaining kernel still launches.
  int out[4] = {};
  int* p = out;
  setArgs(k2, p, 4u);
  tessera::test::setGroupSize(k2, 4);
  fx.runOnce([&](auto l) { KernelFixture::launch(l, k2, {1, 1, 1}); });
  CHECK(out[3] == 7);
  REQUIRE(zeKernelDestroy(k2) == ZE_RESULT_SUCCESS);
  CHECK(zeModuleDestroy(m) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
}

namespace {

// Builds `bytes`; on failure the code must be MODULE_BUILD_FAILURE with a non-empty log. Returns
// whether it built (a few flips leave a valid module: a flipped name, an unused constant).
bool buildCorrupt(KernelFixture& fx, const std::vector<uint8_t>& bytes, const std::string& what) {
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC,
                        nullptr,
                        ZE_MODULE_FORMAT_IL_SPIRV,
                        bytes.size(),
                        bytes.data(),
                        "",
                        nullptr};
  ze_module_handle_t m = nullptr;
  ze_module_build_log_handle_t log = nullptr;
  ze_result_t r = zeModuleCreate(fx.context, fx.device, &desc, &m, &log);
  std::string text = tessera::test::buildLogText(log);
  if (log) zeModuleBuildLogDestroy(log);
  INFO(what << ": result " << r << ", log: " << text);
  if (r == ZE_RESULT_SUCCESS) {
    // Whatever kernels it names can be created and destroyed; nothing is run.
    uint32_t count = 0;
    REQUIRE(zeModuleGetKernelNames(m, &count, nullptr) == ZE_RESULT_SUCCESS);
    std::vector<const char*> names(count);
    REQUIRE(zeModuleGetKernelNames(m, &count, names.data()) == ZE_RESULT_SUCCESS);
    for (const char* name : names) {
      ze_result_t kr;
      ze_kernel_handle_t k = tryKernel(m, name, kr);
      if (kr == ZE_RESULT_SUCCESS) zeKernelDestroy(k);
    }
    CHECK(zeModuleDestroy(m) == ZE_RESULT_SUCCESS);
    return true;
  }
  CHECK(r == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  CHECK(m == nullptr);
  CHECK(!text.empty());
  return false;
}

}  // namespace

TEST_CASE("watched child: corrupt SPIR-V fails cleanly", "[.kernel_errors_child]") {
  if (!tessera::test::inWatchedChild()) return;
  tessera::test::armWatchdog(kWatchdogSeconds);
  KernelFixture fx;
  const char* files[] = {"vector_add", "corpus_matmul", "corpus_reduce", "corpus_atomics",
                         "spec_constants"};

  SECTION("truncated") {
    for (const char* file : files) {
      auto spv = tessera::test::readCorpusKernel(file);
      for (size_t size : {size_t(1), size_t(3), size_t(4), size_t(19), size_t(20), size_t(24),
                          spv.size() / 2, spv.size() / 2 + 2, spv.size() - 4, spv.size() - 1}) {
        std::vector<uint8_t> cut(spv.begin(), spv.begin() + size);
        CHECK_FALSE(buildCorrupt(fx, cut, std::string(file) + " cut to " + std::to_string(size)));
      }
    }
  }
  SECTION("broken header and instruction words") {
    auto spv = tessera::test::readCorpusKernel("vector_add");
    auto set32 = [&](std::vector<uint8_t> v, size_t word, uint32_t value) {
      std::memcpy(v.data() + 4 * word, &value, 4);
      return v;
    };
    CHECK_FALSE(buildCorrupt(fx, set32(spv, 0, 0x12345678), "bad magic"));
    CHECK_FALSE(buildCorrupt(fx, set32(spv, 0, 0), "zero magic"));
    CHECK_FALSE(buildCorrupt(fx, set32(spv, 1, 0x00990000), "version 153.0"));
    CHECK_FALSE(buildCorrupt(fx, set32(spv, 3, 0), "id bound 0"));
    CHECK_FALSE(buildCorrupt(fx, set32(spv, 5, 0x00000011), "first instruction of 0 words"));
    CHECK_FALSE(buildCorrupt(fx, set32(spv, 5, 0xffff0011), "first instruction of 65535 words"));
    std::vector<uint8_t> zeros(spv.size(), 0);
    CHECK_FALSE(buildCorrupt(fx, zeros, "all zeros"));
    std::vector<uint8_t> ones(spv.size(), 0xff);
    CHECK_FALSE(buildCorrupt(fx, ones, "all ones"));
  }
  SECTION("random byte flips, fixed seed") {
    std::mt19937 rng(0x5eed);
    int built = 0, failed = 0;
    for (const char* file : files) {
      auto spv = tessera::test::readCorpusKernel(file);
      for (int variant = 0; variant < 24; ++variant) {
        auto bytes = spv;
        int flips = 1 + int(rng() % 4);
        std::string what = std::string(file) + " flips";
        for (int f = 0; f < flips; ++f) {
          size_t at = rng() % bytes.size();
          uint8_t mask = uint8_t(1u << (rng() % 8));
          bytes[at] ^= mask;
          what += " @" + std::to_string(at) + "^" + std::to_string(mask);
        }
        (buildCorrupt(fx, bytes, what) ? built : failed)++;
      }
    }
    UNSCOPED_INFO("flipped modules: " << built << " built, " << failed << " refused");
    CHECK(failed > 0);
  }
}

TEST_CASE(
    "Given corrupt SPIR-V (truncated, broken words, random flips of corpus files), then "
    "zeModuleCreate fails with MODULE_BUILD_FAILURE and a build log, and never crashes",
    "[errors][module][corrupt]") {
  tessera::test::runWatchedChild("watched child: corrupt SPIR-V fails cleanly");
}
