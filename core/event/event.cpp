#include "core/event/event.h"

namespace tessera::core {

Event* Event::create(EventPool& pool, uint32_t index) {
  if (!pool.claim(index)) return nullptr;
  try {
    return new Event(pool, index);
  } catch (...) {
    pool.unclaim(index);
    throw;
  }
}

Event::~Event() { pool_->unclaim(index_); }

void Event::recordSpan(uint64_t start, uint64_t end) {
  // Tessera has one clock: the device timer is CLOCK_MONOTONIC in nanoseconds
  // (timerResolution 1, 64 valid bits), and a context's time is the device's.
  ze_kernel_timestamp_result_t& t = slot().timestamps;
  t.global.kernelStart = t.context.kernelStart = start;
  t.global.kernelEnd = t.context.kernelEnd = end;
}

void Event::destroy() {
  retireHandle();
  release();
}

}  // namespace tessera::core
