// The append entry points of memory and events (images: ze_image_copy_api.cpp). Each checks what is
// its own, then appendOp() looks up the list and calls CommandList::append, which checks the events
// and records (or, on an immediate list, runs) the command.
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>

#include "core/cmdlist/command_list.h"
#include "core/context/context.h"
#include "core/device/limits.h"
#include "level_zero/api_support.h"
#include "tessera/ze_tessera.h"
#include "level_zero/append_support.h"
#include "support/checked_math.h"

using namespace tessera::core;
using tessera::ze::appendOp;

namespace {

bool overlaps(const uint8_t* a, size_t aSize, const uint8_t* b, size_t bSize) {
  return a < b + bSize && b < a + aSize;
}

// The bytes from a region's first to its last byte (depth 0 is a 2D copy: one slice), and the
// offset of its first byte from the base pointer; false when either does not fit in 64 bits or the
// region would reach past the end of the address space (client-given sizes, multiplied and added
// with overflow checks).
bool regionExtent(uintptr_t base, const ze_copy_region_t& r, uint64_t pitch, uint64_t slicePitch,
                  uint64_t& start, uint64_t& span) {
  using tessera::support::checkedAdd;
  using tessera::support::checkedMul;
  uint64_t z, y, end;
  if (!checkedMul(uint64_t(r.originZ), slicePitch, z) ||
      !checkedMul(uint64_t(r.originY), pitch, y) || !checkedAdd(z, y, start) ||
      !checkedAdd(start, uint64_t(r.originX), start))
    return false;
  span = 0;
  if (r.width != 0 && r.height != 0) {
    if (!checkedMul(uint64_t(std::max(r.depth, 1u) - 1), slicePitch, z) ||
        !checkedMul(uint64_t(r.height - 1), pitch, y) || !checkedAdd(z, y, span) ||
        !checkedAdd(span, uint64_t(r.width), span))
      return false;
  }
  return checkedAdd(uint64_t(base), start, end) && checkedAdd(end, span, end);
}

}  // namespace

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendBarrier(ze_command_list_handle_t hCommandList,
                                                               ze_event_handle_t hSignalEvent,
                                                               uint32_t numWaitEvents,
                                                               ze_event_handle_t* phWaitEvents) {
  // Commands run in order on one executor, so every earlier command has completed when the next
  // starts: a barrier has nothing left to do but its waits and its signal.
  return appendOp(hCommandList, NopOp{}, hSignalEvent, numWaitEvents, phWaitEvents);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendMemoryRangesBarrier(
    ze_command_list_handle_t hCommandList, uint32_t numRanges, const size_t* pRangeSizes,
    const void** pRanges, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t* phWaitEvents) {
  if (!pRangeSizes || !pRanges) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return appendOp(hCommandList, NopOp{}, hSignalEvent, numWaitEvents, phWaitEvents);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeContextSystemBarrier(ze_context_handle_t hContext,
                                                           ze_device_handle_t hDevice) {
  if (!Context::fromHandle(hContext) || !Device::fromHandle(hDevice))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  // The host and the device share one coherent memory: a full fence makes earlier writes visible.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendMemoryCopy(
    ze_command_list_handle_t hCommandList, void* dstptr, const void* srcptr, size_t size,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  if (!dstptr || !srcptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return appendOp(hCommandList, CopyOp{dstptr, srcptr, size}, hSignalEvent, numWaitEvents,
                  phWaitEvents);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendMemoryCopyFromContext(
    ze_command_list_handle_t hCommandList, void* dstptr, ze_context_handle_t hContextSrc,
    const void* srcptr, size_t size, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t* phWaitEvents) {
  if (!Context::fromHandle(hContextSrc)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!dstptr || !srcptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // Every context's memory is this process's memory.
  return appendOp(hCommandList, CopyOp{dstptr, srcptr, size}, hSignalEvent, numWaitEvents,
                  phWaitEvents);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendMemoryFill(
    ze_command_list_handle_t hCommandList, void* ptr, const void* pattern, size_t pattern_size,
    size_t size, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t* phWaitEvents) {
  const CommandList* list = CommandList::fromHandle(hCommandList);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!ptr || !pattern) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // "pattern_size ... must be a power of two and less than or equal to
  // ze_command_queue_group_properties_t.maxMemoryFillPatternSize" of the list's queue group.
  if (pattern_size == 0 || !std::has_single_bit(pattern_size) ||
      pattern_size > limits::maxFillPatternSize(list->ordinal()))
    return ZE_RESULT_ERROR_INVALID_SIZE;
  FillOp op{ptr, size, static_cast<uint32_t>(pattern_size), {}, {}};
  if (pattern_size <= op.pattern.size()) {
    std::memcpy(op.pattern.data(), pattern, pattern_size);
  } else {
    ze_result_t r = tessera::ze::guarded([&] {
      op.large.reset(new uint8_t[pattern_size]);
      return ZE_RESULT_SUCCESS;
    });
    if (r != ZE_RESULT_SUCCESS) return r;
    std::memcpy(op.large.get(), pattern, pattern_size);
  }
  return appendOp(hCommandList, op, hSignalEvent, numWaitEvents, phWaitEvents);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendMemoryCopyRegion(
    ze_command_list_handle_t hCommandList, void* dstptr, const ze_copy_region_t* dstRegion,
    uint32_t dstPitch, uint32_t dstSlicePitch, const void* srcptr,
    const ze_copy_region_t* srcRegion, uint32_t srcPitch, uint32_t srcSlicePitch,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  if (!dstptr || !dstRegion || !srcptr || !srcRegion) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // Both regions describe the same box: width in bytes, height in rows, depth in slices.
  if (dstRegion->width != srcRegion->width || dstRegion->height != srcRegion->height ||
      dstRegion->depth != srcRegion->depth)
    return ZE_RESULT_ERROR_INVALID_SIZE;
  // A pitch must hold the row it steps over, and a slice pitch the rows of a slice (a product
  // that does not fit in 64 bits is more than any pitch).
  auto fits = [](const ze_copy_region_t& r, uint64_t pitch, uint64_t slicePitch) {
    uint64_t rows;
    return (r.height <= 1 || pitch >= uint64_t(r.originX) + r.width) &&
           (r.depth <= 1 ||
            (tessera::support::checkedMul(pitch, uint64_t(r.originY) + r.height, rows) &&
             slicePitch >= rows));
  };
  if (!fits(*dstRegion, dstPitch, dstSlicePitch) || !fits(*srcRegion, srcPitch, srcSlicePitch))
    return ZE_RESULT_ERROR_INVALID_SIZE;
  uint64_t dStart, dSpan, sStart, sSpan;
  if (!regionExtent(uintptr_t(dstptr), *dstRegion, dstPitch, dstSlicePitch, dStart, dSpan) ||
      !regionExtent(uintptr_t(srcptr), *srcRegion, srcPitch, srcSlicePitch, sStart, sSpan))
    return ZE_RESULT_ERROR_INVALID_SIZE;
  const uint8_t* d = static_cast<const uint8_t*>(dstptr) + dStart;
  const uint8_t* s = static_cast<const uint8_t*>(srcptr) + sStart;
  if (overlaps(d, dSpan, s, sSpan)) return ZE_RESULT_ERROR_OVERLAPPING_REGIONS;
  RegionCopyOp op{static_cast<uint8_t*>(dstptr), static_cast<const uint8_t*>(srcptr), *dstRegion,
                  *srcRegion, dstPitch, dstSlicePitch, srcPitch, srcSlicePitch};
  return appendOp(hCommandList, op, hSignalEvent, numWaitEvents, phWaitEvents);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendMemoryPrefetch(
    ze_command_list_handle_t hCommandList, const void* ptr, size_t size) {
  if (!ptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // Memory is the host's and always resident for the device: prefetching has nothing to move.
  return appendOp(hCommandList, NopOp{}, nullptr, 0, nullptr);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendMemAdvise(
    ze_command_list_handle_t hCommandList, ze_device_handle_t hDevice, const void* ptr,
    size_t size, ze_memory_advice_t advice) {
  if (!Device::fromHandle(hDevice)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!ptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // "::ZE_MEMORY_ADVICE_CLEAR_SYSTEM_MEMORY_PREFERRED_LOCATION < advice" (the current headers).
  if (advice > TESSERA_ZE_MEMORY_ADVICE_CLEAR_SYSTEM_MEMORY_PREFERRED_LOCATION)
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  // Advice is a hint; host and device share one coherent memory, so no advice changes behaviour
  // (host memory is every allocation's location already).
  return appendOp(hCommandList, NopOp{}, nullptr, 0, nullptr);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendWriteGlobalTimestamp(
    ze_command_list_handle_t hCommandList, uint64_t* dstptr, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  if (!dstptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return appendOp(hCommandList, TimestampOp{dstptr}, hSignalEvent, numWaitEvents, phWaitEvents);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendSignalEvent(
    ze_command_list_handle_t hCommandList, ze_event_handle_t hEvent) {
  if (!hEvent) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return appendOp(hCommandList, NopOp{}, hEvent, 0, nullptr);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendWaitOnEvents(
    ze_command_list_handle_t hCommandList, uint32_t numEvents, ze_event_handle_t* phEvents) {
  if (!phEvents) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return appendOp(hCommandList, NopOp{}, nullptr, numEvents, phEvents);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendEventReset(
    ze_command_list_handle_t hCommandList, ze_event_handle_t hEvent) {
  Event* event = Event::fromHandle(hEvent);
  if (!event) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  // "Counter-based events must not be reset, i.e., a call to zeEventHostReset or
  // zeCommandListAppendEventReset is not allowed."
  if (event->counterBased()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  return appendOp(hCommandList, ResetEventOp{Ref<Event>(event)}, nullptr, 0, nullptr);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendQueryKernelTimestamps(
    ze_command_list_handle_t hCommandList, uint32_t numEvents, ze_event_handle_t* phEvents,
    void* dstptr, const size_t* pOffsets, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t* phWaitEvents) {
  if (!phEvents || !dstptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return tessera::ze::guarded([&] {
    QueryTimestampsOp op{{}, static_cast<uint8_t*>(dstptr), {}};
    for (uint32_t i = 0; i < numEvents; ++i) {
      Event* e = Event::fromHandle(phEvents[i]);
      if (!e) return ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT;
      op.events.emplace_back(e);
      if (pOffsets) op.offsets.push_back(pOffsets[i]);
    }
    return appendOp(hCommandList, std::move(op), hSignalEvent, numWaitEvents, phWaitEvents);
  });
}

// Level Zero 1.17: "Appends a host function call into a command list." "The host function will be
// executed on the host when the command list reaches this point during execution"; "Device will
// wait for all phWaitEvents to be signaled before executing the host function"; "The runtime
// invokes the host function asynchronously to API calls". Tessera's lists run their commands one
// after the other on the queue's executor thread (an immediate list's own queue), so the function
// is called there, after the commands before it have completed and before those after it start,
// and then hSignalEvent is signalled as for any command (a SYNCHRONOUS immediate list runs each
// command within its append, this one too). The list's device is the host, so any
// list may take it, copy-only ones too. pfnHostFunction is "[in]", not optional: a null one is
// ZE_RESULT_ERROR_INVALID_ARGUMENT (the header lists no null-pointer case for it); "an extension
// passed via pNext is not supported": any pNext is ZE_RESULT_ERROR_UNSUPPORTED_FEATURE (none is
// defined for this function).
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendHostFunction(
    ze_command_list_handle_t hCommandList, ze_host_function_callback_t pfnHostFunction,
    void* pUserData, const void* pNext, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t* phWaitEvents) {
  if (ze_result_t r = tessera::ze::checkListAndWaits(hCommandList, numWaitEvents, phWaitEvents);
      r != ZE_RESULT_SUCCESS)
    return r;
  if (!pfnHostFunction) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (pNext) return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  return appendOp(hCommandList, HostFunctionOp{pfnHostFunction, pUserData}, hSignalEvent,
                  numWaitEvents, phWaitEvents);
}

// Level Zero 1.16: zeCommandListAppendMemoryCopy and zeCommandListAppendMemoryFill "with additional
// parameters". No structure is defined for their pNext: "an extension passed via pNext is not
// supported" is ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, checked after the list's handle and before
// anything is appended; otherwise each is its 1.0 function, with its checks and errors. The fill's
// header, new in 1.16, also lists "size % pattern_size != 0" under ZE_RESULT_ERROR_INVALID_SIZE,
// which the 1.4 header's zeCommandListAppendMemoryFill does not (Tessera's accepts such a size
// there): checked here.
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendMemoryCopyWithParameters(
    ze_command_list_handle_t hCommandList, void* dstptr, const void* srcptr, size_t size,
    const void* pNext, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t* phWaitEvents) {
  if (!CommandList::fromHandle(hCommandList)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (pNext) return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  return zeCommandListAppendMemoryCopy(hCommandList, dstptr, srcptr, size, hSignalEvent,
                                       numWaitEvents, phWaitEvents);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendMemoryFillWithParameters(
    ze_command_list_handle_t hCommandList, void* ptr, const void* pattern, size_t pattern_size,
    size_t size, const void* pNext, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t* phWaitEvents) {
  if (!CommandList::fromHandle(hCommandList)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (pNext) return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  if (pattern_size != 0 && size % pattern_size != 0) return ZE_RESULT_ERROR_INVALID_SIZE;
  return zeCommandListAppendMemoryFill(hCommandList, ptr, pattern, pattern_size, size,
                                       hSignalEvent, numWaitEvents, phWaitEvents);
}
