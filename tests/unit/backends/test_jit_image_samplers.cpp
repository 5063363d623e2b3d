// Reads with a sampler against the test's own sampler (image_sampler_reference.h): every
// addressing mode x filter x normalized combination OpenCL defines, for every image type, with the
// sampler as an argument and as an inline sampler; NEAREST bit for bit, LINEAR within 1e-5
// relative. Formats decoded inline (RGBA8, BGRA8, R8 as luminance, RGBA32F, R32F, RGBA16F) and by
// the runtime (RG16 UNORM, RGBA16 SNORM, 5_6_5), widened (the default for image kernels) and not.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "image_sampler_reference.h"

namespace tessera::backends::cpu::test {
namespace {

struct ImageKind {
  const char* kernel;  // in kSource
  uint32_t type;
  unsigned spatial;
  bool arrayed;
  std::array<uint64_t, 3> extent;
};

const ImageKind kKinds[] = {{"s1", ze::k1D, 1, false, {7, 1, 1}},
                            {"s1a", ze::k1DArray, 1, true, {7, 3, 1}},
                            {"s2", ze::k2D, 2, false, {7, 5, 1}},
                            {"s2a", ze::k2DArray, 2, true, {5, 4, 3}},
                            {"s3", ze::k3D, 3, false, {5, 4, 3}}};

const char* const kSource = R"(
  #define READ(name, type, coord) \
    __kernel void name(read_only type i, sampler_t s, __global const float4* c, \
                       __global float4* o) { \
      size_t g = get_global_id(0); \
      float4 p = c[g]; \
      o[g] = read_imagef(i, s, coord); \
    }
  READ(s1, image1d_t, p.x)
  READ(s1a, image1d_array_t, p.xy)
  READ(s2, image2d_t, p.xy)
  READ(s2a, image2d_array_t, p)
  READ(s3, image3d_t, p)
)";

// Normalized coordinates around and beyond [0, 1]; layers around and beyond [0, layers).
const float kCoords[] = {-1.3f, -0.51f, -0.01f, 0.0f,  0.013f, 0.24f, 0.5f,
                         0.77f, 0.999f, 1.0f,   1.01f, 1.5f,   2.3f};
const float kLayers[] = {-1.0f, 0.0f, 0.4f, 0.5f, 1.5f, 2.5f, 7.0f};

// Every coordinate combination of the image kind (unnormalized: times the axis's size), padded to
// a multiple of 16 work-items.
std::vector<std::array<float, 4>> coordinates(const ImageKind& kind, bool normalized) {
  std::vector<std::array<float, 4>> out;
  const size_t counts[3] = {std::size(kCoords), kind.spatial > 1 ? std::size(kCoords) : 1,
                            kind.spatial > 2 ? std::size(kCoords) : 1};
  const size_t layers = kind.arrayed ? std::size(kLayers) : 1;
  for (size_t l = 0; l < layers; ++l)
    for (size_t z = 0; z < counts[2]; ++z)
      for (size_t y = 0; y < counts[1]; ++y)
        for (size_t x = 0; x < counts[0]; ++x) {
          std::array<float, 4> c{0, 0, 0, 0};
          const size_t at[3] = {x, y, z};
          for (unsigned k = 0; k < kind.spatial; ++k)
            c[k] = normalized ? kCoords[at[k]] : kCoords[at[k]] * float(kind.extent[k]);
          if (kind.arrayed) c[kind.spatial] = kLayers[l];
          out.push_back(c);
        }
  while (out.size() % 16) out.push_back(out.front());
  return out;
}

// Runs `k` (a READ kernel, with a sampler argument when `samplerArg`) over the coordinates and
// compares with the reference.
void checkReads(const CompiledKernel& k, bool samplerArg, TestImage& img, const ImageKind& kind,
                const TestSampler& smp) {
  std::vector<std::array<float, 4>> coords = coordinates(kind, smp.normalized);
  std::vector<std::array<float, 4>> out(coords.size());
  ArgBuffer args(k);
  size_t a = 0;
  args.set(a++, img.view());
  if (samplerArg) args.set(a++, smp.bits());
  args.set(a++, coords.data());
  args.set(a++, out.data());
  LaunchDims d;
  d.groupSize[0] = 16;
  d.groupCount[0] = uint32_t(coords.size() / 16);
  launch(k, args.data(), d, pool());
  for (size_t i = 0; i < coords.size(); ++i) {
    std::array<double, 4> ref =
        sampleReference(img, kind.spatial, kind.arrayed, smp, coords[i].data());
    for (int c = 0; c < 4; ++c) {
      INFO(kind.kernel << " " << img.format().name << ", " << smp.name() << ", coordinate ("
                       << coords[i][0] << ", " << coords[i][1] << ", " << coords[i][2]
                       << "), channel " << c << ": got " << out[i][c] << ", expected " << ref[c]);
      if (smp.linear)
        REQUIRE(std::fabs(out[i][c] - ref[c]) <= 1e-5 * std::max(1.0, std::fabs(ref[c])));
      else
        REQUIRE(double(out[i][c]) == ref[c]);
    }
  }
}

const Format kFloatRgba{
    ze::kLayout32_32_32_32, ze::kFloat, {ze::R, ze::G, ze::B, ze::A}, "RGBA32F"};

// Texel values that tell every texel and channel apart (exact in float).
void fillDistinct(TestImage& img) {
  auto e = img.extent();
  for (uint64_t z = 0; z < e[2]; ++z)
    for (uint64_t y = 0; y < e[1]; ++y)
      for (uint64_t x = 0; x < e[0]; ++x)
        for (int c = 0; c < 4; ++c) {
          float v = float(x) + 10.0f * float(y) + 100.0f * float(z) + 0.25f * float(c) + 1.0f;
          std::memcpy(img.pixel(x, y, z) + 4 * c, &v, 4);
        }
}

}  // namespace

TEST_CASE(
    "Given every image type and sampler argument, when read with float coordinates, then "
    "the texels are the spec's",
    "[jit][image][sampler]") {
  for (int widen : {1, 0}) {
    auto m = buildOpenCL(kSource, widen);
    for (const ImageKind& kind : kKinds) {
      const CompiledKernel& k = kernelOf(m, kind.kernel);
      if (widen == 1) CHECK(k.widen.widenedRegions == 1);
      TestImage img(kind.type, kFloatRgba, kind.extent);
      fillDistinct(img);
      for (const TestSampler& smp : everySampler()) checkReads(k, true, img, kind, smp);
    }
  }
}

TEST_CASE(
    "Given 2D images of formats decoded inline and by the runtime, when sampled with every "
    "sampler, then the filtered texels are the spec's",
    "[jit][image][sampler]") {
  const Format formats[] = {
      {ze::kLayout8_8_8_8, ze::kUnorm, {ze::R, ze::G, ze::B, ze::A}, "RGBA8"},
      {ze::kLayout8_8_8_8, ze::kUnorm, {ze::B, ze::G, ze::R, ze::A}, "BGRA8"},
      {ze::kLayout8, ze::kUnorm, {ze::R, ze::R, ze::R, ze::One}, "LUMINANCE8"},
      {ze::kLayout32, ze::kFloat, {ze::R, ze::Zero, ze::Zero, ze::One}, "R32F"},
      {ze::kLayout16_16_16_16, ze::kFloat, {ze::R, ze::G, ze::B, ze::A}, "RGBA16F"},
      {ze::kLayout16_16, ze::kUnorm, {ze::R, ze::G, ze::Zero, ze::One}, "RG16"},
      {ze::kLayout16_16_16_16, ze::kSnorm, {ze::R, ze::G, ze::B, ze::A}, "RGBA16_SNORM"},
      {ze::kLayout5_6_5, ze::kUnorm, {ze::B, ze::G, ze::R, ze::One}, "RGB565"}};
  auto m = buildOpenCL(kSource);
  const ImageKind& kind = kKinds[2];
  const CompiledKernel& k = kernelOf(m, kind.kernel);
  for (const Format& f : formats) {
    TestImage img(kind.type, f, kind.extent);
    img.fillRandom(11);
    if (f.type == ze::kFloat) {  // finite values: NaN and infinities do not filter
      auto e = img.extent();
      for (uint64_t y = 0; y < e[1]; ++y)
        for (uint64_t x = 0; x < e[0]; ++x)
          for (uint32_t i = 0; i < img.pixelBytes(); ++i)
            if (i % (f.layout == ze::kLayout32 ? 4 : 2) == (f.layout == ze::kLayout32 ? 3 : 1))
              img.pixel(x, y)[i] &= 0x3f;  // exponents well inside the range
    }
    for (const TestSampler& smp : everySampler()) checkReads(k, true, img, kind, smp);
  }
}

TEST_CASE(
    "Given inline samplers, when read, then they give what the same sampler as an argument "
    "gives",
    "[jit][image][sampler]") {
  std::string source;
  std::vector<TestSampler> samplers = everySampler();
  for (size_t i = 0; i < samplers.size(); ++i) {
    source += "__kernel void k" + std::to_string(i) +
              "(read_only image2d_t img, __global const float4* c, __global float4* o) {\n"
              "  const sampler_t s = " +
              samplers[i].source() +
              ";\n"
              "  size_t g = get_global_id(0);\n"
              "  o[g] = read_imagef(img, s, c[g].xy);\n}\n";
  }
  // One at program scope too (OpConstantSampler outside the function).
  source +=
      "const sampler_t global_s = " + samplers[7].source() +
      ";\n"
      "__kernel void kg(read_only image2d_t img, __global const float4* c, __global float4* o) {\n"
      "  o[get_global_id(0)] = read_imagef(img, global_s, c[get_global_id(0)].xy);\n}\n";
  auto m = buildOpenCL(source);
  const ImageKind& kind = kKinds[2];
  TestImage img(kind.type, kFloatRgba, kind.extent);
  fillDistinct(img);
  for (size_t i = 0; i < samplers.size(); ++i)
    checkReads(kernelOf(m, "k" + std::to_string(i)), false, img, kind, samplers[i]);
  checkReads(kernelOf(m, "kg"), false, img, kind, samplers[7]);
}

}  // namespace tessera::backends::cpu::test
