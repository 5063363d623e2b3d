// The counter values of one execution (core/command/command.h, RecordedCommands::issueCounters):
// two per counter-based event of each of the submission's buffers, one after the other. Up to
// kInline values (four events) live inside the object, so a submission of lists that use a few
// counter-based events allocates nothing for them; more go to one heap array. Zeroed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace tessera::core {

class CounterValues {
 public:
  static constexpr size_t kInline = 8;

  CounterValues() = default;
  explicit CounterValues(size_t n) : size_(n) {
    if (n > kInline) heap_ = std::make_unique<uint64_t[]>(n);  // value-initialized: zero
  }
  // Movable (a submission is queued by move): data() is worked out on each call, never stored.
  CounterValues(CounterValues&&) = default;
  CounterValues& operator=(CounterValues&&) = default;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool onHeap() const { return heap_ != nullptr; }
  uint64_t* data() { return heap_ ? heap_.get() : inline_; }
  const uint64_t* data() const { return heap_ ? heap_.get() : inline_; }

 private:
  size_t size_ = 0;
  uint64_t inline_[kInline] = {};
  std::unique_ptr<uint64_t[]> heap_;
};

}  // namespace tessera::core
