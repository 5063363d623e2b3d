// partitionDevice (core/topology/partition.h): OpenCL's partition schemes on synthetic and real
// topologies, compute units being a device's PUs in hwloc's logical order.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/topology/partition.h"
#include "core_test_support.h"

using namespace tessera::core;
using tessera::core::test::puRange;
using tessera::core::test::puSet;
using tessera::core::test::synthetic;
using tessera::core::test::xeonXml;

namespace {

// 32 PUs: package p, NUMA node n (of 4), L3 l (of 8), core c, PU t is PU 16p + 8n' + 4l' + 2c + t.
const char* kBig = "pack:2 numa:2 l3:2 core:2 pu:2";
// 8 PUs, one L3, four L2 of one core of two PUs each.
const char* kL2 = "pack:1 l3:1 l2:4 core:1 pu:2";

PartitionRequest equally(uint32_t n) {
  return {PartitionScheme::Equally, n, {}, AffinityDomain::None};
}
PartitionRequest counts(std::vector<uint32_t> v) {
  return {PartitionScheme::ByCounts, 0, std::move(v), AffinityDomain::None};
}
PartitionRequest names(std::vector<uint32_t> v) {
  return {PartitionScheme::ByNames, 0, std::move(v), AffinityDomain::None};
}
PartitionRequest domain(AffinityDomain d) {
  return {PartitionScheme::ByAffinityDomain, 0, {}, d};
}

PartitionResult cut(const Topology& topo, const PartitionRequest& r, CpuSet pus = {}) {
  if (pus.empty()) pus = topo.allowedPus();
  return partitionDevice(topo, pus, Level::Machine, 0, r);
}

std::vector<std::string> pusOf(const PartitionResult& r) {
  std::vector<std::string> out;
  for (const PartitionPart& p : r.parts) out.push_back(p.pus.toString());
  return out;
}

using Strings = std::vector<std::string>;

}  // namespace

TEST_CASE("Given a topology whose OS indices interleave, when asked for the logical order, then "
          "the PUs come core by core",
          "[partition]") {
  auto topo = synthetic("pack:2 core:2 pu:2(indexes=0,4,2,6,1,5,3,7)");
  CHECK(topo->logicalOrder(topo->allowedPus()) == std::vector<uint32_t>{0, 4, 2, 6, 1, 5, 3, 7});
  CHECK(topo->logicalOrder(puSet({7, 0, 6})) == std::vector<uint32_t>{0, 6, 7});
  // EQUALLY hands out units in that order: the two PUs of a core stay together.
  CHECK(pusOf(cut(*topo, equally(2))) == Strings{"0,4", "2,6", "1,5", "3,7"});
  // BY_NAMES names index that order.
  CHECK(pusOf(cut(*topo, names({1, 2}))) == Strings{"2,4"});
}

TEST_CASE("Given 32 compute units, when partitioned EQUALLY, then as many sub-devices as fit are "
          "made and the rest of the units are not used",
          "[partition]") {
  auto topo = synthetic(kBig);
  PartitionResult four = cut(*topo, equally(4));
  REQUIRE(four.status == PartitionStatus::Ok);
  REQUIRE(four.parts.size() == 8);
  for (uint32_t i = 0; i < 8; ++i) CHECK(four.parts[i].pus == puRange(4 * i, 4 * i + 3));
  CHECK(four.parts[3].level == Level::Machine);  // cut inside the device: its own level
  CHECK(four.domainUsed == AffinityDomain::None);

  // "If N does not divide evenly into CL_DEVICE_MAX_COMPUTE_UNITS then the remaining compute units
  // are not used."
  PartitionResult five = cut(*topo, equally(5));
  REQUIRE(five.parts.size() == 6);
  CHECK(five.parts.back().pus == puRange(25, 29));
  CHECK(cut(*topo, equally(32)).parts.size() == 1);
  CHECK(cut(*topo, equally(1)).parts.size() == 32);

  CHECK(cut(*topo, equally(0)).status == PartitionStatus::InvalidSize);
  CHECK(cut(*topo, equally(33)).status == PartitionStatus::InvalidSize);
  // Of a part of the machine, the part's units only.
  PartitionResult ofPart = cut(*topo, equally(3), puRange(8, 15));
  CHECK(pusOf(ofPart) == Strings{"8-10", "11-13"});
  CHECK(cut(*topo, equally(9), puRange(8, 15)).status == PartitionStatus::InvalidSize);
}

TEST_CASE("Given 32 compute units, when partitioned BY_COUNTS, then each count is a sub-device of "
          "the next units, and bad counts are refused",
          "[partition]") {
  auto topo = synthetic(kBig);
  PartitionResult r = cut(*topo, counts({3, 1, 4}));
  REQUIRE(r.status == PartitionStatus::Ok);
  CHECK(pusOf(r) == Strings{"0-2", "3", "4-7"});
  CHECK(pusOf(cut(*topo, counts({16, 16}))) == Strings{"0-15", "16-31"});
  CHECK(cut(*topo, counts(std::vector<uint32_t>(32, 1))).parts.size() == 32);

  // "The total number of compute units specified may not exceed the number of compute units in
  // the device"; "the number of compute units for any one sub-device is less than 1".
  CHECK(cut(*topo, counts({16, 17})).status == PartitionStatus::InvalidSize);
  CHECK(cut(*topo, counts({2, 0, 2})).status == PartitionStatus::InvalidSize);
  CHECK(cut(*topo, counts({})).status == PartitionStatus::InvalidSize);
  CHECK(cut(*topo, counts(std::vector<uint32_t>(33, 1))).status == PartitionStatus::InvalidSize);
  // No overflow:
  CHECK(cut(*topo, counts({0xffffffffu, 2})).status == PartitionStatus::InvalidSize);
}

TEST_CASE("Given 32 compute units, when partitioned BY_NAMES, then one sub-device of the named "
          "units is made, and bad names are refused",
          "[partition]") {
  auto topo = synthetic(kBig);
  PartitionResult r = cut(*topo, names({0, 1, 3}));
  REQUIRE(r.status == PartitionStatus::Ok);
  CHECK(pusOf(r) == Strings{"0-1,3"});
  CHECK(pusOf(cut(*topo, names({31, 5}))) == Strings{"5,31"});
  // Names index the device's own units: unit 0 of PUs 8-15 is PU 8.
  CHECK(pusOf(cut(*topo, names({0, 7}), puRange(8, 15))) == Strings{"8,15"});

  CHECK(cut(*topo, names({32})).status == PartitionStatus::InvalidName);
  CHECK(cut(*topo, names({8}), puRange(8, 15)).status == PartitionStatus::InvalidName);
  CHECK(cut(*topo, names({2, 4, 2})).status == PartitionStatus::InvalidName);
  CHECK(cut(*topo, names({})).status == PartitionStatus::InvalidSize);
}

TEST_CASE("Given packages, NUMA nodes and L3 caches, when partitioned by affinity domain, then one "
          "sub-device per object of the domain, and a domain that does not split fails",
          "[partition]") {
  auto topo = synthetic(kBig);
  PartitionResult numa = cut(*topo, domain(AffinityDomain::Numa));
  REQUIRE(numa.status == PartitionStatus::Ok);
  REQUIRE(numa.parts.size() == 4);
  for (uint32_t i = 0; i < 4; ++i) {
    CHECK(numa.parts[i].pus == puRange(8 * i, 8 * i + 7));
    CHECK(numa.parts[i].level == Level::NumaNode);
    CHECK(numa.parts[i].objectIndex == i);
  }
  CHECK(numa.domainUsed == AffinityDomain::Numa);

  PartitionResult l3 = cut(*topo, domain(AffinityDomain::L3));
  REQUIRE(l3.parts.size() == 8);
  CHECK(l3.parts[5].pus == puRange(20, 23));
  CHECK(l3.parts[5].level == Level::L3);
  CHECK(l3.parts[5].objectIndex == 5);

  // No L4, L2 or L1 in this description: "all compute units in in_device share the same cache at
  // the level requested" (here: none), CL_DEVICE_PARTITION_FAILED.
  for (AffinityDomain d : {AffinityDomain::L4, AffinityDomain::L2, AffinityDomain::L1})
    CHECK(cut(*topo, domain(d)).status == PartitionStatus::CannotPartition);
  // A NUMA node's PUs are one NUMA band: not split by NUMA, split by L3.
  CHECK(cut(*topo, domain(AffinityDomain::Numa), puRange(8, 15)).status ==
        PartitionStatus::CannotPartition);
  PartitionResult l3OfNode = cut(*topo, domain(AffinityDomain::L3), puRange(8, 15));
  CHECK(pusOf(l3OfNode) == Strings{"8-11", "12-15"});
  CHECK(l3OfNode.parts[0].objectIndex == 2);
  // One PU cannot be split at all.
  CHECK(cut(*topo, domain(AffinityDomain::NextPartitionable), puSet({3})).status ==
        PartitionStatus::CannotPartition);
  CHECK(cut(*topo, domain(AffinityDomain::None)).status == PartitionStatus::CannotPartition);
}

TEST_CASE("Given NEXT_PARTITIONABLE, when partitioning, then the first of NUMA, L4, L3, L2, L1 "
          "that splits the device is used and reported",
          "[partition]") {
  auto big = synthetic(kBig);
  auto next = domain(AffinityDomain::NextPartitionable);
  CHECK(cut(*big, next).domainUsed == AffinityDomain::Numa);
  CHECK(cut(*big, next).parts.size() == 4);
  PartitionResult inNode = cut(*big, next, puRange(0, 7));
  CHECK(inNode.domainUsed == AffinityDomain::L3);
  CHECK(pusOf(inNode) == Strings{"0-3", "4-7"});

  auto l2 = synthetic(kL2);
  PartitionResult r = cut(*l2, next);
  CHECK(r.domainUsed == AffinityDomain::L2);
  CHECK(pusOf(r) == Strings{"0-1", "2-3", "4-5", "6-7"});
  CHECK(cut(*l2, domain(AffinityDomain::L3)).status == PartitionStatus::CannotPartition);
  CHECK(cut(*l2, domain(AffinityDomain::Numa)).status == PartitionStatus::CannotPartition);

  // L4 comes before L3; an L1 shared by a core's two PUs splits a core-pair L2.
  auto deep = synthetic("pack:1 l4:2 l3:1 l2:1 l1d:2 core:1 pu:2");
  PartitionResult l4 = cut(*deep, next);
  CHECK(l4.domainUsed == AffinityDomain::L4);
  CHECK(l4.parts[1].level == Level::L4);
  CHECK(pusOf(l4) == Strings{"0-3", "4-7"});
  PartitionResult l1 = cut(*deep, next, puRange(4, 7));
  CHECK(l1.domainUsed == AffinityDomain::L1);
  CHECK(pusOf(l1) == Strings{"4-5", "6-7"});
  CHECK(l1.parts[0].level == Level::L1);
  CHECK(l1.parts[0].objectIndex == 2);
}

TEST_CASE("Given the 16-core VM's XML, when partitioned, then L2 and L1 give one sub-device per core "
          "(instruction caches ignored) and NUMA and L3 do not split",
          "[partition]") {
  auto topo = Topology::load({TopologySource::Kind::Xml, xeonXml()});
  REQUIRE(topo->allowedPus().count() == 16);
  PartitionResult next = cut(*topo, domain(AffinityDomain::NextPartitionable));
  CHECK(next.domainUsed == AffinityDomain::L2);
  CHECK(next.parts.size() == 16);
  PartitionResult l1 = cut(*topo, domain(AffinityDomain::L1));
  REQUIRE(l1.parts.size() == 16);
  CHECK(l1.parts[9].pus == puSet({9}));
  CHECK(cut(*topo, domain(AffinityDomain::Numa)).status == PartitionStatus::CannotPartition);
  CHECK(cut(*topo, domain(AffinityDomain::L3)).status == PartitionStatus::CannotPartition);
  CHECK(pusOf(cut(*topo, equally(6))) == Strings{"0-5", "6-11"});
  CHECK(pusOf(cut(*topo, counts({1, 15}))) == Strings{"0", "1-15"});
}
