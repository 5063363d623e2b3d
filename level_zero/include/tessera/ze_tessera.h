/* Tessera's additions to the Level Zero 1.4 headers: functions of later Level Zero specifications that
 * Tessera implements, declared here from the public specification, and Tessera's own extensions.
 * Each is exported by libze_tessera.so.1 and returned by zeDriverGetExtensionFunctionAddress (through
 * the official loader, which does not know these names, the latter is the way to reach them). */
#ifndef TESSERA_ZE_TESSERA_H
#define TESSERA_ZE_TESSERA_H

#include <level_zero/ze_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Extension "ZE_tessera_root_device", version 1.0: zeDeviceGetRootDevice from Level Zero 1.9.
 *
 * "Retrieves the root-device of a device handle." *phRootDevice is set to null when hDevice has no
 * root-device: a root device, and every device when ZE_FLAT_DEVICE_HIERARCHY=FLAT ("zeDeviceGetRootDevice
 * returning nullptr"). For a sub-device nested several levels deep it is the top-most device. */
#define ZE_TESSERA_ROOT_DEVICE_EXT_NAME "ZE_tessera_root_device"
#define ZE_TESSERA_ROOT_DEVICE_EXT_VERSION ZE_MAKE_VERSION(1, 0)

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetRootDevice(ze_device_handle_t hDevice,
                                                          ze_device_handle_t* phRootDevice);
typedef ze_result_t(ZE_APICALL* ze_pfnDeviceGetRootDevice_t)(ze_device_handle_t,
                                                             ze_device_handle_t*);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_ZE_TESSERA_H */
