// core/image/format.h and sampler.h without the API: which formats exist, their pixel sizes, the
// normalized swizzles, OpenCL's channel orders and data types for every format of format.h's table,
// and the sampler value of every Level Zero sampler mode.
#include <catch2/catch.hpp>

#include <tuple>

#include "backends/cpu/runtime/image_abi.h"
#include "core/image/format.h"
#include "core/image/sampler.h"

using namespace tessera::core;
namespace bits = tessera::backends::cpu::sampler_bits;

namespace {

constexpr auto R = ZE_IMAGE_FORMAT_SWIZZLE_R, G = ZE_IMAGE_FORMAT_SWIZZLE_G,
               B = ZE_IMAGE_FORMAT_SWIZZLE_B, A = ZE_IMAGE_FORMAT_SWIZZLE_A,
               Z = ZE_IMAGE_FORMAT_SWIZZLE_0, O = ZE_IMAGE_FORMAT_SWIZZLE_1,
               X = ZE_IMAGE_FORMAT_SWIZZLE_X;

ze_image_format_t fmt(ze_image_format_layout_t l, ze_image_format_type_t t,
                      ze_image_format_swizzle_t x, ze_image_format_swizzle_t y,
                      ze_image_format_swizzle_t z, ze_image_format_swizzle_t w) {
  return {l, t, x, y, z, w};
}

// OpenCL's values, minus the base the SPIR-V numbering subtracts.
constexpr uint32_t order(uint32_t cl) {
  return cl - 0x10B0;
}
constexpr uint32_t dataType(uint32_t cl) {
  return cl - 0x10D0;
}

}  // namespace

TEST_CASE(
    "Given each layout and type, then exactly format.h's table is supported, with its pixel "
    "size",
    "[image]") {
  struct Expect {
    ze_image_format_layout_t layout;
    uint32_t pixelBytes;
    bool types[5];  // UINT, SINT, UNORM, SNORM, FLOAT
  };
  const Expect table[] = {
      {ZE_IMAGE_FORMAT_LAYOUT_8, 1, {1, 1, 1, 1, 0}},
      {ZE_IMAGE_FORMAT_LAYOUT_16, 2, {1, 1, 1, 1, 1}},
      {ZE_IMAGE_FORMAT_LAYOUT_32, 4, {1, 1, 0, 0, 1}},
      {ZE_IMAGE_FORMAT_LAYOUT_8_8, 2, {1, 1, 1, 1, 0}},
      {ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, 4, {1, 1, 1, 1, 0}},
      {ZE_IMAGE_FORMAT_LAYOUT_16_16, 4, {1, 1, 1, 1, 1}},
      {ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16, 8, {1, 1, 1, 1, 1}},
      {ZE_IMAGE_FORMAT_LAYOUT_32_32, 8, {1, 1, 0, 0, 1}},
      {ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32, 16, {1, 1, 0, 0, 1}},
      {ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2, 4, {0, 0, 1, 0, 0}},
      {ZE_IMAGE_FORMAT_LAYOUT_11_11_10, 4, {0, 0, 0, 0, 0}},
      {ZE_IMAGE_FORMAT_LAYOUT_5_6_5, 2, {0, 0, 1, 0, 0}},
      {ZE_IMAGE_FORMAT_LAYOUT_5_5_5_1, 2, {0, 0, 1, 0, 0}},
      {ZE_IMAGE_FORMAT_LAYOUT_4_4_4_4, 2, {0, 0, 0, 0, 0}},
  };
  for (const Expect& e : table)
    for (int t = 0; t < 5; ++t) {
      INFO("layout " << e.layout << " type " << t);
      ImageFormatInfo info;
      ze_result_t r = describeFormat(fmt(e.layout, ze_image_format_type_t(t), R, G, B, A), info);
      if (e.types[t]) {
        REQUIRE(r == ZE_RESULT_SUCCESS);
        CHECK(info.pixelBytes == e.pixelBytes);
      } else {
        CHECK(r == ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
      }
    }
}

TEST_CASE("Given a media layout or values past the enumerations, then the format is refused",
          "[image]") {
  ImageFormatInfo info;
  for (int l = ZE_IMAGE_FORMAT_LAYOUT_Y8; l <= ZE_IMAGE_FORMAT_LAYOUT_BRGP; ++l)
    CHECK(describeFormat(fmt(ze_image_format_layout_t(l), ZE_IMAGE_FORMAT_TYPE_UNORM, R, G, B, A),
                         info) == ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
  CHECK(describeFormat(fmt(ze_image_format_layout_t(ZE_IMAGE_FORMAT_LAYOUT_BRGP + 1),
                           ZE_IMAGE_FORMAT_TYPE_UNORM, R, G, B, A),
                       info) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  CHECK(describeFormat(fmt(ZE_IMAGE_FORMAT_LAYOUT_8, ze_image_format_type_t(5), R, G, B, A),
                       info) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  CHECK(describeFormat(fmt(ZE_IMAGE_FORMAT_LAYOUT_8, ZE_IMAGE_FORMAT_TYPE_UINT, R, G, B,
                           ze_image_format_swizzle_t(7)),
                       info) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
}

TEST_CASE("Given swizzles naming missing components or X, then they read as 0 (x, y, z) and 1 (w)",
          "[image]") {
  ImageFormatInfo info;
  REQUIRE(describeFormat(fmt(ZE_IMAGE_FORMAT_LAYOUT_8, ZE_IMAGE_FORMAT_TYPE_UNORM, R, G, B, A),
                         info) == ZE_RESULT_SUCCESS);
  CHECK(info.swizzle == std::array<uint8_t, 4>{R, Z, Z, O});
  CHECK(info.channelOrder == order(0x10B0));  // CL_R
  REQUIRE(describeFormat(fmt(ZE_IMAGE_FORMAT_LAYOUT_16_16, ZE_IMAGE_FORMAT_TYPE_FLOAT, X, G, X, X),
                         info) == ZE_RESULT_SUCCESS);
  CHECK(info.swizzle == std::array<uint8_t, 4>{Z, G, Z, O});
  REQUIRE(describeFormat(fmt(ZE_IMAGE_FORMAT_LAYOUT_5_6_5, ZE_IMAGE_FORMAT_TYPE_UNORM, R, G, B, A),
                         info) == ZE_RESULT_SUCCESS);
  CHECK(info.swizzle == std::array<uint8_t, 4>{R, G, B, O});
}

TEST_CASE(
    "Given OpenCL's image formats in Level Zero terms (format.h), then the channel order and "
    "data type are OpenCL's",
    "[image]") {
  using L = ze_image_format_layout_t;
  using T = ze_image_format_type_t;
  // order, layouts of 8/16/32-bit components, swizzle.
  struct OrderCase {
    uint32_t clOrder;
    L layouts[3];
    ze_image_format_swizzle_t s[4];
  };
  const L one[3] = {ZE_IMAGE_FORMAT_LAYOUT_8, ZE_IMAGE_FORMAT_LAYOUT_16, ZE_IMAGE_FORMAT_LAYOUT_32};
  const L two[3] = {ZE_IMAGE_FORMAT_LAYOUT_8_8, ZE_IMAGE_FORMAT_LAYOUT_16_16,
                    ZE_IMAGE_FORMAT_LAYOUT_32_32};
  const L four[3] = {ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16,
                     ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32};
  auto orderCase = [](uint32_t o, const L(&l)[3], std::array<ze_image_format_swizzle_t, 4> s) {
    return OrderCase{o, {l[0], l[1], l[2]}, {s[0], s[1], s[2], s[3]}};
  };
  const OrderCase orders[] = {
      orderCase(0x10B0, one, {R, Z, Z, O}),  orderCase(0x10B1, one, {Z, Z, Z, R}),
      orderCase(0x10B8, one, {R, R, R, R}),  orderCase(0x10B9, one, {R, R, R, O}),
      orderCase(0x10B2, two, {R, G, Z, O}),  orderCase(0x10B3, two, {R, Z, Z, G}),
      orderCase(0x10B5, four, {R, G, B, A}), orderCase(0x10B6, four, {B, G, R, A}),
      orderCase(0x10B7, four, {G, B, A, R}), orderCase(0x10C3, four, {A, B, G, R}),
  };
  // CL data type, component bits (0: 8, 1: 16, 2: 32), ze type.
  const std::tuple<uint32_t, int, T> types[] = {
      {0x10D0, 0, ZE_IMAGE_FORMAT_TYPE_SNORM}, {0x10D1, 1, ZE_IMAGE_FORMAT_TYPE_SNORM},
      {0x10D2, 0, ZE_IMAGE_FORMAT_TYPE_UNORM}, {0x10D3, 1, ZE_IMAGE_FORMAT_TYPE_UNORM},
      {0x10D7, 0, ZE_IMAGE_FORMAT_TYPE_SINT},  {0x10D8, 1, ZE_IMAGE_FORMAT_TYPE_SINT},
      {0x10D9, 2, ZE_IMAGE_FORMAT_TYPE_SINT},  {0x10DA, 0, ZE_IMAGE_FORMAT_TYPE_UINT},
      {0x10DB, 1, ZE_IMAGE_FORMAT_TYPE_UINT},  {0x10DC, 2, ZE_IMAGE_FORMAT_TYPE_UINT},
      {0x10DD, 1, ZE_IMAGE_FORMAT_TYPE_FLOAT}, {0x10DE, 2, ZE_IMAGE_FORMAT_TYPE_FLOAT},
  };
  for (const OrderCase& o : orders)
    for (const auto& [clType, width, type] : types) {
      INFO("order 0x" << std::hex << o.clOrder << " type 0x" << clType);
      ImageFormatInfo info;
      REQUIRE(describeFormat(fmt(o.layouts[width], type, o.s[0], o.s[1], o.s[2], o.s[3]), info) ==
              ZE_RESULT_SUCCESS);
      CHECK(info.channelOrder == order(o.clOrder));
      CHECK(info.channelDataType == dataType(clType));
    }
  // CL_RGB with the packed types: b in the lowest bits, so swizzle {B, G, R, 1}.
  const std::pair<L, uint32_t> packed[] = {{ZE_IMAGE_FORMAT_LAYOUT_5_6_5, 0x10D4},
                                           {ZE_IMAGE_FORMAT_LAYOUT_5_5_5_1, 0x10D5},
                                           {ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2, 0x10D6}};
  for (const auto& [layout, clType] : packed) {
    ImageFormatInfo info;
    REQUIRE(describeFormat(fmt(layout, ZE_IMAGE_FORMAT_TYPE_UNORM, B, G, R, O), info) ==
            ZE_RESULT_SUCCESS);
    CHECK(info.channelOrder == order(0x10B4));  // CL_RGB
    CHECK(info.channelDataType == dataType(clType));
    CHECK(info.swizzle == std::array<uint8_t, 4>{B, G, R, O});
  }
}

TEST_CASE(
    "Given every address mode, filter mode and coordinate kind, then the sampler value has "
    "OpenCL's CLK_* bits",
    "[image]") {
  const std::pair<ze_sampler_address_mode_t, uint32_t> modes[] = {
      {ZE_SAMPLER_ADDRESS_MODE_NONE, 0x0},             // CLK_ADDRESS_NONE
      {ZE_SAMPLER_ADDRESS_MODE_REPEAT, 0x6},           // CLK_ADDRESS_REPEAT
      {ZE_SAMPLER_ADDRESS_MODE_CLAMP, 0x2},            // CLK_ADDRESS_CLAMP_TO_EDGE
      {ZE_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, 0x4},  // CLK_ADDRESS_CLAMP
      {ZE_SAMPLER_ADDRESS_MODE_MIRROR, 0x8},           // CLK_ADDRESS_MIRRORED_REPEAT
  };
  const std::pair<ze_sampler_filter_mode_t, uint32_t> filters[] = {
      {ZE_SAMPLER_FILTER_MODE_NEAREST, 0x10}, {ZE_SAMPLER_FILTER_MODE_LINEAR, 0x20}};
  for (const auto& [mode, modeBits] : modes)
    for (const auto& [filter, filterBits] : filters)
      for (ze_bool_t normalized : {0, 1}) {
        ze_sampler_desc_t d{ZE_STRUCTURE_TYPE_SAMPLER_DESC, nullptr, mode, filter, normalized};
        uint64_t value = ~0ull;
        REQUIRE(samplerValue(d, value) == ZE_RESULT_SUCCESS);
        CHECK(value == (modeBits | filterBits | (normalized ? 1u : 0u)));
        CHECK((value & bits::kAddressMask) == modeBits);
        CHECK((value & bits::kFilterMask) == filterBits);
      }
  uint64_t value;
  ze_sampler_desc_t bad{ZE_STRUCTURE_TYPE_SAMPLER_DESC, nullptr,
                        ze_sampler_address_mode_t(ZE_SAMPLER_ADDRESS_MODE_MIRROR + 1),
                        ZE_SAMPLER_FILTER_MODE_NEAREST, 0};
  CHECK(samplerValue(bad, value) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  bad.addressMode = ZE_SAMPLER_ADDRESS_MODE_NONE;
  bad.filterMode = ze_sampler_filter_mode_t(ZE_SAMPLER_FILTER_MODE_LINEAR + 1);
  CHECK(samplerValue(bad, value) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
}
