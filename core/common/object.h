// Handles are C++ objects. Each handle type derives from Object<Handle, Magic>: the empty loader
// handle struct first, then a per-type magic word that is cleared on destruction, and an entry in a
// process-wide registry of live objects. fromHandle() checks the registry before it reads the
// object, so a destroyed or foreign handle is refused without touching freed memory.
#pragma once

#include <cstdint>

#include "core/common/ze_handles.h"

namespace tessera::core {

// The registry of live handle objects. Thread-safe.
namespace handles {
void add(const void* object);
void remove(const void* object);
bool isLive(const void* object);
}  // namespace handles

template <typename Handle, uint64_t Magic>
class Object : public Handle {
 public:
  static constexpr uint64_t kMagic = Magic;

  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;

  // The object behind a handle, or nullptr when the handle is null, destroyed or of another type.
  template <typename Derived = Object>
  static Derived* fromHandle(Handle* handle) {
    if (!handle || !handles::isLive(handle)) return nullptr;
    auto* object = static_cast<Object*>(handle);
    return object->magic_ == Magic ? static_cast<Derived*>(object) : nullptr;
  }
  Handle* toHandle() { return this; }

  // Ends the handle's life while the object may live on (commands still in flight hold references
  // to it): from now on fromHandle refuses it. Idempotent.
  void retireHandle() {
    if (magic_ == 0) return;
    magic_ = 0;
    handles::remove(static_cast<Handle*>(this));
  }

 protected:
  Object() { handles::add(static_cast<Handle*>(this)); }
  ~Object() { retireHandle(); }

 private:
  volatile uint64_t magic_ = Magic;
};

}  // namespace tessera::core
