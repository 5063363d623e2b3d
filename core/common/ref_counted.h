// Internal sharing by an intrusive reference count (STYLE.md "Create and own"): an object that
// commands in flight may still use after the application destroyed its handle derives from
// RefCounted<T> and is held by Ref<T>. Creation gives one reference, owned by the handle; the
// destroy entry point retires the handle and drops that reference.
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>

namespace tessera::core {

template <typename T>
class RefCounted {
 public:
  void retain() const { refs_.fetch_add(1, std::memory_order_relaxed); }
  // Takes a reference unless the count already reached zero (the object is being deleted; its
  // memory stays readable for a while in its type's quarantine, core/common/object.h). For entry
  // points that hold an object through a wait while another thread may destroy its handle.
  bool tryRetain() const {
    uint32_t n = refs_.load(std::memory_order_relaxed);
    while (n != 0)
      if (refs_.compare_exchange_weak(n, n + 1, std::memory_order_acquire,
                                      std::memory_order_relaxed))
        return true;
    return false;
  }
  void release() const {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete static_cast<const T*>(this);
  }

 protected:
  RefCounted() = default;
  ~RefCounted() = default;

 private:
  mutable std::atomic<uint32_t> refs_{1};
};

// An owning pointer to a RefCounted object.
template <typename T>
class Ref {
 public:
  Ref() = default;
  // Takes a new reference.
  explicit Ref(T* p) : p_(p) {
    if (p_) p_->retain();
  }
  // Owns a reference the caller already took (tryRetain).
  static Ref adopt(T* p) {
    Ref r;
    r.p_ = p;
    return r;
  }
  Ref(const Ref& o) : Ref(o.p_) {}
  Ref(Ref&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  Ref& operator=(Ref o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  ~Ref() {
    if (p_) p_->release();
  }
  // Gives up the reference without dropping it (to the handle that now owns it).
  T* detach() { return std::exchange(p_, nullptr); }
  T* get() const { return p_; }
  T* operator->() const { return p_; }
  T& operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }

 private:
  T* p_ = nullptr;
};

}  // namespace tessera::core
