// CL_CHECK: the OpenCL benchmarks' check of a call's result; a failure ends the run with the call,
// its place and its error code.
#pragma once

#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>

#define CL_CHECK(call)                                                               \
  do {                                                                               \
    cl_int e_ = (call);                                                              \
    if (e_ != CL_SUCCESS) {                                                          \
      std::fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, e_); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)
