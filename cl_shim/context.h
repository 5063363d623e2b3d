// A cl_context: a Level Zero context over the platform's driver, the devices it was made with, and
// the pool of Level Zero events that CL events use.
#pragma once

#include <level_zero/ze_api.h>

#include <map>
#include <mutex>
#include <vector>

#include "cl_shim/device.h"
#include "cl_shim/object.h"

namespace tessera::cl {

using ContextNotify = void(CL_CALLBACK*)(const char*, const void*, size_t, void*);
using ContextDestructorNotify = void(CL_CALLBACK*)(cl_context, void*);

class Context : public Object<_cl_context, 0x43545831 /* "CTX1" */> {
 public:
  // CL_INVALID_PROPERTY / CL_INVALID_DEVICE / ... in `err` when refused.
  static Context* create(const cl_context_properties* properties, std::vector<Device*> devices,
                         ContextNotify notify, void* userData, cl_int& err);
  static Context* from(cl_context h) { return Object::from<Context>(h); }

  ze_context_handle_t ze() const { return ze_; }
  const std::vector<Ref<Device>>& devices() const { return devices_; }
  // cl_ext_device_fission: a device may be used with the context when it or one of its ancestors
  // was used to create it.
  bool allows(const Device* d) const;

  // A Level Zero event (host-visible; with kernel timestamps when `timed`) for one CL event; give
  // it back, with the same `timed`, when the CL event dies. Only profiling reads the timestamps,
  // and a timed event costs its command two clock reads.
  ze_event_handle_t takeEvent(bool timed = true);
  void giveEvent(ze_event_handle_t e, bool timed = true);

  // Shared virtual memory made by clSVMAlloc in this context (svm.cpp): the allocations' ranges, so
  // clSVMFree, CL_MEM_USES_SVM_POINTER and kernel arguments (clSetKernelArgSVMPointer) can tell an
  // SVM pointer from any other (the device also has fine-grain system SVM: every host pointer is
  // usable, but only these are the context's allocations).
  void addSvm(void* base, size_t size);
  // Forgets the allocation starting at `base`; false when no allocation starts there.
  bool removeSvm(void* base);
  // The allocation holding `p` (base and size); false when `p` is in none.
  bool findSvm(const void* p, void** base = nullptr, size_t* size = nullptr) const;
  bool isSvmPointer(const void* p) const { return findSvm(p); }

  void addDestructorCallback(ContextDestructorNotify fn, void* data);
  cl_int info(cl_context_info param, size_t size, void* value, size_t* sizeRet);

 protected:
  ~Context() override;

 private:
  Context() = default;

  ze_context_handle_t ze_ = nullptr;
  std::vector<Ref<Device>> devices_;
  std::vector<cl_context_properties> properties_;
  ContextNotify notify_ = nullptr;
  void* notifyData_ = nullptr;

  std::mutex mutex_;
  std::vector<ze_event_pool_handle_t> pools_;
  std::vector<ze_event_handle_t> freeEvents_[2];  // [timed]
  std::vector<std::pair<ContextDestructorNotify, void*>> destructorCallbacks_;

  mutable std::mutex svmMutex_;
  std::map<uintptr_t, size_t> svm_;  // base -> size
};

}  // namespace tessera::cl
