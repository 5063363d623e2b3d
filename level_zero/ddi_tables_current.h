// The slots of the DDI tables that Level Zero 1.6 to 1.17 appended to the 1.4 tables, filled when
// the loader asks for a version that has them (ze_ddi_tables_current.cpp).
#pragma once

#include <level_zero/ze_ddi.h>

namespace tessera::ze {

// Whether `version` (of major version 1, which the getters check) has the slots of 1.`minor`.
inline bool atLeastMinor(ze_api_version_t version, int minor) {
  return ZE_MINOR_VERSION(version) >= uint32_t(minor);
}

void fillCurrentSlots(ze_api_version_t version, ze_global_dditable_t& table);
void fillCurrentSlots(ze_api_version_t version, ze_driver_dditable_t& table);
void fillCurrentSlots(ze_api_version_t version, ze_device_dditable_t& table);
void fillCurrentSlots(ze_api_version_t version, ze_mem_dditable_t& table);
void fillCurrentSlots(ze_api_version_t version, ze_physical_mem_dditable_t& table);
void fillCurrentSlots(ze_api_version_t version, ze_command_queue_dditable_t& table);
void fillCurrentSlots(ze_api_version_t version, ze_command_list_dditable_t& table);
void fillCurrentSlots(ze_api_version_t version, ze_event_dditable_t& table);
void fillCurrentSlots(ze_api_version_t version, ze_event_pool_dditable_t& table);

}  // namespace tessera::ze
