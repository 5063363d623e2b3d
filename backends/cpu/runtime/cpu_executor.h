// The CPU kind's Executor (backends/device_kind.h): a device's WorkerPool pinned to its PUs,
// launching through launcher.h. The kind itself (traits, executors, code generator) is
// backends/cpu/kind/cpu_kind.cpp.
#pragma once

#include "backends/cpu/worker_pool.h"
#include "backends/device_kind.h"

namespace tessera::backends::cpu {

class CpuExecutor final : public Executor {
 public:
  // `cacheBytes`: the device's last-level caches together (DeviceKind::createExecutor); a launch
  // that writes more than they hold streams a kernel's widened stores (launcher.h).
  CpuExecutor(std::vector<uint32_t> cpus, uint32_t threads, uint64_t idleSpinNs,
              uint64_t cacheBytes)
      : pool_(std::move(cpus), threads, idleSpinNs), cacheBytes_(cacheBytes) {}
  uint32_t size() const override { return pool_.size(); }
  void parallelFor(uint64_t count, JobRef job) override { pool_.parallelFor(count, job); }
  using Executor::parallelFor;
  // `code` is a CompiledKernel: the CPU kind compiled it (compiler/ hands out only those).
  bool launch(const KernelCode& code, const uint8_t* args, const LaunchDims& dims, const void* tag,
              uint64_t serialNs) override;
  WorkerPool& pool() { return pool_; }

 private:
  WorkerPool pool_;
  uint64_t cacheBytes_;
};

}  // namespace tessera::backends::cpu
