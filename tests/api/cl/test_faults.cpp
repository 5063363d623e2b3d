// Faulting kernels through OpenCL (docs/reliability.md, "Faults"): the fault is contained, the
// command's event gets a negative status (CL_OUT_OF_RESOURCES), clWaitForEvents says
// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clFinish CL_OUT_OF_RESOURCES, and another context
// keeps working.
#include <catch2/catch.hpp>
#include <climits>
#include <vector>

#include "cl_program_support.h"

using namespace tessera::cltest;

TEST_CASE("OpenCL faults: a kernel storing through a bad address", "[faults]") {
  KernelFixture bad("faults", "fault_store");
  KernelFixture good("faults", "fault_store");
  std::vector<int> outBad(256, 0), outGood(256, 0);

  cl_ulong addr = 0x10;
  cl_uint badItem = 7;
  REQUIRE(clSetKernelArgSVMPointer(bad.kernel, 0, outBad.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(bad.kernel, 1, sizeof addr, &addr) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(bad.kernel, 2, sizeof badItem, &badItem) == CL_SUCCESS);
  size_t global = outBad.size(), local = 16;
  cl_event ev = nullptr;
  REQUIRE(clEnqueueNDRangeKernel(bad.queue, bad.kernel, 1, nullptr, &global, &local, 0, nullptr,
                                 &ev) == CL_SUCCESS);
  CHECK(clWaitForEvents(1, &ev) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  cl_int status = 0;
  REQUIRE(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) ==
          CL_SUCCESS);
  CHECK(status == CL_OUT_OF_RESOURCES);
  CHECK(clFinish(bad.queue) == CL_OUT_OF_RESOURCES);
  clReleaseEvent(ev);
  // Further work in that context is refused.
  CHECK(clEnqueueNDRangeKernel(bad.queue, bad.kernel, 1, nullptr, &global, &local, 0, nullptr,
                               nullptr) == CL_OUT_OF_RESOURCES);

  // Another context runs the same kernel without the bad store.
  cl_ulong none = 0;
  cl_uint noItem = UINT_MAX;
  REQUIRE(clSetKernelArgSVMPointer(good.kernel, 0, outGood.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(good.kernel, 1, sizeof none, &none) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(good.kernel, 2, sizeof noItem, &noItem) == CL_SUCCESS);
  runKernel(good.queue, good.kernel, 1, &global, &local);
  for (int v : outGood) CHECK(v == 1);
}

// Copies are contained like kernels (a copy from a wild pointer killed the process by SIGSEGV):
// the command ends with CL_OUT_OF_RESOURCES, as a faulting kernel's does.
TEST_CASE("OpenCL faults: a copy from a wild pointer", "[faults][containment]") {
  ClFixture bad, good;
  std::vector<int> dst(256, 0), src(256, 5);
  cl_event ev = nullptr;
  const void* wild = reinterpret_cast<const void*>(uintptr_t{0x10});
  REQUIRE(clEnqueueSVMMemcpy(bad.queue, CL_FALSE, dst.data(), wild, dst.size() * sizeof(int), 0,
                             nullptr, &ev) == CL_SUCCESS);
  CHECK(clWaitForEvents(1, &ev) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  cl_int status = 0;
  REQUIRE(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) ==
          CL_SUCCESS);
  CHECK(status == CL_OUT_OF_RESOURCES);
  CHECK(clFinish(bad.queue) == CL_OUT_OF_RESOURCES);
  clReleaseEvent(ev);
  // Another context copies fine.
  REQUIRE(clEnqueueSVMMemcpy(good.queue, CL_TRUE, dst.data(), src.data(), dst.size() * sizeof(int),
                             0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(dst == src);
}
