// A native binary carries object code; loaded into another process it must bind to that process's
// copy of the driver (here: the printf runtime a kernel calls), not to addresses of the process that
// built it.
#include <level_zero/ze_api.h>

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ze_test_support.h"

namespace {

constexpr const char* kBinaryVar = "TESSERA_TEST_NATIVE_BINARY";

struct Fixture {
  ze_driver_handle_t driver = tessera::test::initDriver();
  ze_device_handle_t device = tessera::test::devices(driver).at(0);
  ze_context_handle_t context = nullptr;
  Fixture() {
    ze_context_desc_t cd{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    REQUIRE(zeContextCreate(driver, &cd, &context) == ZE_RESULT_SUCCESS);
  }
  ~Fixture() { zeContextDestroy(context); }
};

std::vector<uint8_t> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace

TEST_CASE("native binary child: load and print", "[.native_child]") {
  const char* path = std::getenv(kBinaryVar);
  if (!path) return;
  Fixture fx;
  auto binary = readFile(path);
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_NATIVE,
                        binary.size(), binary.data(), "", nullptr};
  ze_module_handle_t m = nullptr;
  REQUIRE(zeModuleCreate(fx.context, fx.device, &desc, &m, nullptr) == ZE_RESULT_SUCCESS);
  ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "printf_kernel"};
  ze_kernel_handle_t k = nullptr;
  REQUIRE(zeKernelCreate(m, &kd, &k) == ZE_RESULT_SUCCESS);
  std::vector<int> in = {7, 8, 9, 10};
  int* p = in.data();
  REQUIRE(zeKernelSetArgumentValue(k, 0, sizeof p, &p) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetGroupSize(k, 4, 1, 1) == ZE_RESULT_SUCCESS);
  ze_command_queue_desc_t qd{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
  qd.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
  ze_command_list_handle_t list = nullptr;
  REQUIRE(zeCommandListCreateImmediate(fx.context, fx.device, &qd, &list) == ZE_RESULT_SUCCESS);
  ze_group_count_t groups{1, 1, 1};
  REQUIRE(zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  zeCommandListDestroy(list);
  zeKernelDestroy(k);
  zeModuleDestroy(m);
}

TEST_CASE("Given a native binary of a kernel that prints, when another process loads and runs it, "
          "then the output comes from that process",
          "[module][native][printf]") {
  Fixture fx;
  auto spv = readFile(std::string(TESSERA_TEST_KERNELS) + "/printf_kernel.spv");
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV,
                        spv.size(), spv.data(), "", nullptr};
  ze_module_handle_t m = nullptr;
  REQUIRE(zeModuleCreate(fx.context, fx.device, &desc, &m, nullptr) == ZE_RESULT_SUCCESS);
  size_t size = 0;
  REQUIRE(zeModuleGetNativeBinary(m, &size, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<uint8_t> binary(size);
  REQUIRE(zeModuleGetNativeBinary(m, &size, binary.data()) == ZE_RESULT_SUCCESS);
  REQUIRE(zeModuleDestroy(m) == ZE_RESULT_SUCCESS);
  char path[] = "/tmp/tessera-native-XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  REQUIRE(write(fd, binary.data(), binary.size()) == static_cast<ssize_t>(binary.size()));
  close(fd);
  auto child = tessera::test::runProgram({"/proc/self/exe", "native binary child: load and print"},
                                         {{kBinaryVar, path}});
  unlink(path);
  INFO(child.out << child.err);
  CHECK(child.exitCode == 0);
  for (int i = 0; i < 4; ++i)
    CHECK(child.out.find("item " + std::to_string(i) + ": " + std::to_string(7 + i) + "\n") !=
          std::string::npos);
}
