// Faulting kernels through OpenCL (docs/reliability.md, "Faults"): the fault is contained, the
// command's event gets a negative status (CL_OUT_OF_RESOURCES), clWaitForEvents says
// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clFinish CL_OUT_OF_RESOURCES, and another context
// keeps working.
#include <catch2/catch.hpp>
#include <climits>
#include <cstdlib>
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

namespace {

// Launches fault_store so that work-item 7 stores through address 0x10: the context is lost.
void launchFault(KernelFixture& f, std::vector<int>& out, cl_uint numWaits = 0,
                 const cl_event* waits = nullptr, cl_event* ev = nullptr) {
  cl_ulong addr = 0x10;
  cl_uint badItem = 7;
  REQUIRE(clSetKernelArgSVMPointer(f.kernel, 0, out.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(f.kernel, 1, sizeof addr, &addr) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(f.kernel, 2, sizeof badItem, &badItem) == CL_SUCCESS);
  size_t global = out.size(), local = 16;
  REQUIRE(clEnqueueNDRangeKernel(f.queue, f.kernel, 1, nullptr, &global, &local, numWaits, waits,
                                 ev) == CL_SUCCESS);
}

void CL_CALLBACK countCall(cl_mem, void* calls) { ++*static_cast<int*>(calls); }

void CL_CALLBACK freeAndCount(cl_command_queue, cl_uint n, void* pointers[], void* data) {
  auto* calls = static_cast<int*>(data);
  for (cl_uint i = 0; i < n; ++i) std::free(pointers[i]);
  ++*calls;
}

}  // namespace

// A blocking command returned CL_SUCCESS when its own work faulted (the command was appended,
// then its copy faulted and lost the context): the caller took an unread buffer for data.
TEST_CASE("OpenCL faults: a blocking read or copy whose own work faulted returns an error",
          "[faults][containment]") {
  SECTION("clEnqueueReadBuffer into a wild pointer") {
    ClFixture f;
    cl_int err = CL_SUCCESS;
    cl_mem buf = clCreateBuffer(f.ctx, CL_MEM_READ_WRITE, 4096, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    void* wild = reinterpret_cast<void*>(uintptr_t{0x10});
    CHECK(clEnqueueReadBuffer(f.queue, buf, CL_TRUE, 0, 4096, wild, 0, nullptr, nullptr) ==
          CL_OUT_OF_RESOURCES);
    CHECK(clFinish(f.queue) == CL_OUT_OF_RESOURCES);
    CHECK(clReleaseMemObject(buf) == CL_SUCCESS);
  }
  SECTION("clEnqueueSVMMemcpy from a wild pointer") {
    ClFixture f;
    std::vector<int> dst(256, 0);
    const void* wild = reinterpret_cast<const void*>(uintptr_t{0x10});
    CHECK(clEnqueueSVMMemcpy(f.queue, CL_TRUE, dst.data(), wild, dst.size() * sizeof(int), 0,
                             nullptr, nullptr) == CL_OUT_OF_RESOURCES);
  }
}

// What OpenCV does after a kernel of its context faulted (issue 27, its filter2D case): it
// unmaps what it mapped (from ~Mat, where an error ends the process in std::terminate), reads
// results, maps, launches, releases. Every call returns, the releases succeed and release, the
// others say the context is lost; a read appended before the fault does not report success.
TEST_CASE("OpenCL faults: after a kernel fault, unmaps and releases succeed, the rest fail",
          "[faults][containment]") {
  KernelFixture f("faults", "fault_store");
  std::vector<int> out(256, 0);
  cl_int err = CL_SUCCESS;
  cl_mem coeffs = clCreateBuffer(f.ctx, CL_MEM_READ_WRITE, 4096, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem result = clCreateBuffer(f.ctx, CL_MEM_READ_WRITE, 4096, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  int destroyed = 0;
  REQUIRE(clSetMemObjectDestructorCallback(coeffs, countCall, &destroyed) == CL_SUCCESS);
  std::vector<char> host(4096, 3);
  REQUIRE(clEnqueueWriteBuffer(f.queue, coeffs, CL_TRUE, 0, 36, host.data(), 0, nullptr,
                               nullptr) == CL_SUCCESS);
  void* mapped = clEnqueueMapBuffer(f.queue, coeffs, CL_TRUE, CL_MAP_READ, 0, 36, 0, nullptr,
                                    nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  void* svm = clSVMAlloc(f.ctx, CL_MEM_READ_WRITE, 4096, 0);
  REQUIRE(svm);
  REQUIRE(clEnqueueSVMMap(f.queue, CL_TRUE, CL_MAP_WRITE, svm, 4096, 0, nullptr, nullptr) ==
          CL_SUCCESS);

  // The faulting kernel waits for a user event, so the read below is appended before the fault
  // (deterministically) and only then does the kernel run and fault.
  cl_event gate = clCreateUserEvent(f.ctx, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_event kernelEvent = nullptr;
  launchFault(f, out, 1, &gate, &kernelEvent);
  cl_event readEvent = nullptr;
  REQUIRE(clEnqueueReadBuffer(f.queue, result, CL_FALSE, 0, 4096, host.data(), 0, nullptr,
                              &readEvent) == CL_SUCCESS);
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  CHECK(clWaitForEvents(1, &readEvent) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  cl_int status = 0;
  REQUIRE(clGetEventInfo(readEvent, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                         nullptr) == CL_SUCCESS);
  CHECK(status == CL_OUT_OF_RESOURCES);
  CHECK(clFinish(f.queue) == CL_OUT_OF_RESOURCES);

  // Releases of a mapping succeed and release: the pointer is no longer mapped.
  CHECK(clEnqueueUnmapMemObject(f.queue, coeffs, mapped, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(clEnqueueUnmapMemObject(f.queue, coeffs, mapped, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  cl_event unmapEvent = nullptr;
  CHECK(clEnqueueSVMUnmap(f.queue, svm, 0, nullptr, &unmapEvent) == CL_SUCCESS);
  REQUIRE(unmapEvent);
  REQUIRE(clGetEventInfo(unmapEvent, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                         nullptr) == CL_SUCCESS);
  CHECK(status == CL_OUT_OF_RESOURCES);  // complete, in a lost context
  CHECK(clReleaseEvent(unmapEvent) == CL_SUCCESS);
  int freed = 0;
  void* owned = std::malloc(64);
  CHECK(clEnqueueSVMFree(f.queue, 1, &owned, freeAndCount, &freed, 0, nullptr, nullptr) ==
        CL_SUCCESS);
  CHECK(freed == 1);
  CHECK(clEnqueueSVMFree(f.queue, 1, &svm, nullptr, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);

  // Work and data: refused with the lost context's error, blocking or not.
  CHECK(clEnqueueReadBuffer(f.queue, result, CL_TRUE, 0, 4096, host.data(), 0, nullptr,
                            nullptr) == CL_OUT_OF_RESOURCES);
  CHECK(clEnqueueWriteBuffer(f.queue, coeffs, CL_TRUE, 0, 36, host.data(), 0, nullptr,
                             nullptr) == CL_OUT_OF_RESOURCES);
  err = CL_SUCCESS;
  CHECK(clEnqueueMapBuffer(f.queue, result, CL_TRUE, CL_MAP_READ, 0, 64, 0, nullptr, nullptr,
                           &err) == nullptr);
  CHECK(err == CL_OUT_OF_RESOURCES);
  size_t global = out.size();
  CHECK(clEnqueueNDRangeKernel(f.queue, f.kernel, 1, nullptr, &global, nullptr, 0, nullptr,
                               nullptr) == CL_OUT_OF_RESOURCES);
  CHECK(clWaitForEvents(1, &kernelEvent) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(clFinish(f.queue) == CL_OUT_OF_RESOURCES);

  // Releases: all succeed, and the buffer is destroyed once nothing holds it.
  CHECK(clReleaseEvent(readEvent) == CL_SUCCESS);
  CHECK(clReleaseEvent(kernelEvent) == CL_SUCCESS);
  CHECK(clReleaseEvent(gate) == CL_SUCCESS);
  CHECK(clReleaseMemObject(result) == CL_SUCCESS);
  CHECK(clReleaseMemObject(coeffs) == CL_SUCCESS);
  CHECK(clReleaseKernel(f.kernel) == CL_SUCCESS);
  f.kernel = nullptr;
  CHECK(clReleaseProgram(f.program) == CL_SUCCESS);
  f.program = nullptr;
  CHECK(clReleaseCommandQueue(f.queue) == CL_SUCCESS);
  f.queue = nullptr;
  CHECK(destroyed == 1);
  CHECK(clReleaseContext(f.ctx) == CL_SUCCESS);
  f.ctx = nullptr;
}
