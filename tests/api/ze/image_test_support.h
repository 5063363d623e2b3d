// What the image tests share: descriptors, the supported formats (core/image/format.h's table, as
// the API must accept them), and a fixture that destroys the images and samplers it made.
#pragma once

#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "ze_exec_support.h"

namespace tessera::test {

inline ze_image_format_t imageFormat(ze_image_format_layout_t layout, ze_image_format_type_t type,
                                     ze_image_format_swizzle_t x = ZE_IMAGE_FORMAT_SWIZZLE_R,
                                     ze_image_format_swizzle_t y = ZE_IMAGE_FORMAT_SWIZZLE_G,
                                     ze_image_format_swizzle_t z = ZE_IMAGE_FORMAT_SWIZZLE_B,
                                     ze_image_format_swizzle_t w = ZE_IMAGE_FORMAT_SWIZZLE_A) {
  return {layout, type, x, y, z, w};
}

inline ze_image_desc_t imageDesc(ze_image_type_t type, ze_image_format_t format, uint64_t width,
                                 uint32_t height = 1, uint32_t depth = 1,
                                 uint32_t arraylevels = 1) {
  return {
      ZE_STRUCTURE_TYPE_IMAGE_DESC, nullptr, 0, type, format, width, height, depth, arraylevels, 0};
}

// A supported layout x type and its pixel size.
struct SupportedFormat {
  ze_image_format_layout_t layout;
  ze_image_format_type_t type;
  uint32_t pixelBytes;
};

inline std::vector<SupportedFormat> supportedFormats() {
  std::vector<SupportedFormat> out;
  const ze_image_format_type_t allButFloat[] = {
      ZE_IMAGE_FORMAT_TYPE_UINT, ZE_IMAGE_FORMAT_TYPE_SINT, ZE_IMAGE_FORMAT_TYPE_UNORM,
      ZE_IMAGE_FORMAT_TYPE_SNORM};
  for (auto [layout, bytes] : {std::pair{ZE_IMAGE_FORMAT_LAYOUT_8, 1u},
                               {ZE_IMAGE_FORMAT_LAYOUT_8_8, 2u},
                               {ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, 4u}})
    for (auto t : allButFloat) out.push_back({layout, t, bytes});
  for (auto [layout, bytes] : {std::pair{ZE_IMAGE_FORMAT_LAYOUT_16, 2u},
                               {ZE_IMAGE_FORMAT_LAYOUT_16_16, 4u},
                               {ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16, 8u}}) {
    for (auto t : allButFloat) out.push_back({layout, t, bytes});
    out.push_back({layout, ZE_IMAGE_FORMAT_TYPE_FLOAT, bytes});
  }
  for (auto [layout, bytes] : {std::pair{ZE_IMAGE_FORMAT_LAYOUT_32, 4u},
                               {ZE_IMAGE_FORMAT_LAYOUT_32_32, 8u},
                               {ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32, 16u}})
    for (auto t :
         {ZE_IMAGE_FORMAT_TYPE_UINT, ZE_IMAGE_FORMAT_TYPE_SINT, ZE_IMAGE_FORMAT_TYPE_FLOAT})
      out.push_back({layout, t, bytes});
  out.push_back({ZE_IMAGE_FORMAT_LAYOUT_5_6_5, ZE_IMAGE_FORMAT_TYPE_UNORM, 2});
  out.push_back({ZE_IMAGE_FORMAT_LAYOUT_5_5_5_1, ZE_IMAGE_FORMAT_TYPE_UNORM, 2});
  out.push_back({ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2, ZE_IMAGE_FORMAT_TYPE_UNORM, 4});
  return out;
}

class ImageFixture : public ExecFixture {
 public:
  ~ImageFixture() {
    for (auto i : images_) zeImageDestroy(i);
    for (auto s : samplers_) zeSamplerDestroy(s);
  }

  ze_image_handle_t image(const ze_image_desc_t& d) {
    ze_image_handle_t h = nullptr;
    REQUIRE(zeImageCreate(context, device, &d, &h) == ZE_RESULT_SUCCESS);
    images_.push_back(h);
    return h;
  }
  // A 2D RGBA8 image of w x h.
  ze_image_handle_t rgba8(uint32_t w, uint32_t h) {
    return image(imageDesc(ZE_IMAGE_TYPE_2D,
                           imageFormat(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM),
                           w, h));
  }
  ze_sampler_handle_t sampler(const ze_sampler_desc_t& d) {
    ze_sampler_handle_t h = nullptr;
    REQUIRE(zeSamplerCreate(context, device, &d, &h) == ZE_RESULT_SUCCESS);
    samplers_.push_back(h);
    return h;
  }
  // Forget an image the test destroyed itself.
  void forgetImage(ze_image_handle_t h) { std::erase(images_, h); }

 private:
  std::vector<ze_image_handle_t> images_;
  std::vector<ze_sampler_handle_t> samplers_;
};

}  // namespace tessera::test
