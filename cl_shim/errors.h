// Level Zero results as OpenCL error codes: one table, used by every entry point.
#pragma once

#include <level_zero/ze_api.h>

#include "cl_shim/cl_headers.h"

namespace tessera::cl {

// The CL code for a ze result in a context where nothing more specific applies.
cl_int fromZe(ze_result_t result);

// The name of an OpenCL error code (CL_INVALID_VALUE), or null for a value that names none.
const char* errorName(cl_int code);

}  // namespace tessera::cl
