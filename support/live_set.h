// A set of live object addresses, for handle validation: a lookup takes no lock and writes no
// shared memory (handles are checked on every API call, from any number of threads at once);
// additions and removals take a mutex. Open addressing over atomic words with tombstones, which
// later additions reuse. When live entries and tombstones fill half the table, the entries move
// to another table (twice the size if they alone fill a quarter), which then becomes current.
// Tables are never freed but kept for reuse by later moves, so a lookup still walking an old one
// reads valid memory; it sees the move in a version counter and looks again. Memory: at most
// two tables of each size. Used by core's and cl_shim's handle registries.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace tessera::support {

class LiveSet {
 public:
  LiveSet() { current_.store(table(kFirstCapacity), std::memory_order_relaxed); }

  bool contains(const void* p) const {
    const uintptr_t key = reinterpret_cast<uintptr_t>(p);
    if (key <= kTombstone) return false;
    for (;;) {
      const uint64_t version = version_.load(std::memory_order_acquire);
      const Table* t = current_.load(std::memory_order_acquire);
      bool found = t->find(key) != kNone;
      std::atomic_thread_fence(std::memory_order_acquire);
      if (version_.load(std::memory_order_relaxed) == version) return found;
    }
  }

  void add(const void* p) {
    const uintptr_t key = reinterpret_cast<uintptr_t>(p);
    if (key <= kTombstone) return;
    std::lock_guard lock(mutex_);
    Table* t = current_.load(std::memory_order_relaxed);
    if (t->find(key) != kNone) return;
    if ((t->used + t->tombstones + 1) * 2 > t->capacity()) t = move(t);
    size_t at = t->home(key);
    while (t->slots[at].load(std::memory_order_relaxed) > kTombstone) at = (at + 1) & t->mask;
    if (t->slots[at].load(std::memory_order_relaxed) == kTombstone) --t->tombstones;
    t->slots[at].store(key, std::memory_order_release);
    ++t->used;
  }

  // Tables made so far (for tests: churn must not add any).
  size_t tableCount() {
    std::lock_guard lock(mutex_);
    return tables_.size();
  }

  void remove(const void* p) {
    const uintptr_t key = reinterpret_cast<uintptr_t>(p);
    if (key <= kTombstone) return;
    std::lock_guard lock(mutex_);
    Table* t = current_.load(std::memory_order_relaxed);
    size_t at = t->find(key);
    if (at == kNone) return;
    t->slots[at].store(kTombstone, std::memory_order_release);
    --t->used;
    ++t->tombstones;
  }

 private:
  static constexpr uintptr_t kEmpty = 0, kTombstone = 1;
  static constexpr size_t kNone = SIZE_MAX;
  static constexpr size_t kFirstCapacity = 1024;

  struct Table {
    explicit Table(size_t capacity)
        : mask(capacity - 1), slots(new std::atomic<uintptr_t>[capacity]) {
      clear();
    }
    size_t capacity() const { return mask + 1; }
    size_t home(uintptr_t key) const {
      return static_cast<size_t>(((key >> 4) * 0x9E3779B97F4A7C15ull) >> 24) & mask;
    }
    // The slot holding `key`, or kNone. Bounded: a reused table may hold anything.
    size_t find(uintptr_t key) const {
      for (size_t i = home(key), n = 0; n <= mask; i = (i + 1) & mask, ++n) {
        uintptr_t v = slots[i].load(std::memory_order_acquire);
        if (v == key) return i;
        if (v == kEmpty) return kNone;
      }
      return kNone;
    }
    void clear() {
      for (size_t i = 0; i <= mask; ++i) slots[i].store(kEmpty, std::memory_order_relaxed);
      used = tombstones = 0;
    }
    const size_t mask;
    std::unique_ptr<std::atomic<uintptr_t>[]> slots;
    size_t used = 0, tombstones = 0;  // under the mutex
    bool inUse = false;               // current, or the one being filled
  };

  // A table of `capacity` that is not current: a kept one, else a new one.
  Table* table(size_t capacity) {
    for (auto& t : tables_)
      if (!t->inUse && t->capacity() == capacity) {
        t->inUse = true;
        return t.get();
      }
    tables_.push_back(std::make_unique<Table>(capacity));
    tables_.back()->inUse = true;
    return tables_.back().get();
  }

  // Moves the live entries of `from` to another table, which becomes current.
  Table* move(Table* from) {
    size_t capacity = from->capacity();
    while ((from->used + 1) * 4 > capacity) capacity *= 2;
    // A lookup that has read the version before this point and walks `to` (when it was current
    // once) must see a change before `to` is rewritten.
    version_.fetch_add(1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);  // pairs with contains()'s acquire fence
    Table* to = table(capacity);
    to->clear();
    for (size_t i = 0; i <= from->mask; ++i) {
      uintptr_t v = from->slots[i].load(std::memory_order_relaxed);
      if (v <= kTombstone) continue;
      size_t at = to->home(v);
      while (to->slots[at].load(std::memory_order_relaxed) != kEmpty) at = (at + 1) & to->mask;
      to->slots[at].store(v, std::memory_order_relaxed);
      ++to->used;
    }
    current_.store(to, std::memory_order_release);
    version_.fetch_add(1, std::memory_order_release);
    from->inUse = false;
    return to;
  }

  std::mutex mutex_;
  std::vector<std::unique_ptr<Table>> tables_;
  std::atomic<Table*> current_{nullptr};
  std::atomic<uint64_t> version_{0};
};

}  // namespace tessera::support
