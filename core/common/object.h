// Handles are C++ objects. Each handle type derives from Object<Handle, Magic>: the empty loader
// handle struct first, then a per-type magic word that is cleared on destruction, and an entry in a
// process-wide registry of live objects. fromHandle() checks the registry before it reads the
// object, so a destroyed or foreign handle is refused without touching freed memory.
//
// A stale handle is refused, not aliased: the memory of a destroyed object is not given back at
// once but held in a quarantine of its type (handles::Quarantine), so the next objects made (of any
// type) cannot land at its address and make the stale handle live again. Remaining window: once
// about 256 KiB of objects of that type (16 to 1024 objects, by size) were destroyed after it, its
// memory is freed and a later object may be placed there; a handle kept that long after its
// destruction can then name the new object.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>

#include "core/common/ze_handles.h"

namespace tessera::core {

// The registry of live handle objects. Thread-safe.
namespace handles {
void add(const void* object);
void remove(const void* object);
bool isLive(const void* object);

// Destroyed objects' memory, oldest first, freed only when the quarantine is full.
struct Quarantine {
  std::mutex mutex;
  std::deque<void*> blocks;
};
// Memory for an object (::operator new; out of line, paired with quarantine()).
void* allocate(size_t bytes);
// Holds `block` (of `bytes`) in `q`, and frees the oldest block once `q` holds more than its
// share (about 256 KiB, between 16 and 1024 blocks).
void quarantine(Quarantine& q, void* block, size_t bytes);
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

  // Allocation through the type's quarantine (the header's comment). Objects are deleted as their
  // own class (unique_ptr<Derived>, RefCounted<Derived>), so `bytes` is the object's size.
  static void* operator new(size_t bytes) { return handles::allocate(bytes); }
  static void operator delete(void* p, size_t bytes) {
    static auto* q = new handles::Quarantine;  // never destroyed: objects may die at exit
    handles::quarantine(*q, p, bytes);
  }

  // Ends the handle's life while the object may live on (commands still in flight hold references
  // to it): from now on fromHandle refuses it. Idempotent.
  void retireHandle() {
    if (magic_ == 0) return;
    magic_ = 0;
    handles::remove(static_cast<Handle*>(this));
  }

 protected:
  Object() { handles::add(static_cast<Handle*>(this)); }
  // `registered` false: an object of a handle type that is never handed out (a counter-based
  // event's own pool): fromHandle refuses it from the start, and it costs the registry nothing.
  explicit Object(bool registered) : magic_(registered ? Magic : 0) {
    if (registered) handles::add(static_cast<Handle*>(this));
  }
  ~Object() { retireHandle(); }

 private:
  volatile uint64_t magic_ = Magic;
};

}  // namespace tessera::core
