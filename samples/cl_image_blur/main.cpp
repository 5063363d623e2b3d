// OpenCL images through the ICD loader: a Gaussian blur. The picture goes into a CL_RGBA /
// CL_UNORM_INT8 image (clCreateImage with CL_MEM_COPY_HOST_PTR), a kernel reads each pixel's 5 x 5
// neighbourhood through an inline sampler (unnormalized coordinates, clamped to the edge, nearest)
// and writes the weighted sum to a second image; clEnqueueReadImage brings it back, and the host
// computes the same blur to check every pixel. With an argument it writes the result as a PPM.
// Usage: cl_image_blur [out.ppm]   (OCL_ICD_VENDORS naming Tessera's .icd)
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

#define CHECK(call)                                                   \
  do {                                                                \
    cl_int e_ = (call);                                               \
    if (e_ != CL_SUCCESS) {                                           \
      std::fprintf(stderr, "%s failed: %d\n", #call, static_cast<int>(e_)); \
      std::exit(1);                                                   \
    }                                                                 \
  } while (0)

namespace {

const char* kSource = R"(
constant float weights[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};  // (1 4 6 4 1) / 16
kernel void blur(read_only image2d_t src, write_only image2d_t dst) {
  const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float4 sum = 0.0f;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx)
      sum += weights[dx + 2] * weights[dy + 2] * read_imagef(src, s, p + (int2)(dx, dy));
  write_imagef(dst, p, sum);
}
)";

constexpr float kWeights[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};

}  // namespace

int main(int argc, char** argv) {
  const size_t W = 500, H = 300;
  std::vector<uint8_t> src(W * H * 4);
  for (size_t y = 0; y < H; ++y)
    for (size_t x = 0; x < W; ++x) {
      uint8_t* px = &src[(y * W + x) * 4];
      const bool square = ((x / 25) + (y / 25)) % 2;  // hard edges the blur must soften
      px[0] = square ? 230 : 20;
      px[1] = uint8_t(x * 255 / (W - 1));
      px[2] = uint8_t(y * 255 / (H - 1));
      px[3] = 255;
    }

  cl_platform_id platform;
  CHECK(clGetPlatformIDs(1, &platform, nullptr));
  cl_device_id device;
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr));
  cl_bool images = CL_FALSE;
  CHECK(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, nullptr));
  if (!images) {
    std::printf("the device has no image support: WRONG\n");
    return 1;
  }
  cl_int err;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  CHECK(err);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
  CHECK(err);
  cl_program program = clCreateProgramWithSource(context, 1, &kSource, nullptr, &err);
  CHECK(err);
  CHECK(clBuildProgram(program, 1, &device, "", nullptr, nullptr));
  cl_kernel kernel = clCreateKernel(program, "blur", &err);
  CHECK(err);

  const cl_image_format format{CL_RGBA, CL_UNORM_INT8};
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = W;
  desc.image_height = H;
  cl_mem in = clCreateImage(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &format, &desc,
                            src.data(), &err);
  CHECK(err);
  cl_mem out = clCreateImage(context, CL_MEM_WRITE_ONLY, &format, &desc, nullptr, &err);
  CHECK(err);
  CHECK(clSetKernelArg(kernel, 0, sizeof in, &in));
  CHECK(clSetKernelArg(kernel, 1, sizeof out, &out));
  const size_t global[2] = {W, H};
  CHECK(clEnqueueNDRangeKernel(queue, kernel, 2, nullptr, global, nullptr, 0, nullptr, nullptr));
  std::vector<uint8_t> result(W * H * 4);
  const size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
  CHECK(clEnqueueReadImage(queue, out, CL_TRUE, origin, region, 0, 0, result.data(), 0, nullptr,
                           nullptr));

  // The host's blur, clamped to the edge like the sampler; within one unit of 8 bits.
  size_t wrong = 0;
  for (size_t y = 0; y < H; ++y)
    for (size_t x = 0; x < W; ++x)
      for (int c = 0; c < 4; ++c) {
        float sum = 0;
        for (int dy = -2; dy <= 2; ++dy)
          for (int dx = -2; dx <= 2; ++dx) {
            const size_t sx = size_t(std::clamp<long>(long(x) + dx, 0, long(W) - 1));
            const size_t sy = size_t(std::clamp<long>(long(y) + dy, 0, long(H) - 1));
            sum += kWeights[dx + 2] * kWeights[dy + 2] * (src[(sy * W + sx) * 4 + c] / 255.0f);
          }
        wrong += std::abs(int(result[(y * W + x) * 4 + c]) - int(std::lround(sum * 255.0f))) > 1;
      }
  if (argc > 1) {
    std::ofstream ppm(argv[1], std::ios::binary);
    ppm << "P6\n" << W << " " << H << "\n255\n";
    for (size_t i = 0; i < W * H; ++i) ppm.write(reinterpret_cast<char*>(&result[i * 4]), 3);
  }
  std::printf("Gaussian blur of a %zux%zu RGBA8 image: %s\n", W, H,
              wrong ? "WRONG" : "every pixel as the host computes it");

  clReleaseMemObject(out);
  clReleaseMemObject(in);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return wrong ? 1 : 0;
}
