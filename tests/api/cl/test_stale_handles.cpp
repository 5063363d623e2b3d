// A released handle is refused, not aliased (docs/reliability.md): the OpenCL layer keeps a
// released object's memory out of reuse for a while (a quarantine per object size,
// cl_shim/object.cpp), so the next object made does not take the released one's address and answer
// for its stale handle. Before, freed blocks were reused last-in first-out: the next context took
// the released context's address and its stale handle was accepted.
#include <catch2/catch.hpp>

#include "cl_test_support.h"

using namespace tessera::cltest;

TEST_CASE("OpenCL stale handles: a released context's handle is refused after new contexts",
          "[stale]") {
  cl_device_id dev = device();
  for (int round = 0; round < 8; ++round) {
    cl_int err = CL_SUCCESS;
    cl_context gone = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clReleaseContext(gone) == CL_SUCCESS);
    cl_context made = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    INFO("round " << round);
    CHECK(made != gone);
    cl_uint refs = 0;
    CHECK(clGetContextInfo(gone, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, nullptr) ==
          CL_INVALID_CONTEXT);
    CHECK(clGetContextInfo(made, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, nullptr) ==
          CL_SUCCESS);
    REQUIRE(clReleaseContext(made) == CL_SUCCESS);
  }
}

TEST_CASE("OpenCL stale handles: a released user event's handle is refused after new events",
          "[stale]") {
  ClFixture fx;
  for (int round = 0; round < 8; ++round) {
    cl_int err = CL_SUCCESS;
    cl_event gone = clCreateUserEvent(fx.ctx, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clSetUserEventStatus(gone, CL_COMPLETE) == CL_SUCCESS);
    REQUIRE(clReleaseEvent(gone) == CL_SUCCESS);
    cl_event made = clCreateUserEvent(fx.ctx, &err);
    REQUIRE(err == CL_SUCCESS);
    INFO("round " << round);
    CHECK(made != gone);
    cl_int status = 0;
    cl_int info =
        clGetEventInfo(gone, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
    CHECK(info == CL_INVALID_EVENT);
    // (Only when refused above: a stale handle naming `made` would wait for it forever.)
    if (info == CL_INVALID_EVENT) CHECK(clWaitForEvents(1, &gone) == CL_INVALID_EVENT);
    REQUIRE(clSetUserEventStatus(made, CL_COMPLETE) == CL_SUCCESS);
    REQUIRE(clReleaseEvent(made) == CL_SUCCESS);
  }
}
