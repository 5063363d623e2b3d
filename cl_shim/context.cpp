#include "cl_shim/context.h"

#include <algorithm>

#include "cl_shim/api_support.h"
#include "cl_shim/errors.h"
#include "cl_shim/platform.h"

namespace tessera::cl {
namespace {
constexpr uint32_t kEventsPerPool = 256;
}

Context* Context::create(const cl_context_properties* properties, std::vector<Device*> devices,
                         ContextNotify notify, void* userData, cl_int& err) {
  Platform* platform = Platform::get();
  std::vector<cl_context_properties> props;
  if (properties) {
    bool seenPlatform = false, seenSync = false;
    for (const cl_context_properties* p = properties; *p; p += 2) {
      switch (p[0]) {
        case CL_CONTEXT_PLATFORM:
          // "CL_INVALID_PLATFORM if properties is NULL and no platform could be selected or if
          // platform value specified in properties is not a valid platform."
          if (seenPlatform) { err = CL_INVALID_PROPERTY; return nullptr; }
          if (!Platform::from(reinterpret_cast<cl_platform_id>(p[1]))) {
            err = CL_INVALID_PLATFORM;
            return nullptr;
          }
          seenPlatform = true;
          break;
        case CL_CONTEXT_INTEROP_USER_SYNC:
          // A cl_bool: "CL_INVALID_PROPERTY if ... the value specified for a supported property
          // name is not valid".
          if (seenSync || (p[1] != CL_TRUE && p[1] != CL_FALSE)) {
            err = CL_INVALID_PROPERTY;
            return nullptr;
          }
          seenSync = true;
          break;
        default:
          err = CL_INVALID_PROPERTY;
          return nullptr;
      }
      props.push_back(p[0]);
      props.push_back(p[1]);
    }
    props.push_back(0);
  }
  if (!platform) {
    err = CL_INVALID_PLATFORM;
    return nullptr;
  }
  ze_context_desc_t desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC};
  ze_context_handle_t ze = nullptr;
  ze_result_t r = zeContextCreate(platform->driver(), &desc, &ze);
  if (r != ZE_RESULT_SUCCESS) {
    err = fromZe(r);
    return nullptr;
  }
  auto* c = new Context;
  c->ze_ = ze;
  // Duplicate devices are ignored (OpenCL 1.2: "Duplicate devices specified in devices are ignored").
  for (Device* d : devices)
    if (std::none_of(c->devices_.begin(), c->devices_.end(), [&](auto& x) { return x.get() == d; }))
      c->devices_.emplace_back(d);
  c->properties_ = std::move(props);
  c->notify_ = notify;
  c->notifyData_ = userData;
  err = CL_SUCCESS;
  return c;
}

Context::~Context() {
  // "registered callback functions are called in the reverse order in which they were registered"
  for (auto it = destructorCallbacks_.rbegin(); it != destructorCallbacks_.rend(); ++it)
    it->first(handle(), it->second);
  // SVM allocations the application did not free go with the context.
  for (auto& [base, size] : svm_) zeMemFree(ze_, reinterpret_cast<void*>(base));
  for (auto& free : freeEvents_)
    for (ze_event_handle_t e : free) zeEventDestroy(e);
  for (ze_event_pool_handle_t p : pools_) zeEventPoolDestroy(p);
  if (ze_) zeContextDestroy(ze_);
}

bool Context::allows(const Device* d) const {
  return std::any_of(devices_.begin(), devices_.end(),
                     [&](const Ref<Device>& mine) { return d->descendsFrom(mine.get()); });
}

ze_event_handle_t Context::takeEvent(bool timed) {
  std::lock_guard lock(mutex_);
  std::vector<ze_event_handle_t>& free = freeEvents_[timed];
  if (free.empty()) {
    ze_event_pool_flags_t flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE;
    if (timed) flags |= ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP;
    ze_event_pool_desc_t pd{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, flags, kEventsPerPool};
    ze_event_pool_handle_t pool = nullptr;
    ze_result_t r = zeEventPoolCreate(ze_, &pd, 0, nullptr, &pool);
    if (r != ZE_RESULT_SUCCESS) throw std::bad_alloc();
    pools_.push_back(pool);
    for (uint32_t i = 0; i < kEventsPerPool; ++i) {
      ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, i, ZE_EVENT_SCOPE_FLAG_HOST,
                         ZE_EVENT_SCOPE_FLAG_HOST};
      ze_event_handle_t e = nullptr;
      if (zeEventCreate(pool, &ed, &e) == ZE_RESULT_SUCCESS) free.push_back(e);
    }
    if (free.empty()) throw std::bad_alloc();
  }
  ze_event_handle_t e = free.back();
  free.pop_back();
  return e;
}

void Context::giveEvent(ze_event_handle_t e, bool timed) {
  zeEventHostReset(e);
  std::lock_guard lock(mutex_);
  freeEvents_[timed].push_back(e);
}

void Context::addSvm(void* base, size_t size) {
  std::lock_guard lock(svmMutex_);
  svm_[reinterpret_cast<uintptr_t>(base)] = size;
}

bool Context::removeSvm(void* base) {
  std::lock_guard lock(svmMutex_);
  return svm_.erase(reinterpret_cast<uintptr_t>(base)) != 0;
}

bool Context::findSvm(const void* p, void** base, size_t* size) const {
  auto addr = reinterpret_cast<uintptr_t>(p);
  std::lock_guard lock(svmMutex_);
  auto it = svm_.upper_bound(addr);
  if (it == svm_.begin()) return false;
  --it;
  if (addr - it->first >= it->second) return false;
  if (base) *base = reinterpret_cast<void*>(it->first);
  if (size) *size = it->second;
  return true;
}

void Context::addDestructorCallback(ContextDestructorNotify fn, void* data) {
  std::lock_guard lock(mutex_);
  destructorCallbacks_.emplace_back(fn, data);
}

cl_int Context::info(cl_context_info param, size_t size, void* value, size_t* sizeRet) {
  InfoWriter out(size, value, sizeRet);
  switch (param) {
    case CL_CONTEXT_REFERENCE_COUNT: return out.scalar<cl_uint>(apiRefs());
    case CL_CONTEXT_NUM_DEVICES: return out.scalar<cl_uint>(cl_uint(devices_.size()));
    case CL_CONTEXT_DEVICES: {
      std::vector<cl_device_id> ids;
      for (auto& d : devices_) ids.push_back(d->handle());
      return out.array(ids);
    }
    case CL_CONTEXT_PROPERTIES: return out.array(properties_);
    default: return CL_INVALID_VALUE;
  }
}

}  // namespace tessera::cl
