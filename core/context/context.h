// A context: the devices it was created for, and the memory made in it (USM allocations, virtual
// address reservations). The objects made in it (command lists and queues, modules, event pools)
// hold a reference to it, so it lives until the last of them is gone even when the application
// destroyed it first (docs/api-coverage.md, "Leniency": zeContextDestroy does not ask for its
// children to be destroyed before it, and intel/compute-benchmarks destroys it with children that
// an early return left behind).
#pragma once

#include <level_zero/ze_api.h>

#include <atomic>
#include <memory>
#include <vector>

#include "core/common/object.h"
#include "core/common/ref_counted.h"
#include "core/device/device.h"
#include "core/memory/memory_manager.h"
#include "core/memory/virtual_memory.h"
#include "support/fork_child.h"

namespace tessera::core {

class Driver;

class Context : public Object<_ze_context_handle_t, 0x7465737343747831ull /* "tessCtx1" */>,
                public RefCounted<Context> {
 public:
  // `devices` empty means every device of the driver, exposed or reachable through the hierarchy
  // ("zeContextCreate: the context can be used with all devices and sub-devices of the driver").
  static Ref<Context> create(Driver& driver, std::vector<Device*> devices);
  static Context* fromHandle(ze_context_handle_t h) { return Object::fromHandle<Context>(h); }
  // zeContextDestroy: the handle ends and the context no longer answers for memory made in it
  // (memoryHolding); the objects made in it keep it, and its memory, until they are destroyed.
  void destroy();
  // zeDriverGetDefaultContext: "This returned context contains all the devices available in the
  // driver" and "The implementation of this function should be lock-free". Made on the first call
  // (a context of every device, as zeContextCreate makes) and kept by the driver until it is
  // destroyed (Driver::DefaultContextSlot); later calls are one atomic load. Throws what making a
  // context throws (nothing is kept then, and the next call tries again). Thread-safe.
  static Context& defaultFor(Driver& driver);
  // Whether this is its driver's default context (zeContextDestroy refuses it). Lock-free.
  bool isDefault() const;

  Driver& driver() const { return driver_; }
  // "if nullptr then all devices and any sub-devices supported by the driver instance are visible to
  // the context. otherwise, the context only has visibility to the devices and any sub-devices of
  // the devices in this array" (zeContextCreateEx): sub-devices include partition devices, which
  // may be made after the context.
  bool hasDevice(const Device* d) const;
  const std::vector<Device*>& devices() const { return devices_; }
  // SUCCESS while usable; DEVICE_LOST once a kernel launched in it faulted (docs/reliability.md,
  // "Faults"): its queues then run no more kernels (other commands still run and still signal, so
  // no wait hangs), and synchronizations and queries of its queues, fences and events say
  // DEVICE_LOST. The guide's recovery is to destroy the context and make a new one.
  // In a fork() child of a process that had created the driver every context is lost: the threads
  // that would run its commands do not exist there (support/fork_child.h).
  ze_result_t status() const { return lost() ? ZE_RESULT_ERROR_DEVICE_LOST : ZE_RESULT_SUCCESS; }
  bool lost() const {
    return lost_.load(std::memory_order_acquire) || support::inForkChild();
  }
  void markLost() { lost_.store(true, std::memory_order_release); }

  MemoryManager& memory() { return *memory_; }
  // The memory manager that holds `p`: this context's, else that of another live context of the
  // same driver that made it, else this context's (whose answer is then "not an allocation").
  // zeMemFree and the allocation queries go through it. The specification says "The application
  // must ensure ... the memory was allocated ... on the same context", but it names no error, and
  // the reference driver keeps one allocation table per driver, so programs free and query through
  // any context of the driver (244 cases of level-zero-tests' conformance suite do): Tessera is as
  // lenient. The other context must outlive the call, as for any use of its memory.
  MemoryManager& memoryHolding(const void* p);
  VirtualMemory& virtualMemory() { return virtual_; }
  // zeMemGetIpcHandle / zeMemPutIpcHandle: USM allocations (found as memoryHolding finds them) and
  // ranges mapped into this context's reservations (level-zero-tests' IPC cases export such
  // mappings, as the reference driver allows).
  ze_result_t getIpcHandle(const void* p, ze_ipc_mem_handle_t* handle);
  ze_result_t putIpcHandle(const ze_ipc_mem_handle_t& handle);
  // The residency contract (zeContextMakeMemoryResident / zeContextEvictMemory): the range must lie
  // in one allocation of this context or in mapped pages of one of its reservations. A CPU device
  // takes page faults (ZE_DEVICE_PROPERTY_FLAG_ONDEMANDPAGING), so memory is always resident and
  // eviction has nothing to do.
  bool ownsRange(const void* p, size_t bytes) const;

 private:
  Context(Driver& driver, std::vector<Device*> devices);
  ~Context();
  friend class RefCounted<Context>;
  // Takes the context out of the list memoryHolding searches. Idempotent.
  void unlist();

  Driver& driver_;
  std::vector<Device*> devices_;
  bool everyDevice_ = false;  // made for all devices of the driver
  std::atomic<bool> lost_{false};
  VirtualMemory virtual_;
  std::unique_ptr<MemoryManager> memory_;  // made once devices_ is set (it reads their limits)
};

}  // namespace tessera::core
