// What zeModuleCreate(ZE_MODULE_FORMAT_NATIVE) costs (issue 28: a native binary's objects are
// checked, and loaded on trial in the compiler process, before the JIT loads them). The suite's
// module (5 kernels) is built from SPIR-V, its native binary taken, then loaded: first in a fresh
// process (this program again, with --load: the compiler process is not running yet), then 20
// times in this process (the compiler process is running: it translated the SPIR-V), the median
// printed. Set TESSERA_CACHE=0 to keep the disk cache out of the SPIR-V build's figure.
// docs/reliability.md and docs/performance.md have the figures.
#include <level_zero/ze_api.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "bench_util.h"

using tessera::bench::readFile;

namespace {

double ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since)
      .count();
}

struct Session {
  ze_device_handle_t device = nullptr;
  ze_context_handle_t context = nullptr;
  Session() {
    BENCH_CHECK(zeInit(0));
    uint32_t n = 1;
    ze_driver_handle_t driver = nullptr;
    BENCH_CHECK(zeDriverGet(&n, &driver));
    n = 1;
    BENCH_CHECK(zeDeviceGet(driver, &n, &device));
    ze_context_desc_t cd{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    BENCH_CHECK(zeContextCreate(driver, &cd, &context));
  }
  // Milliseconds zeModuleCreate took.
  double create(ze_module_format_t format, const std::vector<uint8_t>& bytes,
                ze_module_handle_t* out = nullptr) {
    ze_module_desc_t desc{
        ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, format, bytes.size(), bytes.data(), "", nullptr};
    ze_module_handle_t m = nullptr;
    auto start = std::chrono::steady_clock::now();
    BENCH_CHECK(zeModuleCreate(context, device, &desc, &m, nullptr));
    double t = ms(start);
    if (out) {
      *out = m;
    } else {
      zeModuleDestroy(m);
    }
    return t;
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--load") == 0) {
    Session s;
    std::printf("%.2f\n", s.create(ZE_MODULE_FORMAT_NATIVE, readFile(argv[2])));
    return 0;
  }
  const char* spvPath = argc > 1 ? argv[1] : TESSERA_BENCH_SUITE_SPV;
  Session s;
  ze_module_handle_t m = nullptr;
  double build = s.create(ZE_MODULE_FORMAT_IL_SPIRV, readFile(spvPath), &m);
  size_t size = 0;
  BENCH_CHECK(zeModuleGetNativeBinary(m, &size, nullptr));
  std::vector<uint8_t> binary(size);
  BENCH_CHECK(zeModuleGetNativeBinary(m, &size, binary.data()));
  zeModuleDestroy(m);
  char path[] = "/tmp/tessera-native-bench-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0 || write(fd, binary.data(), binary.size()) != ssize_t(binary.size())) return 1;
  close(fd);
  char self[4096] = {};
  if (readlink("/proc/self/exe", self, sizeof self - 1) <= 0) return 1;
  std::string command = std::string(self) + " --load " + std::string(path);
  FILE* child = popen(command.c_str(), "r");
  double cold = -1;
  if (!child || std::fscanf(child, "%lf", &cold) != 1) cold = -1;
  if (child) pclose(child);
  unlink(path);
  std::vector<double> warm;
  for (int i = 0; i < 20; ++i) warm.push_back(s.create(ZE_MODULE_FORMAT_NATIVE, binary));
  std::sort(warm.begin(), warm.end());
  std::printf(
      "SPIR-V build: %.2f ms; native binary of %zu bytes: first load in a new process "
      "%.2f ms, then median of 20 loads %.2f ms\n",
      build, binary.size(), cold, warm[warm.size() / 2]);
  return 0;
}
