// Level Zero results as OpenCL error codes: one table, used by every entry point.
#pragma once

#include <level_zero/ze_api.h>

#include "cl_shim/cl_headers.h"

namespace tessera::cl {

// The CL code for a ze result in a context where nothing more specific applies.
cl_int fromZe(ze_result_t result);

}  // namespace tessera::cl
