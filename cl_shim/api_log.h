// The OpenCL side of the API call log (support/api_log.h; TESSERA_API_LOG=1): the entry point the
// dispatch table (icd.cpp) and clGetExtensionFunctionAddress (api_platform.cpp) hand out for each
// function, logged or plain. Results print as error names (CL_INVALID_VALUE); a function that
// returns an object or a pointer prints it and, when its last parameter is the errcode_ret it
// was given, the code written there.
#pragma once

#include <tuple>
#include <type_traits>

#include "cl_shim/cl_headers.h"
#include "cl_shim/errors.h"
#include "support/api_log.h"

namespace tessera::cl {

// TESSERA_API_LOG, read once (config::TraceSettings).
bool apiLogOn();

struct ClResults {
  static void putCode(support::api_log::Line& line, cl_int code) {
    if (const char* name = errorName(code))
      line.add("%s", name);
    else
      line.add("%d", code);
  }
  template <typename R, typename... A>
  static void put(support::api_log::Line& line, const R& result, const A&... args) {
    if constexpr (std::is_same_v<R, cl_int>) {
      putCode(line, result);
    } else {
      support::api_log::put(line, result);
      if constexpr (sizeof...(A) > 0) {
        using Last = std::tuple_element_t<sizeof...(A) - 1, std::tuple<A...>>;
        if constexpr (std::is_same_v<Last, cl_int*>) {
          if (cl_int* errcode = std::get<sizeof...(A) - 1>(std::tie(args...))) {
            line.add(" [");
            putCode(line, *errcode);
            line.add("]");
          }
        }
      }
    }
  }
};

// `F` as the API hands it out: the logged form when TESSERA_API_LOG is on, else `F` itself.
template <support::api_log::Name name, auto F>
auto entryPoint() -> decltype(F) {
  return apiLogOn() ? &support::api_log::Logged<name, F, ClResults>::call : F;
}

}  // namespace tessera::cl
