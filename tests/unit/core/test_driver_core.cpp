// Driver::create and the Device objects it makes, without the ze* API: the listed devices, the
// hierarchy, uuids and the property queries.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <optional>
#include <set>
#include <string>

#include "core/device/limits.h"
#include "core/driver/driver.h"
#include "core_test_support.h"

using namespace tessera::core;
using tessera::core::test::puRange;
using tessera::core::test::puSet;
using tessera::core::test::xeonXml;

namespace {

constexpr uint64_t kGiB = 1024ull * 1024 * 1024;
const char* kTwoByFour = "pack:2 numa:4 core:2 pu:1";  // 2 packages x 4 NUMA nodes of 2 PUs

std::unique_ptr<Driver> makeDriver(const std::string& topology, RootMode root, HierarchyMode mode,
                                   const char* mask = nullptr) {
  DriverConfig c;
  c.topology = {TopologySource::Kind::Synthetic, topology};
  c.rootMode = root;
  c.hierarchy = mode;
  c.affinityMask = parseAffinityMask(mask, c.warnings);
  return Driver::create(std::move(c));
}

std::string uuidText(const ze_device_uuid_t& u) {
  return std::string(reinterpret_cast<const char*>(u.id), sizeof u.id);
}

ze_device_properties_t props(const Device& d) {
  ze_device_properties_t p{};
  p.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  d.properties(p);
  return p;
}

}  // namespace

TEST_CASE("Given package roots and COMPOSITE, then two devices with four sub-devices each",
          "[driver][composite]") {
  auto drv = makeDriver(kTwoByFour, RootMode::Package, HierarchyMode::Composite);
  CHECK(drv->config().warnings.empty());
  REQUIRE(drv->devices().size() == 2);
  CHECK(drv->allDevices().size() == 10);
  CHECK(drv->tree().size() == 2);
  for (uint32_t p = 0; p < 2; ++p) {
    Device* root = drv->devices()[p];
    CHECK(drv->owns(root));
    CHECK(root->parent() == nullptr);
    CHECK(root->rootDevice() == nullptr);
    CHECK_FALSE(root->isSubDevice());
    CHECK(root->depth() == 0);
    CHECK(root->level() == Level::Package);
    CHECK(root->objectIndex() == p);
    CHECK(root->pus() == puRange(8 * p, 8 * p + 7));
    REQUIRE(root->subDevices().size() == 4);
    for (uint32_t i = 0; i < 4; ++i) {
      Device* sub = root->subDevices()[i];
      CHECK(drv->owns(sub));
      CHECK(sub->parent() == root);
      CHECK(sub->rootDevice() == root);
      CHECK(sub->isSubDevice());
      CHECK(sub->depth() == 1);
      CHECK(sub->subdeviceId() == i);
      CHECK(sub->level() == Level::NumaNode);
      CHECK(sub->pus() == puRange(8 * p + 2 * i, 8 * p + 2 * i + 1));
      CHECK(sub->subDevices().empty());
    }
  }
}

TEST_CASE("Given FLAT, then the eight leaves are devices without parents or sub-devices",
          "[driver][flat]") {
  auto drv = makeDriver(kTwoByFour, RootMode::Package, HierarchyMode::Flat);
  REQUIRE(drv->devices().size() == 8);
  CHECK(drv->allDevices().size() == 8);  // no root device is made
  for (uint32_t i = 0; i < 8; ++i) {
    Device* d = drv->devices()[i];
    CHECK(d->parent() == nullptr);
    CHECK(d->rootDevice() == nullptr);
    CHECK(d->subDevices().empty());
    CHECK(d->pus() == puRange(2 * i, 2 * i + 1));
    CHECK((props(*d).flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE) == 0);
  }
}

TEST_CASE("Given COMBINED, then the leaves are listed and the hierarchy can be traversed",
          "[driver][combined]") {
  auto drv = makeDriver(kTwoByFour, RootMode::Machine, HierarchyMode::Combined);
  REQUIRE(drv->devices().size() == 8);
  CHECK(drv->allDevices().size() == 11);  // machine, 2 packages, 8 NUMA nodes
  Device* machine = drv->devices()[0]->rootDevice();
  REQUIRE(machine != nullptr);
  CHECK(machine->level() == Level::Machine);
  CHECK(machine->pus() == puRange(0, 15));
  for (uint32_t i = 0; i < 8; ++i) {
    Device* d = drv->devices()[i];
    REQUIRE(d->parent() != nullptr);
    CHECK(d->depth() == 2);
    CHECK(d->rootDevice() == machine);
    CHECK(d->parent()->subDevices()[d->subdeviceId()] == d);
    CHECK(d->parent()->objectIndex() == i / 4);
    CHECK(d->subdeviceId() == i % 4);
  }
}

TEST_CASE("Given masks in the driver config, then they shape the device list", "[driver][mask]") {
  auto composite = makeDriver(kTwoByFour, RootMode::Package, HierarchyMode::Composite, "1.1, 1.2");
  REQUIRE(composite->devices().size() == 1);
  Device* root = composite->devices()[0];
  CHECK(root->pus() == puRange(10, 13));
  REQUIRE(root->subDevices().size() == 2);
  CHECK(root->subDevices()[0]->subdeviceId() == 0);
  CHECK(root->subDevices()[1]->subdeviceId() == 1);
  CHECK(root->subDevices()[1]->objectIndex() == 6);
  // A trimmed device reports the resources of its PUs only.
  CHECK(root->resources().pus == 4);
  CHECK(root->memoryProperties().size() == 2);

  auto single = makeDriver(kTwoByFour, RootMode::Package, HierarchyMode::Composite, "0.0");
  REQUIRE(single->devices().size() == 1);
  CHECK(single->devices()[0]->parent() == nullptr);
  CHECK(single->devices()[0]->subDevices().empty());
  CHECK(single->devices()[0]->pus() == puSet({0, 1}));
  CHECK((props(*single->devices()[0]).flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE) == 0);

  auto flat = makeDriver(kTwoByFour, RootMode::Package, HierarchyMode::Flat, "1,2,7,9");
  REQUIRE(flat->devices().size() == 3);
  CHECK(flat->devices()[2]->pus() == puRange(14, 15));
  REQUIRE(flat->config().warnings.size() == 1);
  CHECK(flat->config().warnings[0].find("entry 9") != std::string::npos);

  auto none = makeDriver(kTwoByFour, RootMode::Package, HierarchyMode::Composite, "5");
  CHECK(none->devices().empty());
  CHECK(none->config().warnings.size() == 2);
}

TEST_CASE("Given a malformed mask in the config, then every device is reported", "[driver][mask]") {
  auto drv = makeDriver(kTwoByFour, RootMode::Package, HierarchyMode::Composite, "0,,1");
  CHECK(drv->devices().size() == 2);
  CHECK(drv->config().warnings.size() == 1);
  CHECK_FALSE(drv->config().affinityMask.has_value());
}

TEST_CASE("Given an unloadable topology, then Driver::create throws TopologyError", "[driver]") {
  CHECK_THROWS_AS(makeDriver("bogus:2", RootMode::Machine, HierarchyMode::Composite),
                  TopologyError);
}

TEST_CASE("Given devices of one driver, then their uuids are distinct", "[driver][uuid]") {
  auto drv =
      makeDriver("pack:2 numa:2 l3:2 core:2 pu:1", RootMode::Machine, HierarchyMode::Combined);
  CHECK(drv->allDevices().size() == 15);
  std::set<std::string> uuids;
  for (const auto& d : drv->allDevices()) {
    uuids.insert(uuidText(d->uuid()));
    CHECK(std::memcmp(props(*d).uuid.id, d->uuid().id, ZE_MAX_DEVICE_UUID_SIZE) == 0);
  }
  CHECK(uuids.size() == drv->allDevices().size());
}

TEST_CASE("Given two drivers of one topology, then devices of the same PUs have the same uuid",
          "[driver][uuid]") {
  auto a = makeDriver(kTwoByFour, RootMode::Package, HierarchyMode::Composite);
  auto b = makeDriver(kTwoByFour, RootMode::Package, HierarchyMode::Flat, "3");
  REQUIRE(b->devices().size() == 1);
  const Device* tile = a->devices()[0]->subDevices()[3];
  CHECK(tile->pus() == b->devices()[0]->pus());
  CHECK(uuidText(tile->uuid()) == uuidText(b->devices()[0]->uuid()));
  CHECK(uuidText(a->devices()[0]->uuid()) != uuidText(b->devices()[0]->uuid()));

  auto c = makeDriver(kTwoByFour, RootMode::Package, HierarchyMode::Composite);
  for (size_t i = 0; i < a->allDevices().size(); ++i)
    CHECK(uuidText(a->allDevices()[i]->uuid()) == uuidText(c->allDevices()[i]->uuid()));
  CHECK(std::memcmp(a->uuid().id, c->uuid().id, ZE_MAX_DRIVER_UUID_SIZE) == 0);
  CHECK(Driver::version() != 0);

  // Another topology with the same PU numbers is another device.
  auto other = makeDriver("pack:2 numa:4 core:1 pu:2", RootMode::Package, HierarchyMode::Composite);
  CHECK(uuidText(other->devices()[0]->uuid()) != uuidText(a->devices()[0]->uuid()));
}

TEST_CASE("Given any device, then its properties describe its PUs", "[driver][properties]") {
  for (const char* topo : {"pack:2 numa:2 l3:2 core:2 pu:2", "pack:1 core:3 pu:2",
                           "pack:3 l2:2 core:1 pu:1", "numa:2 pu:3"}) {
    auto drv = makeDriver(topo, RootMode::Machine, HierarchyMode::Combined);
    for (const auto& d : drv->allDevices()) {
      INFO(topo << " device " << d->pus().toString());
      ze_device_properties_t p{};
      p.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
      int marker = 0;
      p.pNext = &marker;
      d->properties(p);
      CHECK(p.stype == ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES);
      CHECK(p.pNext == &marker);
      CHECK(p.type == ZE_DEVICE_TYPE_CPU);
      CHECK(p.numSlices * p.numSubslicesPerSlice * p.numEUsPerSubslice * p.numThreadsPerEU ==
            d->pus().count());
      CHECK(((p.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE) != 0) == (d->parent() != nullptr));
      CHECK(p.subdeviceId == (d->parent() ? d->subdeviceId() : 0));
      CHECK(p.maxMemAllocSize == limits::maxMemAllocSize(d->resources()));
      CHECK(p.maxMemAllocSize > 0);
      CHECK(std::string(p.name) == d->name());
      CHECK_FALSE(d->name().empty());
      CHECK(p.timerResolution == kTimerResolutionNs);
      ze_device_properties_t p12{};
      p12.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2;
      d->properties(p12);
      CHECK(p12.stype == ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2);
      CHECK(p12.timerResolution == 1000000000ull / kTimerResolutionNs);  // cycles per second
      CHECK(d->resources().pus == d->pus().count());
    }
  }
}

TEST_CASE("Given a device, then it has one memory property per NUMA node", "[driver][memory]") {
  auto drv = makeDriver(kTwoByFour, RootMode::Machine, HierarchyMode::Composite);
  Device* machine = drv->devices()[0];
  auto mem = machine->memoryProperties();
  REQUIRE(mem.size() == 8);
  for (uint32_t i = 0; i < 8; ++i) {
    CHECK(mem[i].stype == ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES);
    CHECK(mem[i].totalSize == kGiB);
    CHECK(std::string(mem[i].name) == "NUMA node " + std::to_string(i));
  }
  Device* pkg1 = machine->subDevices()[1];
  auto pkgMem = pkg1->memoryProperties();
  REQUIRE(pkgMem.size() == 4);
  CHECK(std::string(pkgMem[0].name) == "NUMA node 4");
  CHECK(pkg1->subDevices()[2]->memoryProperties().size() == 1);
  CHECK(props(*pkg1).maxMemAllocSize == 4 * kGiB);
}

TEST_CASE("Given synthetic caches, then cacheProperties lists one entry per level",
          "[driver][cache]") {
  auto drv =
      makeDriver("pack:1 l3:2 l2:2 core:2 pu:2", RootMode::Machine, HierarchyMode::Composite);
  for (const auto& d : drv->allDevices()) {
    auto caches = d->cacheProperties();
    REQUIRE(caches.size() == d->resources().caches.size());
    CHECK_FALSE(caches.empty());
    for (const auto& c : caches) {
      CHECK(c.stype == ZE_STRUCTURE_TYPE_DEVICE_CACHE_PROPERTIES);
      CHECK(c.cacheSize > 0);
    }
  }
  CHECK(drv->devices()[0]->cacheProperties().size() == 2);  // L2 and L3
  CHECK(makeDriver("pack:1 core:2 pu:1", RootMode::Machine, HierarchyMode::Composite)
            ->devices()[0]
            ->cacheProperties()
            .empty());
}

TEST_CASE("Given the xeon XML, then its identity and caches are reported", "[driver][xml]") {
  DriverConfig c;
  c.topology = {TopologySource::Kind::Xml, xeonXml()};
  auto drv = Driver::create(std::move(c));
  REQUIRE(drv->devices().size() == 1);
  Device* root = drv->devices()[0];
  CHECK(root->subDevices().size() == 16);
  ze_device_properties_t p = props(*root);
  CHECK(std::string(p.name) == "Intel(R) Xeon(R) Processor");
  CHECK(p.vendorId == 0x8086);
  CHECK(p.deviceId == ((6u << 8) | 207u));
  CHECK(p.numThreadsPerEU * p.numEUsPerSubslice * p.numSlices * p.numSubslicesPerSlice == 16);
  auto caches = root->cacheProperties();
  REQUIRE(caches.size() == 3);
  CHECK(caches[0].cacheSize == 48 * 1024);
  CHECK(caches[1].cacheSize == 2048 * 1024);
  CHECK(root->subDevices()[3]->cacheProperties().size() == 3);
}

TEST_CASE("Given a device, then it has a compute and a copy queue group", "[driver][queues]") {
  auto drv = makeDriver(kTwoByFour, RootMode::Package, HierarchyMode::Composite);
  for (const auto& d : drv->allDevices()) {
    auto groups = d->queueGroups();
    REQUIRE(groups.size() == 2);
    CHECK(groups[0].flags == (ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE |
                              ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY |
                              ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COOPERATIVE_KERNELS));
    CHECK(groups[0].numQueues == limits::kComputeQueues);
    CHECK(groups[1].flags == ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY);
    CHECK(groups[1].numQueues == limits::kCopyQueues);
    CHECK(groups[0].maxMemoryFillPatternSize == limits::kMaxFillPatternSize);
    CHECK(groups[1].maxMemoryFillPatternSize == limits::kMaxCopyFillPatternSize);
    for (const auto& g : groups) {
      CHECK(g.stype == ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES);
      CHECK(g.numQueues >= 1);
    }
  }
}

TEST_CASE("Given even and uneven resources, then threadShape multiplies out to the PUs",
          "[limits]") {
  auto shape = [](uint32_t pus, uint32_t cores, uint32_t packages) {
    Resources r;
    r.pus = pus;
    r.cores = cores;
    r.packages = packages;
    return limits::threadShape(r);
  };
  ThreadShape even = shape(16, 8, 2);
  CHECK(even.slices == 2);
  CHECK(even.subslicesPerSlice == 1);
  CHECK(even.eusPerSubslice == 4);
  CHECK(even.threadsPerEu == 2);

  ThreadShape hybrid = shape(6, 4, 1);  // e.g. 2 SMT cores + 2 single-thread cores
  CHECK(hybrid.threadsPerEu == 1);
  CHECK(hybrid.eusPerSubslice == 6);

  ThreadShape oddPackages = shape(12, 6, 4);
  CHECK(oddPackages.slices == 1);
  CHECK(oddPackages.eusPerSubslice == 6);
  CHECK(oddPackages.threadsPerEu == 2);

  for (uint32_t pus = 1; pus <= 24; ++pus)
    for (uint32_t cores = 0; cores <= pus + 1; ++cores)
      for (uint32_t packages = 0; packages <= 5; ++packages) {
        ThreadShape s = shape(pus, cores, packages);
        INFO(pus << " PUs, " << cores << " cores, " << packages << " packages");
        REQUIRE(s.slices * s.subslicesPerSlice * s.eusPerSubslice * s.threadsPerEu == pus);
      }
  ThreadShape empty = shape(0, 0, 0);
  CHECK(empty.slices * empty.eusPerSubslice * empty.threadsPerEu == 1);
}

TEST_CASE("Given NUMA nodes, then maxMemAllocSize is their total memory", "[limits]") {
  Resources r;
  CHECK(limits::maxMemAllocSize(r) == 0);
  r.numaNodes = {{0, 0, 3 * kGiB}, {1, 1, kGiB}};
  CHECK(limits::maxMemAllocSize(r) == 4 * kGiB);
}

TEST_CASE("Given the environment variables, then DriverConfig::fromEnvironment reads them all",
          "[driver][environment]") {
  const char* names[] = {"TESSERA_TOPOLOGY", "TESSERA_ROOT_DEVICE", "ZE_FLAT_DEVICE_HIERARCHY",
                         "ZE_AFFINITY_MASK"};
  std::vector<std::optional<std::string>> saved;
  for (const char* n : names) {
    const char* v = std::getenv(n);
    saved.push_back(v ? std::optional<std::string>(v) : std::nullopt);
  }
  setenv("TESSERA_TOPOLOGY", kTwoByFour, 1);
  setenv("TESSERA_ROOT_DEVICE", "package", 1);
  setenv("ZE_FLAT_DEVICE_HIERARCHY", "combined", 1);
  setenv("ZE_AFFINITY_MASK", "1, 6", 1);
  DriverConfig c = DriverConfig::fromEnvironment();
  CHECK(c.topology.kind == TopologySource::Kind::Synthetic);
  CHECK(c.topology.value == kTwoByFour);
  CHECK(c.rootMode == RootMode::Package);
  CHECK(c.hierarchy == HierarchyMode::Combined);
  REQUIRE(c.affinityMask.has_value());
  CHECK(c.affinityMask->entries == std::vector<std::vector<uint32_t>>{{1}, {6}});
  CHECK(c.warnings.empty());
  auto drv = Driver::create(c);
  REQUIRE(drv->devices().size() == 2);
  CHECK(drv->devices()[1]->pus() == puRange(12, 13));

  setenv("TESSERA_ROOT_DEVICE", "sockets", 1);
  setenv("ZE_FLAT_DEVICE_HIERARCHY", "flatt", 1);
  setenv("ZE_AFFINITY_MASK", "1,x", 1);
  unsetenv("TESSERA_TOPOLOGY");
  DriverConfig bad = DriverConfig::fromEnvironment();
  CHECK(bad.topology.kind == TopologySource::Kind::Machine);
  CHECK(bad.rootMode == RootMode::Machine);
  CHECK(bad.hierarchy == HierarchyMode::Composite);
  CHECK_FALSE(bad.affinityMask.has_value());
  CHECK(bad.warnings.size() == 3);

  for (size_t i = 0; i < saved.size(); ++i) {
    if (saved[i])
      setenv(names[i], saved[i]->c_str(), 1);
    else
      unsetenv(names[i]);
  }
}
