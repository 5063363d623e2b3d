// Bilinear image scaling (issue 18): the guide's image_scaling kernel (read_imagef through a
// linear, clamp-to-edge, normalized sampler; write_imagef) on every OpenCL platform the ICD loader
// shows whose name matches --platform (all when absent), next to the same bilinear resize written
// on buffers of uchar4 (the filter computed by hand), so the cost of the image path shows against
// both PoCL and the kernel without images. Figures: nanoseconds per output pixel, median with
// [p10, p90] over the repetitions; then Tessera / PoCL and images / buffers ratios.
//
//   cl_image_bench [--platform NAME]... [--quick]
//
// To see Tessera and PoCL in one process, OCL_ICD_VENDORS names a folder holding both .icd files
// (scripts/bench.sh makes one). --quick: tiny sizes (the ctest smoke run; no timing is asserted).
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_stats.h"
#include "cl_check.h"
#include "cl_platforms.h"
#include "host_reference.h"

namespace {

using tessera::bench::platformName;

using tessera::bench::host::nowSec;
using tessera::bench::Stats;
using tessera::bench::stats;

const char* kSource = R"(
kernel void scale_image(read_only image2d_t src, write_only image2d_t dst, sampler_t s,
                        uint W, uint H) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float2 uv = (convert_float2(p) + 0.5f) / (float2)(W, H);
  write_imagef(dst, p, read_imagef(src, s, uv));
}

// The same resize on buffers: OpenCL's CLK_FILTER_LINEAR rule with clamp to edge, by hand.
float4 texel(global const uchar4* src, int sw, int sh, int x, int y) {
  x = clamp(x, 0, sw - 1);
  y = clamp(y, 0, sh - 1);
  return convert_float4(src[y * sw + x]) * (1.0f / 255.0f);
}
kernel void scale_buffer(global const uchar4* src, global uchar4* dst, int sw, int sh, uint W,
                         uint H) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float2 uv = (convert_float2(p) + 0.5f) / (float2)(W, H);
  float x = uv.x * sw - 0.5f, y = uv.y * sh - 0.5f;
  float fx = floor(x), fy = floor(y), a = x - fx, b = y - fy;
  int i = (int)fx, j = (int)fy;
  float4 c = (1 - a) * (1 - b) * texel(src, sw, sh, i, j) + a * (1 - b) * texel(src, sw, sh, i + 1, j) +
             (1 - a) * b * texel(src, sw, sh, i, j + 1) + a * b * texel(src, sw, sh, i + 1, j + 1);
  dst[p.y * W + p.x] = convert_uchar4_sat_rte(c * 255.0f);
}
)";


struct Result {
  std::string platform;
  Stats image{NAN, NAN, NAN, NAN}, buffer{NAN, NAN, NAN, NAN};  // ns per output pixel
};

// Times `launch` (one NDRange over W x H, then clFinish) `reps` times after a warm-up run.
template <typename Launch>
Stats timePerPixel(cl_command_queue q, Launch launch, size_t pixels, int reps) {
  launch();
  CL_CHECK(clFinish(q));
  std::vector<double> ns;
  for (int r = 0; r < reps; ++r) {
    const double t0 = nowSec();
    launch();
    CL_CHECK(clFinish(q));
    ns.push_back((nowSec() - t0) * 1e9 / double(pixels));
  }
  return stats(ns);
}

Result run(cl_platform_id platform, bool quick) {
  Result res;
  res.platform = platformName(platform);
  cl_device_id dev;
  CL_CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, nullptr));
  cl_bool images = CL_FALSE;
  CL_CHECK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, nullptr));
  cl_int err;
  cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  CL_CHECK(err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, nullptr, &err);
  CL_CHECK(err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &kSource, nullptr, &err);
  CL_CHECK(err);
  CL_CHECK(clBuildProgram(prog, 1, &dev, "", nullptr, nullptr));

  const cl_uint sw = quick ? 64 : 2048, sh = quick ? 48 : 1536;
  const cl_uint W = sw * 3 / 2, H = sh * 3 / 2;
  const size_t global[2] = {W, H};
  const int reps = quick ? 2 : 15;
  std::vector<uint8_t> pixels(size_t(sw) * sh * 4);
  for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = uint8_t((i * 2654435761u) >> 13);

  // Buffers.
  cl_mem bsrc = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, pixels.size(),
                               pixels.data(), &err);
  CL_CHECK(err);
  cl_mem bdst = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, size_t(W) * H * 4, nullptr, &err);
  CL_CHECK(err);
  cl_kernel kb = clCreateKernel(prog, "scale_buffer", &err);
  CL_CHECK(err);
  const cl_int isw = cl_int(sw), ish = cl_int(sh);
  CL_CHECK(clSetKernelArg(kb, 0, sizeof bsrc, &bsrc));
  CL_CHECK(clSetKernelArg(kb, 1, sizeof bdst, &bdst));
  CL_CHECK(clSetKernelArg(kb, 2, sizeof isw, &isw));
  CL_CHECK(clSetKernelArg(kb, 3, sizeof ish, &ish));
  CL_CHECK(clSetKernelArg(kb, 4, sizeof W, &W));
  CL_CHECK(clSetKernelArg(kb, 5, sizeof H, &H));
  res.buffer = timePerPixel(
      q, [&] { CL_CHECK(clEnqueueNDRangeKernel(q, kb, 2, nullptr, global, nullptr, 0, nullptr, nullptr)); },
      size_t(W) * H, reps);

  // Images, when the device has them.
  if (images) {
    const cl_image_format format{CL_RGBA, CL_UNORM_INT8};
    cl_image_desc sd{}, dd{};
    sd.image_type = dd.image_type = CL_MEM_OBJECT_IMAGE2D;
    sd.image_width = sw, sd.image_height = sh;
    dd.image_width = W, dd.image_height = H;
    cl_mem isrc = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &format, &sd,
                                pixels.data(), &err);
    CL_CHECK(err);
    cl_mem idst = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &format, &dd, nullptr, &err);
    CL_CHECK(err);
    const cl_sampler_properties sp[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_TRUE,
                                        CL_SAMPLER_ADDRESSING_MODE, CL_ADDRESS_CLAMP_TO_EDGE,
                                        CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
    cl_sampler smp = clCreateSamplerWithProperties(ctx, sp, &err);
    CL_CHECK(err);
    cl_kernel ki = clCreateKernel(prog, "scale_image", &err);
    CL_CHECK(err);
    CL_CHECK(clSetKernelArg(ki, 0, sizeof isrc, &isrc));
    CL_CHECK(clSetKernelArg(ki, 1, sizeof idst, &idst));
    CL_CHECK(clSetKernelArg(ki, 2, sizeof smp, &smp));
    CL_CHECK(clSetKernelArg(ki, 3, sizeof W, &W));
    CL_CHECK(clSetKernelArg(ki, 4, sizeof H, &H));
    res.image = timePerPixel(
        q, [&] { CL_CHECK(clEnqueueNDRangeKernel(q, ki, 2, nullptr, global, nullptr, 0, nullptr, nullptr)); },
        size_t(W) * H, reps);
    clReleaseKernel(ki);
    clReleaseSampler(smp);
    clReleaseMemObject(idst);
    clReleaseMemObject(isrc);
  }
  clReleaseKernel(kb);
  clReleaseMemObject(bdst);
  clReleaseMemObject(bsrc);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return res;
}

void print(const char* what, const Stats& s) {
  if (std::isnan(s.median))
    std::printf("  %-34s n/a (no image support)\n", what);
  else
    std::printf("  %-34s median %8.2f ns/pixel  [p10 %.2f, p90 %.2f]\n", what, s.median, s.p10,
                s.p90);
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  std::vector<std::string> filters;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--quick") {
      quick = true;
    } else if (a == "--platform" && i + 1 < argc) {
      filters.push_back(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: %s [--platform NAME]... [--quick]\n", argv[0]);
      return 2;
    }
  }
  cl_uint np = 0;
  clGetPlatformIDs(0, nullptr, &np);
  std::vector<cl_platform_id> platforms(np);
  if (np) CL_CHECK(clGetPlatformIDs(np, platforms.data(), nullptr));
  std::printf("Bilinear scaling, RGBA8 %s (%u hardware threads)\n",
              quick ? "64x48 -> 96x72 (--quick)" : "2048x1536 -> 3072x2304",
              tessera::bench::host::threads());
  std::vector<Result> results;
  for (cl_platform_id p : platforms) {
    std::string name = platformName(p);
    bool wanted = filters.empty();
    for (const auto& f : filters) wanted |= name.find(f) != std::string::npos;
    if (!wanted) continue;
    results.push_back(run(p, quick));
    std::printf("%s\n", results.back().platform.c_str());
    print("image (read_imagef, linear sampler)", results.back().image);
    print("buffer (bilinear by hand)", results.back().buffer);
    if (!std::isnan(results.back().image.median))
      std::printf("  images / buffers: %.2fx the cost\n",
                  results.back().image.median / results.back().buffer.median);
  }
  const Result* t = nullptr;
  const Result* o = nullptr;
  for (const Result& r : results) (r.platform.find("Tessera") != std::string::npos ? t : o) = &r;
  if (t && o && !std::isnan(t->image.median) && !std::isnan(o->image.median))
    std::printf("Tessera vs %s, images: %.2fx the throughput; buffers: %.2fx\n",
                o->platform.c_str(), o->image.median / t->image.median,
                o->buffer.median / t->buffer.median);
  return results.empty() ? 1 : 0;
}
