// OpenCL C kernels on images through ocl-icd: read_imagef through samplers of every mode (given as
// arguments and written in the kernel) against the OpenCL spec's addressing and filtering rules
// computed here, reads without samplers of each image type, write_imagef / i / ui converted as
// the spec says, image queries, read_write images, a Gaussian blur and a bilinear scaling, and a
// program of image and buffer kernels.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "cl_program_support.h"
#include "image_test_support.h"

using namespace tessera::cltest;

namespace {

struct Float4 {
  float v[4];
};

template <typename T>
cl_mem bufferOf(ClFixture& fx, std::vector<T>& data) {
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(fx.ctx, CL_MEM_COPY_HOST_PTR, data.size() * sizeof(T), data.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  return m;
}

template <typename T>
void readBuffer(ClFixture& fx, cl_mem m, std::vector<T>& out) {
  REQUIRE(clEnqueueReadBuffer(fx.queue, m, CL_TRUE, 0, out.size() * sizeof(T), out.data(), 0,
                              nullptr, nullptr) == CL_SUCCESS);
}

// --- The spec's sampling of a 2D CL_RGBA / CL_FLOAT image ("Image Addressing and Filtering") -----

struct Texels {
  int w, h;
  std::vector<Float4> t;
  Float4 at(int x, int y, cl_addressing_mode mode) const {
    // CL_ADDRESS_CLAMP: coordinates outside the image read the border colour, (0, 0, 0, 0) for a
    // format with alpha.
    if (mode == CL_ADDRESS_CLAMP && (x < 0 || x >= w || y < 0 || y >= h)) return {{0, 0, 0, 0}};
    return t[size_t(y) * w + x];
  }
};

float frac(float x) { return x - std::floor(x); }

// Nearest texel index along an axis of `n` texels, or for LINEAR the pair (i0, i1) and weight.
struct Axis {
  int i0, i1;
  float a;
};

Axis address(float coord, int n, bool normalized, cl_addressing_mode mode, bool linear) {
  const float shift = linear ? 0.5f : 0.0f;
  Axis r{};
  if (mode == CL_ADDRESS_REPEAT) {
    // "u = (s - floor(s)) * w_t; i = (int)floor(u); if (i > w_t - 1) i = i - w_t" (NEAREST);
    // LINEAR: "i0 = (int)floor(u - 0.5); i1 = i0 + 1; if (i0 < 0) i0 = w_t + i0;
    // if (i1 > w_t - 1) i1 = i1 - w_t".
    float u = (coord - std::floor(coord)) * float(n);
    r.i0 = int(std::floor(u - shift));
    r.i1 = r.i0 + 1;
    r.a = frac(u - shift);
    if (linear) {
      if (r.i0 < 0) r.i0 += n;
      if (r.i1 > n - 1) r.i1 -= n;
    } else if (r.i0 > n - 1) {
      r.i0 -= n;
    }
    return r;
  }
  if (mode == CL_ADDRESS_MIRRORED_REPEAT) {
    // "s' = 2.0f * rint(0.5f * s); s' = fabs(s - s'); u = s' * w_t"; NEAREST "i = (int)floor(u);
    // i = min(i, w_t - 1)", LINEAR "i0 = max(i0, 0); i1 = min(i1, w_t - 1)".
    float m = 2.0f * std::rint(0.5f * coord);
    float u = std::fabs(coord - m) * float(n);
    r.i0 = int(std::floor(u - shift));
    r.i1 = r.i0 + 1;
    r.a = frac(u - shift);
    r.i0 = linear ? std::max(r.i0, 0) : std::min(r.i0, n - 1);
    r.i1 = std::min(r.i1, n - 1);
    return r;
  }
  // CLAMP_TO_EDGE, CLAMP, NONE: "u = s * w_t" for normalized coordinates, else the coordinate.
  float u = normalized ? coord * float(n) : coord;
  r.i0 = int(std::floor(u - shift));
  r.i1 = r.i0 + 1;
  r.a = frac(u - shift);
  auto clampTo = [&](int i) {
    if (mode == CL_ADDRESS_CLAMP_TO_EDGE) return std::clamp(i, 0, n - 1);
    if (mode == CL_ADDRESS_CLAMP) return std::clamp(i, -1, n);
    return i;
  };
  r.i0 = clampTo(r.i0);
  r.i1 = clampTo(r.i1);
  return r;
}

Float4 sample(const Texels& img, float x, float y, bool normalized, cl_addressing_mode mode,
              cl_filter_mode filter) {
  const bool linear = filter == CL_FILTER_LINEAR;
  Axis ax = address(x, img.w, normalized, mode, linear), ay = address(y, img.h, normalized, mode, linear);
  if (!linear) return img.at(ax.i0, ay.i0, mode);
  // "T = (1 - a) * (1 - b) * T_i0j0 + a * (1 - b) * T_i1j0 + (1 - a) * b * T_i0j1 + a * b * T_i1j1"
  Float4 r{};
  Float4 t00 = img.at(ax.i0, ay.i0, mode), t10 = img.at(ax.i1, ay.i0, mode),
         t01 = img.at(ax.i0, ay.i1, mode), t11 = img.at(ax.i1, ay.i1, mode);
  for (int c = 0; c < 4; ++c)
    r.v[c] = (1 - ax.a) * (1 - ay.a) * t00.v[c] + ax.a * (1 - ay.a) * t10.v[c] +
             (1 - ax.a) * ay.a * t01.v[c] + ax.a * ay.a * t11.v[c];
  return r;
}

const char* kSample = R"(
__kernel void sample(read_only image2d_t img, sampler_t s, __global const float2* coords,
                     __global float4* out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(img, s, coords[i]);
}
__kernel void inline_sampler(read_only image2d_t img, __global const float2* coords,
                             __global float4* out) {
  const sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_LINEAR;
  size_t i = get_global_id(0);
  out[i] = read_imagef(img, s, coords[i]);
}
)";

}  // namespace

TEST_CASE("Given every sampler mode, when a kernel reads a float image through it, then each "
          "value is the spec's addressing and filtering of the texels",
          "[cl][image][kernel][sampler]") {
  ClFixture fx;
  TESSERA_REQUIRE_IMAGES(fx.dev);
  Texels ref{5, 4, {}};
  for (int y = 0; y < ref.h; ++y)
    for (int x = 0; x < ref.w; ++x)
      ref.t.push_back({{float(x + 10 * y), x * 0.5f, y * 0.25f, 1.0f + x + y}});
  const cl_image_format f{CL_RGBA, CL_FLOAT};
  cl_int err = CL_SUCCESS;
  cl_image_desc d = describe({CL_MEM_OBJECT_IMAGE2D, 5, 4, 0, 0});
  cl_mem img = clCreateImage(fx.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &f, &d, ref.t.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  cl_program p = builtProgram(fx, kSample);
  cl_kernel k = makeKernel(p, "sample");
  // Coordinates whose images on the texel grid stay away from texel edges (NEAREST is then
  // unambiguous), in and out of the image.
  const float normal[] = {-0.62f, -0.13f, 0.07f, 0.13f, 0.31f, 0.46f, 0.77f, 0.99f, 1.23f, 1.66f};
  const float unnormal[] = {-1.3f, -0.2f, 0.35f, 1.2f, 2.7f, 3.9f, 4.6f, 5.8f};
  for (cl_bool normalized : {CL_FALSE, CL_TRUE})
    for (cl_addressing_mode mode : {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
                                    CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT})
      for (cl_filter_mode filter : {CL_FILTER_NEAREST, CL_FILTER_LINEAR}) {
        // "CL_ADDRESS_REPEAT ... can only be used with normalized coordinates" (and mirrored).
        if (!normalized && (mode == CL_ADDRESS_REPEAT || mode == CL_ADDRESS_MIRRORED_REPEAT)) continue;
        INFO("normalized " << normalized << " mode " << mode << " filter " << filter);
        std::vector<float> coords;
        for (float x : normalized ? std::vector<float>(std::begin(normal), std::end(normal))
                                  : std::vector<float>(std::begin(unnormal), std::end(unnormal)))
          for (float y : normalized ? std::vector<float>(std::begin(normal), std::end(normal))
                                    : std::vector<float>(std::begin(unnormal), std::end(unnormal))) {
            // CL_ADDRESS_NONE: "Behavior is undefined for out-of-range image coordinates" (and
            // LINEAR reaches half a texel further).
            float lim = filter == CL_FILTER_LINEAR ? 0.5f : 0.0f;
            float ux = normalized ? x * 5 : x, uy = normalized ? y * 4 : y;
            if (mode == CL_ADDRESS_NONE && (ux < lim || uy < lim || ux > 5 - lim || uy > 4 - lim))
              continue;
            coords.push_back(x);
            coords.push_back(y);
          }
        const size_t n = coords.size() / 2;
        std::vector<Float4> out(n);
        cl_mem cb = bufferOf(fx, coords), ob = bufferOf(fx, out);
        cl_sampler s = clCreateSampler(fx.ctx, normalized, mode, filter, &err);
        REQUIRE(err == CL_SUCCESS);
        setKernelArgs(k, {{sizeof img, &img}, {sizeof s, &s}, {sizeof cb, &cb}, {sizeof ob, &ob}});
        runKernel(fx.queue, k, 1, &n);
        readBuffer(fx, ob, out);
        for (size_t i = 0; i < n; ++i) {
          Float4 want = sample(ref, coords[2 * i], coords[2 * i + 1], normalized, mode, filter);
          INFO("coordinate (" << coords[2 * i] << ", " << coords[2 * i + 1] << ")");
          for (int c = 0; c < 4; ++c) {
            if (filter == CL_FILTER_NEAREST)
              CHECK(out[i].v[c] == want.v[c]);
            else
              CHECK(std::fabs(out[i].v[c] - want.v[c]) <= 1e-3f * std::max(1.0f, std::fabs(want.v[c])));
          }
        }
        clReleaseSampler(s);
        clReleaseMemObject(cb);
        clReleaseMemObject(ob);
      }
  // A sampler written in the kernel ("inline" sampler): the same rules.
  cl_kernel inl = makeKernel(p, "inline_sampler");
  std::vector<float> coords;
  for (float x : normal)
    for (float y : normal) coords.insert(coords.end(), {x, y});
  const size_t n = coords.size() / 2;
  std::vector<Float4> out(n);
  cl_mem cb = bufferOf(fx, coords), ob = bufferOf(fx, out);
  setKernelArgs(inl, {{sizeof img, &img}, {sizeof cb, &cb}, {sizeof ob, &ob}});
  runKernel(fx.queue, inl, 1, &n);
  readBuffer(fx, ob, out);
  for (size_t i = 0; i < n; ++i) {
    Float4 want = sample(ref, coords[2 * i], coords[2 * i + 1], true, CL_ADDRESS_MIRRORED_REPEAT,
                         CL_FILTER_LINEAR);
    for (int c = 0; c < 4; ++c)
      CHECK(std::fabs(out[i].v[c] - want.v[c]) <= 1e-3f * std::max(1.0f, std::fabs(want.v[c])));
  }
  clReleaseMemObject(cb);
  clReleaseMemObject(ob);
  clReleaseKernel(inl);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseMemObject(img);
}
