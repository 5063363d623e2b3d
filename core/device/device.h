// A device as the application sees it: a set of the machine's PUs (the root device, a sub-device of
// the fixed tree, or a part the affinity mask trimmed), with the resources hwloc finds under it.
// Devices are created by the driver at initialization and live as long as the process.
#pragma once

#include <level_zero/ze_api.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/common/object.h"
#include "core/device/hierarchy.h"
#include "core/topology/topology.h"

namespace tessera::backends {
class DeviceKind;
class Executor;
}

namespace tessera::core {

class Driver;

class Device : public Object<_ze_device_handle_t, 0x7465737344657631ull /* "tessDev1" */> {
 public:
  // `streamStores`: launches that write more than the device's caches may stream their stores
  // past them (DriverSettings::streamStores, TESSERA_STREAM_STORES).
  Device(Driver& driver, const Topology& topology, const ExposedNode& node, Device* parent,
         uint32_t subdeviceId, bool streamStores);

  static Device* fromHandle(ze_device_handle_t h) { return Object::fromHandle<Device>(h); }

  Driver& driver() const { return driver_; }
  // The exposed hierarchy: null parent for a device without a root-device (and for every device in
  // FLAT mode, where the hierarchy cannot be traversed).
  Device* parent() const { return parent_; }
  Device* rootDevice() const;
  const std::vector<Device*>& subDevices() const { return subDevices_; }
  void addSubDevice(Device* d) { subDevices_.push_back(d); }
  uint32_t subdeviceId() const { return subdeviceId_; }
  bool isSubDevice() const { return parent_ != nullptr; }
  uint32_t depth() const { return parent_ ? parent_->depth() + 1 : 0; }

  Level level() const { return level_; }
  uint32_t objectIndex() const { return objectIndex_; }
  const CpuSet& pus() const { return pus_; }
  const Resources& resources() const { return resources_; }
  const ze_device_uuid_t& uuid() const { return uuid_; }
  const std::string& name() const { return name_; }

  // Queries. Each fills the caller's structs but keeps their stype and pNext.
  void properties(ze_device_properties_t& p) const;
  void computeProperties(ze_device_compute_properties_t& p) const;
  void moduleProperties(ze_device_module_properties_t& p) const;
  // ZE_extension_float_atomics: the float atomics the JIT runs, per type and memory.
  void floatAtomicProperties(ze_float_atomic_ext_properties_t& p) const;
  std::vector<ze_command_queue_group_properties_t> queueGroups() const;
  std::vector<ze_device_memory_properties_t> memoryProperties() const;
  void memoryAccessProperties(ze_device_memory_access_properties_t& p) const;
  std::vector<ze_device_cache_properties_t> cacheProperties() const;
  void imageProperties(ze_device_image_properties_t& p) const;
  void externalMemoryProperties(ze_device_external_memory_properties_t& p) const;
  void p2pProperties(const Device& peer, ze_device_p2p_properties_t& p) const;
  bool canAccessPeer(const Device& peer) const;
  // Host and device timestamps taken together; the device timer is CLOCK_MONOTONIC in nanoseconds.
  void globalTimestamps(uint64_t& host, uint64_t& device) const;

  // The CPUs the device's threads are pinned to: its PUs when the topology is this machine's;
  // empty for a synthetic or XML topology, whose PUs need not exist here.
  const std::vector<uint32_t>& pinCpus() const { return pinCpus_; }
  // pinCpus() names every CPU of the system (the machine's root device): any thread is inside.
  bool pinsEveryCpu() const { return pinsEveryCpu_; }
  // What runs the device's work (backends/device_kind.h): for the CPU kind, worker threads, one per
  // PU (at most one per CPU of the process). Made on first use.
  backends::Executor& workers() const;
  // The kind of device it is (backends/device_kind.h: traits, executors, layout rules).
  const backends::DeviceKind& kind() const { return *kind_; }

 private:
  Driver& driver_;
  bool streamStores_;
  Device* parent_;
  std::vector<Device*> subDevices_;
  uint32_t subdeviceId_;
  Level level_;
  uint32_t objectIndex_;
  CpuSet pus_;
  Resources resources_;
  ze_device_uuid_t uuid_{};
  std::string name_;
  uint32_t vendorId_ = 0, deviceId_ = 0, clockMhz_ = 0, simdWidth_ = 0;
  std::vector<uint32_t> pinCpus_;
  bool pinsEveryCpu_ = false;
  const backends::DeviceKind* kind_;
  mutable std::once_flag workersOnce_;
  mutable std::unique_ptr<backends::Executor> workers_;

 public:
  ~Device();
};

// Timer facts shared by every device and kept by later issues (events, kernel timestamps).
constexpr uint64_t kTimerResolutionNs = 1;  // one tick is a nanosecond of CLOCK_MONOTONIC
constexpr uint32_t kTimestampValidBits = 64;
uint64_t deviceTimestampNow();

}  // namespace tessera::core
