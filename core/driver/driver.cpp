#include "core/driver/driver.h"

#include <algorithm>
#include <cstdio>
#include <mutex>

#include "backends/device_kind.h"
#include "compiler/compiler.h"
#include "host/fault_guard.h"
#include "core/common/hash.h"
#include "core/sync/wait.h"
#include "support/fork_child.h"

namespace tessera::core {

DriverConfig DriverConfig::fromEnvironment() {
  DriverConfig c;
  static_cast<config::DriverSettings&>(c) = config::DriverSettings::fromEnvironment(c.warnings);
  c.topology = TopologySource::fromString(c.topologyText.c_str());
  c.compiler = compiler::configFromEnvironment(c.warnings);
  return c;
}

namespace {

// The PUs the device tree is cut from. A process bound to part of the machine (taskset, numactl,
// an MPI launcher's --bind-to) gets devices of those PUs only, as OpenMP runtimes and PoCL keep to
// the initial binding: no thread of Tessera runs where the process was told not to. Except under
// ZE_AFFINITY_MASK: its indices name devices of the whole node, the same in every process on it
// (docs/usage.md, "MPI"), whatever each process's binding.
CpuSet devicePus(const Topology& topology, const DriverConfig& config) {
  CpuSet bound = topology.boundPus();
  return bound.empty() || config.affinityMask ? topology.allowedPus() : bound;
}

}  // namespace

Driver::Driver(DriverConfig config)
    : config_(std::move(config)),
      // Every device is of the CPU kind (core/device/device.cpp): code is made for it.
      compiler_(std::make_unique<compiler::Compiler>(config_.compiler, backends::cpuKind())) {}

Driver::~Driver() = default;

uint32_t Driver::version() {
  return (0u << 16) | (1u << 8) | 0u;
}

std::unique_ptr<Driver> Driver::create(DriverConfig config) {
  std::unique_ptr<Driver> d(new Driver(std::move(config)));
  d->topology_ = Topology::load(d->config_.topology);
  d->tree_ =
      buildDeviceTree(*d->topology_, d->config_.rootMode, devicePus(*d->topology_, d->config_));
  DeviceView view =
      exposeDevices(d->tree_, d->config_.hierarchy, d->config_.affinityMask, d->config_.warnings);
  bool flat = view.mode == HierarchyMode::Flat;
  std::vector<Device*> roots;
  for (uint32_t i = 0; i < view.roots.size(); ++i)
    roots.push_back(flat ? nullptr : d->makeDevices(view.roots[i], nullptr, 0, false));
  for (const auto& path : view.listed) {
    // Walk the path through the exposed tree; in FLAT mode a listed leaf is made on its own, with
    // no parent and no sub-devices, since the hierarchy is not to be traversed.
    const ExposedNode* node = &view.roots[path[0]];
    Device* device = roots[path[0]];
    for (size_t k = 1; k < path.size(); ++k) {
      node = &node->children[path[k]];
      if (device) device = device->subDevices()[path[k]];
    }
    d->listed_.push_back(device ? device : d->makeDevices(*node, nullptr, 0, true));
  }
  std::string identity = "tessera-driver|" + std::to_string(version()) + "|" +
                         d->topology_->cpuModel() + "|" + d->topology_->source().describe();
  stableUuid(identity, d->uuid_.id);
  return d;
}

Device* Driver::makeDevices(const ExposedNode& node, Device* parent, uint32_t subdeviceId,
                            bool flat) {
  all_.push_back(std::make_unique<Device>(*this, *topology_, node, parent, subdeviceId,
                                          config_.streamStores));
  Device* device = all_.back().get();
  if (!flat)
    for (uint32_t i = 0; i < node.children.size(); ++i)
      device->addSubDevice(makeDevices(node.children[i], device, i, false));
  return device;
}

bool Driver::owns(const Device* d) const {
  if (std::any_of(all_.begin(), all_.end(), [&](const auto& p) { return p.get() == d; }))
    return true;
  std::lock_guard<std::mutex> lock(partitionsMutex_);
  return std::any_of(partitions_.begin(), partitions_.end(),
                     [&](const auto& p) { return p.second.get() == d; });
}

Driver::Partition Driver::partition(Device& parent, const PartitionRequest& request,
                                    bool makeDevices) {
  PartitionResult cut =
      partitionDevice(*topology_, parent.pus(), parent.level(), parent.objectIndex(), request);
  Partition p;
  p.status = cut.status;
  p.domainUsed = cut.domainUsed;
  p.count = cut.parts.size();
  if (cut.status == PartitionStatus::Ok && makeDevices)
    p.devices = partitionDevices(parent, cut.parts);
  return p;
}

std::vector<Device*> Driver::partitionDevices(Device& parent,
                                              const std::vector<PartitionPart>& parts) {
  std::vector<Device*> out;
  std::lock_guard<std::mutex> lock(partitionsMutex_);
  for (uint32_t i = 0; i < parts.size(); ++i) {
    std::unique_ptr<Device>& slot = partitions_[{&parent, parts[i].pus.toString()}];
    if (!slot) {
      ExposedNode node{parts[i].level, parts[i].objectIndex, parts[i].pus, {}};
      slot = std::make_unique<Device>(*this, *topology_, node, &parent, i, config_.streamStores);
    }
    out.push_back(slot.get());
  }
  return out;
}

Driver& Driver::global() {
  static Driver* driver = [] {
    DriverConfig config = DriverConfig::fromEnvironment();
    // What is process-wide: how long waits spin, and whether faults are contained.
    sync::setSpinNs(config.spinUs * 1000);
    host::setFaultGuardEnabled(!config.noFaultGuard);
    std::unique_ptr<Driver> d;
    try {
      d = create(config);
    } catch (const TopologyError& e) {
      if (config.topology.kind == TopologySource::Kind::Machine) throw;
      config.warnings.push_back(std::string(e.what()) +
                                "; TESSERA_TOPOLOGY ignored, using this machine");
      config.topology = TopologySource{};
      d = create(config);
    }
    for (const std::string& w : d->config().warnings)
      std::fprintf(stderr, "tessera: warning: %s\n", w.c_str());
    // Before any of the driver's threads exist: a fork() child of this process from now on is
    // refused rather than left waiting for them (support/fork_child.h).
    support::watchForks();
    return d.release();  // lives as long as the process: handles may be used until exit
  }();
  return *driver;
}

}  // namespace tessera::core
