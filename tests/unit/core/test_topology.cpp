// Topology: loading hwloc topologies from the machine, synthetic descriptions and XML files, and
// what describe() and partsAt() report about sets of PUs.
#include <catch2/catch.hpp>

#include <string>

#include "core/topology/topology.h"
#include "core_test_support.h"

using namespace tessera::core;
using tessera::core::test::puRange;
using tessera::core::test::puSet;
using tessera::core::test::synthetic;
using tessera::core::test::xeonXml;

namespace {
constexpr uint64_t kGiB = 1024ull * 1024 * 1024;
}

TEST_CASE("Given no value or an empty one, when TopologySource::fromString, then it is the machine",
          "[topology][source]") {
  TopologySource unset = TopologySource::fromString(nullptr);
  CHECK(unset.kind == TopologySource::Kind::Machine);
  CHECK(unset.value.empty());
  CHECK(unset.describe() == "this machine");
  CHECK(TopologySource::fromString("").kind == TopologySource::Kind::Machine);
}

TEST_CASE("Given an existing file, when TopologySource::fromString, then it is an XML source",
          "[topology][source]") {
  TopologySource s = TopologySource::fromString(xeonXml().c_str());
  CHECK(s.kind == TopologySource::Kind::Xml);
  CHECK(s.value == xeonXml());
  CHECK(s.describe() == "xml " + xeonXml());
  // Any existing regular file counts, whatever its name.
  std::string readme = std::string(TESSERA_TEST_DATA) + "/topologies/README.md";
  CHECK(TopologySource::fromString(readme.c_str()).kind == TopologySource::Kind::Xml);
  // A missing file whose name ends in .xml is still meant as XML.
  CHECK(TopologySource::fromString("/nonexistent/dir/machine.xml").kind ==
        TopologySource::Kind::Xml);
}

TEST_CASE("Given anything else, when TopologySource::fromString, then it is a synthetic source",
          "[topology][source]") {
  TopologySource s = TopologySource::fromString("pack:2 core:2 pu:1");
  CHECK(s.kind == TopologySource::Kind::Synthetic);
  CHECK(s.value == "pack:2 core:2 pu:1");
  CHECK(s.describe() == "synthetic \"pack:2 core:2 pu:1\"");
  // A directory is not a file.
  CHECK(TopologySource::fromString(TESSERA_TEST_DATA).kind == TopologySource::Kind::Synthetic);
}

TEST_CASE("Given malformed synthetic descriptions, when loaded, then TopologyError is thrown",
          "[topology][load]") {
  CHECK_THROWS_AS(synthetic("bogus:3"), TopologyError);
  CHECK_THROWS_AS(synthetic("pack:2 core:0"), TopologyError);
  CHECK_THROWS_AS(synthetic("pack:x"), TopologyError);
  CHECK_THROWS_AS(Topology::load({TopologySource::Kind::Xml, "/nonexistent/machine.xml"}),
                  TopologyError);
  std::string readme = std::string(TESSERA_TEST_DATA) + "/topologies/README.md";
  CHECK_THROWS_AS(Topology::load({TopologySource::Kind::Xml, readme}), TopologyError);
}

TEST_CASE("Given a synthetic topology, when loaded, then its PUs and source are those described",
          "[topology][load]") {
  auto topo = synthetic("pack:2 numa:2 l3:2 core:2 pu:1");
  CHECK(topo->source().kind == TopologySource::Kind::Synthetic);
  CHECK(topo->source().value == "pack:2 numa:2 l3:2 core:2 pu:1");
  CHECK(topo->allowedPus() == puRange(0, 15));
  // Synthetic topologies carry no CPU identification.
  CHECK(topo->cpuModel().empty());
  CHECK(topo->cpuVendor().empty());
  CHECK(topo->cpuFamily() == 0);
  CHECK(topo->cpuModelNumber() == 0);

  CHECK(synthetic("pack:1 core:4 pu:2")->allowedPus() == puRange(0, 7));
  CHECK(synthetic("pack:3 core:50 pu:1")->allowedPus() == puRange(0, 149));
}

TEST_CASE("Given a synthetic topology, when describing all PUs, then every object is counted",
          "[topology][describe]") {
  auto topo = synthetic("pack:2 numa:2 l3:2 core:2 pu:2");
  Resources r = topo->describe(topo->allowedPus());
  CHECK(r.pus == 32);
  CHECK(r.cores == 16);
  CHECK(r.packages == 2);
  REQUIRE(r.numaNodes.size() == 4);
  for (uint32_t i = 0; i < 4; ++i) {
    CHECK(r.numaNodes[i].osIndex == i);
    CHECK(r.numaNodes[i].logicalIndex == i);
    CHECK(r.numaNodes[i].bytes == kGiB);
  }
  REQUIRE(r.caches.size() == 1);
  CHECK(r.caches[0].level == 3);
  CHECK(r.caches[0].instances == 8);
  CHECK(r.caches[0].bytesPerCache > 0);
  CHECK(r.caches[0].unified);
}

TEST_CASE("Given a subset of PUs, when describing it, then only the objects it touches count",
          "[topology][describe]") {
  auto topo = synthetic("pack:2 numa:2 l3:2 core:2 pu:2");
  // PUs 0-3: two cores of the first L3 of NUMA node 0 of package 0.
  Resources local = topo->describe(puRange(0, 3));
  CHECK(local.pus == 4);
  CHECK(local.cores == 2);
  CHECK(local.packages == 1);
  REQUIRE(local.numaNodes.size() == 1);
  CHECK(local.numaNodes[0].osIndex == 0);
  REQUIRE(local.caches.size() == 1);
  CHECK(local.caches[0].instances == 1);

  // One PU of each package: two of everything, and a core counted once per PU it holds.
  Resources spread = topo->describe(puSet({1, 16, 17}));
  CHECK(spread.pus == 3);
  CHECK(spread.cores == 2);
  CHECK(spread.packages == 2);
  REQUIRE(spread.numaNodes.size() == 2);
  CHECK(spread.numaNodes[0].osIndex == 0);
  CHECK(spread.numaNodes[1].osIndex == 2);
  REQUIRE(spread.caches.size() == 1);
  CHECK(spread.caches[0].instances == 2);
}

TEST_CASE("Given synthetic L1d, L2 and L3 caches, then describe lists them by increasing level",
          "[topology][describe]") {
  auto topo = synthetic("pack:1 l3:2 l2:2 l1d:2 core:1 pu:2");
  Resources r = topo->describe(topo->allowedPus());
  CHECK(r.pus == 16);
  CHECK(r.cores == 8);
  REQUIRE(r.caches.size() == 3);
  CHECK(r.caches[0].level == 1);
  CHECK(r.caches[0].instances == 8);
  CHECK(r.caches[1].level == 2);
  CHECK(r.caches[1].instances == 4);
  CHECK(r.caches[2].level == 3);
  CHECK(r.caches[2].instances == 2);
  CHECK(r.caches[0].bytesPerCache < r.caches[1].bytesPerCache);
  CHECK(r.caches[1].bytesPerCache < r.caches[2].bytesPerCache);
  // No NUMA level given: hwloc inserts a single node for the whole machine.
  REQUIRE(r.numaNodes.size() == 1);
  CHECK(r.numaNodes[0].bytes == kGiB);
}

TEST_CASE("Given a topology without packages or cores, then describe falls back sensibly",
          "[topology][describe]") {
  auto topo = synthetic("numa:2 pu:3");
  Resources r = topo->describe(topo->allowedPus());
  CHECK(r.pus == 6);
  CHECK(r.cores == 6);     // no core objects: every PU is a core
  CHECK(r.packages == 1);  // never zero
  CHECK(r.numaNodes.size() == 2);
  CHECK(r.caches.empty());
}

TEST_CASE("Given the xeon XML, when loaded, then it has 16 PUs, one L3 and 16 L2 and L1d",
          "[topology][xml]") {
  auto topo = Topology::load({TopologySource::Kind::Xml, xeonXml()});
  CHECK(topo->source().kind == TopologySource::Kind::Xml);
  CHECK(topo->allowedPus() == puRange(0, 15));
  CHECK(topo->cpuModel() == "Intel(R) Xeon(R) Processor");
  CHECK(topo->cpuVendor() == "GenuineIntel");
  CHECK(topo->cpuFamily() == 6);
  CHECK(topo->cpuModelNumber() == 207);

  Resources r = topo->describe(topo->allowedPus());
  CHECK(r.pus == 16);
  CHECK(r.cores == 16);
  CHECK(r.packages == 1);
  REQUIRE(r.numaNodes.size() == 1);
  CHECK(r.numaNodes[0].bytes > kGiB);
  // L1i is an instruction cache and is left out.
  REQUIRE(r.caches.size() == 3);
  CHECK(r.caches[0].level == 1);
  CHECK(r.caches[0].instances == 16);
  CHECK(r.caches[0].bytesPerCache == 48 * 1024);
  CHECK_FALSE(r.caches[0].unified);
  CHECK(r.caches[0].lineBytes == 64);
  CHECK(r.caches[1].level == 2);
  CHECK(r.caches[1].instances == 16);
  CHECK(r.caches[1].bytesPerCache == 2048 * 1024);
  CHECK(r.caches[2].level == 3);
  CHECK(r.caches[2].instances == 1);
  CHECK(r.caches[2].unified);

  Resources one = topo->describe(puSet({5}));
  CHECK(one.pus == 1);
  CHECK(one.cores == 1);
  REQUIRE(one.caches.size() == 3);
  CHECK(one.caches[0].instances == 1);
  CHECK(one.caches[1].instances == 1);
  CHECK(one.caches[2].instances == 1);
}

TEST_CASE("Given a level and a set of PUs, when partsAt, then the non-empty intersections follow",
          "[topology][parts]") {
  auto topo = synthetic("pack:2 numa:2 l3:2 core:2 pu:1");
  std::vector<Part> l3 = topo->partsAt(Level::L3, topo->allowedPus());
  REQUIRE(l3.size() == 8);
  for (uint32_t i = 0; i < 8; ++i) {
    CHECK(l3[i].objectIndex == i);
    CHECK(l3[i].pus == puRange(2 * i, 2 * i + 1));
  }
  std::vector<Part> some = topo->partsAt(Level::L3, puSet({1, 2, 3, 9}));
  REQUIRE(some.size() == 3);
  CHECK(some[0].objectIndex == 0);
  CHECK(some[0].pus == puSet({1}));
  CHECK(some[1].objectIndex == 1);
  CHECK(some[1].pus == puSet({2, 3}));
  CHECK(some[2].objectIndex == 4);
  CHECK(some[2].pus == puSet({9}));

  std::vector<Part> machine = topo->partsAt(Level::Machine, puSet({3, 12}));
  REQUIRE(machine.size() == 1);
  CHECK(machine[0].pus == puSet({3, 12}));
  CHECK(topo->partsAt(Level::Package, puSet({12}))[0].objectIndex == 1);
  CHECK(topo->partsAt(Level::L2, topo->allowedPus()).empty());  // no L2 in this topology
  CHECK(topo->partsAt(Level::Package, CpuSet{}).empty());
}

TEST_CASE("Given the level names, then they are the short lowercase names", "[topology]") {
  CHECK(std::string(levelName(Level::Machine)) == "machine");
  CHECK(std::string(levelName(Level::Package)) == "package");
  CHECK(std::string(levelName(Level::NumaNode)) == "numa");
  CHECK(std::string(levelName(Level::L3)) == "l3");
  CHECK(std::string(levelName(Level::L2)) == "l2");
}

TEST_CASE("Given this machine, when loaded, then it has at least one PU everywhere",
          "[topology][machine]") {
  auto topo = Topology::load(TopologySource{});
  CHECK(topo->source().kind == TopologySource::Kind::Machine);
  CpuSet all = topo->allowedPus();
  REQUIRE(all.count() >= 1);
  Resources r = topo->describe(all);
  CHECK(r.pus == all.count());
  CHECK(r.cores >= 1);
  CHECK(r.cores <= r.pus);
  CHECK(r.packages >= 1);
  CHECK(r.numaNodes.size() >= 1);
  CHECK_FALSE(topo->partsAt(Level::Machine, all).empty());
}
