// The command list entry points: creation, close, reset, destroy. Appends are in
// ze_cmdlist_append_api.cpp.
#include "core/cmdlist/command_list.h"
#include "core/context/context.h"
#include "level_zero/api_support.h"
#include "tessera/ze_tessera.h"

using namespace tessera::core;
using tessera::ze::chainHasCycle;
using tessera::ze::guarded;

namespace tessera::ze {
ze_result_t checkQueueDesc(const ze_command_queue_desc_t& desc);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListCreate(ze_context_handle_t hContext,
                                                        ze_device_handle_t hDevice,
                                                        const ze_command_list_desc_t* desc,
                                                        ze_command_list_handle_t* phCommandList) {
  Context* context = Context::fromHandle(hContext);
  Device* device = Device::fromHandle(hDevice);
  if (!context || !device) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !phCommandList) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!tessera::ze::isStructType(desc->stype, ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  // Flags up to Level Zero 1.9's: RELAXED_ORDERING, MAXIMIZE_THROUGHPUT, EXPLICIT_ONLY, IN_ORDER,
  // EXP_CLONEABLE, COPY_OFFLOAD_HINT (tessera/ze_tessera.h quotes them). Commands of a list run one
  // after the other, in the order appended, and a queue runs its submissions in order
  // (docs/architecture.md), so IN_ORDER is what every list already does and its events are honoured
  // as on any list; the copy-offload hint is "only a hint" ("Driver may ignore it") and a CPU device
  // has no copy engine to offload to. Cloning is not implemented.
  if (desc->flags > 0x3f) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  if ((desc->flags & TESSERA_ZE_COMMAND_LIST_FLAG_IN_ORDER) &&
      (desc->flags & ZE_COMMAND_LIST_FLAG_RELAXED_ORDERING))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;  // "Cannot be combined with RELAXED_ORDERING"
  if (desc->flags & TESSERA_ZE_COMMAND_LIST_FLAG_EXP_CLONEABLE)
    return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  if (chainHasCycle(desc->pNext)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  // "A mutable command list is created by supplying a ze_mutable_command_list_exp_desc_t object
  // via the pNext member of ze_command_list_desc_t."
  bool isMutable = false;
  for (auto* e = static_cast<const ze_base_desc_t*>(desc->pNext); e;
       e = static_cast<const ze_base_desc_t*>(e->pNext)) {
    if (e->stype != ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_LIST_EXP_DESC) continue;
    auto* m = reinterpret_cast<const ze_mutable_command_list_exp_desc_t*>(e);
    if (m->flags & ~uint32_t(ZE_MUTABLE_COMMAND_LIST_EXP_FLAG_RESERVED))
      return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    isMutable = true;
  }
  return guarded([&] {
    std::unique_ptr<CommandList> list;
    ze_result_t r = CommandList::create(*context, *device, *desc, isMutable, list);
    if (r == ZE_RESULT_SUCCESS) *phCommandList = list.release()->toHandle();
    return r;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListCreateImmediate(
    ze_context_handle_t hContext, ze_device_handle_t hDevice, const ze_command_queue_desc_t* altdesc,
    ze_command_list_handle_t* phCommandList) {
  Context* context = Context::fromHandle(hContext);
  Device* device = Device::fromHandle(hDevice);
  if (!context || !device) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!altdesc || !phCommandList) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ze_result_t r = tessera::ze::checkQueueDesc(*altdesc); r != ZE_RESULT_SUCCESS) return r;
  return guarded([&] {
    std::unique_ptr<CommandList> list;
    ze_result_t r = CommandList::createImmediate(*context, *device, *altdesc, list);
    if (r == ZE_RESULT_SUCCESS) *phCommandList = list.release()->toHandle();
    return r;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListDestroy(ze_command_list_handle_t hCommandList) {
  CommandList* list = CommandList::fromHandle(hCommandList);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete list;
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListClose(ze_command_list_handle_t hCommandList) {
  CommandList* list = CommandList::fromHandle(hCommandList);
  return list ? list->close() : ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListReset(ze_command_list_handle_t hCommandList) {
  CommandList* list = CommandList::fromHandle(hCommandList);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return guarded([&] { return list->reset(); });
}
