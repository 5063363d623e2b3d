// The appends "with additional parameters": zeCommandListAppendLaunchKernelWithParameters (1.14:
// the cooperative parameter in pNext makes a cooperative launch), zeCommandListAppendMemoryCopy-
// WithParameters, ...MemoryFillWithParameters and zeCommandListImmediateAppendCommandLists-
// WithParameters (1.16, no pNext structure defined). Each does what the append it extends does;
// a pNext it does not know is UNSUPPORTED_FEATURE with nothing appended.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "kernel_test_support.h"
#include "tessera/ze_tessera.h"

using namespace tessera::test;

namespace {

const ze_base_desc_t kUnknown{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr};

}  // namespace

TEST_CASE(
    "Given zeCommandListAppendLaunchKernelWithParameters, then it launches the kernel as it "
    "is set, cooperatively with the cooperative parameter, and refuses other parameters",
    "[current_api][with_parameters]") {
  KernelFixture fx;
  auto launch = requiredFunction<ze_pfnCommandListAppendLaunchKernelWithParameters_t>(
      fx.driver, "zeCommandListAppendLaunchKernelWithParameters");
  ze_kernel_handle_t k = fx.kernel("local_reduce", "local_reduce");
  constexpr uint32_t kGroups = 4, kSize = 8;
  std::vector<int> in(kGroups * kSize);
  std::iota(in.begin(), in.end(), 1);
  std::vector<int> out(kGroups, -1);
  int* inPtr = in.data();
  int* outPtr = out.data();
  REQUIRE(zeKernelSetArgumentValue(k, 0, sizeof inPtr, &inPtr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetArgumentValue(k, 1, sizeof outPtr, &outPtr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetArgumentValue(k, 2, kSize * sizeof(int), nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetGroupSize(k, kSize, 1, 1) == ZE_RESULT_SUCCESS);
  auto list = fx.immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);

  // An unknown structure: refused, nothing launched.
  ze_group_count_t counts{kGroups, 1, 1};
  CHECK(launch(list, k, &counts, &kUnknown, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
  CHECK(out[0] == -1);

  REQUIRE(launch(list, k, &counts, nullptr, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  for (uint32_t g = 0; g < kGroups; ++g) {
    int expect = 0;
    for (uint32_t i = 0; i < kSize; ++i) expect += in[g * kSize + i];
    CHECK(out[g] == expect);
  }

  // The cooperative parameter: zeCommandListAppendLaunchCooperativeKernel's limit applies, and
  // only with isCooperative set.
  uint32_t maxGroups = 0;
  REQUIRE(zeKernelSuggestMaxCooperativeGroupCount(k, &maxGroups) == ZE_RESULT_SUCCESS);
  REQUIRE(maxGroups >= 1);
  std::vector<int> in2((maxGroups + 1) * kSize, 1);
  std::vector<int> out2(maxGroups + 1, -1);
  inPtr = in2.data();
  outPtr = out2.data();
  REQUIRE(zeKernelSetArgumentValue(k, 0, sizeof inPtr, &inPtr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetArgumentValue(k, 1, sizeof outPtr, &outPtr) == ZE_RESULT_SUCCESS);
  ze_command_list_append_launch_kernel_param_cooperative_desc_t coop{
      ZE_STRUCTURE_TYPE_COMMAND_LIST_APPEND_PARAM_COOPERATIVE_DESC, nullptr, 1};
  ze_group_count_t tooMany{maxGroups + 1, 1, 1};
  CHECK(launch(list, k, &tooMany, &coop, nullptr, 0, nullptr) != ZE_RESULT_SUCCESS);
  CHECK(out2[0] == -1);
  ze_group_count_t fits{maxGroups, 1, 1};
  REQUIRE(launch(list, k, &fits, &coop, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(out2[maxGroups - 1] == int(kSize));
  CHECK(out2[maxGroups] == -1);
  coop.isCooperative = 0;  // a plain launch: no such limit
  REQUIRE(launch(list, k, &tooMany, &coop, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(out2[maxGroups] == int(kSize));

  CHECK(launch(nullptr, k, &counts, nullptr, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(launch(list, nullptr, &counts, nullptr, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(launch(list, k, nullptr, nullptr, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(launch(list, k, &counts, nullptr, nullptr, 1, nullptr) == ZE_RESULT_ERROR_INVALID_SIZE);
}

TEST_CASE(
    "Given the copy and fill appends with parameters, then they copy and fill as "
    "zeCommandListAppendMemoryCopy and ...Fill do, and refuse any pNext",
    "[current_api][with_parameters]") {
  ExecFixture fx;
  auto copy = requiredFunction<ze_pfnCommandListAppendMemoryCopyWithParameters_t>(
      fx.driver, "zeCommandListAppendMemoryCopyWithParameters");
  auto fill = requiredFunction<ze_pfnCommandListAppendMemoryFillWithParameters_t>(
      fx.driver, "zeCommandListAppendMemoryFillWithParameters");
  auto list = fx.immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  std::vector<uint8_t> src = patternBytes(4096, 7), dst(4096, 0);
  const uint32_t pattern = 0xa1b2c3d4;

  CHECK(copy(list, dst.data(), src.data(), dst.size(), &kUnknown, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
  CHECK(fill(list, dst.data(), &pattern, sizeof pattern, dst.size(), &kUnknown, nullptr, 0,
             nullptr) == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
  CHECK(dst == std::vector<uint8_t>(4096, 0));  // neither was appended

  REQUIRE(copy(list, dst.data(), src.data(), dst.size(), nullptr, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  CHECK(dst == src);
  REQUIRE(fill(list, dst.data(), &pattern, sizeof pattern, dst.size(), nullptr, nullptr, 0,
               nullptr) == ZE_RESULT_SUCCESS);
  uint32_t last = 0;
  std::memcpy(&last, dst.data() + dst.size() - 4, 4);
  CHECK(last == pattern);

  // The errors of the appends they extend.
  CHECK(copy(nullptr, dst.data(), src.data(), 1, nullptr, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(copy(list, nullptr, src.data(), 1, nullptr, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(copy(list, dst.data(), src.data(), 1, nullptr, nullptr, 1, nullptr) ==
        ZE_RESULT_ERROR_INVALID_SIZE);
  CHECK(fill(nullptr, dst.data(), &pattern, 4, 8, nullptr, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(fill(list, dst.data(), nullptr, 4, 8, nullptr, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(fill(list, dst.data(), &pattern, 4, 6, nullptr, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_SIZE);  // "size % pattern_size != 0"
}

TEST_CASE(
    "Given zeCommandListImmediateAppendCommandListsWithParameters, then it runs the lists "
    "as the experimental append does, and refuses any pNext",
    "[current_api][with_parameters]") {
  ExecFixture fx;
  auto append = requiredFunction<ze_pfnCommandListImmediateAppendCommandListsWithParameters_t>(
      fx.driver, "zeCommandListImmediateAppendCommandListsWithParameters");
  std::vector<uint8_t> a(4096, 0);
  const uint8_t value = 0x77;
  auto regular = fx.list();
  REQUIRE(zeCommandListAppendMemoryFill(regular, a.data(), &value, 1, a.size(), nullptr, 0,
                                        nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(regular) == ZE_RESULT_SUCCESS);
  auto immediate = fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  auto done = fx.events(1)[0];

  CHECK(append(immediate, 1, &regular, &kUnknown, done, 0, nullptr) ==
        ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
  CHECK(zeEventQueryStatus(done) == ZE_RESULT_NOT_READY);  // nothing was appended

  REQUIRE(append(immediate, 1, &regular, nullptr, done, 0, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeEventHostSynchronize(done, kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(a.front() == value);
  CHECK(a.back() == value);

  CHECK(append(nullptr, 1, &regular, nullptr, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(append(immediate, 1, nullptr, nullptr, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  // A regular list is not a target, as for zeCommandListImmediateAppendCommandListsExp.
  CHECK(append(fx.list(), 1, &regular, nullptr, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
}
