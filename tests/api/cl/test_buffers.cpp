// Buffers through ocl-icd: creation flags, sub-buffers, read/write/copy/fill (also by
// rectangles) against host references, maps, migration, events across queues, lifetimes and
// every refusal the spec names.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <numeric>
#include <vector>

#include "cl_test_support.h"

using namespace tessera::cltest;

namespace {

cl_mem makeBuffer(cl_context ctx, cl_mem_flags flags, size_t size, void* host = nullptr) {
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(ctx, flags, size, host, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(m != nullptr);
  return m;
}

cl_int createError(cl_context ctx, cl_mem_flags flags, size_t size, void* host) {
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(ctx, flags, size, host, &err);
  CHECK((err == CL_SUCCESS) == (m != nullptr));
  if (m) clReleaseMemObject(m);
  return err;
}

template <typename T>
T memInfo(cl_mem m, cl_mem_info what) {
  T v{};
  REQUIRE(clGetMemObjectInfo(m, what, sizeof v, &v, nullptr) == CL_SUCCESS);
  return v;
}

std::vector<unsigned char> iota(size_t n, unsigned char start = 0) {
  std::vector<unsigned char> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<unsigned char>(start + i * 7 + (i >> 8));
  return v;
}

std::vector<unsigned char> readAll(cl_command_queue q, cl_mem m, size_t n) {
  std::vector<unsigned char> out(n, 0xee);
  REQUIRE(clEnqueueReadBuffer(q, m, CL_TRUE, 0, n, out.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  return out;
}

// -1 when equal, else the first index that differs (or the shorter size): readable on failure.
long firstDiff(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return long(i);
  return a.size() == b.size() ? -1 : long(n);
}

cl_mem subBuffer(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size, cl_int* err) {
  cl_buffer_region r{origin, size};
  return clCreateSubBuffer(parent, flags, CL_BUFFER_CREATE_TYPE_REGION, &r, err);
}

cl_int eventStatus(cl_event e) {
  cl_int s = 0;
  REQUIRE(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr) == CL_SUCCESS);
  return s;
}

}  // namespace

TEST_CASE("Given every clCreateBuffer flag combination, then valid ones make a buffer holding "
          "the expected data and invalid ones are refused",
          "[cl][buffer]") {
  ClFixture fx;
  constexpr size_t n = 256;
  std::vector<unsigned char> host = iota(n, 3);
  const cl_mem_flags access[] = {0, CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY};
  const cl_mem_flags hostAccess[] = {0, CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY,
                                     CL_MEM_HOST_NO_ACCESS};
  const cl_mem_flags ptrFlags[] = {0,
                                   CL_MEM_USE_HOST_PTR,
                                   CL_MEM_COPY_HOST_PTR,
                                   CL_MEM_ALLOC_HOST_PTR,
                                   CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR,
                                   CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR,
                                   CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR};
  int made = 0;
  for (cl_mem_flags a : access)
    for (cl_mem_flags h : hostAccess)
      for (cl_mem_flags p : ptrFlags)
        for (bool withPtr : {false, true}) {
          cl_mem_flags flags = a | h | p;
          bool wantsPtr = p & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
          bool validFlags = !((p & CL_MEM_USE_HOST_PTR) &&
                              (p & (CL_MEM_COPY_HOST_PTR | CL_MEM_ALLOC_HOST_PTR)));
          cl_int expected = !validFlags ? CL_INVALID_VALUE
                            : wantsPtr != withPtr ? CL_INVALID_HOST_PTR
                                                  : CL_SUCCESS;
          INFO("flags " << flags << " host_ptr " << withPtr);
          cl_int err = CL_SUCCESS;
          cl_mem m = clCreateBuffer(fx.ctx, flags, n, withPtr ? host.data() : nullptr, &err);
          CHECK(err == expected);
          CHECK((m != nullptr) == (expected == CL_SUCCESS));
          if (!m) continue;
          ++made;
          CHECK(memInfo<cl_mem_flags>(m, CL_MEM_FLAGS) == (flags ? flags : CL_MEM_READ_WRITE));
          CHECK(memInfo<size_t>(m, CL_MEM_SIZE) == n);
          CHECK(memInfo<void*>(m, CL_MEM_HOST_PTR) ==
                ((p & CL_MEM_USE_HOST_PTR) ? host.data() : nullptr));
          // The initial contents: the host data for USE and COPY.
          if (wantsPtr && !(h & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)))
            CHECK(firstDiff(readAll(fx.queue, m, n), host) == -1);
          // Host access flags gate reads and writes.
          unsigned char byte = 0;
          cl_int readErr = clEnqueueReadBuffer(fx.queue, m, CL_TRUE, 0, 1, &byte, 0, nullptr, nullptr);
          cl_int writeErr = clEnqueueWriteBuffer(fx.queue, m, CL_TRUE, 0, 1, &byte, 0, nullptr, nullptr);
          bool mayRead = !(h & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS));
          bool mayWrite = !(h & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS));
          CHECK(readErr == (mayRead ? CL_SUCCESS : CL_INVALID_OPERATION));
          CHECK(writeErr == (mayWrite ? CL_SUCCESS : CL_INVALID_OPERATION));
          CHECK(clReleaseMemObject(m) == CL_SUCCESS);
        }
  // Valid: 4 access x 4 host access x {none, USE, COPY, ALLOC, ALLOC|COPY}.
  CHECK(made == 4 * 4 * 5);
  // Exclusive groups, unknown bits, sizes, the context.
  CHECK(createError(fx.ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, n, nullptr) == CL_INVALID_VALUE);
  CHECK(createError(fx.ctx, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, n, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(createError(fx.ctx, cl_mem_flags(1) << 40, n, nullptr) == CL_INVALID_VALUE);
  CHECK(createError(fx.ctx, CL_MEM_KERNEL_READ_AND_WRITE, n, nullptr) == CL_INVALID_VALUE);
  CHECK(createError(fx.ctx, 0, 0, nullptr) == CL_INVALID_BUFFER_SIZE);
  CHECK(createError(fx.ctx, 0, ~size_t(0), nullptr) == CL_INVALID_BUFFER_SIZE);
  cl_int err = CL_SUCCESS;
  CHECK(clCreateBuffer(nullptr, 0, n, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_CONTEXT);
  CHECK(clCreateBuffer(reinterpret_cast<cl_context>(fx.queue), 0, n, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_CONTEXT);
}

TEST_CASE("Given clCreateBufferWithProperties, then an empty list is kept and any property is "
          "refused",
          "[cl][buffer]") {
  ClFixture fx;
  cl_int err = CL_SUCCESS;
  cl_mem_properties empty[] = {0};
  cl_mem m = clCreateBufferWithProperties(fx.ctx, empty, 0, 64, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  size_t sz = 99;
  REQUIRE(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, nullptr, &sz) == CL_SUCCESS);
  CHECK(sz == sizeof(cl_mem_properties));
  clReleaseMemObject(m);
  m = clCreateBufferWithProperties(fx.ctx, nullptr, 0, 64, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, nullptr, &sz) == CL_SUCCESS);
  CHECK(sz == 0);
  clReleaseMemObject(m);
  m = makeBuffer(fx.ctx, 0, 64);
  REQUIRE(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, nullptr, &sz) == CL_SUCCESS);
  CHECK(sz == 0);
  clReleaseMemObject(m);
  cl_mem_properties unknown[] = {0x4242, 1, 0};
  CHECK(clCreateBufferWithProperties(fx.ctx, unknown, 0, 64, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_PROPERTY);
  CHECK(clCreateBufferWithProperties(nullptr, empty, 0, 64, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_CONTEXT);
}

TEST_CASE("Given a buffer, then its queries, references and info errors answer", "[cl][buffer]") {
  ClFixture fx;
  cl_mem m = makeBuffer(fx.ctx, CL_MEM_READ_ONLY, 128);
  CHECK(memInfo<cl_mem_object_type>(m, CL_MEM_TYPE) == CL_MEM_OBJECT_BUFFER);
  CHECK(memInfo<cl_context>(m, CL_MEM_CONTEXT) == fx.ctx);
  CHECK(memInfo<cl_mem>(m, CL_MEM_ASSOCIATED_MEMOBJECT) == nullptr);
  CHECK(memInfo<size_t>(m, CL_MEM_OFFSET) == 0);
  CHECK(memInfo<cl_uint>(m, CL_MEM_MAP_COUNT) == 0);
  CHECK(memInfo<cl_bool>(m, CL_MEM_USES_SVM_POINTER) == CL_FALSE);
  CHECK(memInfo<cl_uint>(m, CL_MEM_REFERENCE_COUNT) == 1);
  CHECK(clRetainMemObject(m) == CL_SUCCESS);
  CHECK(memInfo<cl_uint>(m, CL_MEM_REFERENCE_COUNT) == 2);
  CHECK(clReleaseMemObject(m) == CL_SUCCESS);
  CHECK(memInfo<cl_uint>(m, CL_MEM_REFERENCE_COUNT) == 1);
  cl_uint small = 0;
  CHECK(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof small, &small, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetMemObjectInfo(m, 0xdead, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clReleaseMemObject(m) == CL_SUCCESS);
  CHECK(clRetainMemObject(nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clReleaseMemObject(reinterpret_cast<cl_mem>(fx.ctx)) == CL_INVALID_MEM_OBJECT);
}

TEST_CASE("Given a CL_MEM_USE_HOST_PTR buffer, then maps return the host memory itself and "
          "commands write into it",
          "[cl][buffer][map]") {
  ClFixture fx;
  std::vector<int> host(64);
  std::iota(host.begin(), host.end(), 0);
  cl_mem m = makeBuffer(fx.ctx, CL_MEM_USE_HOST_PTR, host.size() * sizeof(int), host.data());
  cl_int err = CL_SUCCESS;
  void* p = clEnqueueMapBuffer(fx.queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 16, 64, 0,
                               nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(p == reinterpret_cast<char*>(host.data()) + 16);
  CHECK(memInfo<cl_uint>(m, CL_MEM_MAP_COUNT) == 1);
  static_cast<int*>(p)[0] = 1000;  // host[4]
  REQUIRE(clEnqueueUnmapMemObject(fx.queue, m, p, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(memInfo<cl_uint>(m, CL_MEM_MAP_COUNT) == 0);
  int v = 0;
  REQUIRE(clEnqueueReadBuffer(fx.queue, m, CL_TRUE, 16, 4, &v, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(v == 1000);
  int w = -7;
  REQUIRE(clEnqueueWriteBuffer(fx.queue, m, CL_TRUE, 40, 4, &w, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(host[10] == -7);
  clReleaseMemObject(m);
}

TEST_CASE("Given maps, then they count, unmap only what was mapped, and respect host access",
          "[cl][buffer][map]") {
  ClFixture fx;
  cl_mem m = makeBuffer(fx.ctx, 0, 1024);
  cl_int err = CL_SUCCESS;
  cl_event ev = nullptr;
  void* a = clEnqueueMapBuffer(fx.queue, m, CL_FALSE, CL_MAP_WRITE, 0, 512, 0, nullptr, &ev, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &ev) == CL_SUCCESS);
  cl_command_type type = 0;
  REQUIRE(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS);
  CHECK(type == CL_COMMAND_MAP_BUFFER);
  clReleaseEvent(ev);
  std::memset(a, 0x5a, 512);
  void* b = clEnqueueMapBuffer(fx.queue, m, CL_TRUE, CL_MAP_READ, 256, 256, 0, nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(static_cast<unsigned char*>(b)[0] == 0x5a);
  void* c = clEnqueueMapBuffer(fx.queue, m, CL_TRUE, CL_MAP_READ, 256, 256, 0, nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(memInfo<cl_uint>(m, CL_MEM_MAP_COUNT) == 3);
  // Not a pointer a map of this buffer returned.
  int local = 0;
  CHECK(clEnqueueUnmapMemObject(fx.queue, m, &local, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueUnmapMemObject(fx.queue, m, nullptr, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueUnmapMemObject(fx.queue, m, static_cast<char*>(a) + 1, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueUnmapMemObject(fx.queue, m, a, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(clEnqueueUnmapMemObject(fx.queue, m, a, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueUnmapMemObject(fx.queue, m, b, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(clEnqueueUnmapMemObject(fx.queue, m, c, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(memInfo<cl_uint>(m, CL_MEM_MAP_COUNT) == 0);
  CHECK(firstDiff(readAll(fx.queue, m, 512), std::vector<unsigned char>(512, 0x5a)) == -1);
  // Bounds, size 0, flags.
  auto mapErr = [&](cl_mem buf, cl_map_flags f, size_t off, size_t size) {
    cl_int e = CL_SUCCESS;
    void* p = clEnqueueMapBuffer(fx.queue, buf, CL_TRUE, f, off, size, 0, nullptr, nullptr, &e);
    CHECK((p == nullptr) == (e != CL_SUCCESS));
    if (p) clEnqueueUnmapMemObject(fx.queue, buf, p, 0, nullptr, nullptr);
    return e;
  };
  CHECK(mapErr(m, CL_MAP_READ, 1000, 25) == CL_INVALID_VALUE);
  CHECK(mapErr(m, CL_MAP_READ, 0, 0) == CL_INVALID_VALUE);
  CHECK(mapErr(m, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 4) == CL_INVALID_VALUE);
  CHECK(mapErr(m, 0x100, 0, 4) == CL_INVALID_VALUE);
  CHECK(mapErr(m, CL_MAP_WRITE_INVALIDATE_REGION, 0, 4) == CL_SUCCESS);
  cl_mem wo = makeBuffer(fx.ctx, CL_MEM_HOST_WRITE_ONLY, 64);
  cl_mem ro = makeBuffer(fx.ctx, CL_MEM_HOST_READ_ONLY, 64);
  cl_mem na = makeBuffer(fx.ctx, CL_MEM_HOST_NO_ACCESS, 64);
  CHECK(mapErr(wo, CL_MAP_READ, 0, 4) == CL_INVALID_OPERATION);
  CHECK(mapErr(wo, CL_MAP_WRITE, 0, 4) == CL_SUCCESS);
  CHECK(mapErr(ro, CL_MAP_WRITE, 0, 4) == CL_INVALID_OPERATION);
  CHECK(mapErr(ro, CL_MAP_WRITE_INVALIDATE_REGION, 0, 4) == CL_INVALID_OPERATION);
  CHECK(mapErr(ro, CL_MAP_READ, 0, 4) == CL_SUCCESS);
  CHECK(mapErr(na, CL_MAP_READ, 0, 4) == CL_INVALID_OPERATION);
  CHECK(mapErr(na, CL_MAP_WRITE, 0, 4) == CL_INVALID_OPERATION);
  CHECK(mapErr(nullptr, CL_MAP_READ, 0, 4) == CL_INVALID_MEM_OBJECT);
  CHECK(memInfo<cl_uint>(m, CL_MEM_MAP_COUNT) == 0);
  clEnqueueMapBuffer(nullptr, m, CL_TRUE, CL_MAP_READ, 0, 4, 0, nullptr, nullptr, &err);
  CHECK(err == CL_INVALID_COMMAND_QUEUE);
  clReleaseMemObject(wo);
  clReleaseMemObject(ro);
  clReleaseMemObject(na);
  clReleaseMemObject(m);
}

TEST_CASE("Given sub-buffers, then they are windows on the parent with inherited flags, and "
          "misaligned, out-of-bounds, nested and conflicting ones are refused",
          "[cl][buffer][subbuffer]") {
  ClFixture fx;
  cl_uint alignBits = deviceInfo<cl_uint>(fx.dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN);
  const size_t align = alignBits / 8;
  const size_t n = align * 8;
  std::vector<unsigned char> init = iota(n, 1);
  cl_mem parent = makeBuffer(fx.ctx, CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                             n, init.data());
  cl_int err = CL_SUCCESS;
  cl_mem sub = subBuffer(parent, 0, align * 2, align * 3, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(memInfo<cl_mem>(sub, CL_MEM_ASSOCIATED_MEMOBJECT) == parent);
  CHECK(memInfo<size_t>(sub, CL_MEM_OFFSET) == align * 2);
  CHECK(memInfo<size_t>(sub, CL_MEM_SIZE) == align * 3);
  CHECK(memInfo<cl_mem_flags>(sub, CL_MEM_FLAGS) ==
        (CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_COPY_HOST_PTR));
  std::vector<unsigned char> got = readAll(fx.queue, sub, align * 3);
  CHECK(std::equal(got.begin(), got.end(), init.begin() + align * 2));
  // Inherited host access: writes are refused through the sub-buffer too.
  unsigned char b = 0;
  CHECK(clEnqueueWriteBuffer(fx.queue, sub, CL_TRUE, 0, 1, &b, 0, nullptr, nullptr) ==
        CL_INVALID_OPERATION);
  // Flags conflicting with the parent's, or host pointer flags.
  CHECK(subBuffer(parent, CL_MEM_READ_WRITE, 0, align, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(subBuffer(parent, CL_MEM_WRITE_ONLY, 0, align, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(subBuffer(parent, CL_MEM_HOST_WRITE_ONLY, 0, align, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(subBuffer(parent, CL_MEM_USE_HOST_PTR, 0, align, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  // Nested.
  CHECK(subBuffer(sub, 0, 0, align, &err) == nullptr);
  CHECK(err == CL_INVALID_MEM_OBJECT);
  // Region errors.
  CHECK(subBuffer(parent, 0, 1, align, &err) == nullptr);
  CHECK(err == CL_MISALIGNED_SUB_BUFFER_OFFSET);
  CHECK(subBuffer(parent, 0, align * 7, align * 2, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(subBuffer(parent, 0, align, 0, &err) == nullptr);
  CHECK(err == CL_INVALID_BUFFER_SIZE);
  cl_buffer_region r{0, align};
  CHECK(clCreateSubBuffer(parent, 0, 0x1234, &r, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clCreateSubBuffer(nullptr, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) == nullptr);
  CHECK(err == CL_INVALID_MEM_OBJECT);
  // The sub-buffer keeps its parent alive.
  CHECK(clReleaseMemObject(parent) == CL_SUCCESS);
  got = readAll(fx.queue, sub, align * 3);
  CHECK(std::equal(got.begin(), got.end(), init.begin() + align * 2));
  clReleaseMemObject(sub);

  // A writable parent: writes through a sub-buffer land in the parent at the offset.
  cl_mem rw = makeBuffer(fx.ctx, 0, n);
  std::vector<unsigned char> zeros(n, 0);
  REQUIRE(clEnqueueWriteBuffer(fx.queue, rw, CL_TRUE, 0, n, zeros.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  cl_mem w = subBuffer(rw, CL_MEM_WRITE_ONLY | CL_MEM_HOST_WRITE_ONLY, align, align, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(memInfo<cl_mem_flags>(w, CL_MEM_FLAGS) == (CL_MEM_WRITE_ONLY | CL_MEM_HOST_WRITE_ONLY));
  std::vector<unsigned char> data(align, 0xab);
  REQUIRE(clEnqueueWriteBuffer(fx.queue, w, CL_TRUE, 0, align, data.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  CHECK(clEnqueueReadBuffer(fx.queue, w, CL_TRUE, 0, 1, &b, 0, nullptr, nullptr) ==
        CL_INVALID_OPERATION);
  CHECK(clEnqueueWriteBuffer(fx.queue, w, CL_TRUE, 1, align, data.data(), 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  got = readAll(fx.queue, rw, n);
  for (size_t i = 0; i < n; ++i) {
    INFO(i);
    REQUIRE(got[i] == ((i >= align && i < 2 * align) ? 0xab : 0));
  }
  // A map of the sub-buffer points into the parent's storage.
  void* pp = clEnqueueMapBuffer(fx.queue, rw, CL_TRUE, CL_MAP_READ, 0, n, 0, nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  void* sp = clEnqueueMapBuffer(fx.queue, w, CL_TRUE, CL_MAP_WRITE, 0, align, 0, nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(sp == static_cast<char*>(pp) + align);
  clEnqueueUnmapMemObject(fx.queue, w, sp, 0, nullptr, nullptr);
  clEnqueueUnmapMemObject(fx.queue, rw, pp, 0, nullptr, nullptr);
  // A sub-buffer of a USE_HOST_PTR buffer reports host_ptr + origin.
  std::vector<unsigned char> hostMem(n);
  cl_mem useHost = makeBuffer(fx.ctx, CL_MEM_USE_HOST_PTR, n, hostMem.data());
  cl_mem us = subBuffer(useHost, 0, align, align, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(memInfo<void*>(us, CL_MEM_HOST_PTR) == hostMem.data() + align);
  CHECK(memInfo<cl_mem_flags>(us, CL_MEM_FLAGS) == CL_MEM_USE_HOST_PTR);  // inherited
  clReleaseMemObject(us);
  clReleaseMemObject(useHost);
  clReleaseMemObject(w);
  clReleaseMemObject(rw);
}

TEST_CASE("Given reads and writes, then bounds, pointers, contexts and wait lists are checked",
          "[cl][buffer]") {
  ClFixture fx;
  ClFixture other;
  cl_mem m = makeBuffer(fx.ctx, 0, 64);
  cl_mem foreign = makeBuffer(other.ctx, 0, 64);
  std::vector<unsigned char> buf(128);
  auto rd = +[](cl_command_queue q, cl_mem b, size_t off, size_t size, void* p) -> cl_int {
    return clEnqueueReadBuffer(q, b, CL_TRUE, off, size, p, 0, nullptr, nullptr);
  };
  auto wr = +[](cl_command_queue q, cl_mem b, size_t off, size_t size, void* p) -> cl_int {
    return clEnqueueWriteBuffer(q, b, CL_TRUE, off, size, p, 0, nullptr, nullptr);
  };
  for (int write = 0; write < 2; ++write) {
    auto f = write ? wr : rd;
    INFO("write " << write);
    CHECK(f(fx.queue, m, 0, 64, buf.data()) == CL_SUCCESS);
    CHECK(f(fx.queue, m, 60, 4, buf.data()) == CL_SUCCESS);
    CHECK(f(fx.queue, m, 60, 5, buf.data()) == CL_INVALID_VALUE);
    CHECK(f(fx.queue, m, 65, 0, buf.data()) == CL_INVALID_VALUE);
    CHECK(f(fx.queue, m, 8, ~size_t(0), buf.data()) == CL_INVALID_VALUE);
    CHECK(f(fx.queue, m, 0, 4, nullptr) == CL_INVALID_VALUE);
    CHECK(f(nullptr, m, 0, 4, buf.data()) == CL_INVALID_COMMAND_QUEUE);
    CHECK(f(fx.queue, nullptr, 0, 4, buf.data()) == CL_INVALID_MEM_OBJECT);
    CHECK(f(fx.queue, foreign, 0, 4, buf.data()) == CL_INVALID_CONTEXT);
  }
  cl_event bogus = reinterpret_cast<cl_event>(m);
  CHECK(clEnqueueReadBuffer(fx.queue, m, CL_TRUE, 0, 4, buf.data(), 1, nullptr, nullptr) ==
        CL_INVALID_EVENT_WAIT_LIST);
  CHECK(clEnqueueReadBuffer(fx.queue, m, CL_TRUE, 0, 4, buf.data(), 0, &bogus, nullptr) ==
        CL_INVALID_EVENT_WAIT_LIST);
  CHECK(clEnqueueWriteBuffer(fx.queue, m, CL_TRUE, 0, 4, buf.data(), 1, &bogus, nullptr) ==
        CL_INVALID_EVENT_WAIT_LIST);
  // An event of another context.
  cl_int err = CL_SUCCESS;
  cl_event foreignEvent = clCreateUserEvent(other.ctx, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(clEnqueueReadBuffer(fx.queue, m, CL_FALSE, 0, 4, buf.data(), 1, &foreignEvent, nullptr) ==
        CL_INVALID_CONTEXT);
  clSetUserEventStatus(foreignEvent, CL_COMPLETE);
  clReleaseEvent(foreignEvent);
  // A blocking read waiting on a failed user event reports it.
  cl_event failed = clCreateUserEvent(fx.ctx, &err);
  REQUIRE(clSetUserEventStatus(failed, -5) == CL_SUCCESS);
  CHECK(clEnqueueReadBuffer(fx.queue, m, CL_TRUE, 0, 4, buf.data(), 1, &failed, nullptr) ==
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  clReleaseEvent(failed);
  clReleaseMemObject(foreign);
  clReleaseMemObject(m);
}

TEST_CASE("Given copies and fills, then the data matches a host reference", "[cl][buffer]") {
  ClFixture fx;
  const size_t n = 4096;
  std::vector<unsigned char> a = iota(n, 9), b = iota(n, 100);
  cl_mem src = makeBuffer(fx.ctx, CL_MEM_COPY_HOST_PTR, n, a.data());
  cl_mem dst = makeBuffer(fx.ctx, CL_MEM_COPY_HOST_PTR, n, b.data());
  cl_event ev = nullptr;
  REQUIRE(clEnqueueCopyBuffer(fx.queue, src, dst, 100, 1000, 777, 0, nullptr, &ev) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &ev) == CL_SUCCESS);
  cl_command_type type = 0;
  clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
  CHECK(type == CL_COMMAND_COPY_BUFFER);
  clReleaseEvent(ev);
  std::copy(a.begin() + 100, a.begin() + 877, b.begin() + 1000);
  CHECK(firstDiff(readAll(fx.queue, dst, n), b) == -1);
  // Non-overlapping copy within one buffer is fine; overlapping ones are refused.
  REQUIRE(clEnqueueCopyBuffer(fx.queue, dst, dst, 0, 2048, 1024, 0, nullptr, nullptr) == CL_SUCCESS);
  std::copy(b.begin(), b.begin() + 1024, b.begin() + 2048);
  CHECK(firstDiff(readAll(fx.queue, dst, n), b) == -1);
  CHECK(clEnqueueCopyBuffer(fx.queue, dst, dst, 0, 1023, 1024, 0, nullptr, nullptr) ==
        CL_MEM_COPY_OVERLAP);
  CHECK(clEnqueueCopyBuffer(fx.queue, dst, dst, 1000, 1000, 1, 0, nullptr, nullptr) ==
        CL_MEM_COPY_OVERLAP);
  CHECK(clEnqueueCopyBuffer(fx.queue, src, dst, 4000, 0, 97, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueCopyBuffer(fx.queue, src, dst, 0, 4000, 97, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueCopyBuffer(fx.queue, src, nullptr, 0, 0, 4, 0, nullptr, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  CHECK(clEnqueueCopyBuffer(nullptr, src, dst, 0, 0, 4, 0, nullptr, nullptr) ==
        CL_INVALID_COMMAND_QUEUE);
  // Sub-buffers of one parent: overlapping windows are refused, disjoint ones copy.
  cl_uint alignBits = deviceInfo<cl_uint>(fx.dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN);
  size_t align = alignBits / 8;
  cl_int err = CL_SUCCESS;
  cl_mem s1 = subBuffer(dst, 0, 0, align * 2, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem s2 = subBuffer(dst, 0, align, align * 2, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(clEnqueueCopyBuffer(fx.queue, s1, s2, align, 0, 16, 0, nullptr, nullptr) ==
        CL_MEM_COPY_OVERLAP);
  CHECK(clEnqueueCopyBuffer(fx.queue, s1, dst, 0, 8, 16, 0, nullptr, nullptr) ==
        CL_MEM_COPY_OVERLAP);
  REQUIRE(clEnqueueCopyBuffer(fx.queue, s1, s2, 0, align, 16, 0, nullptr, nullptr) == CL_SUCCESS);
  std::copy(b.begin(), b.begin() + 16, b.begin() + 2 * align);
  CHECK(firstDiff(readAll(fx.queue, dst, n), b) == -1);
  clReleaseMemObject(s1);
  clReleaseMemObject(s2);

  // Fills with every pattern size.
  for (size_t ps = 1; ps <= 128; ps *= 2) {
    INFO("pattern size " << ps);
    std::vector<unsigned char> pattern = iota(ps, static_cast<unsigned char>(ps));
    size_t off = ps * 3, size = ps * 5;
    REQUIRE(clEnqueueFillBuffer(fx.queue, dst, pattern.data(), ps, off, size, 0, nullptr, nullptr) ==
            CL_SUCCESS);
    for (size_t i = 0; i < size; ++i) b[off + i] = pattern[i % ps];
    CHECK(firstDiff(readAll(fx.queue, dst, n), b) == -1);
  }
  unsigned char pat[256] = {};
  CHECK(clEnqueueFillBuffer(fx.queue, dst, pat, 3, 0, 6, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueFillBuffer(fx.queue, dst, pat, 256, 0, 256, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueFillBuffer(fx.queue, dst, pat, 0, 0, 4, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueFillBuffer(fx.queue, dst, nullptr, 4, 0, 4, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueFillBuffer(fx.queue, dst, pat, 4, 2, 4, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueFillBuffer(fx.queue, dst, pat, 4, 0, 6, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueFillBuffer(fx.queue, dst, pat, 4, n - 4, 8, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueFillBuffer(fx.queue, nullptr, pat, 4, 0, 4, 0, nullptr, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  // The pattern may be reused as soon as the call returns.
  cl_event gate = clCreateUserEvent(fx.ctx, &err);
  unsigned int word = 0x11223344;
  REQUIRE(clEnqueueFillBuffer(fx.queue, dst, &word, 4, 0, 64, 1, &gate, nullptr) == CL_SUCCESS);
  word = 0;
  clSetUserEventStatus(gate, CL_COMPLETE);
  clReleaseEvent(gate);
  unsigned int first = 0;
  REQUIRE(clEnqueueReadBuffer(fx.queue, dst, CL_TRUE, 60, 4, &first, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(first == 0x11223344u);
  clReleaseMemObject(src);
  clReleaseMemObject(dst);
}

TEST_CASE("Given rectangle reads, writes and copies with uneven pitches, then the data matches a "
          "host reference",
          "[cl][buffer][rect]") {
  ClFixture fx;
  // Buffer: rows of 37 bytes, slices of 5 rows + 11 bytes; host: rows of 23, slices of 150.
  const size_t bRow = 37, bSlice = 37 * 5 + 11, hRow = 23, hSlice = 150;
  const size_t depth = 4, n = bSlice * depth;
  const size_t region[3] = {13, 4, 3};
  const size_t bOrigin[3] = {5, 1, 1};
  const size_t hOrigin[3] = {7, 2, 0};
  std::vector<unsigned char> dev = iota(n, 17);
  cl_mem m = makeBuffer(fx.ctx, CL_MEM_COPY_HOST_PTR, n, dev.data());
  std::vector<unsigned char> host(hSlice * 3 + 64, 0xcc);
  std::vector<unsigned char> expect = host;
  REQUIRE(clEnqueueReadBufferRect(fx.queue, m, CL_TRUE, bOrigin, hOrigin, region, bRow, bSlice,
                                  hRow, hSlice, host.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  auto bAt = [&](size_t x, size_t y, size_t z, const size_t* o) {
    return (o[2] + z) * bSlice + (o[1] + y) * bRow + o[0] + x;
  };
  auto hAt = [&](size_t x, size_t y, size_t z, const size_t* o) {
    return (o[2] + z) * hSlice + (o[1] + y) * hRow + o[0] + x;
  };
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y)
      for (size_t x = 0; x < region[0]; ++x) expect[hAt(x, y, z, hOrigin)] = dev[bAt(x, y, z, bOrigin)];
  CHECK(firstDiff(host, expect) == -1);

  // Write back a different rectangle from host data.
  std::vector<unsigned char> src = iota(hSlice * 3 + 64, 200);
  const size_t wOrigin[3] = {0, 0, 1};
  REQUIRE(clEnqueueWriteBufferRect(fx.queue, m, CL_TRUE, wOrigin, hOrigin, region, bRow, bSlice,
                                   hRow, hSlice, src.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y)
      for (size_t x = 0; x < region[0]; ++x) dev[bAt(x, y, z, wOrigin)] = src[hAt(x, y, z, hOrigin)];
  CHECK(firstDiff(readAll(fx.queue, m, n), dev) == -1);

  // Default pitches (0): tightly packed rows and slices on both sides.
  const size_t r2[3] = {8, 3, 2};
  const size_t zero[3] = {0, 0, 0};
  std::vector<unsigned char> packed(8 * 3 * 2, 0);
  REQUIRE(clEnqueueReadBufferRect(fx.queue, m, CL_TRUE, zero, zero, r2, 0, 0, 0, 0, packed.data(),
                                  0, nullptr, nullptr) == CL_SUCCESS);
  for (size_t i = 0; i < packed.size(); ++i) {
    INFO(i);
    CHECK(packed[i] == dev[i]);  // the buffer side is packed too: the first 48 bytes
  }

  // The checks: regions, pitches, bounds, pointers, host access.
  auto rd = [&](const size_t* bo, const size_t* reg, size_t br, size_t bs, size_t hr, size_t hs,
                void* p) {
    return clEnqueueReadBufferRect(fx.queue, m, CL_TRUE, bo, zero, reg, br, bs, hr, hs, p, 0,
                                   nullptr, nullptr);
  };
  std::vector<unsigned char> big(4096);
  const size_t r0[3] = {0, 1, 1};
  CHECK(rd(zero, r0, 0, 0, 0, 0, big.data()) == CL_INVALID_VALUE);
  const size_t rz[3] = {4, 1, 0};
  CHECK(rd(zero, rz, 0, 0, 0, 0, big.data()) == CL_INVALID_VALUE);
  const size_t r4[3] = {16, 2, 2};
  CHECK(rd(zero, r4, 15, 0, 0, 0, big.data()) == CL_INVALID_VALUE);          // row pitch < width
  CHECK(rd(zero, r4, 0, 0, 15, 0, big.data()) == CL_INVALID_VALUE);          // host row pitch
  CHECK(rd(zero, r4, 20, 30, 0, 0, big.data()) == CL_INVALID_VALUE);         // slice < 2 rows, not k*20
  CHECK(rd(zero, r4, 0, 0, 20, 30, big.data()) == CL_INVALID_VALUE);
  CHECK(rd(zero, r4, 20, 0, 0, 0, nullptr) == CL_INVALID_VALUE);
  CHECK(rd(zero, r4, bRow, bSlice, 0, 0, big.data()) == CL_SUCCESS);
  // Ends exactly at the buffer's end: 3 * 196 + 4 * 37 + 32 + 16 = 784.
  const size_t last[3] = {32, 3, 2};
  CHECK(rd(last, r4, bRow, bSlice, 0, 0, big.data()) == CL_SUCCESS);
  const size_t past[3] = {33, 3, 2};
  CHECK(rd(past, r4, bRow, bSlice, 0, 0, big.data()) == CL_INVALID_VALUE);
  const size_t deep[3] = {0, 0, 3};
  CHECK(rd(deep, r4, bRow, bSlice, 0, 0, big.data()) == CL_INVALID_VALUE);
  CHECK(clEnqueueWriteBufferRect(fx.queue, m, CL_TRUE, deep, zero, r4, bRow, bSlice, 0, 0,
                                 big.data(), 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueReadBufferRect(fx.queue, m, CL_TRUE, nullptr, zero, r4, 0, 0, 0, 0, big.data(), 0,
                                nullptr, nullptr) == CL_INVALID_VALUE);
  cl_mem ro = makeBuffer(fx.ctx, CL_MEM_HOST_READ_ONLY, 256);
  cl_mem wo = makeBuffer(fx.ctx, CL_MEM_HOST_WRITE_ONLY, 256);
  CHECK(clEnqueueWriteBufferRect(fx.queue, ro, CL_TRUE, zero, zero, r4, 0, 0, 0, 0, big.data(), 0,
                                 nullptr, nullptr) == CL_INVALID_OPERATION);
  CHECK(clEnqueueReadBufferRect(fx.queue, wo, CL_TRUE, zero, zero, r4, 0, 0, 0, 0, big.data(), 0,
                                nullptr, nullptr) == CL_INVALID_OPERATION);
  CHECK(clEnqueueReadBufferRect(fx.queue, ro, CL_TRUE, zero, zero, r4, 0, 0, 0, 0, big.data(), 0,
                                nullptr, nullptr) == CL_SUCCESS);
  clReleaseMemObject(ro);
  clReleaseMemObject(wo);
  clReleaseMemObject(m);
}

TEST_CASE("Given rectangle copies, then data matches, and overlap follows Appendix D",
          "[cl][buffer][rect]") {
  ClFixture fx;
  const size_t n = 2048;
  std::vector<unsigned char> a = iota(n, 1), b(n, 0);
  cl_mem src = makeBuffer(fx.ctx, CL_MEM_COPY_HOST_PTR, n, a.data());
  cl_mem dst = makeBuffer(fx.ctx, CL_MEM_COPY_HOST_PTR, n, b.data());
  const size_t region[3] = {10, 3, 4};
  const size_t so[3] = {3, 2, 1}, dO[3] = {1, 0, 2};
  const size_t sRow = 17, sSlice = 100, dRow = 31, dSlice = 31 * 3 + 5;
  REQUIRE(clEnqueueCopyBufferRect(fx.queue, src, dst, so, dO, region, sRow, sSlice, dRow, dSlice, 0,
                                  nullptr, nullptr) == CL_SUCCESS);
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y)
      for (size_t x = 0; x < region[0]; ++x)
        b[(dO[2] + z) * dSlice + (dO[1] + y) * dRow + dO[0] + x] =
            a[(so[2] + z) * sSlice + (so[1] + y) * sRow + so[0] + x];
  CHECK(firstDiff(readAll(fx.queue, dst, n), b) == -1);

  // Within one buffer: side-by-side columns of the same rows do not overlap (Appendix D's row
  // gap), so the copy runs; the spans interleave, which one region copy would refuse.
  const size_t cols[3] = {8, 16, 1};
  const size_t left[3] = {0, 0, 0}, right[3] = {16, 0, 0};
  REQUIRE(clEnqueueCopyBufferRect(fx.queue, dst, dst, left, right, cols, 32, 0, 32, 0, 0, nullptr,
                                  nullptr) == CL_SUCCESS);
  for (size_t y = 0; y < 16; ++y)
    for (size_t x = 0; x < 8; ++x) b[y * 32 + 16 + x] = b[y * 32 + x];
  CHECK(firstDiff(readAll(fx.queue, dst, n), b) == -1);
  const size_t near[3] = {4, 0, 0};
  CHECK(clEnqueueCopyBufferRect(fx.queue, dst, dst, left, near, cols, 32, 0, 32, 0, 0, nullptr,
                                nullptr) == CL_MEM_COPY_OVERLAP);
  const size_t down[3] = {0, 15, 0};
  CHECK(clEnqueueCopyBufferRect(fx.queue, dst, dst, left, down, cols, 32, 0, 32, 0, 0, nullptr,
                                nullptr) == CL_MEM_COPY_OVERLAP);
  // Same buffer, both pitches different.
  CHECK(clEnqueueCopyBufferRect(fx.queue, dst, dst, left, right, cols, 32, 512, 40, 640, 0, nullptr,
                                nullptr) == CL_INVALID_VALUE);
  // Same buffer, row pitches differ but slice pitches match: checked row by row.
  const size_t far[3] = {0, 0, 1};
  const size_t r1[3] = {8, 4, 1};
  REQUIRE(clEnqueueCopyBufferRect(fx.queue, dst, dst, left, far, r1, 32, 1024, 64, 1024, 0, nullptr,
                                  nullptr) == CL_SUCCESS);
  for (size_t y = 0; y < 4; ++y)
    for (size_t x = 0; x < 8; ++x) b[1024 + y * 64 + x] = b[y * 32 + x];
  CHECK(firstDiff(readAll(fx.queue, dst, n), b) == -1);
  CHECK(clEnqueueCopyBufferRect(fx.queue, dst, dst, left, near, r1, 32, 1024, 64, 1024, 0, nullptr,
                                nullptr) == CL_MEM_COPY_OVERLAP);
  // Bounds and arguments.
  const size_t tooFar[3] = {0, 0, 20};
  CHECK(clEnqueueCopyBufferRect(fx.queue, src, dst, tooFar, left, cols, 32, 0, 32, 0, 0, nullptr,
                                nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueCopyBufferRect(fx.queue, src, dst, left, tooFar, cols, 32, 0, 32, 0, 0, nullptr,
                                nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueCopyBufferRect(fx.queue, src, dst, left, right, cols, 7, 0, 32, 0, 0, nullptr,
                                nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueCopyBufferRect(fx.queue, src, dst, left, right, nullptr, 0, 0, 0, 0, 0, nullptr,
                                nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueCopyBufferRect(fx.queue, src, nullptr, left, right, cols, 0, 0, 0, 0, 0, nullptr,
                                nullptr) == CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(src);
  clReleaseMemObject(dst);
}

TEST_CASE("Given two queues, then events order commands across them", "[cl][buffer][event]") {
  ClFixture fx;
  cl_int err = CL_SUCCESS;
  cl_command_queue q2 = clCreateCommandQueue(fx.ctx, fx.dev, 0, &err);
  REQUIRE(err == CL_SUCCESS);
  const size_t n = 1 << 16;
  std::vector<unsigned char> data = iota(n, 5);
  cl_mem a = makeBuffer(fx.ctx, 0, n);
  cl_mem b = makeBuffer(fx.ctx, 0, n);
  cl_event gate = clCreateUserEvent(fx.ctx, &err);
  cl_event written = nullptr, copied = nullptr, read = nullptr;
  REQUIRE(clEnqueueWriteBuffer(fx.queue, a, CL_FALSE, 0, n, data.data(), 1, &gate, &written) ==
          CL_SUCCESS);
  REQUIRE(clEnqueueCopyBuffer(q2, a, b, 0, 0, n, 1, &written, &copied) == CL_SUCCESS);
  std::vector<unsigned char> out(n, 0);
  REQUIRE(clEnqueueReadBuffer(fx.queue, b, CL_FALSE, 0, n, out.data(), 1, &copied, &read) ==
          CL_SUCCESS);
  CHECK(eventStatus(copied) != CL_COMPLETE);
  CHECK(eventStatus(read) != CL_COMPLETE);
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &read) == CL_SUCCESS);
  CHECK(eventStatus(written) == CL_COMPLETE);
  CHECK(eventStatus(copied) == CL_COMPLETE);
  CHECK(firstDiff(out, data) == -1);
  cl_command_queue eq = nullptr;
  REQUIRE(clGetEventInfo(copied, CL_EVENT_COMMAND_QUEUE, sizeof eq, &eq, nullptr) == CL_SUCCESS);
  CHECK(eq == q2);
  // Migration: a command with an event, ordered like the others.
  cl_event migrated = nullptr;
  cl_mem both[] = {a, b};
  REQUIRE(clEnqueueMigrateMemObjects(q2, 2, both, CL_MIGRATE_MEM_OBJECT_HOST, 1, &read, &migrated) ==
          CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &migrated) == CL_SUCCESS);
  cl_command_type type = 0;
  clGetEventInfo(migrated, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
  CHECK(type == CL_COMMAND_MIGRATE_MEM_OBJECTS);
  CHECK(clEnqueueMigrateMemObjects(q2, 0, both, 0, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueMigrateMemObjects(q2, 2, nullptr, 0, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueMigrateMemObjects(q2, 2, both, 0x80, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  cl_mem withNull[] = {a, nullptr};
  CHECK(clEnqueueMigrateMemObjects(q2, 2, withNull, 0, 0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
  ClFixture other;
  cl_mem foreign = makeBuffer(other.ctx, 0, 16);
  cl_mem mixed[] = {a, foreign};
  CHECK(clEnqueueMigrateMemObjects(q2, 2, mixed, 0, 0, nullptr, nullptr) == CL_INVALID_CONTEXT);
  CHECK(clEnqueueMigrateMemObjects(nullptr, 2, both, 0, 0, nullptr, nullptr) ==
        CL_INVALID_COMMAND_QUEUE);
  clReleaseMemObject(foreign);
  for (cl_event e : {gate, written, copied, read, migrated}) clReleaseEvent(e);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseCommandQueue(q2);
}

namespace {
struct DestructorLog {
  std::vector<int> order;
  std::atomic<int> calls{0};
  cl_mem expected = nullptr;
  bool handleMatched = true;
};
DestructorLog* g_log = nullptr;
void CL_CALLBACK first(cl_mem m, void*) {
  g_log->order.push_back(1);
  g_log->handleMatched &= (m == g_log->expected);
  ++g_log->calls;
}
void CL_CALLBACK second(cl_mem m, void* data) {
  g_log->order.push_back(*static_cast<int*>(data));
  g_log->handleMatched &= (m == g_log->expected);
  ++g_log->calls;
}
}  // namespace

TEST_CASE("Given a released buffer still used by a held-back command, then it lives until the "
          "command completes and its destructor callbacks then run in reverse order",
          "[cl][buffer][lifetime]") {
  ClFixture fx;
  DestructorLog log;
  g_log = &log;
  const size_t n = 4096;
  std::vector<unsigned char> data = iota(n, 77);
  cl_mem src = makeBuffer(fx.ctx, CL_MEM_COPY_HOST_PTR, n, data.data());
  cl_mem dst = makeBuffer(fx.ctx, 0, n);
  log.expected = src;
  int two = 2;
  REQUIRE(clSetMemObjectDestructorCallback(src, first, nullptr) == CL_SUCCESS);
  REQUIRE(clSetMemObjectDestructorCallback(src, second, &two) == CL_SUCCESS);
  CHECK(clSetMemObjectDestructorCallback(src, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clSetMemObjectDestructorCallback(nullptr, first, nullptr) == CL_INVALID_MEM_OBJECT);
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(fx.ctx, &err);
  cl_event copied = nullptr;
  REQUIRE(clEnqueueCopyBuffer(fx.queue, src, dst, 0, 0, n, 1, &gate, &copied) == CL_SUCCESS);
  REQUIRE(clReleaseMemObject(src) == CL_SUCCESS);
  // The handle is gone for the application, the object is not.
  CHECK(clGetMemObjectInfo(src, CL_MEM_SIZE, 0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(log.calls == 0);
  // Scribble over fresh allocations: if src's storage had been freed, this would likely reuse it.
  std::vector<cl_mem> noise;
  for (int i = 0; i < 4; ++i) {
    unsigned char zero = 0;
    noise.push_back(makeBuffer(fx.ctx, 0, n));
    REQUIRE(clEnqueueFillBuffer(fx.queue, noise.back(), &zero, 1, 0, n, 1, &gate, nullptr) ==
            CL_SUCCESS);
  }
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &copied) == CL_SUCCESS);
  CHECK(firstDiff(readAll(fx.queue, dst, n), data) == -1);
  REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
  CHECK(log.calls == 2);
  CHECK(log.order == std::vector<int>{2, 1});
  CHECK(log.handleMatched);
  for (cl_mem m : noise) clReleaseMemObject(m);
  clReleaseEvent(gate);
  clReleaseEvent(copied);
  clReleaseMemObject(dst);
  g_log = nullptr;
}

TEST_CASE("Given a buffer whose last command the application waited for, when it is released, "
          "then it is deleted at once, not at the queue's next command",
          "[cl][buffer][lifetime]") {
  // A buffer freed only at the next enqueue stands beside the next allocation: twice the memory,
  // and the next buffer's pages faulted in fresh instead of reusing its.
  ClFixture fx;
  DestructorLog log;
  g_log = &log;
  const size_t n = 4096;
  std::vector<unsigned char> data = iota(n, 5), out(n, 0);
  // The commands wait for a user event, so none is complete when it is appended (where the queue
  // also lets go of what completed commands held).
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(fx.ctx, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem m = makeBuffer(fx.ctx, 0, n);
  log.expected = m;
  REQUIRE(clSetMemObjectDestructorCallback(m, first, nullptr) == CL_SUCCESS);
  cl_event w = nullptr;
  REQUIRE(clEnqueueWriteBuffer(fx.queue, m, CL_FALSE, 0, n, data.data(), 1, &gate, &w) ==
          CL_SUCCESS);
  SECTION("a blocking read after it") {
    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    REQUIRE(clEnqueueReadBuffer(fx.queue, m, CL_TRUE, 0, n, out.data(), 0, nullptr, nullptr) ==
            CL_SUCCESS);
    CHECK(firstDiff(out, data) == -1);
  }
  SECTION("clWaitForEvents on it") {
    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &w) == CL_SUCCESS);
  }
  REQUIRE(clReleaseMemObject(m) == CL_SUCCESS);
  CHECK(log.calls == 1);
  clReleaseEvent(w);
  clReleaseEvent(gate);
  CHECK(log.handleMatched);
  g_log = nullptr;
}

TEST_CASE("Given non-blocking reads and writes, then their events complete and the data arrives",
          "[cl][buffer][event]") {
  ClFixture fx;
  const size_t n = 1 << 20;
  std::vector<unsigned char> data = iota(n, 1), out(n, 0);
  cl_mem m = makeBuffer(fx.ctx, 0, n);
  cl_event w = nullptr, r = nullptr;
  REQUIRE(clEnqueueWriteBuffer(fx.queue, m, CL_FALSE, 0, n, data.data(), 0, nullptr, &w) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(fx.queue, m, CL_FALSE, 0, n, out.data(), 1, &w, &r) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &r) == CL_SUCCESS);
  CHECK(firstDiff(out, data) == -1);
  cl_command_type type = 0;
  clGetEventInfo(w, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
  CHECK(type == CL_COMMAND_WRITE_BUFFER);
  clGetEventInfo(r, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
  CHECK(type == CL_COMMAND_READ_BUFFER);
  clReleaseEvent(w);
  clReleaseEvent(r);
  clReleaseMemObject(m);
}

TEST_CASE("Given a user event released right after it is set, then the commands waiting on it "
          "still run",
          "[cl][buffer][event]") {
  ClFixture fx;
  cl_mem m = makeBuffer(fx.ctx, 0, 64);
  // The command holds its wait list: were the event's Level Zero event reset and reused before the
  // command saw the signal, the command would wait forever.
  for (unsigned i = 0; i < 200; ++i) {
    cl_int err = CL_SUCCESS;
    cl_event gate = clCreateUserEvent(fx.ctx, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_event done = nullptr;
    REQUIRE(clEnqueueWriteBuffer(fx.queue, m, CL_FALSE, 0, sizeof i, &i, 1, &gate, &done) ==
            CL_SUCCESS);
    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    REQUIRE(clReleaseEvent(gate) == CL_SUCCESS);
    cl_event other = clCreateUserEvent(fx.ctx, &err);  // may take the freed slot
    REQUIRE(clWaitForEvents(1, &done) == CL_SUCCESS);
    clReleaseEvent(other);
    clReleaseEvent(done);
    unsigned got = ~0u;
    REQUIRE(clEnqueueReadBuffer(fx.queue, m, CL_TRUE, 0, sizeof got, &got, 0, nullptr, nullptr) ==
            CL_SUCCESS);
    REQUIRE(got == i);
  }
  clReleaseMemObject(m);
}
