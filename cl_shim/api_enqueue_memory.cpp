// Buffer commands: read, write, copy, fill (also by rectangles), map, unmap and migrate (the last
// two also of images). Each checks its handles and arguments as the spec says, then appends Level
// Zero copies, fills or barriers through Queue::enqueue, holding the memory objects until the
// command completes (so a buffer released meanwhile lives on until then).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "cl_shim/api.h"
#include "cl_shim/api_support.h"
#include "cl_shim/enqueue_support.h"

namespace tessera::cl::api {
namespace {

using Ze = ze_command_list_handle_t;

// --- Rectangles ----------------------------------------------------------------------------------

struct Rect {
  size_t origin[3];
  size_t rowPitch, slicePitch;
  size_t offset() const { return origin[2] * slicePitch + origin[1] * rowPitch + origin[0]; }
};

// Resolves the default pitches and checks them: "CL_INVALID_VALUE if any region array element is
// 0", "if buffer_row_pitch is not 0 and is less than region[0]", "if buffer_slice_pitch is not 0
// and is less than region[1] × buffer_row_pitch and not a multiple of buffer_row_pitch" (likewise
// for the host's pitches). "If buffer_row_pitch is 0, buffer_row_pitch is computed as region[0]";
// "If buffer_slice_pitch is 0, buffer_slice_pitch is computed as region[1] × buffer_row_pitch."
bool resolvePitches(const size_t* region, size_t& rowPitch, size_t& slicePitch) {
  if (rowPitch != 0 && rowPitch < region[0]) return false;
  if (rowPitch == 0) rowPitch = region[0];
  unsigned __int128 minSlice = (unsigned __int128)region[1] * rowPitch;
  if (slicePitch != 0 && slicePitch < minSlice && slicePitch % rowPitch != 0) return false;
  if (slicePitch == 0) {
    if (minSlice > SIZE_MAX) return false;
    slicePitch = size_t(minSlice);
  }
  return true;
}

// The bytes from the rectangle's first byte to one past its last, counted from the buffer's start.
unsigned __int128 rectEnd(const Rect& r, const size_t* region) {
  using U = unsigned __int128;
  return U(r.origin[2]) * r.slicePitch + U(r.origin[1]) * r.rowPitch + r.origin[0] +
         U(region[2] - 1) * r.slicePitch + U(region[1] - 1) * r.rowPitch + region[0];
}

bool rectInBounds(const Rect& r, const size_t* region, size_t size) {
  return rectEnd(r, region) <= size;
}

// Appends a rectangle copy: one zeCommandListAppendMemoryCopyRegion when the shape fits its 32-bit
// fields and its regions do not share a span, else one copy per row between a barrier that waits
// and one that signals.
ze_result_t appendRectCopy(Ze l, char* dst, const Rect& d, const char* src, const Rect& s,
                           const size_t* region, bool sameStorage, ze_event_handle_t signal,
                           uint32_t nw, ze_event_handle_t* w) {
  const uint64_t limit = UINT32_MAX;
  bool regionOk = !sameStorage && region[0] <= limit && region[1] <= limit && region[2] <= limit &&
                  d.rowPitch <= limit && d.slicePitch <= limit && s.rowPitch <= limit &&
                  s.slicePitch <= limit &&
                  (region[1] <= 1 || (d.rowPitch >= region[0] && s.rowPitch >= region[0])) &&
                  (region[2] <= 1 || (uint64_t(d.slicePitch) >= uint64_t(d.rowPitch) * region[1] &&
                                      uint64_t(s.slicePitch) >= uint64_t(s.rowPitch) * region[1]));
  char* d0 = dst + d.offset();
  const char* s0 = src + s.offset();
  if (regionOk) {
    ze_copy_region_t zr{0, 0, 0, uint32_t(region[0]), uint32_t(region[1]), uint32_t(region[2])};
    ze_result_t r = zeCommandListAppendMemoryCopyRegion(
        l, d0, &zr, uint32_t(d.rowPitch), uint32_t(d.slicePitch), s0, &zr, uint32_t(s.rowPitch),
        uint32_t(s.slicePitch), signal, nw, w);
    if (r != ZE_RESULT_ERROR_OVERLAPPING_REGIONS) return r;
  }
  if (ze_result_t r = zeCommandListAppendBarrier(l, nullptr, nw, w); r != ZE_RESULT_SUCCESS)
    return r;
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y) {
      ze_result_t r = zeCommandListAppendMemoryCopy(l, d0 + z * d.slicePitch + y * d.rowPitch,
                                                    s0 + z * s.slicePitch + y * s.rowPitch,
                                                    region[0], nullptr, 0, nullptr);
      if (r != ZE_RESULT_SUCCESS) return r;
    }
  return zeCommandListAppendBarrier(l, signal, 0, nullptr);
}

// Appendix D's check_copy_overlap (same pitches on both sides), with origins as offsets from the
// root buffer's start.
bool checkCopyOverlap(const size_t srcOrigin[3], const size_t dstOrigin[3], const size_t region[3],
                      size_t rowPitch, size_t slicePitch) {
  const size_t sliceSize = (region[1] - 1) * rowPitch + region[0];
  const size_t blockSize = (region[2] - 1) * slicePitch + sliceSize;
  const size_t srcStart = srcOrigin[2] * slicePitch + srcOrigin[1] * rowPitch + srcOrigin[0];
  const size_t srcEnd = srcStart + blockSize;
  const size_t dstStart = dstOrigin[2] * slicePitch + dstOrigin[1] * rowPitch + dstOrigin[0];
  const size_t dstEnd = dstStart + blockSize;
  if (dstEnd <= srcStart || srcEnd <= dstStart) return false;
  {
    const size_t srcDx = srcOrigin[0] % rowPitch;
    const size_t dstDx = dstOrigin[0] % rowPitch;
    if ((dstDx >= srcDx + region[0] && dstDx + region[0] <= srcDx + rowPitch) ||
        (srcDx >= dstDx + region[0] && srcDx + region[0] <= dstDx + rowPitch))
      return false;
  }
  {
    const size_t srcDy = (srcOrigin[1] * rowPitch + srcOrigin[0]) % slicePitch;
    const size_t dstDy = (dstOrigin[1] * rowPitch + dstOrigin[0]) % slicePitch;
    if ((dstDy >= srcDy + sliceSize && dstDy + sliceSize <= srcDy + slicePitch) ||
        (srcDy >= dstDy + sliceSize && srcDy + sliceSize <= dstDy + slicePitch))
      return false;
  }
  return true;
}

// Row by row, for rectangles of different pitches in one root buffer: do any two rows overlap?
bool rowsOverlap(size_t srcBase, const Rect& s, size_t dstBase, const Rect& d, const size_t* region) {
  auto rows = [&](size_t base, const Rect& r) {
    std::vector<size_t> starts;
    starts.reserve(region[1] * region[2]);
    for (size_t z = 0; z < region[2]; ++z)
      for (size_t y = 0; y < region[1]; ++y)
        starts.push_back(base + r.offset() + z * r.slicePitch + y * r.rowPitch);
    std::sort(starts.begin(), starts.end());
    return starts;
  };
  std::vector<size_t> a = rows(srcBase, s), b = rows(dstBase, d);
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] < b[j] + region[0] && b[j] < a[i] + region[0]) return true;
    if (a[i] < b[j]) ++i; else ++j;
  }
  return false;
}

// --- Read, write --------------------------------------------------------------------------------

cl_int readWrite(bool write, cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset,
                 size_t size, void* ptr, cl_uint n, const cl_event* waits, cl_event* event) {
  Queue* q;
  Memory* m;
  if (cl_int e = queueAndBuffer(queue, buffer, q, m); e != CL_SUCCESS) return e;
  // "CL_INVALID_VALUE if the region being read or written specified by (offset, size) is out of
  // bounds or if ptr is a NULL value."
  if (!ptr || !inBounds(offset, size, m->size())) return CL_INVALID_VALUE;
  if (!waitListShapeOk(n, waits)) return CL_INVALID_EVENT_WAIT_LIST;
  // "CL_INVALID_OPERATION if clEnqueueReadBuffer is called on buffer which has been created with
  // CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS"; "CL_INVALID_OPERATION if clEnqueueWriteBuffer
  // is called on buffer which has been created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS."
  if (write ? !m->hostMayWrite() : !m->hostMayRead()) return CL_INVALID_OPERATION;
  char* dev = m->address() + offset;
  return q->enqueue(
      write ? CL_COMMAND_WRITE_BUFFER : CL_COMMAND_READ_BUFFER, n, waits, event,
      [&](Ze l, ze_event_handle_t signal, uint32_t nw, ze_event_handle_t* w) {
        if (size == 0) return appendNop(l, signal, nw, w);
        return write ? zeCommandListAppendMemoryCopy(l, dev, ptr, size, signal, nw, w)
                     : zeCommandListAppendMemoryCopy(l, ptr, dev, size, signal, nw, w);
      },
      {m}, blocking);
}

cl_int readWriteRect(bool write, cl_command_queue queue, cl_mem buffer, cl_bool blocking,
                     const size_t* buffer_origin, const size_t* host_origin, const size_t* region,
                     size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
                     size_t host_slice_pitch, void* ptr, cl_uint n, const cl_event* waits,
                     cl_event* event) {
  Queue* q;
  Memory* m;
  if (cl_int e = queueAndBuffer(queue, buffer, q, m); e != CL_SUCCESS) return e;
  // "CL_INVALID_VALUE if ptr is a NULL value", "if any region array element is 0".
  if (!ptr || !buffer_origin || !host_origin || !region) return CL_INVALID_VALUE;
  if (region[0] == 0 || region[1] == 0 || region[2] == 0) return CL_INVALID_VALUE;
  Rect b{{buffer_origin[0], buffer_origin[1], buffer_origin[2]}, buffer_row_pitch, buffer_slice_pitch};
  Rect h{{host_origin[0], host_origin[1], host_origin[2]}, host_row_pitch, host_slice_pitch};
  if (!resolvePitches(region, b.rowPitch, b.slicePitch) ||
      !resolvePitches(region, h.rowPitch, h.slicePitch))
    return CL_INVALID_VALUE;
  // "CL_INVALID_VALUE if the region being read or written specified by (buffer_origin, region,
  // buffer_row_pitch, buffer_slice_pitch) is out of bounds."
  if (!rectInBounds(b, region, m->size())) return CL_INVALID_VALUE;
  if (rectEnd(h, region) > SIZE_MAX) return CL_INVALID_VALUE;
  if (!waitListShapeOk(n, waits)) return CL_INVALID_EVENT_WAIT_LIST;
  // "CL_INVALID_OPERATION if clEnqueueReadBufferRect is called on buffer which has been created
  // with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS" (and the write's converse).
  if (write ? !m->hostMayWrite() : !m->hostMayRead()) return CL_INVALID_OPERATION;
  char* host = static_cast<char*>(ptr);
  return q->enqueue(
      write ? CL_COMMAND_WRITE_BUFFER_RECT : CL_COMMAND_READ_BUFFER_RECT, n, waits, event,
      [&](Ze l, ze_event_handle_t signal, uint32_t nw, ze_event_handle_t* w) {
        return write ? appendRectCopy(l, m->address(), b, host, h, region, false, signal, nw, w)
                     : appendRectCopy(l, host, h, m->address(), b, region, false, signal, nw, w);
      },
      {m}, blocking);
}

}  // namespace

cl_int clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
                           size_t offset, size_t size, void* ptr, cl_uint num_events_in_wait_list,
                           const cl_event* event_wait_list, cl_event* event) {
  return guarded([&] {
    return readWrite(false, command_queue, buffer, blocking_read, offset, size, ptr,
                     num_events_in_wait_list, event_wait_list, event);
  });
}

cl_int clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
                            size_t offset, size_t size, const void* ptr,
                            cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                            cl_event* event) {
  return guarded([&] {
    return readWrite(true, command_queue, buffer, blocking_write, offset, size,
                     const_cast<void*>(ptr), num_events_in_wait_list, event_wait_list, event);
  });
}

cl_int clEnqueueReadBufferRect(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
                               const size_t* buffer_origin, const size_t* host_origin,
                               const size_t* region, size_t buffer_row_pitch,
                               size_t buffer_slice_pitch, size_t host_row_pitch,
                               size_t host_slice_pitch, void* ptr, cl_uint num_events_in_wait_list,
                               const cl_event* event_wait_list, cl_event* event) {
  return guarded([&] {
    return readWriteRect(false, command_queue, buffer, blocking_read, buffer_origin, host_origin,
                         region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
                         host_slice_pitch, ptr, num_events_in_wait_list, event_wait_list, event);
  });
}

cl_int clEnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                cl_bool blocking_write, const size_t* buffer_origin,
                                const size_t* host_origin, const size_t* region,
                                size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                size_t host_row_pitch, size_t host_slice_pitch, const void* ptr,
                                cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                cl_event* event) {
  return guarded([&] {
    return readWriteRect(true, command_queue, buffer, blocking_write, buffer_origin, host_origin,
                         region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
                         host_slice_pitch, const_cast<void*>(ptr), num_events_in_wait_list,
                         event_wait_list, event);
  });
}

cl_int clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                           size_t src_offset, size_t dst_offset, size_t size,
                           cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                           cl_event* event) {
  return guarded([&] {
    Queue* q;
    Memory *src, *dst;
    if (cl_int e = queueAndPair(command_queue, src_buffer, dst_buffer, queueAndBuffer, q, src, dst);
        e != CL_SUCCESS)
      return e;
    // "CL_INVALID_VALUE if src_offset, dst_offset, size, src_offset + size or dst_offset + size
    // require accessing elements outside the src_buffer and dst_buffer buffer objects
    // respectively."
    if (!inBounds(src_offset, size, src->size()) || !inBounds(dst_offset, size, dst->size()))
      return CL_INVALID_VALUE;
    // "CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer or sub-buffer object
    // and the source and destination regions overlap or if src_buffer and dst_buffer are different
    // sub-buffers of the same associated buffer object and they overlap." Compared in the root
    // buffer, which also catches a sub-buffer overlapping its own parent.
    if (&src->root() == &dst->root() && size > 0) {
      size_t s = src->offset() + src_offset, d = dst->offset() + dst_offset;
      if (s < d + size && d < s + size) return CL_MEM_COPY_OVERLAP;
    }
    if (!waitListShapeOk(num_events_in_wait_list, event_wait_list))
      return CL_INVALID_EVENT_WAIT_LIST;
    char* from = src->address() + src_offset;
    char* to = dst->address() + dst_offset;
    return q->enqueue(
        CL_COMMAND_COPY_BUFFER, num_events_in_wait_list, event_wait_list, event,
        [&](Ze l, ze_event_handle_t signal, uint32_t nw, ze_event_handle_t* w) {
          if (size == 0) return appendNop(l, signal, nw, w);
          return zeCommandListAppendMemoryCopy(l, to, from, size, signal, nw, w);
        },
        {src, dst});
  });
}

cl_int clEnqueueCopyBufferRect(cl_command_queue command_queue, cl_mem src_buffer,
                               cl_mem dst_buffer, const size_t* src_origin,
                               const size_t* dst_origin, const size_t* region,
                               size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
                               size_t dst_slice_pitch, cl_uint num_events_in_wait_list,
                               const cl_event* event_wait_list, cl_event* event) {
  return guarded([&] {
    Queue* q;
    Memory *src, *dst;
    if (cl_int e = queueAndPair(command_queue, src_buffer, dst_buffer, queueAndBuffer, q, src, dst);
        e != CL_SUCCESS)
      return e;
    if (!src_origin || !dst_origin || !region) return CL_INVALID_VALUE;
    // "CL_INVALID_VALUE if any region array element is 0", the pitch rules (resolvePitches) and
    // "if the region being read or written specified by (src_origin, region, src_row_pitch,
    // src_slice_pitch) or (dst_origin, region, dst_row_pitch, dst_slice_pitch) is out of bounds".
    if (region[0] == 0 || region[1] == 0 || region[2] == 0) return CL_INVALID_VALUE;
    Rect s{{src_origin[0], src_origin[1], src_origin[2]}, src_row_pitch, src_slice_pitch};
    Rect d{{dst_origin[0], dst_origin[1], dst_origin[2]}, dst_row_pitch, dst_slice_pitch};
    if (!resolvePitches(region, s.rowPitch, s.slicePitch) ||
        !resolvePitches(region, d.rowPitch, d.slicePitch))
      return CL_INVALID_VALUE;
    if (!rectInBounds(s, region, src->size()) || !rectInBounds(d, region, dst->size()))
      return CL_INVALID_VALUE;
    // "CL_INVALID_VALUE if src_buffer and dst_buffer are the same buffer object and
    // src_slice_pitch is not equal to dst_slice_pitch and src_row_pitch is not equal to
    // dst_row_pitch."
    if (src == dst && s.slicePitch != d.slicePitch && s.rowPitch != d.rowPitch)
      return CL_INVALID_VALUE;
    // "CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer or sub-buffer object
    // and the source and destination regions overlap or if src_buffer and dst_buffer are different
    // sub-buffers of the same associated buffer object and they overlap. Refer to Appendix D".
    bool sameStorage = &src->root() == &dst->root();
    if (sameStorage) {
      bool overlap;
      if (s.rowPitch == d.rowPitch && s.slicePitch == d.slicePitch) {
        size_t so[3] = {s.origin[0] + src->offset(), s.origin[1], s.origin[2]};
        size_t dO[3] = {d.origin[0] + dst->offset(), d.origin[1], d.origin[2]};
        overlap = checkCopyOverlap(so, dO, region, s.rowPitch, s.slicePitch);
      } else {
        overlap = rowsOverlap(src->offset(), s, dst->offset(), d, region);
      }
      if (overlap) return CL_MEM_COPY_OVERLAP;
    }
    if (!waitListShapeOk(num_events_in_wait_list, event_wait_list))
      return CL_INVALID_EVENT_WAIT_LIST;
    return q->enqueue(
        CL_COMMAND_COPY_BUFFER_RECT, num_events_in_wait_list, event_wait_list, event,
        [&](Ze l, ze_event_handle_t signal, uint32_t nw, ze_event_handle_t* w) {
          return appendRectCopy(l, dst->address(), d, src->address(), s, region, sameStorage,
                                signal, nw, w);
        },
        {src, dst});
  });
}

cl_int clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer, const void* pattern,
                           size_t pattern_size, size_t offset, size_t size,
                           cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                           cl_event* event) {
  return guarded([&] {
    Queue* q;
    Memory* m;
    if (cl_int e = queueAndBuffer(command_queue, buffer, q, m); e != CL_SUCCESS) return e;
    // "CL_INVALID_VALUE if pattern is NULL or if pattern_size is 0 or if pattern_size is not one
    // of { 1, 2, 4, 8, 16, 32, 64, 128 }."
    if (!pattern || pattern_size == 0 || pattern_size > 128 || (pattern_size & (pattern_size - 1)))
      return CL_INVALID_VALUE;
    // "CL_INVALID_VALUE if offset or offset + size require accessing elements outside the buffer
    // buffer object respectively"; "if offset and size are not a multiple of pattern_size".
    if (!inBounds(offset, size, m->size()) || offset % pattern_size || size % pattern_size)
      return CL_INVALID_VALUE;
    if (!waitListShapeOk(num_events_in_wait_list, event_wait_list))
      return CL_INVALID_EVENT_WAIT_LIST;
    char* at = m->address() + offset;
    // The pattern is copied when the fill is appended: "The memory associated with pattern can be
    // reused or freed after the function returns."
    return q->enqueue(
        CL_COMMAND_FILL_BUFFER, num_events_in_wait_list, event_wait_list, event,
        [&](Ze l, ze_event_handle_t signal, uint32_t nw, ze_event_handle_t* w) {
          if (size == 0) return appendNop(l, signal, nw, w);
          return zeCommandListAppendMemoryFill(l, at, pattern, pattern_size, size, signal, nw, w);
        },
        {m});
  });
}

void* clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_map,
                         cl_map_flags map_flags, size_t offset, size_t size,
                         cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                         cl_event* event, cl_int* errcode_ret) {
  return guardedCreate(errcode_ret, [&](cl_int& err) -> void* {
    Queue* q;
    Memory* m;
    if ((err = queueAndBuffer(command_queue, buffer, q, m)) != CL_SUCCESS) return nullptr;
    // "CL_INVALID_VALUE if region being mapped given by (offset, size) is out of bounds or if size
    // is 0 or if values specified in map_flags are not valid."
    if (size == 0 || !inBounds(offset, size, m->size()) || !validMapFlags(map_flags)) {
      err = CL_INVALID_VALUE;
      return nullptr;
    }
    if (!waitListShapeOk(num_events_in_wait_list, event_wait_list)) {
      err = CL_INVALID_EVENT_WAIT_LIST;
      return nullptr;
    }
    // The host access flags (hostMayMap's quote).
    if (!hostMayMap(*m, map_flags)) {
      err = CL_INVALID_OPERATION;
      return nullptr;
    }
    // The storage is host memory the device uses in place: the mapped region is the buffer itself
    // (for CL_MEM_USE_HOST_PTR, host_ptr + offset, as the spec requires).
    void* p = m->address() + offset;
    err = q->enqueue(CL_COMMAND_MAP_BUFFER, num_events_in_wait_list, event_wait_list, event,
                     appendNop, {m}, blocking_map);
    if (err != CL_SUCCESS) return nullptr;
    m->addMapping(p);
    return p;
  });
}

cl_int clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj, void* mapped_ptr,
                               cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                               cl_event* event) {
  return guarded([&] {
    Queue* q;
    Memory* m;
    if (cl_int e = queueAndMemory(command_queue, memobj, q, m); e != CL_SUCCESS) return e;
    if (!waitListShapeOk(num_events_in_wait_list, event_wait_list))
      return CL_INVALID_EVENT_WAIT_LIST;
    // "CL_INVALID_VALUE if mapped_ptr is not a valid pointer returned by clEnqueueMapBuffer or
    // clEnqueueMapImage for memobj."
    if (!mapped_ptr || !m->removeMapping(mapped_ptr)) return CL_INVALID_VALUE;
    // A release: in a lost context the mapping is still given back (Queue::enqueueRelease).
    cl_int err = q->enqueueRelease(CL_COMMAND_UNMAP_MEM_OBJECT, num_events_in_wait_list,
                                   event_wait_list, event, appendNop, {m});
    if (err != CL_SUCCESS) m->addMapping(mapped_ptr);
    return err;
  });
}

cl_int clEnqueueMigrateMemObjects(cl_command_queue command_queue, cl_uint num_mem_objects,
                                  const cl_mem* mem_objects, cl_mem_migration_flags flags,
                                  cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                  cl_event* event) {
  return guarded([&] {
    Queue* q = Queue::from(command_queue);
    if (!q) return CL_INVALID_COMMAND_QUEUE;
    // "CL_INVALID_VALUE if num_mem_objects is zero or if mem_objects is NULL."
    if (num_mem_objects == 0 || !mem_objects) return CL_INVALID_VALUE;
    std::vector<RefCounted*> holds;
    for (cl_uint i = 0; i < num_mem_objects; ++i) {
      Memory* m;
      if (cl_int e = queueAndMemory(command_queue, mem_objects[i], q, m); e != CL_SUCCESS) return e;
      holds.push_back(m);
    }
    // "CL_INVALID_VALUE if flags is not 0 or is not any of the values described in the table".
    if (flags & ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST |
                                        CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
      return CL_INVALID_VALUE;
    // One memory for host and device: there is nothing to move, only the ordering to keep.
    return q->enqueue(CL_COMMAND_MIGRATE_MEM_OBJECTS, num_events_in_wait_list, event_wait_list,
                      event, appendNop, holds, false);
  });
}

}  // namespace tessera::cl::api
