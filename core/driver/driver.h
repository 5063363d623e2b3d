// The driver: the topology, the device tree built from it, and the devices the application sees.
#pragma once

#include <level_zero/ze_api.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "compiler/compiler_config.h"
#include "config/settings.h"
#include "core/common/object.h"
#include "core/device/device.h"
#include "core/device/hierarchy.h"
#include "core/driver/host_imports.h"
#include "core/topology/device_tree.h"
#include "core/topology/partition.h"

namespace tessera::compiler {
class Compiler;
}

namespace tessera::core {

class Context;

// Everything the environment decides, read once: the driver's rows of config/settings.def
// (rootMode, hierarchy, affinityMask, sharedForceDeviceAlloc, spinUs, inlineLaunch, streamStores,
// queueDestroyTimeoutMs, noFaultGuard, guardPages, topologyText), which the objects the driver makes read
// through it, and the topology source TESSERA_TOPOLOGY names.
struct DriverConfig : config::DriverSettings {
  TopologySource topology;            // from topologyText
  std::vector<std::string> warnings;  // what could not be read, and what was done instead
  // How modules are compiled and cached (compiler/compiler_config.h); default: no on-disk cache.
  compiler::CompilerConfig compiler;

  // config::DriverSettings::fromEnvironment, the topology source and the compiler's settings
  // (compiler::configFromEnvironment, config::CompilerSettings). ZE_ENABLE_PCI_ID_DEVICE_ORDER is
  // accepted and has nothing to reorder: a CPU device has no PCI bus id and devices are always
  // reported in hwloc's logical order.
  static DriverConfig fromEnvironment();
};

class Driver : public Object<_ze_driver_handle_t, 0x7465737344727631ull /* "tessDrv1" */> {
 public:
  ~Driver();
  // Throws TopologyError when the topology cannot be loaded.
  static std::unique_ptr<Driver> create(DriverConfig config);
  // The process's driver, built on first call from the environment (falling back to this machine's
  // topology, with a warning, when TESSERA_TOPOLOGY cannot be loaded). Thread-safe. Throws only
  // when not even this machine's topology loads.
  static Driver& global();
  static Driver* fromHandle(ze_driver_handle_t h) { return Object::fromHandle<Driver>(h); }

  // What zeDeviceGet returns, in order.
  const std::vector<Device*>& devices() const { return listed_; }
  // Every device this driver made at initialization, exposed or reachable through the hierarchy
  // (partition devices, made later, are not among them).
  const std::vector<std::unique_ptr<Device>>& allDevices() const { return all_; }
  // A device of this driver: made at initialization or a partition device.
  bool owns(const Device* d) const;

  // The partition devices of `parent` for `parts` (ZE_tessera_device_partition), in order: new
  // sub-devices of `parent`, not listed among its subDevices(), with subdeviceId = index in
  // `parts`. They live as long as the driver, and the same PUs of the same parent always give the
  // same device (it keeps the subdeviceId, level and object index it was first made with), so
  // partitioning again does not grow memory. Thread-safe.
  std::vector<Device*> partitionDevices(Device& parent, const std::vector<PartitionPart>& parts);
  // zeTesseraDeviceCreatePartition's work: cuts `parent` as `request` says (partitionDevice) and,
  // unless only counting (`makeDevices` false), the devices of the parts (partitionDevices).
  struct Partition {
    PartitionStatus status = PartitionStatus::Ok;
    AffinityDomain domainUsed = AffinityDomain::None;
    size_t count = 0;              // parts of the cut
    std::vector<Device*> devices;  // empty when only counting
  };
  Partition partition(Device& parent, const PartitionRequest& request, bool makeDevices);

  const Topology& topology() const { return *topology_; }
  // Builds every module of this driver's devices (one JIT, one cache).
  compiler::Compiler& compiler() const { return *compiler_; }
  const DriverConfig& config() const { return config_; }
  const std::vector<DeviceTreeNode>& tree() const { return tree_; }
  const ze_driver_uuid_t& uuid() const { return uuid_; }
  // Non-zero and increasing from release to release: major << 16 | minor << 8 | patch.
  static uint32_t version();

  // Host memory imported by zexDriverImportExternalPointer (host_imports.h).
  HostImports& hostImports() { return hostImports_; }

  // Where the driver keeps its default context (zeDriverGetDefaultContext), which
  // Context::defaultFor makes on first use (core/context/context.h; the context folder includes
  // this one, not the other way round). The driver releases it when it is destroyed.
  struct DefaultContextSlot {
    std::atomic<Context*> context{nullptr};  // holds the reference it was created with
    std::mutex mutex;                        // makes it once
    void (*release)(Context*) = nullptr;     // set with `context`
    DefaultContextSlot() = default;
    DefaultContextSlot(const DefaultContextSlot&) = delete;
    DefaultContextSlot& operator=(const DefaultContextSlot&) = delete;
    ~DefaultContextSlot() {
      if (Context* c = context.load(std::memory_order_acquire)) release(c);
    }
  };
  DefaultContextSlot& defaultContextSlot() { return defaultContext_; }
  const DefaultContextSlot& defaultContextSlot() const { return defaultContext_; }

 private:
  explicit Driver(DriverConfig config);
  Device* makeDevices(const ExposedNode& node, Device* parent, uint32_t subdeviceId, bool flat);

  DriverConfig config_;
  std::unique_ptr<compiler::Compiler> compiler_;
  std::unique_ptr<Topology> topology_;
  std::vector<DeviceTreeNode> tree_;
  std::vector<std::unique_ptr<Device>> all_;
  std::vector<Device*> listed_;
  mutable std::mutex partitionsMutex_;
  // Partition devices by parent and PUs ("0-3,8").
  std::map<std::pair<const Device*, std::string>, std::unique_ptr<Device>> partitions_;
  ze_driver_uuid_t uuid_{};
  HostImports hostImports_;
  DefaultContextSlot defaultContext_;  // last: released before the rest of the driver goes
};

}  // namespace tessera::core
