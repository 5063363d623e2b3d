// Shared virtual memory. The device reports coarse- and fine-grain buffer SVM, fine-grain system
// SVM and SVM atomics: host and device are one coherent memory, so an SVM allocation is a Level
// Zero shared allocation of the context, maps and unmaps only order commands, and migration moves
// nothing. The context keeps the allocations' ranges (Context::addSvm / findSvm).
#include <algorithm>
#include <memory>
#include <vector>

#include "cl_shim/api.h"
#include "cl_shim/api_support.h"
#include "cl_shim/errors.h"
#include "cl_shim/queue.h"
#include "cl_shim/waiters.h"

namespace tessera::cl::api {
namespace {

using Ze = ze_command_list_handle_t;
using SvmFreeNotify = void(CL_CALLBACK*)(cl_command_queue, cl_uint, void**, void*);

// "If alignment is 0, a default alignment will be used that is equal to the size of largest data
// type supported by the OpenCL implementation" (long16: 128 bytes).
constexpr size_t kDefaultSvmAlignment = 128;
// The largest alignment accepted: a page multiple comfortably above any data type.
constexpr size_t kMaxSvmAlignment = size_t(1) << 21;

ze_result_t appendNop(Ze l, ze_event_handle_t signal, uint32_t nw, ze_event_handle_t* w) {
  return zeCommandListAppendBarrier(l, signal, nw, w);
}

bool validMapFlags(cl_map_flags f) {
  const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  return !(f & ~known) &&
         !((f & CL_MAP_WRITE_INVALIDATE_REGION) && (f & (CL_MAP_READ | CL_MAP_WRITE)));
}

}  // namespace

void* clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment) {
  void* result = nullptr;
  // "clSVMAlloc returns a valid non-NULL shared virtual memory address if the SVM buffer is
  // successfully allocated. Otherwise, like malloc, it returns a NULL pointer value."
  guarded([&] {
    Context* c = Context::from(context);
    if (!c) return CL_INVALID_CONTEXT;
    // "values specified in flags do not follow rules described for supported values": one of
    // READ_WRITE / WRITE_ONLY / READ_ONLY, "CL_MEM_SVM_ATOMICS ... can only be used with
    // CL_MEM_SVM_FINE_GRAIN_BUFFER".
    const cl_svm_mem_flags known = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY |
                                   CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
    cl_svm_mem_flags access = flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY);
    if ((flags & ~known) || __builtin_popcountll(access) > 1 ||
        ((flags & CL_MEM_SVM_ATOMICS) && !(flags & CL_MEM_SVM_FINE_GRAIN_BUFFER)))
      return CL_INVALID_VALUE;
    // "size is 0 or > CL_DEVICE_MAX_MEM_ALLOC_SIZE value for any device in context".
    uint64_t maxAlloc = UINT64_MAX;
    for (auto& d : c->devices()) maxAlloc = std::min(maxAlloc, d->zeProperties().maxMemAllocSize);
    if (size == 0 || size > maxAlloc) return CL_INVALID_BUFFER_SIZE;
    // "alignment is not a power of two or the OpenCL implementation cannot support the specified
    // alignment for at least one device in context".
    size_t align = alignment ? alignment : kDefaultSvmAlignment;
    if ((align & (align - 1)) || align > kMaxSvmAlignment) return CL_INVALID_VALUE;
    ze_device_mem_alloc_desc_t dd{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    ze_host_mem_alloc_desc_t hd{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    void* p = nullptr;
    ze_result_t r = zeMemAllocShared(c->ze(), &dd, &hd, size, align, nullptr, &p);
    if (r != ZE_RESULT_SUCCESS || !p) return CL_OUT_OF_RESOURCES;
    c->addSvm(p, size);
    result = p;
    return CL_SUCCESS;
  });
  return result;
}

void clSVMFree(cl_context context, void* svm_pointer) {
  // "If a NULL pointer is passed in svm_pointer, no action occurs." A pointer that is not an
  // allocation of this context is left alone (the spec leaves it undefined).
  guarded([&] {
    Context* c = Context::from(context);
    if (!c || !svm_pointer) return CL_SUCCESS;
    // "Note that clSVMFree does not wait for previously enqueued commands that may be using
    // svm_pointer to finish before freeing svm_pointer. It is the responsibility of the
    // application to make sure that enqueued commands that use svm_pointer have finished".
    if (c->removeSvm(svm_pointer)) zeMemFree(c->ze(), svm_pointer);
    return CL_SUCCESS;
  });
}

cl_int clEnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers,
                        void* svm_pointers[], SvmFreeNotify pfn_free_func, void* user_data,
                        cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                        cl_event* event) {
  return guarded([&]() -> cl_int {
    Queue* q = Queue::from(command_queue);
    if (!q) return CL_INVALID_COMMAND_QUEUE;
    // "CL_INVALID_VALUE if num_svm_pointers is 0 and svm_pointers is non-NULL, or if svm_pointers
    // is NULL and num_svm_pointers is not 0."
    if ((num_svm_pointers == 0) != (svm_pointers == nullptr)) return CL_INVALID_VALUE;
    if (!waitListShapeOk(num_events_in_wait_list, event_wait_list))
      return CL_INVALID_EVENT_WAIT_LIST;
    // The pointers outlive the call: the callback receives this copy.
    auto pointers = std::make_shared<std::vector<void*>>(svm_pointers,
                                                         svm_pointers + num_svm_pointers);
    // The command waits for its wait list (event `before`), the host then frees or calls back
    // and signals `freed`, on which the command's own event waits: so the event completes, and
    // later commands run, only once the memory is gone.
    Ref<Context> context(&q->context());
    ze_event_handle_t before = context->takeEvent();
    ze_event_handle_t freed = context->takeEvent();
    cl_event ev = nullptr;
    cl_int err = q->enqueue(
        CL_COMMAND_SVM_FREE, num_events_in_wait_list, event_wait_list, &ev,
        [&](Ze l, ze_event_handle_t signal, uint32_t nw, ze_event_handle_t* w) {
          if (ze_result_t r = zeCommandListAppendBarrier(l, before, nw, w); r != ZE_RESULT_SUCCESS)
            return r;
          return zeCommandListAppendBarrier(l, signal, 1, &freed);
        },
        {});
    if (err != CL_SUCCESS) {
      context->giveEvent(before);
      context->giveEvent(freed);
      if (err != CL_OUT_OF_RESOURCES || !q->lost()) return err;
      // A lost context (a kernel faulted in it) runs no command, but a free still frees
      // (Queue::enqueueRelease): now, on this thread, with an event that is complete.
      if (pfn_free_func) {
        pfn_free_func(q->handle(), cl_uint(pointers->size()), pointers->data(), user_data);
      } else {
        for (void* p : *pointers)
          if (p && context->removeSvm(p)) zeMemFree(context->ze(), p);
      }
      return q->enqueueRelease(CL_COMMAND_SVM_FREE, num_events_in_wait_list, event_wait_list,
                               event, appendNop);
    }
    Ref<Event> cmd(Event::from(ev));
    Ref<Queue> queue(q);
    startWaiter([=] {
      if (!waitForEvent(before)) return;  // the process is exiting
      // "If pfn_free_func is NULL, clEnqueueSVMFree will call clSVMFree to free the SVM pointers";
      // otherwise the callback "can be used by the application to free the SVM pointers".
      if (pfn_free_func) {
        pfn_free_func(queue->handle(), cl_uint(pointers->size()), pointers->data(), user_data);
      } else {
        for (void* p : *pointers)
          if (p && context->removeSvm(p)) zeMemFree(context->ze(), p);
      }
      zeEventHostSignal(freed);
      cmd->wait();  // the list is past `freed`: both events can go back
      context->giveEvent(before);
      context->giveEvent(freed);
    });
    if (event)
      *event = ev;
    else
      cmd->releaseApi();
    return CL_SUCCESS;
  });
}

cl_int clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy, void* dst_ptr,
                          const void* src_ptr, size_t size, cl_uint num_events_in_wait_list,
                          const cl_event* event_wait_list, cl_event* event) {
  return guarded([&]() -> cl_int {
    Queue* q = Queue::from(command_queue);
    if (!q) return CL_INVALID_COMMAND_QUEUE;
    // "CL_INVALID_VALUE if dst_ptr or src_ptr is NULL."
    if (!dst_ptr || !src_ptr) return CL_INVALID_VALUE;
    // "CL_MEM_COPY_OVERLAP if the values specified for dst_ptr, src_ptr and size result in an
    // overlapping copy."
    auto d = reinterpret_cast<uintptr_t>(dst_ptr), s = reinterpret_cast<uintptr_t>(src_ptr);
    if (size > 0 && d < s + size && s < d + size) return CL_MEM_COPY_OVERLAP;
    return q->enqueue(
        CL_COMMAND_SVM_MEMCPY, num_events_in_wait_list, event_wait_list, event,
        [&](Ze l, ze_event_handle_t signal, uint32_t nw, ze_event_handle_t* w) {
          if (size == 0) return appendNop(l, signal, nw, w);
          return zeCommandListAppendMemoryCopy(l, dst_ptr, src_ptr, size, signal, nw, w);
        },
        {}, blocking_copy);
  });
}

cl_int clEnqueueSVMMemFill(cl_command_queue command_queue, void* svm_ptr, const void* pattern,
                           size_t pattern_size, size_t size, cl_uint num_events_in_wait_list,
                           const cl_event* event_wait_list, cl_event* event) {
  return guarded([&]() -> cl_int {
    Queue* q = Queue::from(command_queue);
    if (!q) return CL_INVALID_COMMAND_QUEUE;
    // "CL_INVALID_VALUE if svm_ptr is NULL", "if svm_ptr is not aligned to pattern_size bytes",
    // "if pattern is NULL or if pattern_size is 0 or if pattern_size is not one of
    // {1, 2, 4, 8, 16, 32, 64, 128}", "if size is not a multiple of pattern_size".
    if (!svm_ptr || !pattern || pattern_size == 0 || pattern_size > 128 ||
        (pattern_size & (pattern_size - 1)) ||
        reinterpret_cast<uintptr_t>(svm_ptr) % pattern_size || size % pattern_size)
      return CL_INVALID_VALUE;
    return q->enqueue(
        CL_COMMAND_SVM_MEMFILL, num_events_in_wait_list, event_wait_list, event,
        [&](Ze l, ze_event_handle_t signal, uint32_t nw, ze_event_handle_t* w) {
          if (size == 0) return appendNop(l, signal, nw, w);
          return zeCommandListAppendMemoryFill(l, svm_ptr, pattern, pattern_size, size, signal,
                                               nw, w);
        },
        {});
  });
}

cl_int clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map, cl_map_flags flags,
                       void* svm_ptr, size_t size, cl_uint num_events_in_wait_list,
                       const cl_event* event_wait_list, cl_event* event) {
  return guarded([&]() -> cl_int {
    Queue* q = Queue::from(command_queue);
    if (!q) return CL_INVALID_COMMAND_QUEUE;
    // "CL_INVALID_VALUE if svm_ptr is NULL", "if size is 0 or if values specified in map_flags are
    // not valid".
    if (!svm_ptr || size == 0 || !validMapFlags(flags)) return CL_INVALID_VALUE;
    // Coherent memory: the map only orders.
    return q->enqueue(CL_COMMAND_SVM_MAP, num_events_in_wait_list, event_wait_list, event,
                      appendNop, {}, blocking_map);
  });
}

cl_int clEnqueueSVMUnmap(cl_command_queue command_queue, void* svm_ptr,
                         cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                         cl_event* event) {
  return guarded([&]() -> cl_int {
    Queue* q = Queue::from(command_queue);
    if (!q) return CL_INVALID_COMMAND_QUEUE;
    // "CL_INVALID_VALUE if svm_ptr is NULL."
    if (!svm_ptr) return CL_INVALID_VALUE;
    // A release: succeeds in a lost context too (Queue::enqueueRelease).
    return q->enqueueRelease(CL_COMMAND_SVM_UNMAP, num_events_in_wait_list, event_wait_list, event,
                             appendNop);
  });
}

cl_int clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint num_svm_pointers,
                              const void** svm_pointers, const size_t* sizes,
                              cl_mem_migration_flags flags, cl_uint num_events_in_wait_list,
                              const cl_event* event_wait_list, cl_event* event) {
  return guarded([&]() -> cl_int {
    Queue* q = Queue::from(command_queue);
    if (!q) return CL_INVALID_COMMAND_QUEUE;
    // "CL_INVALID_VALUE if num_svm_pointers is zero or svm_pointers is NULL."
    if (num_svm_pointers == 0 || !svm_pointers) return CL_INVALID_VALUE;
    // "CL_INVALID_VALUE if sizes[i] is non-zero range [svm_pointers[i], svm_pointers[i]+sizes[i])
    // is not contained within an existing clSVMAlloc allocation." With fine-grain system SVM any
    // host memory is SVM: only a range that starts in an allocation and leaves it is refused.
    for (cl_uint i = 0; i < num_svm_pointers; ++i) {
      if (!svm_pointers[i]) return CL_INVALID_VALUE;
      void* base;
      size_t allocSize;
      if (sizes && sizes[i] && q->context().findSvm(svm_pointers[i], &base, &allocSize)) {
        size_t at = static_cast<const char*>(svm_pointers[i]) - static_cast<char*>(base);
        if (sizes[i] > allocSize - at) return CL_INVALID_VALUE;
      }
    }
    if (flags & ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST |
                                        CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
      return CL_INVALID_VALUE;
    return q->enqueue(CL_COMMAND_SVM_MIGRATE_MEM, num_events_in_wait_list, event_wait_list, event,
                      appendNop, {}, false);
  });
}

}  // namespace tessera::cl::api
