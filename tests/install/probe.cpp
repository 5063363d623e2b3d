// Built by tests/install/check_install.sh against an installed Tessera (pkg-config tessera-ze),
// linked directly with the installed libze_tessera: the driver, its devices and a Tessera extension.
#include <level_zero/ze_api.h>

#include <cstdio>

#include "tessera/ze_tessera.h"

int main() {
  if (zeInit(0) != ZE_RESULT_SUCCESS) return 1;
  uint32_t count = 1;
  ze_driver_handle_t driver;
  if (zeDriverGet(&count, &driver) != ZE_RESULT_SUCCESS || count != 1) return 2;
  count = 1;
  ze_device_handle_t device;
  if (zeDeviceGet(driver, &count, &device) != ZE_RESULT_SUCCESS || count != 1) return 3;
  void* f = nullptr;
  zeDriverGetExtensionFunctionAddress(driver, "zeTesseraDeviceGetPus", &f);
  if (!f) return 4;
  uint32_t pus = 0;
  reinterpret_cast<ze_pfnTesseraDeviceGetPus_t>(f)(device, &pus, nullptr);
  std::printf("installed Tessera: device 0 has %u PUs\n", pus);
  return pus ? 0 : 5;
}
