// Shared virtual memory through ocl-icd: allocation rules, coarse- and fine-grain buffers used by
// memcpy, fill, map and migrate commands, clEnqueueSVMFree's ordering and callback, buffers over
// SVM (CL_MEM_USES_SVM_POINTER), and the refusals.
#include <cstdint>
#include <cstring>
#include <vector>

#include "cl_test_support.h"

using namespace tessera::cltest;

namespace {

cl_int eventStatus(cl_event e) {
  cl_int s = 0;
  REQUIRE(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr) == CL_SUCCESS);
  return s;
}

cl_command_type eventType(cl_event e) {
  cl_command_type t = 0;
  REQUIRE(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof t, &t, nullptr) == CL_SUCCESS);
  return t;
}

struct FreeLog {
  cl_command_queue queue = nullptr;
  cl_uint count = 0;
  std::vector<void*> pointers;
  cl_context ctx = nullptr;
  int calls = 0;
};

void CL_CALLBACK freeCallback(cl_command_queue q, cl_uint n, void** ptrs, void* data) {
  auto* log = static_cast<FreeLog*>(data);
  log->queue = q;
  log->count = n;
  log->pointers.assign(ptrs, ptrs + n);
  for (cl_uint i = 0; i < n; ++i) clSVMFree(log->ctx, ptrs[i]);
  ++log->calls;
}

}  // namespace

TEST_CASE("Given the device's SVM capabilities, then clSVMAlloc follows the allocation rules",
          "[cl][svm]") {
  ClFixture fx;
  cl_device_svm_capabilities caps = deviceInfo<cl_device_svm_capabilities>(fx.dev, CL_DEVICE_SVM_CAPABILITIES);
  REQUIRE((caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) != 0);
  void* coarse = clSVMAlloc(fx.ctx, CL_MEM_READ_WRITE, 1000, 0);
  REQUIRE(coarse != nullptr);
  CHECK(reinterpret_cast<uintptr_t>(coarse) % 128 == 0);  // the default: long16's size
  void* aligned = clSVMAlloc(fx.ctx, 0, 64, 4096);
  REQUIRE(aligned != nullptr);
  CHECK(reinterpret_cast<uintptr_t>(aligned) % 4096 == 0);
  void* fine = clSVMAlloc(fx.ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, 256, 16);
  REQUIRE(fine != nullptr);
  // The host uses SVM memory directly.
  std::memset(coarse, 1, 1000);
  std::memset(fine, 2, 256);
  // Refusals: null, never an error code.
  CHECK(clSVMAlloc(nullptr, 0, 64, 0) == nullptr);
  CHECK(clSVMAlloc(fx.ctx, 0, 0, 0) == nullptr);
  CHECK(clSVMAlloc(fx.ctx, 0, ~size_t(0), 0) == nullptr);
  CHECK(clSVMAlloc(fx.ctx, 0, 64, 3) == nullptr);
  CHECK(clSVMAlloc(fx.ctx, 0, 64, 1u << 30) == nullptr);
  CHECK(clSVMAlloc(fx.ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, 0) == nullptr);
  CHECK(clSVMAlloc(fx.ctx, CL_MEM_SVM_ATOMICS, 64, 0) == nullptr);
  CHECK(clSVMAlloc(fx.ctx, CL_MEM_USE_HOST_PTR, 64, 0) == nullptr);
  // Frees: null and foreign pointers are ignored.
  clSVMFree(fx.ctx, nullptr);
  int local = 0;
  clSVMFree(fx.ctx, &local);
  clSVMFree(fx.ctx, coarse);
  clSVMFree(fx.ctx, aligned);
  clSVMFree(fx.ctx, fine);
}

TEST_CASE("Given coarse- and fine-grain SVM, then memcpy, fill, map and migrate commands work",
          "[cl][svm]") {
  ClFixture fx;
  const size_t n = 4096;
  for (cl_svm_mem_flags flags : {cl_svm_mem_flags(CL_MEM_READ_WRITE),
                                 cl_svm_mem_flags(CL_MEM_SVM_FINE_GRAIN_BUFFER)}) {
    INFO("flags " << flags);
    auto* a = static_cast<unsigned char*>(clSVMAlloc(fx.ctx, flags, n, 0));
    auto* b = static_cast<unsigned char*>(clSVMAlloc(fx.ctx, flags, n, 0));
    REQUIRE(a);
    REQUIRE(b);
    // Coarse grain: the host writes inside a map.
    cl_event mapped = nullptr;
    REQUIRE(clEnqueueSVMMap(fx.queue, CL_TRUE, CL_MAP_WRITE, a, n, 0, nullptr, &mapped) == CL_SUCCESS);
    CHECK(eventType(mapped) == CL_COMMAND_SVM_MAP);
    CHECK(eventStatus(mapped) == CL_COMPLETE);
    for (size_t i = 0; i < n; ++i) a[i] = static_cast<unsigned char>(i * 13);
    cl_event unmapped = nullptr;
    REQUIRE(clEnqueueSVMUnmap(fx.queue, a, 0, nullptr, &unmapped) == CL_SUCCESS);
    CHECK(eventType(unmapped) == CL_COMMAND_SVM_UNMAP);
    std::memset(b, 0, n);
    // A copy held back by a user event.
    cl_int err = CL_SUCCESS;
    cl_event gate = clCreateUserEvent(fx.ctx, &err);
    cl_event copied = nullptr;
    REQUIRE(clEnqueueSVMMemcpy(fx.queue, CL_FALSE, b + 100, a + 200, 1000, 1, &gate, &copied) ==
            CL_SUCCESS);
    CHECK(eventType(copied) == CL_COMMAND_SVM_MEMCPY);
    CHECK(eventStatus(copied) != CL_COMPLETE);
    CHECK(b[100] == 0);
    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &copied) == CL_SUCCESS);
    CHECK(std::memcmp(b + 100, a + 200, 1000) == 0);
    CHECK(b[99] == 0);
    CHECK(b[1100] == 0);
    // Blocking copy from plain host memory (fine-grain system SVM).
    std::vector<unsigned char> host(64, 0x3c);
    REQUIRE(clEnqueueSVMMemcpy(fx.queue, CL_TRUE, b, host.data(), 64, 0, nullptr, nullptr) ==
            CL_SUCCESS);
    CHECK(b[0] == 0x3c);
    CHECK(b[63] == 0x3c);
    // Fill with every pattern size.
    for (size_t ps = 1; ps <= 128; ps *= 2) {
      INFO("pattern " << ps);
      std::vector<unsigned char> pattern(ps);
      for (size_t i = 0; i < ps; ++i) pattern[i] = static_cast<unsigned char>(ps + i);
      cl_event filled = nullptr;
      REQUIRE(clEnqueueSVMMemFill(fx.queue, a + ps * 2, pattern.data(), ps, ps * 6, 0, nullptr,
                                  &filled) == CL_SUCCESS);
      REQUIRE(clWaitForEvents(1, &filled) == CL_SUCCESS);
      CHECK(eventType(filled) == CL_COMMAND_SVM_MEMFILL);
      clReleaseEvent(filled);
      bool ok = true;
      for (size_t i = 0; i < ps * 6; ++i) ok &= a[ps * 2 + i] == pattern[i % ps];
      CHECK(ok);
    }
    const void* ptrs[] = {a, b};
    const size_t sizes[] = {n, 16};
    cl_event migrated = nullptr;
    REQUIRE(clEnqueueSVMMigrateMem(fx.queue, 2, ptrs, sizes, CL_MIGRATE_MEM_OBJECT_HOST, 0, nullptr,
                                   &migrated) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &migrated) == CL_SUCCESS);
    CHECK(eventType(migrated) == CL_COMMAND_SVM_MIGRATE_MEM);
    REQUIRE(clEnqueueSVMMigrateMem(fx.queue, 2, ptrs, nullptr, 0, 0, nullptr, nullptr) == CL_SUCCESS);
    for (cl_event e : {mapped, unmapped, gate, copied, migrated}) clReleaseEvent(e);
    clSVMFree(fx.ctx, a);
    clSVMFree(fx.ctx, b);
  }
}

TEST_CASE("Given SVM commands with bad arguments, then each refusal is the spec's", "[cl][svm]") {
  ClFixture fx;
  auto* a = static_cast<unsigned char*>(clSVMAlloc(fx.ctx, 0, 256, 0));
  REQUIRE(a);
  unsigned char pat[256] = {};
  CHECK(clEnqueueSVMMemcpy(nullptr, CL_TRUE, a, a + 128, 16, 0, nullptr, nullptr) ==
        CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueSVMMemcpy(fx.queue, CL_TRUE, nullptr, a, 16, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMemcpy(fx.queue, CL_TRUE, a, nullptr, 16, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMemcpy(fx.queue, CL_TRUE, a, a + 8, 16, 0, nullptr, nullptr) == CL_MEM_COPY_OVERLAP);
  CHECK(clEnqueueSVMMemcpy(fx.queue, CL_TRUE, a + 8, a, 16, 0, nullptr, nullptr) == CL_MEM_COPY_OVERLAP);
  CHECK(clEnqueueSVMMemcpy(fx.queue, CL_TRUE, a + 16, a, 16, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(clEnqueueSVMMemcpy(fx.queue, CL_TRUE, a + 16, a, 16, 1, nullptr, nullptr) ==
        CL_INVALID_EVENT_WAIT_LIST);
  CHECK(clEnqueueSVMMemFill(fx.queue, nullptr, pat, 4, 16, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMemFill(fx.queue, a, nullptr, 4, 16, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMemFill(fx.queue, a, pat, 0, 16, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMemFill(fx.queue, a, pat, 3, 6, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMemFill(fx.queue, a, pat, 256, 256, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMemFill(fx.queue, a + 2, pat, 4, 16, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMemFill(fx.queue, a, pat, 4, 18, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMemFill(nullptr, a, pat, 4, 16, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueSVMMap(fx.queue, CL_TRUE, CL_MAP_READ, nullptr, 16, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMap(fx.queue, CL_TRUE, CL_MAP_READ, a, 0, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMap(fx.queue, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, a, 16, 0,
                        nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMap(fx.queue, CL_TRUE, 0x40, a, 16, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMUnmap(fx.queue, nullptr, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMUnmap(nullptr, a, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  const void* ptrs[] = {a};
  const size_t tooBig[] = {257};
  const size_t fits[] = {128};
  const void* inner[] = {a + 128};
  CHECK(clEnqueueSVMMigrateMem(fx.queue, 0, ptrs, nullptr, 0, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMigrateMem(fx.queue, 1, nullptr, nullptr, 0, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMigrateMem(fx.queue, 1, ptrs, tooBig, 0, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMigrateMem(fx.queue, 1, inner, fits, 0, 0, nullptr, nullptr) == CL_SUCCESS);
  const size_t over[] = {129};
  CHECK(clEnqueueSVMMigrateMem(fx.queue, 1, inner, over, 0, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMigrateMem(fx.queue, 1, ptrs, nullptr, 0x10, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  void* list[] = {a};
  CHECK(clEnqueueSVMFree(fx.queue, 0, list, nullptr, nullptr, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMFree(fx.queue, 1, nullptr, nullptr, nullptr, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMFree(nullptr, 1, list, nullptr, nullptr, 0, nullptr, nullptr) ==
        CL_INVALID_COMMAND_QUEUE);
  CHECK(clFinish(fx.queue) == CL_SUCCESS);
  clSVMFree(fx.ctx, a);
}

TEST_CASE("Given clEnqueueSVMFree, then it runs after the commands before it, calls back with "
          "the pointers, and later commands wait for it",
          "[cl][svm]") {
  ClFixture fx;
  FreeLog log;
  log.ctx = fx.ctx;
  void* a = clSVMAlloc(fx.ctx, 0, 64, 0);
  void* b = clSVMAlloc(fx.ctx, 0, 64, 0);
  REQUIRE(a);
  REQUIRE(b);
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(fx.ctx, &err);
  cl_event freed = nullptr;
  void* list[] = {a, b};
  REQUIRE(clEnqueueSVMFree(fx.queue, 2, list, freeCallback, &log, 1, &gate, &freed) == CL_SUCCESS);
  list[0] = list[1] = nullptr;  // the call copied the array
  CHECK(eventType(freed) == CL_COMMAND_SVM_FREE);
  cl_event marker = nullptr;
  REQUIRE(clEnqueueMarkerWithWaitList(fx.queue, 0, nullptr, &marker) == CL_SUCCESS);
  CHECK(log.calls == 0);
  CHECK(eventStatus(freed) != CL_COMPLETE);
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &freed) == CL_SUCCESS);
  CHECK(log.calls == 1);  // called before the event completed
  CHECK(log.queue == fx.queue);
  CHECK(log.count == 2);
  CHECK(log.pointers == std::vector<void*>{a, b});
  REQUIRE(clWaitForEvents(1, &marker) == CL_SUCCESS);
  // Without a callback the pointers are freed by the implementation; a buffer over SVM memory
  // reports it.
  void* c = clSVMAlloc(fx.ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 256, 0);
  REQUIRE(c);
  cl_mem overSvm = clCreateBuffer(fx.ctx, CL_MEM_USE_HOST_PTR, 128, static_cast<char*>(c) + 64, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_bool uses = CL_FALSE;
  REQUIRE(clGetMemObjectInfo(overSvm, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, nullptr) == CL_SUCCESS);
  CHECK(uses == CL_TRUE);
  cl_buffer_region r{0, 64};
  cl_mem sub = clCreateSubBuffer(overSvm, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clGetMemObjectInfo(sub, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, nullptr) == CL_SUCCESS);
  CHECK(uses == CL_TRUE);
  std::vector<unsigned char> host(128);
  cl_mem plain = clCreateBuffer(fx.ctx, CL_MEM_USE_HOST_PTR, 128, host.data(), &err);
  REQUIRE(clGetMemObjectInfo(plain, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, nullptr) == CL_SUCCESS);
  CHECK(uses == CL_FALSE);
  cl_mem copied = clCreateBuffer(fx.ctx, CL_MEM_COPY_HOST_PTR, 128, c, &err);
  REQUIRE(clGetMemObjectInfo(copied, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, nullptr) == CL_SUCCESS);
  CHECK(uses == CL_FALSE);
  clReleaseMemObject(sub);
  clReleaseMemObject(overSvm);
  clReleaseMemObject(plain);
  clReleaseMemObject(copied);
  REQUIRE(clEnqueueSVMFree(fx.queue, 1, &c, nullptr, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
  // Freed by the implementation: the context no longer counts it as SVM (the buffer only records
  // the pointer; nothing touches the memory).
  cl_mem again = clCreateBuffer(fx.ctx, CL_MEM_USE_HOST_PTR, 64, c, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clGetMemObjectInfo(again, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, nullptr) == CL_SUCCESS);
  CHECK(uses == CL_FALSE);
  clReleaseMemObject(again);
  // An empty free is a command too.
  cl_event empty = nullptr;
  REQUIRE(clEnqueueSVMFree(fx.queue, 0, nullptr, nullptr, nullptr, 0, nullptr, &empty) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &empty) == CL_SUCCESS);
  for (cl_event e : {gate, freed, marker, empty}) clReleaseEvent(e);
}
