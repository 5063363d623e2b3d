// OpenCL C image programs through ocl-icd: write_imagef / i / ui of every format class and of
// 1D buffer, 2D array and 3D images (cl_khr_3d_image_writes), reads without samplers of each
// image type, the image queries, read_write images, a 3x3 Gaussian blur and a bilinear scaling
// against references computed here, and one program of image and buffer kernels.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "cl_program_support.h"
#include "image_test_support.h"

using namespace tessera::cltest;

namespace {

const char* kWrite = R"(
__kernel void wf(write_only image2d_t img, float4 a, float4 b) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(img, p, (p.x + p.y) % 2 ? a : b);
}
__kernel void wi(write_only image2d_t img, int4 a, int4 b) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagei(img, p, (p.x + p.y) % 2 ? a : b);
}
__kernel void wui(write_only image2d_t img, uint4 a, uint4 b) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imageui(img, p, (p.x + p.y) % 2 ? a : b);
}
__kernel void w3d(write_only image3d_t img) {
  int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  write_imageui(img, p, (uint4)(p.x, p.y, p.z, p.x + p.y + p.z));
}
__kernel void w2da(write_only image2d_array_t img) {
  int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  write_imageui(img, p, (uint4)(p.x, p.y, p.z, 7));
}
__kernel void w1db(write_only image1d_buffer_t img) {
  int x = get_global_id(0);
  write_imageui(img, x, (uint4)(x, 2 * x, 3 * x, 4 * x));
}
)";

const char* kRead = R"(
__kernel void r1d(read_only image1d_t img, __global uint4* out) {
  int x = get_global_id(0);
  out[x] = read_imageui(img, x);
}
__kernel void r1db(read_only image1d_buffer_t img, __global uint4* out) {
  int x = get_global_id(0);
  out[x] = read_imageui(img, x);
}
__kernel void r1da(read_only image1d_array_t img, __global uint4* out) {
  int x = get_global_id(0), l = get_global_id(1);
  out[l * get_global_size(0) + x] = read_imageui(img, (int2)(x, l));
}
__kernel void r2d(read_only image2d_t img, __global uint4* out) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * get_global_size(0) + x] = read_imageui(img, (int2)(x, y));
}
__kernel void r2da(read_only image2d_array_t img, __global uint4* out) {
  int x = get_global_id(0), y = get_global_id(1), l = get_global_id(2);
  out[(l * get_global_size(1) + y) * get_global_size(0) + x] = read_imageui(img, (int4)(x, y, l, 0));
}
__kernel void r3d(read_only image3d_t img, __global uint4* out) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  out[(z * get_global_size(1) + y) * get_global_size(0) + x] = read_imageui(img, (int4)(x, y, z, 0));
}
__kernel void queries(read_only image2d_array_t a, read_only image3d_t b, __global int* out) {
  out[0] = get_image_width(a);
  out[1] = get_image_height(a);
  out[2] = get_image_array_size(a);
  out[3] = get_image_channel_order(a);
  out[4] = get_image_channel_data_type(a);
  out[5] = get_image_depth(b);
  int4 d = get_image_dim(b);
  out[6] = d.x;
  out[7] = d.y;
  out[8] = d.z;
  out[9] = get_image_channel_order(b);
  out[10] = get_image_channel_data_type(b);
}
__kernel void buffer_kernel(__global int* p) { p[get_global_id(0)] *= 3; }
)";

}  // namespace

TEST_CASE("Given each format class, when kernels write images with write_imagef / i / ui, then the "
          "pixels are the colours converted by the spec's rules",
          "[cl][image][kernel]") {
  ClFixture fx;
  TESSERA_REQUIRE_IMAGES(fx.dev);
  cl_program p = builtProgram(fx, kWrite);
  const float fa[4] = {0.25f, -0.5f, 1.5f, 0.7f}, fb[4] = {0.3f, 0.123456f, 0.999f, -2.0f};
  const int32_t ia[4] = {-200, 70000, 5, -1}, ib[4] = {127, -128, 40000, -40000};
  const uint32_t ua[4] = {300, 70000, 5, 0}, ub[4] = {255, 65535, 1u << 31, 17};
  const Shape s{CL_MEM_OBJECT_IMAGE2D, 6, 5, 0, 0};
  for (const cl_image_format& f : allFormats()) {
    INFO(formatName(f));
    const cl_channel_type t = f.image_channel_data_type;
    const char* name = isSigned(t) ? "wi" : isUnsigned(t) ? "wui" : "wf";
    const void* a = isSigned(t) ? static_cast<const void*>(ia) : isUnsigned(t) ? static_cast<const void*>(ua) : fa;
    const void* b = isSigned(t) ? static_cast<const void*>(ib) : isUnsigned(t) ? static_cast<const void*>(ub) : fb;
    cl_mem img = makeImage(fx.ctx, CL_MEM_WRITE_ONLY, f, s);
    cl_kernel k = makeKernel(p, name);
    setKernelArgs(k, {{sizeof img, &img}, {16, a}, {16, b}});
    size_t global[2] = {s.width, s.height};
    runKernel(fx.queue, k, 2, global);
    const size_t pb = pixelSize(f);
    std::vector<unsigned char> pa = convertedPixel(f, a), pbx = convertedPixel(f, b), expect;
    for (size_t y = 0; y < s.height; ++y)
      for (size_t x = 0; x < s.width; ++x) {
        const auto& px = (x + y) % 2 ? pa : pbx;
        expect.insert(expect.end(), px.begin(), px.end());
      }
    std::vector<unsigned char> got = readWholeImage(fx.queue, img, s, pb);
    clearUndefinedBits(f, got);
    CHECK(got == expect);
    clReleaseKernel(k);
    clReleaseMemObject(img);
  }
  // 3D (cl_khr_3d_image_writes), 2D array and 1D buffer images.
  const cl_image_format u32{CL_RGBA, CL_UNSIGNED_INT32};
  struct Case {
    const char* kernel;
    Shape shape;
  };
  for (const Case& c : {Case{"w3d", smallShape(CL_MEM_OBJECT_IMAGE3D)},
                        Case{"w2da", smallShape(CL_MEM_OBJECT_IMAGE2D_ARRAY)},
                        Case{"w1db", smallShape(CL_MEM_OBJECT_IMAGE1D_BUFFER)}}) {
    INFO(c.kernel);
    cl_mem img = makeImage(fx.ctx, CL_MEM_WRITE_ONLY, u32, c.shape);
    cl_kernel k = makeKernel(p, c.kernel);
    setKernelArgs(k, {{sizeof img, &img}});
    size_t global[3] = {c.shape.extent(0), c.shape.extent(1), c.shape.extent(2)};
    cl_uint dims = c.shape.type == CL_MEM_OBJECT_IMAGE1D_BUFFER ? 1 : 3;
    runKernel(fx.queue, k, dims, global);
    std::vector<unsigned char> bytes = readWholeImage(fx.queue, img, c.shape, 16);
    std::vector<uint32_t> got(bytes.size() / 4);
    std::memcpy(got.data(), bytes.data(), bytes.size());
    size_t i = 0;
    for (uint32_t z = 0; z < global[2]; ++z)
      for (uint32_t y = 0; y < global[1]; ++y)
        for (uint32_t x = 0; x < global[0]; ++x, i += 4) {
          uint32_t want[4] = {x, y, z, x + y + z};
          if (c.shape.type == CL_MEM_OBJECT_IMAGE2D_ARRAY) want[3] = 7;
          if (c.shape.type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
            want[0] = x, want[1] = 2 * x, want[2] = 3 * x, want[3] = 4 * x;
          }
          CHECK(std::equal(want, want + 4, &got[i]));
        }
    clReleaseKernel(k);
    clReleaseMemObject(img);
  }
  clReleaseProgram(p);
}

TEST_CASE("Given images of every type, when kernels read them without a sampler and query them, "
          "then they see the pixels written and the descriptions made",
          "[cl][image][kernel]") {
  ClFixture fx;
  TESSERA_REQUIRE_IMAGES(fx.dev);
  cl_program p = builtProgram(fx, kRead);
  const cl_image_format f{CL_RGBA, CL_UNSIGNED_INT16};
  const char* kernels[] = {"r1d", "r1db", "r1da", "r2d", "r2da", "r3d"};
  cl_int err = CL_SUCCESS;
  for (size_t i = 0; i < imageTypes().size(); ++i) {
    const cl_mem_object_type t = imageTypes()[i];
    INFO(imageTypeName(t));
    const Shape s = smallShape(t);
    std::vector<unsigned char> data = pattern(s.pixels() * 8, unsigned(i + 40));
    cl_mem img = makeImage(fx.ctx, CL_MEM_READ_ONLY, f, s);
    size_t origin[3] = {0, 0, 0}, region[3] = {s.extent(0), s.extent(1), s.extent(2)};
    REQUIRE(clEnqueueWriteImage(fx.queue, img, CL_TRUE, origin, region, 0, 0, data.data(), 0,
                                nullptr, nullptr) == CL_SUCCESS);
    cl_mem out = clCreateBuffer(fx.ctx, 0, s.pixels() * 16, nullptr, &err);
    cl_kernel k = makeKernel(p, kernels[i]);
    setKernelArgs(k, {{sizeof img, &img}, {sizeof out, &out}});
    cl_uint dims = s.extent(2) > 1 ? 3 : s.extent(1) > 1 ? 2 : 1;
    runKernel(fx.queue, k, dims, region);
    std::vector<uint32_t> got(s.pixels() * 4);
    REQUIRE(clEnqueueReadBuffer(fx.queue, out, CL_TRUE, 0, got.size() * 4, got.data(), 0, nullptr,
                                nullptr) == CL_SUCCESS);
    for (size_t j = 0; j < got.size(); ++j) {
      uint16_t v;
      std::memcpy(&v, &data[j * 2], 2);
      CHECK(got[j] == v);
    }
    clReleaseKernel(k);
    clReleaseMemObject(out);
    clReleaseMemObject(img);
  }
  // get_image_* answer what the image was made with; channel order and data type are the CLK_*
  // values, which are the CL_* ones.
  const cl_image_format fa{CL_BGRA, CL_UNORM_INT8}, fb{CL_R, CL_HALF_FLOAT};
  cl_mem a = makeImage(fx.ctx, 0, fa, smallShape(CL_MEM_OBJECT_IMAGE2D_ARRAY));
  cl_mem b = makeImage(fx.ctx, 0, fb, smallShape(CL_MEM_OBJECT_IMAGE3D));
  cl_mem out = clCreateBuffer(fx.ctx, 0, 16 * sizeof(cl_int), nullptr, &err);
  cl_kernel q = makeKernel(p, "queries");
  setKernelArgs(q, {{sizeof a, &a}, {sizeof b, &b}, {sizeof out, &out}});
  size_t one = 1;
  runKernel(fx.queue, q, 1, &one);
  cl_int v[11];
  REQUIRE(clEnqueueReadBuffer(fx.queue, out, CL_TRUE, 0, sizeof v, v, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  const Shape sa = smallShape(CL_MEM_OBJECT_IMAGE2D_ARRAY), sb = smallShape(CL_MEM_OBJECT_IMAGE3D);
  const cl_int want[11] = {cl_int(sa.width),  cl_int(sa.height), cl_int(sa.layers), CL_BGRA,
                           CL_UNORM_INT8,     cl_int(sb.depth),  cl_int(sb.width),  cl_int(sb.height),
                           cl_int(sb.depth),  CL_R,              CL_HALF_FLOAT};
  CHECK(std::equal(want, want + 11, v));
  // The buffer kernel of the same program.
  std::vector<cl_int> ints = {1, 2, 3, 4};
  cl_mem ib = clCreateBuffer(fx.ctx, CL_MEM_COPY_HOST_PTR, 16, ints.data(), &err);
  cl_kernel bk = makeKernel(p, "buffer_kernel");
  setKernelArgs(bk, {{sizeof ib, &ib}});
  size_t four = 4;
  runKernel(fx.queue, bk, 1, &four);
  REQUIRE(clEnqueueReadBuffer(fx.queue, ib, CL_TRUE, 0, 16, ints.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  CHECK(ints == std::vector<cl_int>{3, 6, 9, 12});
  clReleaseKernel(bk);
  clReleaseMemObject(ib);
  clReleaseKernel(q);
  clReleaseMemObject(out);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseProgram(p);
}

TEST_CASE("Given a read_write image, when a kernel reads and rewrites each pixel, then every pixel "
          "is the old one plus one",
          "[cl][image][kernel]") {
  ClFixture fx;
  TESSERA_REQUIRE_IMAGES(fx.dev);
  if (deviceInfo<cl_uint>(fx.dev, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS) == 0) return;
  cl_program p = builtProgram(fx, R"(
__kernel void bump(read_write image2d_t img) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagei(img, p, read_imagei(img, p) + (int4)(1, 2, 3, 4));
}
)",
                              "-cl-std=CL3.0");
  const cl_image_format f{CL_RGBA, CL_SIGNED_INT32};
  const Shape s{CL_MEM_OBJECT_IMAGE2D, 9, 4, 0, 0};
  std::vector<int32_t> data(s.pixels() * 4);
  for (size_t i = 0; i < data.size(); ++i) data[i] = int32_t(i * 3) - 50;
  cl_mem img = makeImage(fx.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, f, s, data.data());
  cl_kernel k = makeKernel(p, "bump");
  setKernelArgs(k, {{sizeof img, &img}});
  size_t global[2] = {s.width, s.height};
  runKernel(fx.queue, k, 2, global);
  std::vector<unsigned char> got = readWholeImage(fx.queue, img, s, 16);
  std::vector<int32_t> v(data.size());
  std::memcpy(v.data(), got.data(), got.size());
  for (size_t i = 0; i < v.size(); ++i) CHECK(v[i] == data[i] + int32_t(i % 4) + 1);
  clReleaseKernel(k);
  clReleaseMemObject(img);
  clReleaseProgram(p);
}

TEST_CASE("Given an RGBA8 picture, when a 3x3 Gaussian blur and a bilinear scaling run through "
          "samplers, then each output pixel is the reference's within one step",
          "[cl][image][kernel]") {
  ClFixture fx;
  TESSERA_REQUIRE_IMAGES(fx.dev);
  // Both orders of the two kernels: with the kernel using a sampler written in OpenCL C first,
  // Debian's SPIR-V translator 15 aborted ("Inconsistent operand types" in SPIRVStore, on the
  // sampler's stack slot) and then wrote OpTypeSampler twice; the compiler now keeps handles out
  // of stack slots and merges the duplicate type (spirv/merge_types.h).
  const char* scaleSource = R"(
__kernel void scale(read_only image2d_t in, sampler_t s, write_only image2d_t out) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float2 c = (float2)((p.x + 0.5f) / get_image_width(out), (p.y + 0.5f) / get_image_height(out));
  write_imagef(out, p, read_imagef(in, s, c));
}
)";
  const char* blurSource = R"(
__kernel void blur(read_only image2d_t in, write_only image2d_t out) {
  const sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  const float w[3] = {1.0f, 2.0f, 1.0f};
  float4 sum = 0.0f;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      sum += w[dx + 1] * w[dy + 1] * read_imagef(in, edge, (float2)(p.x + dx + 0.5f, p.y + dy + 0.5f));
  write_imagef(out, p, sum / 16.0f);
}
)";
  const bool blurFirst = GENERATE(false, true);
  INFO((blurFirst ? "blur, then scale" : "scale, then blur"));
  const std::string source = blurFirst ? std::string(blurSource) + scaleSource
                                       : std::string(scaleSource) + blurSource;
  cl_program p = builtProgram(fx, source.c_str());
  const cl_image_format f{CL_RGBA, CL_UNORM_INT8};
  const int w = 16, h = 11, sw = 23, sh = 7;
  std::vector<unsigned char> pic(size_t(w) * h * 4);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 4; ++c)
        pic[(size_t(y) * w + x) * 4 + c] = static_cast<unsigned char>((x * 37 + y * 91 + c * 53) % 256);
  auto texel = [&](int x, int y, int c) {
    x = std::clamp(x, 0, w - 1), y = std::clamp(y, 0, h - 1);
    return pic[(size_t(y) * w + x) * 4 + c] / 255.0f;
  };
  cl_mem in = makeImage(fx.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, f,
                        {CL_MEM_OBJECT_IMAGE2D, size_t(w), size_t(h), 0, 0}, pic.data());
  cl_mem blurred = makeImage(fx.ctx, CL_MEM_WRITE_ONLY, f, {CL_MEM_OBJECT_IMAGE2D, size_t(w), size_t(h), 0, 0});
  cl_kernel blur = makeKernel(p, "blur");
  setKernelArgs(blur, {{sizeof in, &in}, {sizeof blurred, &blurred}});
  size_t global[2] = {size_t(w), size_t(h)};
  runKernel(fx.queue, blur, 2, global);
  std::vector<unsigned char> got = readWholeImage(fx.queue, blurred, {CL_MEM_OBJECT_IMAGE2D, size_t(w), size_t(h), 0, 0}, 4);
  const float k3[3] = {1, 2, 1};
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 4; ++c) {
        float sum = 0;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) sum += k3[dx + 1] * k3[dy + 1] * texel(x + dx, y + dy, c);
        int want = int(std::nearbyint(sum / 16.0f * 255.0f));
        INFO(x << "," << y << " channel " << c);
        CHECK(std::abs(int(got[(size_t(y) * w + x) * 4 + c]) - want) <= 1);
      }
  // Scaling with normalized coordinates, LINEAR, CLAMP_TO_EDGE: the guide's example.
  cl_int err = CL_SUCCESS;
  cl_sampler s = clCreateSampler(fx.ctx, CL_TRUE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR, &err);
  const Shape scaledShape{CL_MEM_OBJECT_IMAGE2D, size_t(sw), size_t(sh), 0, 0};
  cl_mem scaled = makeImage(fx.ctx, CL_MEM_WRITE_ONLY, f, scaledShape);
  cl_kernel scale = makeKernel(p, "scale");
  setKernelArgs(scale, {{sizeof in, &in}, {sizeof s, &s}, {sizeof scaled, &scaled}});
  size_t sg[2] = {size_t(sw), size_t(sh)};
  runKernel(fx.queue, scale, 2, sg);
  got = readWholeImage(fx.queue, scaled, scaledShape, 4);
  for (int y = 0; y < sh; ++y)
    for (int x = 0; x < sw; ++x)
      for (int c = 0; c < 4; ++c) {
        float u = (x + 0.5f) / sw * w - 0.5f, v = (y + 0.5f) / sh * h - 0.5f;
        int i0 = int(std::floor(u)), j0 = int(std::floor(v));
        float a = u - std::floor(u), b = v - std::floor(v);
        float t = (1 - a) * (1 - b) * texel(i0, j0, c) + a * (1 - b) * texel(i0 + 1, j0, c) +
                  (1 - a) * b * texel(i0, j0 + 1, c) + a * b * texel(i0 + 1, j0 + 1, c);
        int want = int(std::nearbyint(t * 255.0f));
        INFO(x << "," << y << " channel " << c);
        CHECK(std::abs(int(got[(size_t(y) * sw + x) * 4 + c]) - want) <= 1);
      }
  clReleaseKernel(scale);
  clReleaseKernel(blur);
  clReleaseSampler(s);
  clReleaseMemObject(scaled);
  clReleaseMemObject(blurred);
  clReleaseMemObject(in);
  clReleaseProgram(p);
}

TEST_CASE("Given images created read-only or write-only, when given to image arguments of another "
          "access, then clSetKernelArg answers CL_INVALID_ARG_VALUE",
          "[cl][image][kernel]") {
  // "CL_INVALID_ARG_VALUE if the argument is an image declared with the read_only qualifier and
  // arg_value refers to an image object created with cl_mem_flags of CL_MEM_WRITE_ONLY or if the
  // image argument is declared with the write_only qualifier and arg_value refers to an image
  // object created with cl_mem_flags of CL_MEM_READ_ONLY" (clSetKernelArg); a read_write argument
  // takes neither. Before, a read-only image was accepted and the kernel wrote it.
  ClFixture fx;
  TESSERA_REQUIRE_IMAGES(fx.dev);
  const bool readWrite = deviceInfo<cl_uint>(fx.dev, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS) != 0;
  std::string source = R"(
__kernel void ro(read_only image2d_t img, __global int* out) { out[0] = get_image_width(img); }
__kernel void wo(write_only image2d_t img) { write_imagei(img, (int2)(0, 0), (int4)(7)); }
)";
  if (readWrite)
    source += "__kernel void rw(read_write image2d_t img) {\n"
              "  write_imagei(img, (int2)(0, 0), read_imagei(img, (int2)(0, 0)) + 1);\n}\n";
  cl_program p = builtProgram(fx, source.c_str(), "-cl-std=CL3.0");
  const cl_image_format f{CL_RGBA, CL_SIGNED_INT32};
  const Shape s{CL_MEM_OBJECT_IMAGE2D, 4, 4, 0, 0};
  cl_mem readOnly = makeImage(fx.ctx, CL_MEM_READ_ONLY, f, s);
  cl_mem writeOnly = makeImage(fx.ctx, CL_MEM_WRITE_ONLY, f, s);
  cl_mem both = makeImage(fx.ctx, CL_MEM_READ_WRITE, f, s);
  cl_kernel ro = makeKernel(p, "ro"), wo = makeKernel(p, "wo");
  CHECK(clSetKernelArg(ro, 0, sizeof writeOnly, &writeOnly) == CL_INVALID_ARG_VALUE);
  CHECK(clSetKernelArg(ro, 0, sizeof readOnly, &readOnly) == CL_SUCCESS);
  CHECK(clSetKernelArg(ro, 0, sizeof both, &both) == CL_SUCCESS);
  CHECK(clSetKernelArg(wo, 0, sizeof writeOnly, &writeOnly) == CL_SUCCESS);
  CHECK(clSetKernelArg(wo, 0, sizeof both, &both) == CL_SUCCESS);
  CHECK(clSetKernelArg(wo, 0, sizeof readOnly, &readOnly) == CL_INVALID_ARG_VALUE);
  if (readWrite) {
    cl_kernel rw = makeKernel(p, "rw");
    CHECK(clSetKernelArg(rw, 0, sizeof readOnly, &readOnly) == CL_INVALID_ARG_VALUE);
    CHECK(clSetKernelArg(rw, 0, sizeof writeOnly, &writeOnly) == CL_INVALID_ARG_VALUE);
    CHECK(clSetKernelArg(rw, 0, sizeof both, &both) == CL_SUCCESS);
    clReleaseKernel(rw);
  }
  // The refused value did not replace the accepted one: the write lands in `both`.
  size_t one = 1;
  runKernel(fx.queue, wo, 1, &one);
  std::vector<unsigned char> got = readWholeImage(fx.queue, both, s, 16);
  int32_t first = 0;
  std::memcpy(&first, got.data(), sizeof first);
  CHECK(first == 7);
  clReleaseKernel(ro);
  clReleaseKernel(wo);
  for (cl_mem m : {readOnly, writeOnly, both}) clReleaseMemObject(m);
  clReleaseProgram(p);
}
