// ZE_extension_device_vector_sizes (Level Zero 1.13): zeDeviceGetVectorWidthPropertiesExt's count
// protocol, and widths that fill the host's vector registers (tessera/ze_tessera.h); OpenCL's
// CL_DEVICE_*_VECTOR_WIDTH_* report the same values (tests/api/cl's device info tests).
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <algorithm>
#include <cstdint>

#include "tessera/ze_tessera.h"
#include "ze_test_support.h"

using namespace tessera::test;

TEST_CASE("Given a device, when its vector widths are asked, then one entry fills a register of "
          "its 32-bit lanes for every type, and the count protocol holds",
          "[device][current_api]") {
  ze_driver_handle_t driver = initDriver();
  auto get = extensionFunction<ze_pfnDeviceGetVectorWidthPropertiesExt_t>(
      driver, "zeDeviceGetVectorWidthPropertiesExt");
  REQUIRE(get);
  CHECK(extensionVersion(driver, ZE_DEVICE_VECTOR_SIZES_EXT_NAME) ==
        ZE_DEVICE_VECTOR_SIZES_EXT_VERSION_1_0);
  for (ze_device_handle_t device : devices(driver)) {
    ze_device_properties_t props{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    REQUIRE(zeDeviceGetProperties(device, &props) == ZE_RESULT_SUCCESS);
    uint32_t n = 0;
    REQUIRE(get(device, &n, nullptr) == ZE_RESULT_SUCCESS);
    CHECK(n == 1);
    ze_device_vector_width_properties_ext_t w[2] = {};
    w[0].stype = w[1].stype = ZE_STRUCTURE_TYPE_DEVICE_VECTOR_WIDTH_PROPERTIES_EXT;
    w[1].vector_width_size = 12345;
    n = 2;  // more than there are: the count comes back as 1, the second stays untouched
    REQUIRE(get(device, &n, w) == ZE_RESULT_SUCCESS);
    CHECK(n == 1);
    CHECK(w[1].vector_width_size == 12345);
    const uint32_t lanes = w[0].vector_width_size;
    CHECK(lanes == std::max(4u, props.physicalEUSimdWidth));
    CHECK(w[0].preferred_vector_width_char == lanes * 4);
    CHECK(w[0].native_vector_width_short == lanes * 2);
    CHECK(w[0].preferred_vector_width_int == lanes);
    CHECK(w[0].native_vector_width_float == lanes);
    CHECK(w[0].preferred_vector_width_long == lanes / 2);
    CHECK(w[0].native_vector_width_double == lanes / 2);
    CHECK(w[0].preferred_vector_width_half == lanes * 2);
    CHECK(w[0].native_vector_width_half == lanes);
  }
  CHECK(get(nullptr, nullptr, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(get(devices(driver)[0], nullptr, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
}
