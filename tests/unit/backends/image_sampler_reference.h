// The test's own sampler (OpenCL C 1.2 section 8.2, "Addressing and Filter Modes"): where a read
// with a sampler lands and what it returns, written from the spec's formulas, for the image tests
// to compare the JIT's reads against. Float arithmetic as the spec writes it (the NEAREST results
// must match bit for bit); LINEAR sums in double.
#pragma once

#include <cmath>
#include <string>

#include "image_test_support.h"

namespace tessera::backends::cpu::test {

struct TestSampler {
  bool normalized = false;
  uint32_t address = sampler_bits::kAddressNone;
  bool linear = false;
  uint64_t bits() const {
    return (normalized ? sampler_bits::kNormalizedCoords : 0) | address |
           (linear ? sampler_bits::kFilterLinear : sampler_bits::kFilterNearest);
  }
  std::string name() const {
    static const char* const modes[] = {"NONE", "CLAMP_TO_EDGE", "CLAMP", "REPEAT", "MIRRORED"};
    return std::string(normalized ? "normalized " : "") + modes[address / 2] +
           (linear ? " LINEAR" : " NEAREST");
  }
  // The OpenCL C expression of the same sampler.
  std::string source() const {
    static const char* const modes[] = {"CLK_ADDRESS_NONE", "CLK_ADDRESS_CLAMP_TO_EDGE",
                                        "CLK_ADDRESS_CLAMP", "CLK_ADDRESS_REPEAT",
                                        "CLK_ADDRESS_MIRRORED_REPEAT"};
    return std::string(normalized ? "CLK_NORMALIZED_COORDS_TRUE" : "CLK_NORMALIZED_COORDS_FALSE") +
           " | " + modes[address / 2] + " | " +
           (linear ? "CLK_FILTER_LINEAR" : "CLK_FILTER_NEAREST");
  }
};

// Every sampler OpenCL defines: REPEAT and MIRRORED_REPEAT only with normalized coordinates.
inline std::vector<TestSampler> everySampler() {
  std::vector<TestSampler> out;
  for (bool normalized : {false, true})
    for (uint32_t address = 0; address <= sampler_bits::kAddressMirroredRepeat; address += 2)
      for (bool linear : {false, true})
        if (normalized || address < sampler_bits::kAddressRepeat)
          out.push_back({normalized, address, linear});
  return out;
}

// Texel indices along one axis of n texels, the second one for LINEAR, and a's weight.
struct AxisTexels {
  int i0 = 0, i1 = 0;
  float a = 0;
};

inline AxisTexels axisTexels(const TestSampler& smp, float s, int n) {
  AxisTexels t;
  float u;
  if (smp.address == sampler_bits::kAddressRepeat) {
    u = (s - std::floor(s)) * float(n);
  } else if (smp.address == sampler_bits::kAddressMirroredRepeat) {
    float folded = std::fabs(s - 2.0f * std::rint(0.5f * s));
    u = folded * float(n);
  } else {
    u = smp.normalized ? s * float(n) : s;
  }
  if (!smp.linear) {
    t.i0 = int(std::floor(u));
    if (smp.address == sampler_bits::kAddressRepeat && t.i0 > n - 1) t.i0 -= n;
    if (smp.address == sampler_bits::kAddressMirroredRepeat) t.i0 = std::min(t.i0, n - 1);
    if (smp.address == sampler_bits::kAddressClampToEdge) t.i0 = std::clamp(t.i0, 0, n - 1);
    return t;
  }
  float shifted = u - 0.5f;
  t.i0 = int(std::floor(shifted));
  t.i1 = t.i0 + 1;
  t.a = shifted - std::floor(shifted);
  if (smp.address == sampler_bits::kAddressRepeat) {
    if (t.i0 < 0) t.i0 += n;
    if (t.i1 > n - 1) t.i1 -= n;
  } else if (smp.address == sampler_bits::kAddressMirroredRepeat) {
    t.i0 = std::max(t.i0, 0);
    t.i1 = std::min(t.i1, n - 1);
  } else if (smp.address == sampler_bits::kAddressClampToEdge) {
    t.i0 = std::clamp(t.i0, 0, n - 1);
    t.i1 = std::clamp(t.i1, 0, n - 1);
  }
  return t;
}

// read_imagef(image, sampler, coord) of an image with `spatial` filtered coordinates and, when
// `arrayed`, a layer after them; the swizzle applied. Texels outside are the border colour.
inline std::array<double, 4> sampleReference(TestImage& img, unsigned spatial, bool arrayed,
                                             const TestSampler& smp, const float* coord) {
  auto extent = img.extent();
  std::array<int, 3> fixed{0, 0, 0};
  if (arrayed) {
    int layers = int(extent[spatial]);
    fixed[spatial] = std::clamp(int(std::rint(coord[spatial])), 0, layers - 1);
  }
  AxisTexels axes[3];
  for (unsigned k = 0; k < spatial; ++k) axes[k] = axisTexels(smp, coord[k], int(extent[k]));
  auto texel = [&](std::array<int, 3> at) {
    for (unsigned k = 0; k < 3; ++k)
      if (at[k] < 0 || at[k] >= int(extent[k])) return std::array<double, 4>{0, 0, 0, 0};
    return referenceComponents(img, at[0], at[1], at[2]);
  };
  std::array<double, 4> sum{0, 0, 0, 0};
  const unsigned taps = smp.linear ? 1u << spatial : 1u;
  for (unsigned t = 0; t < taps; ++t) {
    std::array<int, 3> at = fixed;
    float weight = 1.0f;
    for (unsigned k = 0; k < spatial; ++k) {
      bool high = smp.linear && ((t >> k) & 1);
      at[k] = high ? axes[k].i1 : axes[k].i0;
      if (smp.linear) weight *= high ? axes[k].a : 1.0f - axes[k].a;
    }
    std::array<double, 4> c = texel(at);
    for (int k = 0; k < 4; ++k) sum[k] += smp.linear ? double(weight) * c[k] : c[k];
  }
  return applySwizzle(img.format(), sum);
}

}  // namespace tessera::backends::cpu::test
