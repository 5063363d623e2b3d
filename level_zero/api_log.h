// The Level Zero side of the API call log (support/api_log.h; TESSERA_API_LOG=1): the entry point
// the loader's DDI tables (ze_ddi_tables.cpp) and zeDriverGetExtensionFunctionAddress
// (extensions.cpp) hand out for each function, logged or plain. Results print by name
// (ZE_RESULT_ERROR_INVALID_NULL_HANDLE). Calls of the exported symbols themselves, by programs
// linked to libze_tessera without the loader, are not logged: the loader is how applications reach
// a driver, and the tables are the one place its calls pass.
#pragma once

#include <level_zero/ze_api.h>

#include "support/api_log.h"

namespace tessera::ze {

// TESSERA_API_LOG, read once (config::TraceSettings).
bool apiLogOn();
// The name of a result (ZE_RESULT_SUCCESS), or null for a value that names none.
const char* resultName(ze_result_t result);

struct ZeResults {
  template <typename... A>
  static void put(support::api_log::Line& line, ze_result_t result, const A&...) {
    if (const char* name = resultName(result))
      line.add("%s", name);
    else
      line.add("0x%x", static_cast<unsigned>(result));
  }
  // A function that returns a handle instead (zeDriverGetDefaultContext): the handle, null on
  // failure.
  template <typename... A>
  static void put(support::api_log::Line& line, const void* handle, const A&...) {
    line.add("%p", handle);
  }
};

// `F` as the driver hands it out: the logged form when TESSERA_API_LOG is on, else `F` itself.
template <support::api_log::Name name, auto F>
auto entryPoint() -> decltype(F) {
  return apiLogOn() ? &support::api_log::Logged<name, F, ZeResults>::call : F;
}

}  // namespace tessera::ze

// The entry point for `fn` (a ze* function of this library), under its own name.
#define TESSERA_ZE_ENTRY(fn) ::tessera::ze::entryPoint<#fn, &fn>()
