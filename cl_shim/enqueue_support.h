// What the memory commands (api_enqueue_memory.cpp, buffers) and the image commands
// (api_enqueue_image.cpp) share: the handle checks, bounds, map flags and the empty command.
#pragma once

#include <level_zero/ze_api.h>

#include "cl_shim/memory.h"
#include "cl_shim/queue.h"

namespace tessera::cl {

// The queue and a memory object of its context: CL_INVALID_COMMAND_QUEUE, CL_INVALID_MEM_OBJECT,
// "CL_INVALID_CONTEXT if the context associated with command_queue and buffer are not the same".
inline cl_int queueAndMemory(cl_command_queue queue, cl_mem memobj, Queue*& q, Memory*& m) {
  q = Queue::from(queue);
  if (!q) return CL_INVALID_COMMAND_QUEUE;
  m = Memory::from(memobj);
  if (!m) return CL_INVALID_MEM_OBJECT;
  if (&m->context() != &q->context()) return CL_INVALID_CONTEXT;
  return CL_SUCCESS;
}

// Likewise for a buffer, "CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object", or an
// image, "if image is not a valid image object".
inline cl_int queueAndBuffer(cl_command_queue queue, cl_mem buffer, Queue*& q, Memory*& m) {
  if (cl_int e = queueAndMemory(queue, buffer, q, m); e != CL_SUCCESS) return e;
  return m->image() ? CL_INVALID_MEM_OBJECT : CL_SUCCESS;
}
inline cl_int queueAndImage(cl_command_queue queue, cl_mem image, Queue*& q, Memory*& m) {
  if (cl_int e = queueAndMemory(queue, image, q, m); e != CL_SUCCESS) return e;
  return m->image() ? CL_SUCCESS : CL_INVALID_MEM_OBJECT;
}

// A copy's two objects, each checked by `check` (queueAndBuffer or queueAndImage), source first.
using MemoryCheck = cl_int (*)(cl_command_queue, cl_mem, Queue*&, Memory*&);
inline cl_int queueAndPair(cl_command_queue queue, cl_mem src, cl_mem dst, MemoryCheck check,
                           Queue*& q, Memory*& s, Memory*& d) {
  if (cl_int e = check(queue, src, q, s); e != CL_SUCCESS) return e;
  return check(queue, dst, q, d);
}

// [offset, offset + size) within [0, limit), without overflow.
inline bool inBounds(size_t offset, size_t size, size_t limit) {
  return offset <= limit && size <= limit - offset;
}

// A command with nothing to do but its waits and its event.
inline ze_result_t appendNop(ze_command_list_handle_t l, ze_event_handle_t signal, uint32_t nw,
                             ze_event_handle_t* w) {
  return zeCommandListAppendBarrier(l, signal, nw, w);
}

inline bool validMapFlags(cl_map_flags f) {
  const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  // "CL_MAP_WRITE_INVALIDATE_REGION ... is mutually exclusive with CL_MAP_READ or CL_MAP_WRITE."
  return !(f & ~known) &&
         !((f & CL_MAP_WRITE_INVALIDATE_REGION) && (f & (CL_MAP_READ | CL_MAP_WRITE)));
}

// "CL_INVALID_OPERATION if buffer has been created with CL_MEM_HOST_WRITE_ONLY or
// CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set in map_flags or if buffer has been created with
// CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS and CL_MAP_WRITE or CL_MAP_WRITE_INVALIDATE_REGION
// is set in map_flags" (images alike).
inline bool hostMayMap(const Memory& m, cl_map_flags f) {
  return !((f & CL_MAP_READ) && !m.hostMayRead()) &&
         !((f & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) && !m.hostMayWrite());
}

}  // namespace tessera::cl
