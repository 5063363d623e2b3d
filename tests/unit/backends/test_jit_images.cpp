// Image kernels through the real compile path (image_test_support.h): argument kinds, the size
// and format queries of every image type, a module mixing image and buffer kernels, widening, and
// what the JIT refuses. Formats: test_jit_image_formats.cpp; samplers: test_jit_image_samplers.cpp.
#include <catch2/catch.hpp>

#include <vector>

#include "image_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

const Format kRgba8{ze::kLayout8_8_8_8, ze::kUnorm, {ze::R, ze::G, ze::B, ze::A}, "RGBA8"};

LaunchDims grid(uint32_t x, uint32_t y = 1, uint32_t local = 8) {
  LaunchDims d;
  d.groupSize[0] = local;
  d.groupCount[0] = (x + local - 1) / local;
  d.groupCount[1] = y;
  d.workDim = y > 1 ? 2 : 1;
  return d;
}

}  // namespace

TEST_CASE("Given image and sampler parameters, then they are 8-byte Image and Sampler arguments",
          "[jit][image]") {
  auto m = buildOpenCL(R"(
    __kernel void k(read_only image2d_t a, sampler_t s, __global float4* out,
                    write_only image3d_t b, __constant int* c, read_write image1d_t d) {
      out[0] = read_imagef(a, s, (float2)(0.5f, 0.5f)) + (float4)(c[0]);
      write_imagef(b, (int4)(0), out[1]);
      write_imagef(d, 0, read_imagef(d, 1));
    })",
                       1, "-cl-std=CL3.0");
  const CompiledKernel& k = kernelOf(m, "k");
  REQUIRE(k.args.size() == 6);
  const ArgKind kinds[] = {ArgKind::Image, ArgKind::Sampler,         ArgKind::GlobalPointer,
                           ArgKind::Image, ArgKind::ConstantPointer, ArgKind::Image};
  for (size_t i = 0; i < 6; ++i) {
    INFO("argument " << i);
    CHECK(k.args[i].kind == kinds[i]);
    CHECK(k.args[i].size == 8);
  }
}

TEST_CASE(
    "Given every image type, when its size, order and data type are asked, then the view's "
    "values come back",
    "[jit][image]") {
  auto m = buildOpenCL(R"(
    __kernel void q(read_only image1d_t a, read_only image1d_array_t b, read_only image1d_buffer_t c,
                    read_only image2d_t d, read_only image2d_array_t e, read_only image3d_t f,
                    __global int* o) {
      o[0] = get_image_width(a);
      o[1] = get_image_width(b); o[2] = (int)get_image_array_size(b);
      o[3] = get_image_width(c);
      o[4] = get_image_width(d); o[5] = get_image_height(d);
      int2 dd = get_image_dim(d); o[6] = dd.x; o[7] = dd.y;
      o[8] = get_image_width(e); o[9] = get_image_height(e); o[10] = (int)get_image_array_size(e);
      int2 de = get_image_dim(e); o[11] = de.y;
      o[12] = get_image_width(f); o[13] = get_image_height(f); o[14] = get_image_depth(f);
      int4 df = get_image_dim(f); o[15] = df.x; o[16] = df.y; o[17] = df.z; o[18] = df.w;
      o[19] = get_image_channel_order(d); o[20] = get_image_channel_data_type(d);
      o[21] = get_image_channel_order(f); o[22] = get_image_channel_data_type(a);
    })");
  const CompiledKernel& k = kernelOf(m, "q");
  Format r8{ze::kLayout8, ze::kUint, {ze::R, ze::Zero, ze::Zero, ze::One}, "R8UI"};
  TestImage a(ze::k1D, r8, {17, 1, 1}), b(ze::k1DArray, r8, {19, 5, 1}),
      c(ze::kBuffer, r8, {1000, 1, 1}), d(ze::k2D, kRgba8, {23, 7, 1}),
      e(ze::k2DArray, r8, {9, 11, 6}), f(ze::k3D, kRgba8, {4, 3, 2});
  std::vector<int32_t> o(23, -1);
  ArgBuffer args(k);
  args.set(0, a.view()).set(1, b.view()).set(2, c.view()).set(3, d.view()).set(4, e.view());
  args.set(5, f.view()).set(6, o.data());
  launch(k, args.data(), grid(1, 1, 1), pool());
  // OpImageQueryOrder / Format answer the SPIR-V values, to which the translator's code adds
  // 0x10B0 / 0x10D0 (CL_R ... and CL_SNORM_INT8 ...).
  std::vector<int32_t> expected = {17, 19, 5, 1000, 23, 7, 23, 7, 9, 11,
                                   6,  11, 4, 3,    2,  4, 3,  2, 0};
  expected.push_back(int32_t(0x10B0 + d.view()->channelOrder));
  expected.push_back(int32_t(0x10D0 + d.view()->channelDataType));
  expected.push_back(int32_t(0x10B0 + f.view()->channelOrder));
  expected.push_back(int32_t(0x10D0 + a.view()->channelDataType));
  for (size_t i = 0; i < o.size(); ++i) {
    INFO("o[" << i << "]");
    CHECK(o[i] == expected[i]);
  }
}

TEST_CASE("Given a module with image and buffer kernels, then both build and run, also unoptimized",
          "[jit][image]") {
  for (const char* flags : {(const char*)nullptr, "-ze-opt-disable"}) {
    INFO((flags ? flags : "optimized"));
    auto m = buildOpenCL(R"(
    __kernel void copy(read_only image2d_t src, write_only image2d_t dst) {
      int2 p = (int2)(get_global_id(0), get_global_id(1));
      write_imageui(dst, p, read_imageui(src, p) + (uint4)(1, 2, 3, 4));
    }
    __kernel void add(__global const int* a, __global int* b) {
      size_t i = get_global_id(0);
      b[i] = a[i] + 1;
    })",
                         1, "", flags);
    Format rgba8ui{ze::kLayout8_8_8_8, ze::kUint, {ze::R, ze::G, ze::B, ze::A}, "RGBA8UI"};
    TestImage src(ze::k2D, rgba8ui, {13, 5, 1}), dst(ze::k2D, rgba8ui, {13, 5, 1});
    src.fillRandom(7);
    const CompiledKernel& copy = kernelOf(m, "copy");
    ArgBuffer args(copy);
    args.set(0, src.view()).set(1, dst.view());
    launch(copy, args.data(), grid(13, 5, 4), pool());
    for (uint64_t y = 0; y < 5; ++y)
      for (uint64_t x = 0; x < 13; ++x)
        for (int c = 0; c < 4; ++c) {
          INFO(x << "," << y << " channel " << c);
          CHECK(dst.pixel(x, y)[c] == std::min(255, src.pixel(x, y)[c] + c + 1));
        }
    const CompiledKernel& add = kernelOf(m, "add");
    std::vector<int32_t> a(64), b(64);
    for (int i = 0; i < 64; ++i) a[i] = i * 3;
    ArgBuffer bargs(add);
    bargs.set(0, a.data()).set(1, b.data());
    launch(add, bargs.data(), grid(64), pool());
    for (int i = 0; i < 64; ++i) CHECK(b[i] == i * 3 + 1);
  }
}

TEST_CASE(
    "Given an image kernel loaded from a native binary, then it reads and writes through "
    "the runtime's functions of this process",
    "[jit][image]") {
  // RG16 is decoded and encoded by image_runtime.h's functions, which the object calls by name.
  auto m = buildThroughNativeBinary(R"(
    __kernel void inc(read_only image2d_t src, write_only image2d_t dst) {
      int2 p = (int2)(get_global_id(0), get_global_id(1));
      write_imagef(dst, p, read_imagef(src, p) + (float4)(1.0f / 65535.0f));
    })");
  Format rg16{ze::kLayout16_16, ze::kUnorm, {ze::R, ze::G, ze::Zero, ze::One}, "RG16"};
  TestImage src(ze::k2D, rg16, {9, 2, 1}), dst(ze::k2D, rg16, {9, 2, 1});
  for (uint64_t y = 0; y < 2; ++y)
    for (uint64_t x = 0; x < 9; ++x) {
      const uint16_t v[2] = {uint16_t(1000 * x + y), uint16_t(7 * x)};
      std::memcpy(src.pixel(x, y), v, 4);
    }
  const CompiledKernel& k = kernelOf(m, "inc");
  ArgBuffer args(k);
  args.set(0, src.view()).set(1, dst.view());
  launch(k, args.data(), grid(9, 2, 9), pool());
  for (uint64_t y = 0; y < 2; ++y)
    for (uint64_t x = 0; x < 9; ++x) {
      uint16_t v[2];
      std::memcpy(v, dst.pixel(x, y), 4);
      CHECK(v[0] == 1000 * x + y + 1);
      CHECK(v[1] == 7 * x + 1);
    }
}

}  // namespace tessera::backends::cpu::test
