#include "image_test_support.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <random>

#include "compiler/compiler.h"
#include "spirv/opencl_c.h"

namespace tessera::backends::cpu::test {
namespace {

compiler::Compiler& compilerFor(int widen) {
  static std::mutex mutex;
  static std::map<int, std::unique_ptr<compiler::Compiler>> compilers;
  std::lock_guard<std::mutex> lock(mutex);
  auto& c = compilers[widen];
  if (!c) {
    compiler::CompilerConfig settings;
    settings.code.widen = widen;
    c = std::make_unique<compiler::Compiler>(settings, backends::cpuKind());
  }
  return *c;
}

compiler::Compiler::Result build(const std::string& source, int widen, const std::string& options,
                                 const char* zeFlags, std::string& log) {
  spirv::CompileResult spirv = spirv::compileOpenCLC(source, options);
  log = spirv.log;
  if (!spirv.ok) return {};
  std::vector<uint8_t> bytes(spirv.spirv.size() * 4);
  std::memcpy(bytes.data(), spirv.spirv.data(), bytes.size());
  compiler::Compiler::Result r = compilerFor(widen).build(bytes, zeFlags, {});
  compiler::compileAll(r);
  log += r.log;
  return r;
}

}  // namespace

std::shared_ptr<const CompiledModule> buildOpenCL(const std::string& source, int widen,
                                                  const std::string& options, const char* zeFlags) {
  std::string log;
  compiler::Compiler::Result r = build(source, widen, options, zeFlags, log);
  INFO(log);
  REQUIRE(r.ok());
  REQUIRE(r.code != nullptr);
  return compiledModule(r.code);
}

std::shared_ptr<const CompiledModule> buildThroughNativeBinary(const std::string& source) {
  std::string log;
  compiler::Compiler::Result built = build(source, 1, "", nullptr, log);
  INFO(log);
  REQUIRE(built.ok());
  std::vector<uint8_t> binary = compilerFor(1).nativeBinary(*built.program, built.code.get());
  // Its own compiler (the code lives in its JIT), kept for the process.
  static compiler::Compiler loader{compiler::CompilerConfig{}, backends::cpuKind()};
  const uint64_t compiles = loader.compileCount();
  compiler::Compiler::Result loaded = loader.load(binary);
  INFO(loaded.log);
  REQUIRE(loaded.ok());
  REQUIRE(loaded.code != nullptr);
  CHECK(loader.compileCount() == compiles);
  return compiledModule(loaded.code);
}

std::string buildFailure(const std::string& source) {
  std::string log;
  compiler::Compiler::Result r = build(source, 1, "", nullptr, log);
  return r.ok() && r.code ? "" : (log.empty() ? "failed" : log);
}

const CompiledKernel& kernelOf(const std::shared_ptr<const CompiledModule>& m,
                               const std::string& name) {
  const CompiledKernel* k = m->find(name);
  INFO(name);
  REQUIRE(k != nullptr);
  return *k;
}

LayoutBits layoutBits(uint32_t layout) {
  switch (layout) {
    case ze::kLayout8:
      return {{8}, 1};
    case ze::kLayout16:
      return {{16}, 2};
    case ze::kLayout32:
      return {{32}, 4};
    case ze::kLayout8_8:
      return {{8, 8}, 2};
    case ze::kLayout8_8_8_8:
      return {{8, 8, 8, 8}, 4};
    case ze::kLayout16_16:
      return {{16, 16}, 4};
    case ze::kLayout16_16_16_16:
      return {{16, 16, 16, 16}, 8};
    case ze::kLayout32_32:
      return {{32, 32}, 8};
    case ze::kLayout32_32_32_32:
      return {{32, 32, 32, 32}, 16};
    case ze::kLayout10_10_10_2:
      return {{10, 10, 10, 2}, 4};
    case ze::kLayout11_11_10:
      return {{11, 11, 10}, 4};
    case ze::kLayout5_6_5:
      return {{5, 6, 5}, 2};
    case ze::kLayout5_5_5_1:
      return {{5, 5, 5, 1}, 2};
    case ze::kLayout4_4_4_4:
      return {{4, 4, 4, 4}, 2};
  }
  FAIL("unknown layout " << layout);
  return {};
}

TestImage::TestImage(uint32_t imageType, const Format& format, std::array<uint64_t, 3> extent)
    : format_(format) {
  LayoutBits l = layoutBits(format.layout);
  view_.pixelBytes = l.bytes;
  view_.rowPitch = (extent[0] + 3) * l.bytes;
  view_.slicePitch = view_.rowPitch * (extent[1] + 1);
  bytes_.assign(view_.slicePitch * extent[2], 0xCD);
  view_.data = bytes_.data();
  for (int k = 0; k < 3; ++k) view_.extent[k] = extent[k];
  view_.imageType = imageType;
  view_.layout = format.layout;
  view_.type = format.type;
  for (int c = 0; c < 4; ++c) view_.swizzle[c] = format.swizzle[c];
  // Arbitrary numbers: the queries must return what core put here.
  view_.channelOrder = 0x10 + format.layout;
  view_.channelDataType = 0x20 + format.type;
}

uint8_t* TestImage::pixel(uint64_t x, uint64_t y, uint64_t z) {
  return view_.data + x * view_.pixelBytes + y * view_.rowPitch + z * view_.slicePitch;
}

void TestImage::fillRandom(uint32_t seed) {
  std::mt19937 gen(seed);
  for (uint64_t z = 0; z < view_.extent[2]; ++z)
    for (uint64_t y = 0; y < view_.extent[1]; ++y)
      for (uint64_t x = 0; x < view_.extent[0]; ++x)
        for (uint32_t i = 0; i < view_.pixelBytes; ++i) pixel(x, y, z)[i] = uint8_t(gen());
}

namespace {

// An unsigned float with 5 exponent bits (bias 15) and `m` mantissa bits, as a double.
double unsignedFloat(uint64_t v, uint32_t m) {
  uint64_t e = v >> m, frac = v & ((uint64_t{1} << m) - 1);
  if (e == 31) return frac ? NAN : INFINITY;
  double scale = std::ldexp(1.0, -int(m));
  return e == 0 ? std::ldexp(double(frac) * scale, -14)
                : std::ldexp(1.0 + double(frac) * scale, int(e) - 15);
}

double component(uint64_t v, uint32_t bits, uint32_t type) {
  uint64_t max = (uint64_t{1} << bits) - 1;
  int64_t s = (v >> (bits - 1)) & 1 ? int64_t(v) - int64_t(max) - 1 : int64_t(v);
  switch (type) {
    case ze::kUint:
      return double(v);
    case ze::kSint:
      return double(s);
    case ze::kUnorm:
      return double(float(v) / float(max));
    case ze::kSnorm:
      return double(std::max(-1.0f, float(s) / float(max >> 1)));
    default:
      if (bits == 32) return double(toFloat(uint32_t(v)));
      if (bits == 16) return (v & 0x8000 ? -1 : 1) * unsignedFloat(v & 0x7fff, 10);
      return unsignedFloat(v, bits - 5);
  }
}

}  // namespace

std::array<double, 4> referenceComponents(TestImage& image, uint64_t x, uint64_t y, uint64_t z) {
  LayoutBits l = layoutBits(image.format().layout);
  const uint8_t* p = image.pixel(x, y, z);
  std::array<double, 4> out{0, 0, 0, 0};
  uint32_t at = 0;
  for (size_t k = 0; k < l.bits.size(); ++k) {
    uint64_t v = 0;
    for (uint32_t bit = 0; bit < l.bits[k]; ++bit, ++at)
      v |= uint64_t((p[at / 8] >> (at % 8)) & 1) << bit;
    out[k] = component(v, l.bits[k], image.format().type);
  }
  return out;
}

std::array<double, 4> applySwizzle(const Format& f, const std::array<double, 4>& c) {
  std::array<double, 4> out{};
  for (int ch = 0; ch < 4; ++ch)
    out[ch] = f.swizzle[ch] < 4 ? c[f.swizzle[ch]] : f.swizzle[ch] == ze::One ? 1.0 : 0.0;
  return out;
}

uint64_t referenceEncode(double v, uint32_t bits, uint32_t type) {
  uint64_t max = (uint64_t{1} << bits) - 1;
  switch (type) {
    case ze::kUint:
      return std::min<uint64_t>(uint32_t(int64_t(v)), max);
    case ze::kSint: {
      int64_t hi = int64_t(max >> 1);
      return uint64_t(std::clamp<int64_t>(int64_t(v), -hi - 1, hi)) & max;
    }
    case ze::kUnorm:
    case ze::kSnorm: {
      // convert_uchar_sat_rte(f * 255.0f), convert_char_sat_rte(f * 127.0f), ...
      bool snorm = type == ze::kSnorm;
      float scaled = float(v) * float(snorm ? max >> 1 : max);
      if (std::isnan(scaled)) return 0;
      double lo = snorm ? -double(max >> 1) - 1 : 0, hi = double(snorm ? max >> 1 : max);
      double r = std::clamp(double(std::nearbyint(scaled)), lo, hi);
      return uint64_t(int64_t(r)) & max;
    }
    default:
      if (bits == 32) return toBits(float(v));
      FAIL("referenceEncode: no float of " << bits << " bits");
      return 0;
  }
}

}  // namespace tessera::backends::cpu::test
