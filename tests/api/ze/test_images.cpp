// Images and samplers through the API: every supported format in every image type, the image
// extensions (views, memory properties, allocation ids, ZE_tessera_image_memory), residency,
// samplers of every mode, and the error codes of each call. Copies: test_image_copies.cpp.
#include <sys/mman.h>

#include <cstring>
#include <string>
#include <vector>

#include "image_test_support.h"
#include "tessera/ze_tessera.h"

using namespace tessera::test;

namespace {

const ze_image_type_t kAllTypes[] = {ZE_IMAGE_TYPE_1D, ZE_IMAGE_TYPE_1DARRAY,
                                     ZE_IMAGE_TYPE_2D, ZE_IMAGE_TYPE_2DARRAY,
                                     ZE_IMAGE_TYPE_3D, ZE_IMAGE_TYPE_BUFFER};

// A small image of `type`: 5 wide, then 3 high (or layers of a 1D array), then 2 deep (or layers
// of a 2D array); rows and slices as the kernel indexes them.
ze_image_desc_t smallDesc(ze_image_type_t type, ze_image_format_t f) {
  return imageDesc(type, f, 5, 3, 2, type == ZE_IMAGE_TYPE_1DARRAY ? 3 : 2);
}
uint64_t smallRows(ze_image_type_t t) {
  return t == ZE_IMAGE_TYPE_1D || t == ZE_IMAGE_TYPE_BUFFER ? 1 : 3;
}
uint64_t smallSlices(ze_image_type_t t) {
  return t == ZE_IMAGE_TYPE_3D || t == ZE_IMAGE_TYPE_2DARRAY ? 2 : 1;
}

ze_image_memory_properties_exp_t memoryProperties(ze_image_handle_t image) {
  ze_image_memory_properties_exp_t p{ZE_STRUCTURE_TYPE_IMAGE_MEMORY_EXP_PROPERTIES};
  REQUIRE(zeImageGetMemoryPropertiesExp(image, &p) == ZE_RESULT_SUCCESS);
  return p;
}

}  // namespace

TEST_CASE("Given the driver, then the image extensions are listed", "[image]") {
  ze_driver_handle_t driver = initDriver();
  CHECK(extensionVersion(driver, ZE_IMAGE_VIEW_EXP_NAME) == ZE_IMAGE_VIEW_EXP_VERSION_1_0);
  CHECK(extensionVersion(driver, ZE_IMAGE_MEMORY_PROPERTIES_EXP_NAME) ==
        ZE_IMAGE_MEMORY_PROPERTIES_EXP_VERSION_1_0);
  CHECK(extensionVersion(driver, ZE_IMAGE_COPY_EXT_NAME) == ZE_IMAGE_COPY_EXT_VERSION_1_0);
  CHECK(extensionVersion(driver, ZE_IMAGE_QUERY_ALLOC_PROPERTIES_EXT_NAME) ==
        ZE_IMAGE_QUERY_ALLOC_PROPERTIES_EXT_VERSION_1_0);
  CHECK(extensionVersion(driver, ZE_TESSERA_IMAGE_MEMORY_EXT_NAME) ==
        ZE_TESSERA_IMAGE_MEMORY_EXT_VERSION);
  for (const char* name :
       {"zeTesseraImageGetMemory", "zeImageViewCreateExp", "zeImageGetMemoryPropertiesExp",
        "zeImageGetAllocPropertiesExt", "zeCommandListAppendImageCopyToMemoryExt",
        "zeCommandListAppendImageCopyFromMemoryExt"}) {
    INFO(name);
    CHECK(extensionFunction<void*>(driver, name) != nullptr);
  }
}

TEST_CASE(
    "Given every supported format and image type, then images are made with tight pitches "
    "and the format's filtering",
    "[image]") {
  ImageFixture fx;
  for (const SupportedFormat& f : supportedFormats())
    for (ze_image_type_t type : kAllTypes) {
      INFO("layout " << f.layout << " type " << f.type << " image type " << type);
      ze_image_desc_t d = smallDesc(type, imageFormat(f.layout, f.type));
      ze_image_properties_t props{ZE_STRUCTURE_TYPE_IMAGE_PROPERTIES};
      REQUIRE(zeImageGetProperties(fx.device, &d, &props) == ZE_RESULT_SUCCESS);
      bool integer = f.type == ZE_IMAGE_FORMAT_TYPE_UINT || f.type == ZE_IMAGE_FORMAT_TYPE_SINT;
      CHECK(props.samplerFilterFlags == (ZE_IMAGE_SAMPLER_FILTER_FLAG_POINT |
                                         (integer ? 0 : ZE_IMAGE_SAMPLER_FILTER_FLAG_LINEAR)));
      ze_image_handle_t image = fx.image(d);
      auto m = memoryProperties(image);
      CHECK(m.rowPitch == 5 * f.pixelBytes);
      CHECK(m.slicePitch == m.rowPitch * smallRows(type));
      CHECK(m.size == m.slicePitch * smallSlices(type));
      CHECK(zeImageDestroy(image) == ZE_RESULT_SUCCESS);
      fx.forgetImage(image);
    }
}

TEST_CASE("Given image descriptors Tessera cannot serve, then each is refused with its code",
          "[image]") {
  ImageFixture fx;
  auto rgba = imageFormat(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM);
  auto refused = [&](ze_image_desc_t d, ze_result_t expected) {
    ze_image_handle_t h = nullptr;
    CHECK(zeImageCreate(fx.context, fx.device, &d, &h) == expected);
    CHECK(h == nullptr);
    ze_image_properties_t props{ZE_STRUCTURE_TYPE_IMAGE_PROPERTIES};
    // zeImageGetProperties checks flags, type and format, not sizes.
    ze_result_t r = zeImageGetProperties(fx.device, &d, &props);
    if (expected == ZE_RESULT_ERROR_UNSUPPORTED_SIZE)
      CHECK(r == ZE_RESULT_SUCCESS);
    else
      CHECK(r == expected);
  };
  SECTION("unsupported formats") {
    for (auto [layout, type] : {std::pair{ZE_IMAGE_FORMAT_LAYOUT_NV12, ZE_IMAGE_FORMAT_TYPE_UNORM},
                                {ZE_IMAGE_FORMAT_LAYOUT_Y8, ZE_IMAGE_FORMAT_TYPE_UINT},
                                {ZE_IMAGE_FORMAT_LAYOUT_11_11_10, ZE_IMAGE_FORMAT_TYPE_FLOAT},
                                {ZE_IMAGE_FORMAT_LAYOUT_4_4_4_4, ZE_IMAGE_FORMAT_TYPE_UNORM},
                                {ZE_IMAGE_FORMAT_LAYOUT_32, ZE_IMAGE_FORMAT_TYPE_UNORM},
                                {ZE_IMAGE_FORMAT_LAYOUT_8, ZE_IMAGE_FORMAT_TYPE_FLOAT},
                                {ZE_IMAGE_FORMAT_LAYOUT_5_6_5, ZE_IMAGE_FORMAT_TYPE_UINT}}) {
      INFO("layout " << layout << " type " << type);
      refused(imageDesc(ZE_IMAGE_TYPE_2D, imageFormat(layout, type), 4, 4),
              ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
    }
  }
  SECTION("enumerations past their last value") {
    auto d = imageDesc(ZE_IMAGE_TYPE_2D, rgba, 4, 4);
    d.flags = 0x4;
    refused(d, ZE_RESULT_ERROR_INVALID_ENUMERATION);
    d = imageDesc(ze_image_type_t(ZE_IMAGE_TYPE_BUFFER + 1), rgba, 4, 4);
    refused(d, ZE_RESULT_ERROR_INVALID_ENUMERATION);
    d = imageDesc(ZE_IMAGE_TYPE_2D, rgba, 4, 4);
    d.format.type = ze_image_format_type_t(ZE_IMAGE_FORMAT_TYPE_FLOAT + 1);
    refused(d, ZE_RESULT_ERROR_INVALID_ENUMERATION);
    d.format = rgba;
    d.format.w = ze_image_format_swizzle_t(ZE_IMAGE_FORMAT_SWIZZLE_X + 1);
    refused(d, ZE_RESULT_ERROR_INVALID_ENUMERATION);
  }
  SECTION("sizes of 0 or past the device's limits") {
    ze_device_image_properties_t lim{ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES};
    REQUIRE(zeDeviceGetImageProperties(fx.device, &lim) == ZE_RESULT_SUCCESS);
    const auto big = ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
    refused(imageDesc(ZE_IMAGE_TYPE_2D, rgba, 0, 4), big);
    refused(imageDesc(ZE_IMAGE_TYPE_2D, rgba, 4, 0), big);
    refused(imageDesc(ZE_IMAGE_TYPE_3D, rgba, 4, 4, 0), big);
    refused(imageDesc(ZE_IMAGE_TYPE_1DARRAY, rgba, 4, 1, 1, 0), big);
    refused(imageDesc(ZE_IMAGE_TYPE_1D, rgba, lim.maxImageDims1D + 1ull), big);
    refused(imageDesc(ZE_IMAGE_TYPE_2D, rgba, 4, lim.maxImageDims2D + 1), big);
    refused(imageDesc(ZE_IMAGE_TYPE_3D, rgba, 4, 4, lim.maxImageDims3D + 1), big);
    refused(imageDesc(ZE_IMAGE_TYPE_2DARRAY, rgba, 4, 4, 1, lim.maxImageArraySlices + 1), big);
    refused(imageDesc(ZE_IMAGE_TYPE_BUFFER, rgba, lim.maxImageBufferSize + 1), big);
    refused(imageDesc(ZE_IMAGE_TYPE_2D, rgba, uint64_t{1} << 40, 4), big);
  }
  SECTION("mipmaps") {
    auto d = imageDesc(ZE_IMAGE_TYPE_2D, rgba, 4, 4);
    d.miplevels = 2;
    refused(d, ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
  }
  SECTION("external memory") {
    ze_external_memory_import_fd_t import{ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD, nullptr,
                                          ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD, 0};
    auto d = imageDesc(ZE_IMAGE_TYPE_2D, rgba, 4, 4);
    d.pNext = &import;
    ze_image_handle_t h = nullptr;
    CHECK(zeImageCreate(fx.context, fx.device, &d, &h) == ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
  }
}

TEST_CASE("Given null, destroyed or mistyped arguments, then the image calls refuse them",
          "[image]") {
  ImageFixture fx;
  auto d = imageDesc(ZE_IMAGE_TYPE_2D,
                     imageFormat(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM), 4, 4);
  ze_image_handle_t h = nullptr;
  ze_image_properties_t props{ZE_STRUCTURE_TYPE_IMAGE_PROPERTIES};
  auto wrong = d;
  wrong.stype = ZE_STRUCTURE_TYPE_SAMPLER_DESC;
  CHECK(zeImageCreate(fx.context, fx.device, &wrong, &h) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeImageGetProperties(fx.device, &wrong, &props) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  // Output structures of another type are filled as the parameter's (their stype is not read:
  // docs/api-coverage.md, "Leniency"); the descriptor above is refused.
  ze_image_properties_t wrongProps{ZE_STRUCTURE_TYPE_IMAGE_DESC};
  CHECK(zeImageGetProperties(fx.device, &d, &wrongProps) == ZE_RESULT_SUCCESS);
  CHECK(wrongProps.stype == ZE_STRUCTURE_TYPE_IMAGE_PROPERTIES);

  ze_image_handle_t image = fx.image(d);
  ze_image_memory_properties_exp_t mp{ZE_STRUCTURE_TYPE_IMAGE_PROPERTIES};
  CHECK(zeImageGetMemoryPropertiesExp(image, &mp) == ZE_RESULT_SUCCESS);
  CHECK(mp.size > 0);
  ze_image_allocation_ext_properties_t ap{ZE_STRUCTURE_TYPE_IMAGE_PROPERTIES};
  CHECK(zeImageGetAllocPropertiesExt(fx.context, image, &ap) == ZE_RESULT_SUCCESS);
  CHECK(ap.stype == ZE_STRUCTURE_TYPE_IMAGE_ALLOCATION_EXT_PROPERTIES);

  // A destroyed image is a null handle to every call.
  ze_image_handle_t gone = fx.image(d);
  REQUIRE(zeImageDestroy(gone) == ZE_RESULT_SUCCESS);
  fx.forgetImage(gone);
  CHECK(zeImageDestroy(gone) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  mp.stype = ZE_STRUCTURE_TYPE_IMAGE_MEMORY_EXP_PROPERTIES;
  CHECK(zeImageGetMemoryPropertiesExp(gone, &mp) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeContextMakeImageResident(fx.context, fx.device, gone) ==
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeImageViewCreateExp(fx.context, fx.device, &d, gone, &h) ==
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  // An object of another type is not an image.
  CHECK(zeImageDestroy(reinterpret_cast<ze_image_handle_t>(fx.context)) ==
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);

  CHECK(zeContextMakeImageResident(fx.context, fx.device, image) == ZE_RESULT_SUCCESS);
  CHECK(zeContextEvictImage(fx.context, fx.device, image) == ZE_RESULT_SUCCESS);
}

TEST_CASE(
    "Given an image and a view of it with another format, then both read and write the same "
    "memory with one allocation id, and a view too large is refused",
    "[image]") {
  ImageFixture fx;
  ze_image_handle_t image = fx.image(
      imageDesc(ZE_IMAGE_TYPE_2D,
                imageFormat(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM), 8, 4));
  auto viewDesc = imageDesc(
      ZE_IMAGE_TYPE_2D,
      imageFormat(ZE_IMAGE_FORMAT_LAYOUT_32, ZE_IMAGE_FORMAT_TYPE_UINT, ZE_IMAGE_FORMAT_SWIZZLE_R,
                  ZE_IMAGE_FORMAT_SWIZZLE_0, ZE_IMAGE_FORMAT_SWIZZLE_0, ZE_IMAGE_FORMAT_SWIZZLE_1),
      8, 4);
  ze_image_handle_t view = nullptr;
  REQUIRE(zeImageViewCreateExp(fx.context, fx.device, &viewDesc, image, &view) ==
          ZE_RESULT_SUCCESS);
  auto getMemory =
      extensionFunction<ze_pfnTesseraImageGetMemory_t>(fx.driver, "zeTesseraImageGetMemory");
  REQUIRE(getMemory);
  void *a = nullptr, *b = nullptr;
  size_t rowA = 0, rowB = 0, sliceA = 0;
  REQUIRE(getMemory(image, &a, &rowA, &sliceA) == ZE_RESULT_SUCCESS);
  REQUIRE(getMemory(view, &b, &rowB, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(a == b);
  CHECK(rowA == 32);
  CHECK(rowB == 32);
  ze_image_allocation_ext_properties_t pa{ZE_STRUCTURE_TYPE_IMAGE_ALLOCATION_EXT_PROPERTIES};
  ze_image_allocation_ext_properties_t pb = pa;
  REQUIRE(zeImageGetAllocPropertiesExt(fx.context, image, &pa) == ZE_RESULT_SUCCESS);
  REQUIRE(zeImageGetAllocPropertiesExt(fx.context, view, &pb) == ZE_RESULT_SUCCESS);
  CHECK(pa.id == pb.id);
  CHECK(pa.id != 0);
  // The view outlives its image without losing its memory (the views "become disabled" for the
  // application, which must not use them; Tessera keeps them harmless).
  REQUIRE(zeImageDestroy(image) == ZE_RESULT_SUCCESS);
  fx.forgetImage(image);
  std::memset(b, 0x5a, 32 * 4);
  CHECK(zeImageDestroy(view) == ZE_RESULT_SUCCESS);

  ze_image_handle_t small = fx.rgba8(4, 4), tooLarge = nullptr;
  auto wide =
      imageDesc(ZE_IMAGE_TYPE_2D,
                imageFormat(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM), 8, 4);
  CHECK(zeImageViewCreateExp(fx.context, fx.device, &wide, small, &tooLarge) ==
        ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  auto odd =
      imageDesc(ZE_IMAGE_TYPE_2D,
                imageFormat(ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16, ZE_IMAGE_FORMAT_TYPE_UINT), 2, 4);
  ze_image_handle_t narrow = fx.image(imageDesc(
      ZE_IMAGE_TYPE_2D, imageFormat(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM), 3,
      4));  // rows of 12 bytes: not a multiple of 8
  CHECK(zeImageViewCreateExp(fx.context, fx.device, &odd, narrow, &tooLarge) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_CASE(
    "Given memory of the caller's (ZE_tessera_image_memory), then the image uses it with its "
    "pitches, and bad pitches or no memory are refused",
    "[image]") {
  ImageFixture fx;
  auto getMemory =
      extensionFunction<ze_pfnTesseraImageGetMemory_t>(fx.driver, "zeTesseraImageGetMemory");
  REQUIRE(getMemory);
  std::vector<uint8_t> bytes(64 * 4 * 3);
  ze_tessera_image_memory_desc_t mem{ZE_STRUCTURE_TYPE_TESSERA_IMAGE_MEMORY_DESC, nullptr,
                                     bytes.data(), 64, 0};
  auto d = imageDesc(ZE_IMAGE_TYPE_2DARRAY,
                     imageFormat(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM), 10, 4,
                     1, 3);
  d.pNext = &mem;
  ze_image_handle_t image = fx.image(d);
  void* p = nullptr;
  size_t row = 0, slice = 0;
  REQUIRE(getMemory(image, &p, &row, &slice) == ZE_RESULT_SUCCESS);
  CHECK(p == bytes.data());
  CHECK(row == 64);
  CHECK(slice == 64 * 4);
  auto m = memoryProperties(image);
  CHECK(m.size == 2 * 256 + 3 * 64 + 40);

  ze_image_handle_t h = nullptr;
  mem.rowPitch = 36;  // below 10 pixels of 4 bytes
  CHECK(zeImageCreate(fx.context, fx.device, &d, &h) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  mem.rowPitch = 42;  // not a multiple of the pixel size
  CHECK(zeImageCreate(fx.context, fx.device, &d, &h) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  mem.rowPitch = 64;
  mem.slicePitch = 128;  // below 4 rows of 64 bytes
  CHECK(zeImageCreate(fx.context, fx.device, &d, &h) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  mem.slicePitch = 0;
  mem.pMemory = nullptr;
  CHECK(zeImageCreate(fx.context, fx.device, &d, &h) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(getMemory(image, nullptr, &row, &slice) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(getMemory(nullptr, &p, &row, &slice) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);

  // A buffer image's width is in pixels: 100 RGBA8 pixels over 400 bytes.
  std::vector<uint8_t> buffer(400);
  ze_tessera_image_memory_desc_t over{ZE_STRUCTURE_TYPE_TESSERA_IMAGE_MEMORY_DESC, nullptr,
                                      buffer.data(), 0, 0};
  auto bd = imageDesc(ZE_IMAGE_TYPE_BUFFER,
                      imageFormat(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM), 100);
  bd.pNext = &over;
  CHECK(memoryProperties(fx.image(bd)).size == 400);
}

TEST_CASE(
    "Given every address mode, filter mode and coordinate kind, then samplers are made and "
    "destroyed; bad descriptors are refused",
    "[image][sampler]") {
  ImageFixture fx;
  for (int mode = ZE_SAMPLER_ADDRESS_MODE_NONE; mode <= ZE_SAMPLER_ADDRESS_MODE_MIRROR; ++mode)
    for (int filter = ZE_SAMPLER_FILTER_MODE_NEAREST; filter <= ZE_SAMPLER_FILTER_MODE_LINEAR;
         ++filter)
      for (ze_bool_t normalized : {0, 1}) {
        ze_sampler_desc_t d{ZE_STRUCTURE_TYPE_SAMPLER_DESC, nullptr,
                            ze_sampler_address_mode_t(mode), ze_sampler_filter_mode_t(filter),
                            normalized};
        ze_sampler_handle_t s = nullptr;
        REQUIRE(zeSamplerCreate(fx.context, fx.device, &d, &s) == ZE_RESULT_SUCCESS);
        CHECK(zeSamplerDestroy(s) == ZE_RESULT_SUCCESS);
        CHECK(zeSamplerDestroy(s) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
      }
  ze_sampler_desc_t d{ZE_STRUCTURE_TYPE_IMAGE_DESC, nullptr, ZE_SAMPLER_ADDRESS_MODE_CLAMP,
                      ZE_SAMPLER_FILTER_MODE_LINEAR, 1};
  ze_sampler_handle_t s = nullptr;
  CHECK(zeSamplerCreate(fx.context, fx.device, &d, &s) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  d.stype = ZE_STRUCTURE_TYPE_SAMPLER_DESC;
  d.addressMode = ze_sampler_address_mode_t(ZE_SAMPLER_ADDRESS_MODE_MIRROR + 1);
  CHECK(zeSamplerCreate(fx.context, fx.device, &d, &s) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  d.addressMode = ZE_SAMPLER_ADDRESS_MODE_CLAMP;
  d.filterMode = ze_sampler_filter_mode_t(ZE_SAMPLER_FILTER_MODE_LINEAR + 1);
  CHECK(zeSamplerCreate(fx.context, fx.device, &d, &s) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  CHECK(s == nullptr);
  CHECK(zeSamplerDestroy(reinterpret_cast<ze_sampler_handle_t>(fx.context)) ==
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
}
