// zeCommandListAppendLaunchKernelWithArguments (Level Zero 1.14): group counts, group size and
// every argument in one call, "as if separate zeKernelSetGroupSize and zeKernelSetArgumentValue
// functions were called"; a __local argument's entry points to its size.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <numeric>
#include <vector>

#include "kernel_test_support.h"
#include "tessera/ze_tessera.h"

using namespace tessera::test;

namespace {

ze_pfnCommandListAppendLaunchKernelWithArguments_t withArguments(ze_driver_handle_t d) {
  auto f = extensionFunction<ze_pfnCommandListAppendLaunchKernelWithArguments_t>(
      d, "zeCommandListAppendLaunchKernelWithArguments");
  REQUIRE(f);
  return f;
}

}  // namespace

TEST_CASE("Given zeCommandListAppendLaunchKernelWithArguments, then the launch uses the group "
          "size and arguments given, a local argument's size included, and they stay set",
          "[current_api][launch_with_arguments]") {
  KernelFixture fx;
  auto launch = withArguments(fx.driver);
  ze_kernel_handle_t k = fx.kernel("local_reduce", "local_reduce");
  constexpr uint32_t kGroups = 4, kSize = 16;
  std::vector<int> in(kGroups * kSize);
  std::iota(in.begin(), in.end(), 1);
  std::vector<int> out(kGroups, -1);
  int* inPtr = in.data();
  int* outPtr = out.data();
  size_t localBytes = kSize * sizeof(int);
  void* args[] = {&inPtr, &outPtr, &localBytes};
  ze_command_list_handle_t l = fx.immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  auto done = fx.events(1);
  REQUIRE(launch(l, k, ze_group_count_t{kGroups, 1, 1}, ze_group_size_t{kSize, 1, 1}, args,
                 nullptr, done[0], 0, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeEventHostSynchronize(done[0], kPatienceNs) == ZE_RESULT_SUCCESS);
  for (uint32_t g = 0; g < kGroups; ++g) {
    int expect = 0;
    for (uint32_t i = 0; i < kSize; ++i) expect += in[g * kSize + i];
    CHECK(out[g] == expect);
  }
  // The kernel's state is what the call set: a plain launch now uses it.
  std::fill(out.begin(), out.end(), -1);
  KernelFixture::launch(l, k, {kGroups, 1, 1});
  CHECK(out[kGroups - 1] != -1);

  // A regular list, waiting on an event: the arguments are copied at append time.
  std::vector<int> out2(2, -1);
  int* out2Ptr = out2.data();
  size_t local8 = 8 * sizeof(int);
  void* args2[] = {&inPtr, &out2Ptr, &local8};
  auto gate = fx.events(1);
  ze_command_list_handle_t r = fx.list();
  REQUIRE(launch(r, k, ze_group_count_t{2, 1, 1}, ze_group_size_t{8, 1, 1}, args2, nullptr,
                 nullptr, 1, &gate[0]) == ZE_RESULT_SUCCESS);
  out2Ptr = nullptr;  // after the append: not what the launch uses
  REQUIRE(zeEventHostSignal(gate[0]) == ZE_RESULT_SUCCESS);
  fx.run(fx.queue(), r);
  CHECK(out2[0] == 36);   // 1 + ... + 8
  CHECK(out2[1] == 100);  // 9 + ... + 16
}

// intel/compute-benchmarks' torch KernelSubmitSlmSize points a __local argument's entry at an
// `int`. Only its 4 bytes are read: the bytes after it here are not zero, and a size_t read would
// take them into the size (and be refused as too large).
TEST_CASE("Given zeCommandListAppendLaunchKernelWithArguments with a local size given as a 32-bit "
          "integer, then the launch uses that size",
          "[current_api][launch_with_arguments]") {
  KernelFixture fx;
  auto launch = withArguments(fx.driver);
  ze_kernel_handle_t k = fx.kernel("local_reduce", "local_reduce");
  std::vector<int> in(16);
  std::iota(in.begin(), in.end(), 1);
  std::vector<int> out(1, -1);
  int* inPtr = in.data();
  int* outPtr = out.data();
  struct {
    int32_t size;
    int32_t after;
  } local{16 * sizeof(int), -1};
  void* args[] = {&inPtr, &outPtr, &local.size};
  ze_command_list_handle_t l = fx.immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  REQUIRE(launch(l, k, ze_group_count_t{1, 1, 1}, ze_group_size_t{16, 1, 1}, args, nullptr,
                 nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(out[0] == 136);  // 1 + ... + 16
}

TEST_CASE("Given zeCommandListAppendLaunchKernelWithArguments, then bad handles, pointers, group "
          "sizes, arguments and extensions get the header's errors",
          "[current_api][launch_with_arguments]") {
  KernelFixture fx;
  auto launch = withArguments(fx.driver);
  ze_kernel_handle_t k = fx.kernel("local_reduce", "local_reduce");
  ze_command_list_handle_t l = fx.list();
  int* p = nullptr;
  size_t local = 64;
  void* args[] = {&p, &p, &local};
  const ze_group_count_t counts{1, 1, 1};
  const ze_group_size_t size{16, 1, 1};
  CHECK(launch(nullptr, k, counts, size, args, nullptr, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(launch(l, nullptr, counts, size, args, nullptr, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  // "(nullptr == phWaitEvents) && (0 < numWaitEvents)"
  CHECK(launch(l, k, counts, size, args, nullptr, nullptr, 1, nullptr) ==
        ZE_RESULT_ERROR_INVALID_SIZE);
  CHECK(launch(l, k, counts, size, nullptr, nullptr, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  // "as per zeKernelSetGroupSize"
  CHECK(launch(l, k, counts, ze_group_size_t{0, 1, 1}, args, nullptr, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
  // As zeKernelSetArgumentValue: a local size of 0.
  size_t zero = 0;
  void* badLocal[] = {&p, &p, &zero};
  CHECK(launch(l, k, counts, size, badLocal, nullptr, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
  // "when passed additional extensions are invalid or incompatible"
  ze_base_desc_t unknown{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr};
  CHECK(launch(l, k, counts, size, args, &unknown, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
  // The cooperative parameter is taken.
  ze_command_list_append_launch_kernel_param_cooperative_desc_t coop{
      ZE_STRUCTURE_TYPE_COMMAND_LIST_APPEND_PARAM_COOPERATIVE_DESC, nullptr, 1};
  CHECK(launch(l, k, counts, size, args, &coop, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  // A copy-only list, as zeCommandListAppendLaunchKernel.
  uint32_t n = 0;
  REQUIRE(zeDeviceGetCommandQueueGroupProperties(fx.device, &n, nullptr) == ZE_RESULT_SUCCESS);
  if (n > 1) {
    ze_command_list_handle_t copy = fx.list(1);
    CHECK(launch(copy, k, counts, size, args, nullptr, nullptr, 0, nullptr) ==
          ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE);
  }
}
