#include "core/queue/run_command.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <mutex>

#include "host/fault_guard.h"
#include "host/pu_claims.h"
#include "backends/device_kind.h"
#include "core/context/context.h"
#include "core/device/device.h"
#include "core/queue/fault_containment.h"
#include "core/queue/kernel_launch.h"
#include "core/command/command_trace.h"

namespace tessera::core {
namespace {

// Below this a copy or fill runs on one thread; above it, in chunks over the device's workers.
constexpr size_t kParallelThreshold = 4u << 20;
constexpr size_t kChunk = 1u << 20;
// At most this many chunks per worker: a size far beyond any mapping (2^62 bytes) faults in every
// chunk, so each chunk should be one fault, not one per MiB of the size.
constexpr uint64_t kMaxChunksPerWorker = 64;

// Runs fn(begin, n) over [0, size), on this thread or in chunks over the device's workers, each
// piece under the fault guard (host/fault_guard.h) like a kernel's work-groups: a copy
// from a freed or wild pointer, of a size beyond its allocation, or from IPC memory whose exporter
// truncated its memfd (SIGBUS) loses the context instead of killing the process. After a fault the
// pieces not yet started do nothing. True when nothing faulted.
template <typename PieceFn>
bool guardedPieces(const char* what, size_t size, const ExecutionTarget& t, PieceFn&& fn) {
  host::ensureFaultHandlers();
  std::atomic<bool> faulted{false};
  host::FaultInfo first;
  std::once_flag firstOnce;
  auto piece = [&](size_t begin, size_t n) {
    if (faulted.load(std::memory_order_relaxed)) return;
    auto body = [&] { fn(begin, n); };
    host::FaultInfo info;
    if (!host::runGuardedFn(body, &info, t.cancel)) {
      std::call_once(firstOnce, [&] { first = info; });
      faulted.store(true, std::memory_order_relaxed);
    }
  };
  backends::Executor& workers = t.device.workers();
  if (!t.mayUseWorkers || t.serial || size < kParallelThreshold || workers.size() == 1) {
    piece(0, size);
  } else {
    // Chunks are multiples of kChunk, so of every fill pattern's size.
    const uint64_t most = uint64_t{workers.size()} * kMaxChunksPerWorker;
    uint64_t chunk = kChunk;
    if (size / kChunk >= most) {
      uint64_t even = size / most + (size % most != 0);
      chunk = (even + kChunk - 1) / kChunk * kChunk;
    }
    const uint64_t chunks = size / chunk + (size % chunk != 0);
    workers.parallelFor(chunks, [&](uint64_t i) {
      size_t begin = i * chunk;
      piece(begin, std::min<uint64_t>(chunk, size - begin));
    });
  }
  if (!faulted.load()) return true;
  memoryFaulted(t.context, what, first);
  return false;
}

// One guarded piece on this thread.
template <typename F>
bool guarded(const char* what, const ExecutionTarget& t, F&& f) {
  return guardedPieces(what, 0, t, [&](size_t, size_t) { f(); });
}

void fill(const FillOp& op, const ExecutionTarget& t) {
  auto* dst = static_cast<uint8_t*>(op.dst);
  if (op.patternSize == 1) {
    guardedPieces("fill", op.size, t,
                  [&](size_t b, size_t n) { std::memset(dst + b, op.pattern[0], n); });
    return;
  }
  // A piece that starts inside a copy of the pattern (a pattern longer than the chunk) begins with
  // the rest of that copy; the last copy may be cut short ("size ... in bytes to be filled").
  const uint8_t* pattern = op.bytes();
  const size_t ps = op.patternSize;
  guardedPieces("fill", op.size, t, [&](size_t b, size_t n) {
    size_t phase = b % ps, i = 0;
    if (phase) {
      i = std::min(ps - phase, n);
      std::memcpy(dst + b, pattern + phase, i);
    }
    for (; i < n; i += ps) std::memcpy(dst + b + i, pattern, std::min(ps, n - i));
  });
}

void regionCopy(const RegionCopyOp& op) {
  const ze_copy_region_t &d = op.dstRegion, &s = op.srcRegion;
  // ze_copy_region_t.depth: "Set this to 0 for 2D copy": one slice, as depth 1.
  uint32_t slices = std::max(d.depth, 1u);
  for (uint32_t z = 0; z < slices; ++z)
    for (uint32_t y = 0; y < d.height; ++y)
      std::memmove(op.dst + (d.originZ + z) * op.dstSlicePitch + (d.originY + y) * op.dstPitch +
                       d.originX,
                   op.src + (s.originZ + z) * op.srcSlicePitch + (s.originY + y) * op.srcPitch +
                       s.originX,
                   d.width);
}

void run(const Op& op, const ExecutionTarget& t) {
  // A lost context runs nothing more ("the context is no longer valid"); launchKernel checks
  // the same for kernels.
  if (t.context.lost()) return;
  struct Visitor {
    const ExecutionTarget& t;
    void operator()(const NopOp&) const {}
    void operator()(const CopyOp& c) const {
      auto* dst = static_cast<uint8_t*>(c.dst);
      auto* src = static_cast<const uint8_t*>(c.src);
      guardedPieces("copy", c.size, t,
                    [&](size_t b, size_t n) { std::memmove(dst + b, src + b, n); });
    }
    void operator()(const FillOp& f) const { fill(f, t); }
    void operator()(const RegionCopyOp& r) const {
      guarded("region copy", t, [&] { regionCopy(r); });
    }
    void operator()(const TimestampOp& w) const {
      uint64_t now = deviceTimestampNow();
      guarded("timestamp write", t, [&] { *w.dst = now; });
    }
    void operator()(const QueryTimestampsOp& q) const {
      guarded("timestamp query", t, [&] {
        size_t packed = 0;
        for (size_t i = 0; i < q.events.size(); ++i) {
          size_t at = q.offsets.empty() ? packed : q.offsets[i];
          std::memcpy(q.dst + at, &q.events[i]->timestamps(), sizeof(ze_kernel_timestamp_result_t));
          packed += sizeof(ze_kernel_timestamp_result_t);
        }
      });
    }
    void operator()(const ResetEventOp& r) const { r.event->reset(); }
    // The application's function, on this thread, after the commands before it and before those
    // after it. Not run under the fault guard: a fault in it is the application's own, as in any
    // of its host code.
    void operator()(const HostFunctionOp& h) const { h.function(h.userData); }
    void operator()(const LaunchOp& l) const {
      if (!l.indirect) return launchKernel(l, nullptr, t);
      // The group counts are the application's memory, read now.
      ze_group_count_t counts{};
      if (guarded("read of indirect group counts", t, [&] { counts = *l.indirect; }))
        launchKernel(l, &counts, t);
    }
    void operator()(const MultiLaunchOp& m) const {
      uint32_t n = 0;
      if (!guarded("read of an indirect launch count", t, [&] { n = *m.count; })) return;
      n = std::min<uint32_t>(n, static_cast<uint32_t>(m.launches.size()));
      for (uint32_t i = 0; i < n; ++i) {
        ze_group_count_t counts{};
        if (!guarded("read of indirect group counts", t, [&] { counts = m.groupCounts[i]; }))
          return;
        launchKernel(m.launches[i], &counts, t);
      }
    }
  };
  std::visit(Visitor{t}, op);
}

// The command's end: counted as run (target.ran), then its event signalled, with the span of a
// timestamp event.
void finish(const Command& command, const ExecutionTarget& target, uint64_t start) {
  if (target.ran) target.ran->fetch_add(1, std::memory_order_release);
  if (command.signal) {
    if (command.signal->pool().timestamps()) command.signal->recordSpan(start, deviceTimestampNow());
    if (command.counterSignal == kNoCounter)
      command.signal->signal();
    else if (command.signal->aggregates())  // every signal adds (core/event/event.h)
      command.signal->complete(0);
    else if (command.counterFinal && target.counterValues)
      command.signal->complete(target.counterValues[2 * command.counterSignal + 1]);
  }
}

void execute(const Command& command, const ExecutionTarget& target) {
  // The PU this thread works on is claimed while the operation runs, so that waiting threads there
  // sleep rather than compete with it (host/pu_claims.h); an unpinned device's (synthetic
  // topology) work is floating.
  using host::PuClaim;
  PuClaim claim(target.device.pinCpus().empty() ? PuClaim::kFloating : host::currentCpu());
  const uint64_t traceStart = trace::enabled() ? traceCommandBegin(command) : 0;
  run(command.op, target);
  // The trace's flow arrow starts before the event is signalled: a host wait that sees the signal
  // must find the start already recorded.
  if (traceStart) traceCommandEnd(command, traceStart);
}

}  // namespace

bool runCommand(const Command& command, const ExecutionTarget& target) {
  for (const Ref<Event>& e : command.waits)
    if (!e->wait(sync::kForever, target.cancel)) return false;
  if (!command.counterWaits.empty() && target.buffer && target.counterValues)
    for (uint32_t slot : command.counterWaits)
      if (!target.buffer->counterEvents[slot]->waitFor(target.counterValues[2 * slot],
                                                       sync::kForever, target.cancel))
        return false;
  const bool timed = command.signal && command.signal->pool().timestamps();
  const uint64_t start = timed ? deviceTimestampNow() : 0;
  if (!target.executor) {
    execute(command, target);
    finish(command, target, start);
    return true;
  }
  // No exception leaves an executor thread (it would end the process in std::terminate): the
  // command's work is lost, so is its context, and its event is signalled for the waiters to see
  // DEVICE_LOST.
  try {
    execute(command, target);
  } catch (const std::exception& e) {
    commandFailed(target.context, e.what());
  } catch (...) {
    commandFailed(target.context, "unknown exception");
  }
  finish(command, target, start);
  return true;
}

}  // namespace tessera::core
