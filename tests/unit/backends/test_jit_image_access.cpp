// Where image reads and writes land: the coordinates of every image type (image_abi.h's pitches),
// reads and writes outside the image, integer coordinates with a sampler, integer reads with a
// sampler, the widening of image kernels, and what the JIT refuses.
#include <catch2/catch.hpp>

#include <climits>
#include <vector>

#include "image_sampler_reference.h"

namespace tessera::backends::cpu::test {
namespace {

const Format kRgba32ui{ze::kLayout32_32_32_32, ze::kUint, {ze::R, ze::G, ze::B, ze::A}, "RGBA32UI"};

struct TypeCase {
  const char* name;
  uint32_t type;
  std::array<uint64_t, 3> extent;
  const char* imageType;
  const char* coord;  // OpenCL C coordinate of work-item (x, y, z)
};

const TypeCase kTypes[] = {
    {"1d", ze::k1D, {9, 1, 1}, "image1d_t", "x"},
    {"1db", ze::kBuffer, {9, 1, 1}, "image1d_buffer_t", "x"},
    {"1da", ze::k1DArray, {9, 3, 1}, "image1d_array_t", "(int2)(x, y)"},
    {"2d", ze::k2D, {9, 4, 1}, "image2d_t", "(int2)(x, y)"},
    {"2da", ze::k2DArray, {9, 4, 3}, "image2d_array_t", "(int4)(x, y, z, 0)"},
    {"3d", ze::k3D, {9, 4, 3}, "image3d_t", "(int4)(x, y, z, 0)"},
};

std::string typeKernels() {
  std::string s;
  for (const TypeCase& t : kTypes) {
    std::string pos = "int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n";
    s += std::string("__kernel void w") + t.name + "(write_only " + t.imageType + " i) {\n" + pos +
         "  write_imageui(i, " + t.coord + ", (uint4)(x, y, z, 7));\n}\n";
    s += std::string("__kernel void r") + t.name + "(read_only " + t.imageType +
         " i, __global uint4* o) {\n" + pos +
         "  o[(z * get_global_size(1) + y) * get_global_size(0) + x] = read_imageui(i, " + t.coord +
         ");\n}\n";
  }
  return s;
}

// Reads with a sampler: "fi" read_imagef with integer coordinates, "ii" and "ui" read_imagei/ui
// with float coordinates.
const CompiledKernel& samplerKernel(const char* name) {
  static const std::shared_ptr<const CompiledModule> m = buildOpenCL(R"(
    #define READ(name, result, read, coord) \
      __kernel void name(read_only image2d_t i, sampler_t s, __global const coord* c, \
                         __global result* o) { \
        size_t g = get_global_id(0); \
        o[g] = read(i, s, c[g]); \
      }
    READ(fi, float4, read_imagef, int2)
    READ(ii, int4, read_imagei, float2)
    READ(ui, uint4, read_imageui, float2)
  )");
  return kernelOf(m, name);
}

// Launches `k` (image, sampler, coordinates, results) with one work-item per coordinate.
template <typename Result, typename Coord>
std::vector<Result> readEach(const CompiledKernel& k, TestImage& img, const TestSampler& smp,
                             std::vector<Coord>& coords) {
  std::vector<Result> out(coords.size());
  ArgBuffer args(k);
  args.set(0, img.view()).set(1, smp.bits()).set(2, coords.data()).set(3, out.data());
  LaunchDims d;
  d.groupSize[0] = uint32_t(coords.size());
  launch(k, args.data(), d, pool());
  return out;
}

LaunchDims gridOf(std::array<uint64_t, 3> e) {
  LaunchDims d;
  d.groupSize[0] = uint32_t(e[0]);
  d.groupCount[1] = uint32_t(e[1]);
  d.groupCount[2] = uint32_t(e[2]);
  d.workDim = 3;
  return d;
}

}  // namespace

TEST_CASE(
    "Given every image type, when each work-item writes its coordinates and reads them "
    "back, then each pixel holds its own",
    "[jit][image][access]") {
  auto m = buildOpenCL(typeKernels(), 1, "-cl-std=CL3.0");
  for (const TypeCase& t : kTypes) {
    INFO(t.imageType);
    TestImage img(t.type, kRgba32ui, t.extent);
    const CompiledKernel& w = kernelOf(m, std::string("w") + t.name);
    ArgBuffer wa(w);
    wa.set(0, img.view());
    launch(w, wa.data(), gridOf(t.extent), pool());
    const uint64_t count = t.extent[0] * t.extent[1] * t.extent[2];
    std::vector<std::array<uint32_t, 4>> out(count);
    const CompiledKernel& r = kernelOf(m, std::string("r") + t.name);
    ArgBuffer ra(r);
    ra.set(0, img.view()).set(1, out.data());
    launch(r, ra.data(), gridOf(t.extent), pool());
    for (uint32_t z = 0; z < t.extent[2]; ++z)
      for (uint32_t y = 0; y < t.extent[1]; ++y)
        for (uint32_t x = 0; x < t.extent[0]; ++x) {
          INFO("(" << x << ", " << y << ", " << z << ")");
          const std::array<uint32_t, 4> expected{x, y, z, 7};
          std::array<uint32_t, 4> stored;
          std::memcpy(stored.data(), img.pixel(x, y, z), 16);
          REQUIRE(stored == expected);
          REQUIRE(out[(z * t.extent[1] + y) * t.extent[0] + x] == expected);
        }
    // The padding between rows and slices is untouched.
    size_t untouched = std::count(img.bytes().begin(), img.bytes().end(), 0xCD);
    CHECK(untouched == img.bytes().size() - count * 16);
  }
}

TEST_CASE(
    "Given coordinates outside the image, when read and written without a sampler, then "
    "reads give the border colour and writes change nothing",
    "[jit][image][access]") {
  auto m = buildOpenCL(R"(
    __kernel void rw(read_only image2d_t src, write_only image2d_t dst, __global const int2* c,
                     __global float4* o) {
      size_t g = get_global_id(0);
      o[g] = read_imagef(src, c[g]);
      write_imagef(dst, c[g], (float4)(0.25f));
    })");
  const std::vector<std::array<int32_t, 2>> coords = {
      {-1, 0}, {6, 0}, {0, -1}, {0, 4}, {INT_MIN, 0}, {INT_MAX, INT_MAX}, {3, INT_MIN}, {-7, 9}};
  const Format formats[] = {
      {ze::kLayout8_8_8_8, ze::kUnorm, {ze::R, ze::G, ze::B, ze::A}, "RGBA8"},
      {ze::kLayout8, ze::kUnorm, {ze::R, ze::Zero, ze::Zero, ze::One}, "R8"},
      {ze::kLayout16_16, ze::kUnorm, {ze::R, ze::G, ze::Zero, ze::One}, "RG16"}};
  const CompiledKernel& k = kernelOf(m, "rw");
  for (const Format& f : formats) {
    INFO(f.name);
    TestImage src(ze::k2D, f, {6, 4, 1}), dst(ze::k2D, f, {6, 4, 1});
    src.fillRandom(5);
    std::vector<uint8_t> before = dst.bytes();
    std::vector<std::array<float, 4>> out(coords.size());
    ArgBuffer args(k);
    args.set(0, src.view()).set(1, dst.view()).set(2, coords.data()).set(3, out.data());
    LaunchDims d;
    d.groupSize[0] = uint32_t(coords.size());
    launch(k, args.data(), d, pool());
    std::array<double, 4> border = applySwizzle(f, {0, 0, 0, 0});
    for (size_t i = 0; i < coords.size(); ++i)
      for (int c = 0; c < 4; ++c) CHECK(out[i][c] == float(border[c]));
    CHECK(dst.bytes() == before);
  }
}

TEST_CASE(
    "Given integer coordinates and a sampler, then CLAMP_TO_EDGE clamps and CLAMP and NONE "
    "give the border colour outside",
    "[jit][image][access]") {
  const CompiledKernel& k = samplerKernel("fi");
  std::vector<std::array<int32_t, 2>> coords;
  for (int y : {-2, 0, 2, 3, 4, 9})
    for (int x : {-3, -1, 0, 3, 5, 6, 11}) coords.push_back({x, y});
  Format f{ze::kLayout8_8_8_8, ze::kUnorm, {ze::B, ze::G, ze::R, ze::A}, "BGRA8"};
  TestImage img(ze::k2D, f, {6, 4, 1});
  img.fillRandom(9);
  for (uint32_t mode : {sampler_bits::kAddressClampToEdge, sampler_bits::kAddressClamp,
                        sampler_bits::kAddressNone}) {
    TestSampler smp{false, mode, false};
    auto out = readEach<std::array<float, 4>>(k, img, smp, coords);
    for (size_t i = 0; i < coords.size(); ++i) {
      const float at[3] = {float(coords[i][0]), float(coords[i][1]), 0};
      std::array<double, 4> ref = sampleReference(img, 2, false, smp, at);
      for (int c = 0; c < 4; ++c) {
        INFO(smp.name() << " (" << coords[i][0] << ", " << coords[i][1] << ") channel " << c);
        CHECK(out[i][c] == float(ref[c]));
      }
    }
  }
}

TEST_CASE(
    "Given integer formats and nearest samplers, when read with read_imagei/ui, then the "
    "texels are the spec's",
    "[jit][image][access]") {
  const Format formats[] = {
      {ze::kLayout8_8_8_8, ze::kUint, {ze::R, ze::G, ze::B, ze::A}, "RGBA8UI"},
      {ze::kLayout8_8_8_8, ze::kSint, {ze::R, ze::G, ze::B, ze::A}, "RGBA8I"},
      {ze::kLayout16, ze::kSint, {ze::R, ze::Zero, ze::Zero, ze::One}, "R16I"},
      {ze::kLayout32_32, ze::kUint, {ze::R, ze::G, ze::Zero, ze::One}, "RG32UI"}};
  std::vector<std::array<float, 2>> coords;
  for (float y : {-0.3f, 0.1f, 0.5f, 0.99f, 1.2f})
    for (float x : {-1.1f, 0.0f, 0.3f, 0.6f, 1.0f, 2.4f}) coords.push_back({x, y});
  for (const Format& f : formats) {
    TestImage img(ze::k2D, f, {5, 3, 1});
    img.fillRandom(13);
    const CompiledKernel& k = samplerKernel(f.type == ze::kSint ? "ii" : "ui");
    for (const TestSampler& smp : everySampler()) {
      if (smp.linear) continue;  // integer reads take NEAREST only
      std::vector<std::array<float, 2>> at = coords;
      if (!smp.normalized)
        for (auto& c : at) c = {c[0] * 5, c[1] * 3};
      auto out = readEach<std::array<int32_t, 4>>(k, img, smp, at);
      for (size_t i = 0; i < at.size(); ++i) {
        const float c3[3] = {at[i][0], at[i][1], 0};
        std::array<double, 4> ref = sampleReference(img, 2, false, smp, c3);
        for (int c = 0; c < 4; ++c) {
          INFO(f.name << " " << smp.name() << " (" << at[i][0] << ", " << at[i][1] << ") channel "
                      << c);
          if (f.type == ze::kSint)
            CHECK(out[i][c] == int64_t(ref[c]));
          else
            CHECK(uint32_t(out[i][c]) == uint64_t(ref[c]));
        }
      }
    }
  }
}

TEST_CASE(
    "Given an image kernel, when widened, then its region runs 16 work-items at a time with "
    "texel gathers, per-lane runtime calls for other formats, and the scalar results",
    "[jit][image][widen]") {
  const char* source = R"(
    __kernel void blur(read_only image2d_t src, write_only image2d_t dst, sampler_t s) {
      int2 p = (int2)(get_global_id(0), get_global_id(1));
      float4 sum = read_imagef(src, s, p) + read_imagef(src, s, p + (int2)(1, 0)) +
                   read_imagef(src, s, (float2)(p.x + 0.25f, p.y + 0.75f));
      write_imagef(dst, p, sum * 0.25f);
    })";
  auto wide = buildOpenCL(source, 16);
  auto scalar = buildOpenCL(source, 0);
  const CompiledKernel& kw = kernelOf(wide, "blur");
  const CompiledKernel& ks = kernelOf(scalar, "blur");
  INFO("refused: " << kw.widen.refused);
  CHECK(kw.widen.width == 16);
  CHECK(kw.widen.widenedRegions == 1);
  CHECK(kw.widen.gathers > 0);  // the texels of the inline formats
  CHECK(kw.widen.perLane > 0);  // the runtime's, for the others
  CHECK(ks.widen.width == 0);
  const Format formats[] = {
      {ze::kLayout8_8_8_8, ze::kUnorm, {ze::R, ze::G, ze::B, ze::A}, "RGBA8"},
      {ze::kLayout16_16, ze::kUnorm, {ze::R, ze::G, ze::Zero, ze::One}, "RG16"}};
  for (const Format& f : formats) {
    INFO(f.name);
    TestImage src(ze::k2D, f, {37, 5, 1}), a(ze::k2D, f, {37, 5, 1}), b(ze::k2D, f, {37, 5, 1});
    src.fillRandom(17);
    TestSampler smp{false, sampler_bits::kAddressClampToEdge, true};
    LaunchDims d;
    d.groupSize[0] = 37;
    d.groupCount[1] = 5;
    d.workDim = 2;
    for (auto [k, dst] : {std::pair{&kw, &a}, std::pair{&ks, &b}}) {
      ArgBuffer args(*k);
      args.set(0, src.view()).set(1, dst->view()).set(2, smp.bits());
      launch(*k, args.data(), d, pool());
    }
    CHECK(a.bytes() == b.bytes());
  }
}

TEST_CASE("Given a kernel that only writes an image, then the default plan widens it",
          "[jit][image][widen]") {
  // Nothing computes on vectors and nothing loops: LLVM's loop vectorizer would get the region,
  // but cannot vectorize the format switch and runtime calls of image accesses.
  auto m = buildOpenCL(R"(
    __kernel void fill(write_only image2d_t dst) {
      int x = get_global_id(0), y = get_global_id(1);
      write_imageui(dst, (int2)(x, y), (uint4)(x, y, 0, 1));
    })");
  const CompiledKernel& k = kernelOf(m, "fill");
  INFO("refused: " << k.widen.refused);
  CHECK(k.widen.width > 0);
  CHECK(k.widen.widenedRegions == 1);
}

TEST_CASE("Given images of unknown types, then the JIT refuses them by name", "[jit][image]") {
  std::string error;
  const std::string cube =
      "_Z24__spirv_ImageRead_Rfloat4PU3AS133__spirv_Image__void_3_0_0_0_0_0_0Dv4_i";
  error = compileIRError(
      "define spir_kernel void @k(ptr addrspace(1) %img, ptr addrspace(1) %out) {\n"
      "  %v = call spir_func <4 x float> @" +
      cube +
      "(ptr addrspace(1) %img, <4 x i32> zeroinitializer)\n"
      "  store <4 x float> %v, ptr addrspace(1) %out\n  ret void\n}\n"
      "declare spir_func <4 x float> @" +
      cube + "(ptr addrspace(1), <4 x i32>)\n");
  CHECK(error.find("image type") != std::string::npos);
}

}  // namespace tessera::backends::cpu::test
