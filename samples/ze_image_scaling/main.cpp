// Level Zero image scaling, the Core Programming Guide's module and sampler examples put together:
// a picture in a 2D RGBA8 image, a sampler (linear filtering, clamp to edge, normalized
// coordinates, as the guide's sampler example), the guide's image_scaling kernel writing a resized
// image, the result copied out with zeCommandListAppendImageCopyToMemory and written as a PPM file.
// The host computes the same bilinear resize (OpenCL's rule for CLK_FILTER_LINEAR) and the sample
// checks every pixel against it.
// Usage: ze_image_scaling [in.ppm] [out.ppm] [width height]
//   without in.ppm it scales a picture it draws (a colour wheel on a checkerboard), 640 x 480 to
//   1000 x 750; out.ppm defaults to scaled.ppm. (Through the loader: ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1)
#include <level_zero/ze_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#define CHECK(call)                                                                  \
  do {                                                                               \
    ze_result_t r_ = (call);                                                         \
    if (r_ != ZE_RESULT_SUCCESS) {                                                   \
      std::fprintf(stderr, "%s failed: 0x%x\n", #call, static_cast<unsigned>(r_)); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

namespace {

struct Picture {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgba;  // 4 bytes a pixel, rows top to bottom
};

// A binary PPM (P6, maxval 255) into RGBA.
bool readPpm(const char* path, Picture& p) {
  std::ifstream in(path, std::ios::binary);
  std::string magic;
  unsigned maxval = 0;
  if (!(in >> magic >> p.width >> p.height >> maxval) || magic != "P6" || maxval != 255) return false;
  in.get();
  std::vector<uint8_t> rgb(size_t(p.width) * p.height * 3);
  if (!in.read(reinterpret_cast<char*>(rgb.data()), std::streamsize(rgb.size()))) return false;
  p.rgba.resize(size_t(p.width) * p.height * 4);
  for (size_t i = 0; i < size_t(p.width) * p.height; ++i) {
    for (int c = 0; c < 3; ++c) p.rgba[i * 4 + c] = rgb[i * 3 + c];
    p.rgba[i * 4 + 3] = 255;
  }
  return true;
}

bool writePpm(const char* path, const Picture& p) {
  std::ofstream out(path, std::ios::binary);
  out << "P6\n" << p.width << " " << p.height << "\n255\n";
  for (size_t i = 0; i < size_t(p.width) * p.height; ++i)
    out.write(reinterpret_cast<const char*>(&p.rgba[i * 4]), 3);
  return bool(out);
}

// A colour wheel over a checkerboard: hard edges and smooth gradients, both of which show a wrong
// filter at once.
Picture drawPicture(uint32_t w, uint32_t h) {
  Picture p{w, h, std::vector<uint8_t>(size_t(w) * h * 4)};
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      const float dx = (float(x) - w / 2.0f) / (h / 2.0f), dy = (float(y) - h / 2.0f) / (h / 2.0f);
      const float angle = std::atan2(dy, dx), radius = std::sqrt(dx * dx + dy * dy);
      const bool dark = ((x / 40) + (y / 40)) % 2;
      uint8_t* px = &p.rgba[(size_t(y) * w + x) * 4];
      for (int c = 0; c < 3; ++c) {
        float v = radius < 0.9f ? 0.5f + 0.5f * std::cos(angle - c * 2.0944f) * radius
                                : (dark ? 0.15f : 0.85f);
        px[c] = uint8_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f));
      }
      px[3] = 255;
    }
  return p;
}

// OpenCL's CLK_FILTER_LINEAR with CLK_ADDRESS_CLAMP_TO_EDGE and normalized coordinates (the
// OpenCL C specification, "Image Addressing and Filtering"), on unorm8 values, as floats.
void bilinear(const Picture& src, float u, float v, float out[4]) {
  const float x = u * src.width - 0.5f, y = v * src.height - 0.5f;
  const float fx = std::floor(x), fy = std::floor(y), a = x - fx, b = y - fy;
  auto at = [&](int xi, int yi, int c) {
    xi = std::clamp(xi, 0, int(src.width) - 1);
    yi = std::clamp(yi, 0, int(src.height) - 1);
    return src.rgba[(size_t(yi) * src.width + xi) * 4 + c] / 255.0f;
  };
  const int i0 = int(fx), j0 = int(fy);
  for (int c = 0; c < 4; ++c)
    out[c] = (1 - a) * (1 - b) * at(i0, j0, c) + a * (1 - b) * at(i0 + 1, j0, c) +
             (1 - a) * b * at(i0, j0 + 1, c) + a * b * at(i0 + 1, j0 + 1, c);
}

ze_image_desc_t rgba8Image(uint32_t w, uint32_t h, ze_image_flags_t flags) {
  ze_image_desc_t d{ZE_STRUCTURE_TYPE_IMAGE_DESC};
  d.flags = flags;
  d.type = ZE_IMAGE_TYPE_2D;
  d.format = {ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM,
              ZE_IMAGE_FORMAT_SWIZZLE_R,      ZE_IMAGE_FORMAT_SWIZZLE_G,
              ZE_IMAGE_FORMAT_SWIZZLE_B,      ZE_IMAGE_FORMAT_SWIZZLE_A};
  d.width = w;
  d.height = h;
  d.depth = 1;
  return d;
}

}  // namespace

int main(int argc, char** argv) {
  Picture src;
  if (argc > 1 && std::string(argv[1]) != "-") {
    if (!readPpm(argv[1], src)) {
      std::fprintf(stderr, "%s: not a binary PPM (P6, maxval 255)\n", argv[1]);
      return 1;
    }
  } else {
    src = drawPicture(640, 480);
  }
  const char* outPath = argc > 2 ? argv[2] : "scaled.ppm";
  const uint32_t W = argc > 4 ? uint32_t(std::atoi(argv[3])) : src.width * 25 / 16;
  const uint32_t H = argc > 4 ? uint32_t(std::atoi(argv[4])) : src.height * 25 / 16;

  CHECK(zeInit(0));
  uint32_t count = 1;
  ze_driver_handle_t driver;
  CHECK(zeDriverGet(&count, &driver));
  count = 1;
  ze_device_handle_t device;
  CHECK(zeDeviceGet(driver, &count, &device));
  ze_device_image_properties_t imageProps{ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES};
  CHECK(zeDeviceGetImageProperties(device, &imageProps));
  if (std::max({src.width, W}) > imageProps.maxImageDims2D ||
      std::max({src.height, H}) > imageProps.maxImageDims2D) {
    std::fprintf(stderr, "images are at most %u pixels wide\n", imageProps.maxImageDims2D);
    return 1;
  }
  ze_context_desc_t contextDesc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ze_context_handle_t context;
  CHECK(zeContextCreate(driver, &contextDesc, &context));

  // The module: the guide's image_scaling kernel, compiled to SPIR-V at build time.
  std::ifstream in(TESSERA_SAMPLE_SPV, std::ios::binary);
  std::vector<uint8_t> spirv{std::istreambuf_iterator<char>(in), {}};
  ze_module_desc_t moduleDesc{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV,
                              spirv.size(), spirv.data(), "", nullptr};
  ze_module_handle_t module;
  CHECK(zeModuleCreate(context, device, &moduleDesc, &module, nullptr));
  ze_kernel_desc_t kernelDesc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "image_scaling"};
  ze_kernel_handle_t kernel;
  CHECK(zeKernelCreate(module, &kernelDesc, &kernel));

  // The images, and the guide's sampler: "linear filtering and clamp out of bounds accesses to
  // edge", here with normalized coordinates.
  ze_image_desc_t srcDesc = rgba8Image(src.width, src.height, 0);
  ze_image_desc_t dstDesc = rgba8Image(W, H, ZE_IMAGE_FLAG_KERNEL_WRITE);
  ze_image_handle_t srcImage, dstImage;
  CHECK(zeImageCreate(context, device, &srcDesc, &srcImage));
  CHECK(zeImageCreate(context, device, &dstDesc, &dstImage));
  ze_sampler_desc_t samplerDesc{ZE_STRUCTURE_TYPE_SAMPLER_DESC, nullptr,
                                ZE_SAMPLER_ADDRESS_MODE_CLAMP, ZE_SAMPLER_FILTER_MODE_LINEAR, true};
  ze_sampler_handle_t sampler;
  CHECK(zeSamplerCreate(context, device, &samplerDesc, &sampler));

  CHECK(zeKernelSetArgumentValue(kernel, 0, sizeof srcImage, &srcImage));
  CHECK(zeKernelSetArgumentValue(kernel, 1, sizeof dstImage, &dstImage));
  CHECK(zeKernelSetArgumentValue(kernel, 2, sizeof sampler, &sampler));
  CHECK(zeKernelSetArgumentValue(kernel, 3, sizeof W, &W));
  CHECK(zeKernelSetArgumentValue(kernel, 4, sizeof H, &H));
  uint32_t gx, gy, gz;
  CHECK(zeKernelSuggestGroupSize(kernel, W, H, 1, &gx, &gy, &gz));
  CHECK(zeKernelSetGroupSize(kernel, gx, gy, gz));

  // Upload, scale and download on one immediate list, in order.
  ze_command_queue_desc_t queueDesc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0, 0,
                                    ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
                                    ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
  ze_command_list_handle_t list;
  CHECK(zeCommandListCreateImmediate(context, device, &queueDesc, &list));
  Picture out{W, H, std::vector<uint8_t>(size_t(W) * H * 4)};
  CHECK(zeCommandListAppendImageCopyFromMemory(list, srcImage, src.rgba.data(), nullptr, nullptr,
                                               0, nullptr));
  ze_group_count_t groups{W / gx, H / gy, 1};
  CHECK(zeCommandListAppendLaunchKernel(list, kernel, &groups, nullptr, 0, nullptr));
  CHECK(zeCommandListAppendImageCopyToMemory(list, out.rgba.data(), dstImage, nullptr, nullptr, 0,
                                             nullptr));

  // Every pixel against the host's bilinear resize: within one unit of 8 bits (the kernel rounds
  // its float result to the nearest unorm8 value; the spec allows LINEAR some ULPs of error).
  uint32_t wrong = 0;
  for (uint32_t y = 0; y < H; ++y)
    for (uint32_t x = 0; x < W; ++x) {
      float want[4];
      bilinear(src, (x + 0.5f) / W, (y + 0.5f) / H, want);
      for (int c = 0; c < 4; ++c) {
        const int got = out.rgba[(size_t(y) * W + x) * 4 + c];
        wrong += std::abs(got - int(std::lround(want[c] * 255.0f))) > 1;
      }
    }
  const bool written = writePpm(outPath, out);
  std::printf("image_scaling %ux%u -> %ux%u (group size %ux%u): %s; %s %s\n", src.width,
              src.height, W, H, gx, gy, wrong ? "WRONG" : "every pixel as the host computes it",
              written ? "written to" : "could not write", outPath);

  zeCommandListDestroy(list);
  zeSamplerDestroy(sampler);
  zeImageDestroy(dstImage);
  zeImageDestroy(srcImage);
  zeKernelDestroy(kernel);
  zeModuleDestroy(module);
  zeContextDestroy(context);
  return wrong || !written ? 1 : 0;
}
