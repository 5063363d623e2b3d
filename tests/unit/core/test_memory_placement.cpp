// The placement decision (core/memory/placement.h) on synthetic multi-NUMA topologies. Their nodes
// do not exist on this machine, so nothing is bound there (test_memory_core.cpp) and move_pages
// cannot show where pages went: what is checked is the policy, the nodes each allocation would be
// bound or interleaved to.
#include "core/context/context.h"
#include "core/device/device.h"
#include "core/driver/driver.h"
#include "core/memory/placement.h"
#include "core_test_support.h"

using namespace tessera::core;

namespace {

std::unique_ptr<Driver> driverOn(const std::string& topology) {
  DriverConfig c;
  c.topology = {TopologySource::Kind::Synthetic, topology};
  return Driver::create(std::move(c));
}

std::vector<uint32_t> nodesOf(const Device& d) {
  std::vector<uint32_t> v;
  for (const NumaNodeInfo& n : d.resources().numaNodes) v.push_back(n.osIndex);
  return v;
}

}  // namespace

TEST_CASE(
    "Placement: on a root device spanning two NUMA nodes, device and host memory are "
    "interleaved across both; a sub-device's memory is bound to its node",
    "[unit][memory][placement]") {
  auto driver = driverOn("pack:2 numa:1 core:2 pu:1");
  REQUIRE(driver->devices().size() == 1);
  Device& root = *driver->devices()[0];
  REQUIRE(nodesOf(root).size() == 2);
  REQUIRE(root.subDevices().size() == 2);
  const Topology& topo = driver->topology();
  const std::vector<uint32_t> both = numaNodesOf({&root});
  CHECK(both == nodesOf(root));

  Placement device = placementFor(MemoryKind::Device, &root, both, false, topo);
  CHECK(device.topology == &topo);
  CHECK(device.nodes == both);
  Placement host = placementFor(MemoryKind::Host, nullptr, both, false, topo);
  CHECK(host.nodes == both);
  for (Device* sub : root.subDevices()) {
    INFO("sub-device " << sub->subdeviceId());
    CHECK(placementFor(MemoryKind::Device, sub, both, false, topo).nodes == nodesOf(*sub));
    CHECK(nodesOf(*sub).size() == 1);
    // Shared memory follows first touch unless ZE_SHARED_FORCE_DEVICE_ALLOC=1.
    CHECK(placementFor(MemoryKind::Shared, sub, both, false, topo).nodes.empty());
    CHECK(placementFor(MemoryKind::Shared, sub, both, true, topo).nodes == nodesOf(*sub));
  }
  CHECK(placementFor(MemoryKind::Shared, nullptr, both, true, topo).nodes.empty());
}

TEST_CASE("Placement: a context on one NUMA node leaves host memory to first touch",
          "[unit][memory][placement]") {
  auto driver = driverOn("pack:2 numa:1 core:2 pu:1");
  Device* sub = driver->devices()[0]->subDevices().at(0);
  const std::vector<uint32_t> one = numaNodesOf({sub});
  CHECK(one.size() == 1);
  Placement host = placementFor(MemoryKind::Host, nullptr, one, false, driver->topology());
  CHECK_FALSE(host.binds());
  // A context made on that sub-device alone knows one node; on every device, both.
  CHECK(numaNodesOf(Context::create(*driver, {sub})->devices()) == one);
  CHECK(numaNodesOf(Context::create(*driver, {})->devices()).size() == 2);
}

TEST_CASE(
    "Placement: a machine of four nodes in two packages interleaves host memory of a "
    "root-device context across all four",
    "[unit][memory][placement]") {
  auto driver = driverOn("pack:2 numa:2 core:2 pu:1");
  Device& root = *driver->devices()[0];
  const std::vector<uint32_t> all = numaNodesOf({&root});
  CHECK(all.size() == 4);
  CHECK(placementFor(MemoryKind::Host, nullptr, all, false, driver->topology()).nodes == all);
  for (Device* pkg : root.subDevices()) {
    INFO("package sub-device " << pkg->subdeviceId());
    CHECK(placementFor(MemoryKind::Device, pkg, all, false, driver->topology()).nodes.size() == 2);
  }
}
