// CL objects. Every handle the application holds is a pointer to one of these: the ICD's dispatch
// pointer first (cl_khr_icd: "the first field of every OpenCL object is a pointer to the dispatch
// table"), then a per-type magic word and an entry in a registry of live handles, so a destroyed
// or foreign handle is refused before any of its fields is read.
//
// Two reference counts: the API count (clRetain*/clRelease*, CL_*_REFERENCE_COUNT) and internal
// references (a queue holds its context, a command holds the buffers it uses). The API count owns
// one internal reference; when it drops to zero the handle is retired (refused from then on) and the
// object lives on until the last internal reference goes.
#pragma once

#include "cl_shim/cl_headers.h"

#include <atomic>
#include <cstdint>
#include <utility>

struct _cl_platform_id { cl_icd_dispatch* dispatch; };
struct _cl_device_id { cl_icd_dispatch* dispatch; };
struct _cl_context { cl_icd_dispatch* dispatch; };
struct _cl_command_queue { cl_icd_dispatch* dispatch; };
struct _cl_mem { cl_icd_dispatch* dispatch; };
struct _cl_program { cl_icd_dispatch* dispatch; };
struct _cl_kernel { cl_icd_dispatch* dispatch; };
struct _cl_event { cl_icd_dispatch* dispatch; };
struct _cl_sampler { cl_icd_dispatch* dispatch; };

namespace tessera::cl {

cl_icd_dispatch* dispatchTable();

namespace registry {
void add(const void* handle);
void remove(const void* handle);
bool isLive(const void* handle);
}  // namespace registry

// Where CL objects live. Their memory is never given back to the system but kept for objects of the
// same size: ICD loaders read a handle's dispatch pointer before Tessera sees the handle, so the
// dispatch pointer of a destroyed object must stay readable and valid. A stale handle then reaches
// Tessera's own function, whose registry check refuses it with the spec's error. A freed block is
// reused only after a quarantine (about 256 KiB of later releases of its size, 16 to 1024 blocks),
// so a handle released and followed by a new object is refused rather than naming that object.
namespace handle_memory {
void* allocate(size_t bytes);
void release(void* p, size_t bytes);
}  // namespace handle_memory

class RefCounted {
 public:
  virtual ~RefCounted() = default;
  void retain() { internal_.fetch_add(1, std::memory_order_relaxed); }
  void release() {
    if (internal_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }

 private:
  std::atomic<uint32_t> internal_{1};  // the API count's reference
};

template <typename Handle, uint32_t Magic>
class Object : public Handle, public RefCounted {
 public:
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;

  // The object behind a handle, or null when the handle is null, retired or of another type.
  // A handle of another type (a queue passed as a context) is a live object of another class: the
  // first static_cast is only used to read the magic word, which refuses it. UBSan's vptr check
  // would report that cast before the magic word is read, so it is off for this function.
  template <typename Derived>
  __attribute__((no_sanitize("vptr"))) static Derived* from(Handle* handle) {
    if (!handle || !registry::isLive(handle)) return nullptr;
    auto* object = static_cast<Object*>(handle);
    return object->magic_ == Magic ? static_cast<Derived*>(object) : nullptr;
  }
  Handle* handle() { return this; }

  static void* operator new(size_t bytes) { return handle_memory::allocate(bytes); }
  static void operator delete(void* p, size_t bytes) { handle_memory::release(p, bytes); }

  cl_uint apiRefs() const { return apiRefs_.load(std::memory_order_relaxed); }
  void retainApi() { apiRefs_.fetch_add(1, std::memory_order_relaxed); }
  // Drops one API reference; at zero the handle is retired, onApiReleased() runs, and the API's
  // internal reference goes.
  void releaseApi() {
    if (apiRefs_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    retire();
    onApiReleased();
    release();
  }

 protected:
  Object() {
    this->dispatch = dispatchTable();
    registry::add(static_cast<Handle*>(this));
  }
  ~Object() override { retire(); }
  virtual void onApiReleased() {}

 private:
  void retire() {
    if (magic_ == 0) return;
    magic_ = 0;
    registry::remove(static_cast<Handle*>(this));
  }

  volatile uint32_t magic_ = Magic;
  std::atomic<cl_uint> apiRefs_{1};
};

// An internal reference.
template <typename T>
class Ref {
 public:
  Ref() = default;
  explicit Ref(T* p) : p_(p) { if (p_) p_->retain(); }
  Ref(const Ref& o) : Ref(o.p_) {}
  Ref(Ref&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  Ref& operator=(Ref o) { std::swap(p_, o.p_); return *this; }
  ~Ref() { if (p_) p_->release(); }
  T* get() const { return p_; }
  T* operator->() const { return p_; }
  T& operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }

 private:
  T* p_ = nullptr;
};

}  // namespace tessera::cl
