// Odd-width integers (SPV_INTEL_arbitrary_precision_integers) through zeModuleCreate: the installed
// SPIRV-Tools refuses every width but 8, 16, 32 and 64, spirv/odd_integers.h validates such a module
// at standard widths and the module itself is translated (issue 30 item 4: AdaptiveCpp's
// marray<short, 3> arrives as one i48). tests/kernels/odd_integers.spvasm computes with i48 and i24
// loaded from and stored to their exact bytes, a by-value i48 argument and the conversions between
// widths; the host computes the same. Tagged [corpus], so it runs widened too (api.ze.corpus.widen16
// and widen4: the stores in a predicated block), and in api.ze.guard_pages, where the outputs end
// flush with an inaccessible page: a store wider than its 6 or 3 bytes at the last element faults,
// and one at any other element overwrites the next (odd) element, which the host checks unchanged.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <spirv/unified1/spirv.hpp>
#include <string>
#include <vector>

#include "kernel_test_support.h"

using namespace tessera::test;

namespace {

constexpr uint64_t kMask48 = (uint64_t{1} << 48) - 1;
constexpr uint64_t kMask24 = (uint64_t{1} << 24) - 1;
constexpr uint8_t kUntouched = 0xa5;

uint64_t signExtend(uint64_t v, int bits) {
  return static_cast<uint64_t>(static_cast<int64_t>(v << (64 - bits)) >> (64 - bits));
}

// A shared allocation of exactly `bytes`, without an alignment (so that in guard-page mode it ends
// at the guard page), filled with kUntouched.
struct Shared {
  ze_context_handle_t context;
  uint8_t* bytes = nullptr;
  Shared(ze_context_handle_t c, ze_device_handle_t d, size_t size) : context(c) {
    ze_device_mem_alloc_desc_t dd{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    ze_host_mem_alloc_desc_t hd{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    void* p = nullptr;
    REQUIRE(zeMemAllocShared(c, &dd, &hd, size, 0, d, &p) == ZE_RESULT_SUCCESS);
    bytes = static_cast<uint8_t*>(p);
    std::memset(bytes, kUntouched, size);
  }
  ~Shared() { zeMemFree(context, bytes); }
  uint64_t read(size_t offset, size_t n) const {
    uint64_t v = 0;
    std::memcpy(&v, bytes + offset, n);  // little-endian host
    return v;
  }
};

std::vector<uint8_t> oddIntegersModule() { return readCorpusKernel("odd_integers"); }

// The module without its OpExtension instructions, or without its OpCapability
// ArbitraryPrecisionIntegersINTEL.
std::vector<uint8_t> without(std::vector<uint8_t> bytes, uint32_t opcode) {
  std::vector<uint32_t> w(bytes.size() / 4);
  std::memcpy(w.data(), bytes.data(), bytes.size());
  std::vector<uint32_t> out(w.begin(), w.begin() + 5);
  for (size_t at = 5; at < w.size();) {
    uint32_t count = w[at] >> 16;
    REQUIRE(count > 0);
    bool drop = (w[at] & 0xffff) == opcode &&
                (opcode != spv::OpCapability ||
                 w[at + 1] == spv::CapabilityArbitraryPrecisionIntegersINTEL);
    if (!drop) out.insert(out.end(), w.begin() + at, w.begin() + at + count);
    at += count;
  }
  std::vector<uint8_t> result(out.size() * 4);
  std::memcpy(result.data(), out.data(), result.size());
  return result;
}

ze_result_t build(ze_context_handle_t c, ze_device_handle_t d, const std::vector<uint8_t>& spv,
                  std::string& log) {
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV,
                        spv.size(), spv.data(), "", nullptr};
  ze_module_handle_t m = nullptr;
  ze_module_build_log_handle_t buildLog = nullptr;
  ze_result_t r = zeModuleCreate(c, d, &desc, &m, &buildLog);
  log = buildLogText(buildLog);
  zeModuleBuildLogDestroy(buildLog);
  if (m) zeModuleDestroy(m);
  return r;
}

}  // namespace

TEST_CASE(
    "Given a kernel computing with i48 and i24 (SPV_INTEL_arbitrary_precision_integers), when "
    "it runs, then every result is the host's and each store covers exactly its bytes",
    "[kernel][corpus][odd_integers]") {
  constexpr size_t kItems = 64;
  KernelFixture fx;
  ze_kernel_handle_t k = fx.kernel("odd_integers", "odd_integers");
  Shared out48(fx.context, fx.device, 6 * kItems), in48(fx.context, fx.device, 6 * kItems);
  Shared out24(fx.context, fx.device, 3 * kItems), in24(fx.context, fx.device, 3 * kItems);
  Shared out64(fx.context, fx.device, 8 * 3 * kItems);
  uint64_t seed = 0x9e3779b97f4a7c15;
  for (size_t i = 0; i < kItems; ++i) {
    seed = seed * 6364136223846793005 + 1442695040888963407;
    uint64_t x = (seed >> 7) & kMask48, z = (seed >> 40) & kMask24;
    if (i % 4 == 2) z |= 0x800000;  // negative as a signed 24-bit value
    std::memcpy(in48.bytes + 6 * i, &x, 6);
    std::memcpy(in24.bytes + 3 * i, &z, 3);
  }
  // The by-value i48: 8 bytes (its reflected size), the upper two not part of the value.
  const uint64_t mult = 0xbeef0000123456f1;
  void* o48 = out48.bytes;
  void* i48 = in48.bytes;
  void* o24 = out24.bytes;
  void* i24 = in24.bytes;
  void* o64 = out64.bytes;
  setArgs(k, o48, i48, mult, o24, i24, o64);
  setGroupSize(k, 16);
  fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {kItems / 16, 1, 1}); });

  for (size_t i = 0; i < kItems; ++i) {
    INFO("work-item " << i);
    if (i % 2 == 1) {
      CHECK(out48.read(6 * i, 6) == 0xa5a5a5a5a5a5);
      CHECK(out24.read(3 * i, 3) == 0xa5a5a5);
      for (size_t j = 0; j < 3; ++j) CHECK(out64.read(8 * (3 * i + j), 8) == 0xa5a5a5a5a5a5a5a5);
      continue;
    }
    uint64_t x = in48.read(6 * i, 6), z = in24.read(3 * i, 3);
    uint64_t y = ((x * (mult & kMask48) + (x >> 5)) & kMask48) ^ 0x5a5a12345678;
    y = (y + (signExtend(z, 24) & kMask48) + x / 1000) & kMask48;
    uint64_t w = ((y & kMask24) * 3 + 0xabcdef) & kMask24;
    CHECK(out48.read(6 * i, 6) == y);
    CHECK(out24.read(3 * i, 3) == w);
    CHECK(out64.read(8 * 3 * i, 8) == y);
    CHECK(out64.read(8 * (3 * i + 1), 8) == signExtend(z, 24));
    CHECK(out64.read(8 * (3 * i + 2), 8) == y >> 32);
  }
}

TEST_CASE(
    "Given a module with an odd-width integer but without the capability that allows it, when "
    "built, then the build fails naming the capability; with the capability but without its "
    "extension, the extension is declared with a warning",
    "[kernel][odd_integers]") {
  KernelFixture fx;
  std::string log;
  std::vector<uint8_t> noCapability =
      without(without(oddIntegersModule(), spv::OpCapability), spv::OpExtension);
  CHECK(build(fx.context, fx.device, noCapability, log) == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  INFO(log);
  CHECK(log.find("need the capability ArbitraryPrecisionIntegersINTEL") != std::string::npos);
  CHECK(log.find("width 24") != std::string::npos);

  std::vector<uint8_t> noExtension = without(oddIntegersModule(), spv::OpExtension);
  CHECK(build(fx.context, fx.device, noExtension, log) == ZE_RESULT_SUCCESS);
  CHECK(log.find("SPV_INTEL_arbitrary_precision_integers, which was declared") !=
        std::string::npos);
}
