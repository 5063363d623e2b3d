// The Core Programming Guide's "Device Hierarchy" and "Affinity Mask" examples, reproduced on a
// synthetic machine of two packages with four parts each (TESSERA_TOPOLOGY, TESSERA_ROOT_DEVICE=package):
// the guide's "two physical devices, each of which can be further sub-divided into four smaller
// devices". Each case runs the device probe in a fresh process, since the driver reads the
// environment once.
#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>
#include <sstream>

#include "pu_list.h"
#include "ze_test_support.h"

using tessera::test::runProbe;

namespace {

// Package p, tile t of "pack:2 numa:4 core:2 pu:1" holds PUs 8p+2t and 8p+2t+1.
const char* kTwoByFour = "pack:2 numa:4 core:2 pu:1";

std::string tile(int p, int t) {
  int first = 8 * p + 2 * t;
  return std::to_string(first) + "-" + std::to_string(first + 1);
}

// The probe's output without uuids.
std::string withoutUuids(const std::string& out) {
  return std::regex_replace(out, std::regex(" uuid=[0-9a-f]+"), "");
}

std::string probe(const std::string& hierarchy, const std::string& mask,
                  const std::string& topology = kTwoByFour, const std::string& root = "package") {
  std::map<std::string, std::string> env = {{"TESSERA_TOPOLOGY", topology},
                                            {"TESSERA_ROOT_DEVICE", root}};
  if (!hierarchy.empty()) env["ZE_FLAT_DEVICE_HIERARCHY"] = hierarchy;
  if (!mask.empty()) env["ZE_AFFINITY_MASK"] = mask;
  auto r = runProbe(env);
  INFO("stderr: " << r.err);
  REQUIRE(r.exitCode == 0);
  return withoutUuids(r.out);
}

// Lines for a root device and its tiles in COMPOSITE mode.
std::string compositeParent(int handle, int parent, std::vector<int> tiles) {
  std::vector<int> all;
  for (int t : tiles) all.insert(all.end(), {8 * parent + 2 * t, 8 * parent + 2 * t + 1});
  std::string parentPus = tessera::test::puList(all);
  std::ostringstream o;
  o << handle << " pus=" << parentPus << " sub=- root=-\n";
  for (size_t i = 0; i < tiles.size(); ++i)
    o << handle << "." << i << " pus=" << tile(parent, tiles[i]) << " sub=" << i
      << " root=" << parentPus << "\n";
  return o.str();
}

std::string flatDevice(int handle, int parent, int t) {
  return std::to_string(handle) + " pus=" + tile(parent, t) + " sub=- root=-\n";
}

}  // namespace

TEST_CASE("Given two parents of four tiles, when the hierarchy is COMPOSITE, then the affinity "
          "mask examples of the guide give exactly its handles",
          "[hierarchy][affinity]") {
  const std::string all = compositeParent(0, 0, {0, 1, 2, 3}) + compositeParent(1, 1, {0, 1, 2, 3});
  SECTION("no mask: all parent devices and tiles are reported") {
    CHECK(probe("", "") == all);
    CHECK(probe("COMPOSITE", "") == all);
  }
  SECTION("0, 1: all parent devices and tiles are reported (same as default)") {
    CHECK(probe("COMPOSITE", "0, 1") == all);
  }
  SECTION("0: only parent device 0 is reported as device handle 0, with all its tiles") {
    CHECK(probe("COMPOSITE", "0") == compositeParent(0, 0, {0, 1, 2, 3}));
  }
  SECTION("1: only parent device 1 is reported as device handle 0, with all its tiles") {
    CHECK(probe("COMPOSITE", "1") == compositeParent(0, 1, {0, 1, 2, 3}));
  }
  SECTION("0.0: only tile 0 in parent device 0 is reported as device handle 0") {
    CHECK(probe("COMPOSITE", "0.0") == flatDevice(0, 0, 0));
  }
  SECTION("1.1, 1.2: parent 1 is device handle 0, its tiles 1 and 2 its sub-devices 0 and 1") {
    CHECK(probe("COMPOSITE", "1.1, 1.2") == compositeParent(0, 1, {1, 2}));
  }
  SECTION("0.2, 1.3, 1.0, 0.3: both parents, each with two tiles, in unchanged order") {
    CHECK(probe("COMPOSITE", "0.2, 1.3, 1.0, 0.3") ==
          compositeParent(0, 0, {2, 3}) + compositeParent(1, 1, {0, 3}));
  }
}

TEST_CASE("Given two parents of four tiles, when the hierarchy is FLAT, then the affinity mask "
          "examples of the guide give exactly its handles",
          "[hierarchy][affinity]") {
  std::string all;
  for (int i = 0; i < 8; ++i) all += flatDevice(i, i / 4, i % 4);
  SECTION("no mask, and 0..7: all tiles are reported as device handles") {
    CHECK(probe("FLAT", "") == all);
    CHECK(probe("FLAT", "0, 1, 2, 3, 4, 5, 6, 7") == all);
  }
  SECTION("0: only tile 0 in parent device 0 is reported as device handle 0") {
    CHECK(probe("FLAT", "0") == flatDevice(0, 0, 0));
  }
  SECTION("1: only tile 1 in parent device 0 is reported as device handle 0") {
    CHECK(probe("FLAT", "1") == flatDevice(0, 0, 1));
  }
  SECTION("0, 4: tile 0 of parent 0 is handle 0, tile 0 of parent 1 is handle 1") {
    CHECK(probe("FLAT", "0, 4") == flatDevice(0, 0, 0) + flatDevice(1, 1, 0));
  }
  SECTION("1, 2, 7: tiles 1 and 2 of parent 0, then tile 3 of parent 1") {
    CHECK(probe("FLAT", "1, 2, 7") == flatDevice(0, 0, 1) + flatDevice(1, 0, 2) + flatDevice(2, 1, 3));
  }
  SECTION("0.0 is not valid in FLAT mode: no device, and a warning says why") {
    auto r = runProbe({{"TESSERA_TOPOLOGY", kTwoByFour},
                       {"TESSERA_ROOT_DEVICE", "package"},
                       {"ZE_FLAT_DEVICE_HIERARCHY", "FLAT"},
                       {"ZE_AFFINITY_MASK", "0.0"}});
    CHECK(r.exitCode == 0);
    CHECK(withoutUuids(r.out).empty());
    CHECK(r.err.find("not valid with ZE_FLAT_DEVICE_HIERARCHY=FLAT") != std::string::npos);
  }
}

TEST_CASE("Given two parents of four tiles, when the hierarchy is COMBINED, then zeDeviceGet "
          "returns the tiles and the hierarchy can be traversed",
          "[hierarchy][affinity]") {
  std::string parent0 = "0-7", parent1 = "8-15";
  SECTION("no mask: the eight tiles, each a sub-device of its parent") {
    std::ostringstream want;
    for (int i = 0; i < 8; ++i)
      want << i << " pus=" << tile(i / 4, i % 4) << " sub=" << i % 4
           << " root=" << (i < 4 ? parent0 : parent1) << "\n";
    want << "R pus=0-7 subs=0-1;2-3;4-5;6-7\n";
    want << "R pus=8-15 subs=8-9;10-11;12-13;14-15\n";
    CHECK(probe("COMBINED", "") == want.str());
  }
  SECTION("1, 2, 7: the mask counts tiles as FLAT does; a parent keeps only the chosen tiles") {
    // Parent 0 keeps tiles 1 and 2. Parent 1 keeps only tile 3, and "a root-device may not contain
    // a single sub-device", so tile 3 stands alone.
    CHECK(probe("COMBINED", "1, 2, 7") ==
          "0 pus=2-3 sub=0 root=2-5\n"
          "1 pus=4-5 sub=1 root=2-5\n"
          "2 pus=14-15 sub=- root=-\n"
          "R pus=2-5 subs=2-3;4-5\n");
  }
}

TEST_CASE("Given a device tree three levels deep, when the COMPOSITE mask names a middle part, "
          "then that part and everything below it is reported",
          "[hierarchy][affinity]") {
  // machine -> 2 packages -> 2 NUMA nodes -> 2 L3s of 2 PUs.
  const char* deep = "pack:2 numa:2 l3:2 core:2 pu:1";
  CHECK(probe("", "0.1", deep, "machine") ==
        "0 pus=8-15 sub=- root=-\n"
        "0.0 pus=8-11 sub=0 root=8-15\n"
        "0.0.0 pus=8-9 sub=0 root=8-15\n"
        "0.0.1 pus=10-11 sub=1 root=8-15\n"
        "0.1 pus=12-15 sub=1 root=8-15\n"
        "0.1.0 pus=12-13 sub=0 root=8-15\n"
        "0.1.1 pus=14-15 sub=1 root=8-15\n");
  CHECK(probe("", "0.0.1.0, 0.1.0.1", deep, "machine") ==
        "0 pus=4-5,10-11 sub=- root=-\n"
        "0.0 pus=4-5 sub=0 root=4-5,10-11\n"
        "0.1 pus=10-11 sub=1 root=4-5,10-11\n");
  std::string flat = probe("FLAT", "", deep, "machine");
  CHECK(std::count(flat.begin(), flat.end(), '\n') == 8);
}

TEST_CASE("Given values Tessera cannot read, when the driver starts, then it warns and reports "
          "devices as the default would",
          "[hierarchy][environment]") {
  const std::string all = compositeParent(0, 0, {0, 1, 2, 3}) + compositeParent(1, 1, {0, 1, 2, 3});
  auto run = [](std::map<std::string, std::string> env) {
    env.emplace("TESSERA_TOPOLOGY", kTwoByFour);
    env.emplace("TESSERA_ROOT_DEVICE", "package");
    auto r = runProbe(env);
    REQUIRE(r.exitCode == 0);
    r.out = withoutUuids(r.out);
    return r;
  };
  SECTION("a malformed ZE_AFFINITY_MASK is ignored as a whole, never hiding every device") {
    for (const char* mask : {"garbage", "0,,1", "1.", "-1", "0;1", "1.x"}) {
      INFO("ZE_AFFINITY_MASK=" << mask);
      auto r = run({{"ZE_AFFINITY_MASK", mask}});
      CHECK(r.out == all);
      CHECK(r.err.find("malformed") != std::string::npos);
    }
  }
  SECTION("a blank ZE_AFFINITY_MASK is no mask") {
    auto r = run({{"ZE_AFFINITY_MASK", "  "}});
    CHECK(r.out == all);
    CHECK(r.err.empty());
  }
  SECTION("entries naming no device are dropped with a warning; the others still count") {
    auto r = run({{"ZE_AFFINITY_MASK", "1, 7, 0.9"}});
    CHECK(r.out == compositeParent(0, 1, {0, 1, 2, 3}));
    CHECK(r.err.find("7 names no device") != std::string::npos);
    CHECK(r.err.find("0.9 names no device") != std::string::npos);
  }
  SECTION("an unknown ZE_FLAT_DEVICE_HIERARCHY is COMPOSITE") {
    auto r = run({{"ZE_FLAT_DEVICE_HIERARCHY", "TREE"}});
    CHECK(r.out == all);
    CHECK(r.err.find("ZE_FLAT_DEVICE_HIERARCHY") != std::string::npos);
  }
  SECTION("mode names are not case-sensitive") {
    CHECK(run({{"ZE_FLAT_DEVICE_HIERARCHY", "flat"}}).out == probe("FLAT", ""));
  }
  SECTION("an unknown TESSERA_ROOT_DEVICE is one root device for the machine") {
    auto r = run({{"TESSERA_ROOT_DEVICE", "socket"}});
    CHECK(r.out.rfind("0 pus=0-15 sub=- root=-\n0.0 pus=0-7 sub=0", 0) == 0);
    CHECK(r.err.find("TESSERA_ROOT_DEVICE") != std::string::npos);
  }
  SECTION("a TESSERA_TOPOLOGY hwloc cannot read falls back to this machine") {
    auto r = run({{"TESSERA_TOPOLOGY", "pack:zero"}});
    CHECK(r.out.rfind("0 pus=", 0) == 0);
    CHECK(r.err.find("TESSERA_TOPOLOGY ignored") != std::string::npos);
  }
  SECTION("ZE_ENABLE_PCI_ID_DEVICE_ORDER is accepted and changes nothing") {
    auto r = run({{"ZE_ENABLE_PCI_ID_DEVICE_ORDER", "1"}});
    CHECK(r.out == all);
    CHECK(r.err.empty());
  }
}

TEST_CASE("Given the same part of the machine, when it is reported in different runs and modes, "
          "then its uuid is the same",
          "[hierarchy][uuid]") {
  auto uuidOf = [](const std::string& out, const std::string& pus) {
    std::smatch m;
    std::regex re("pus=" + pus + " [^\\n]*uuid=([0-9a-f]+)");
    REQUIRE(std::regex_search(out, m, re));
    return m[1].str();
  };
  std::map<std::string, std::string> base = {{"TESSERA_TOPOLOGY", kTwoByFour},
                                             {"TESSERA_ROOT_DEVICE", "package"}};
  auto composite = runProbe(base).out;
  auto again = runProbe(base).out;
  base["ZE_FLAT_DEVICE_HIERARCHY"] = "FLAT";
  auto flat = runProbe(base).out;
  CHECK(composite == again);
  for (int t = 0; t < 4; ++t) CHECK(uuidOf(composite, tile(1, t)) == uuidOf(flat, tile(1, t)));
  CHECK(uuidOf(composite, tile(0, 0)) != uuidOf(composite, tile(0, 1)));
}

TEST_CASE("Given real topologies, when the driver builds the tree, then sub-devices follow the "
          "first level that splits the device",
          "[hierarchy][topology]") {
  SECTION("a 16-core VM captured with lstopo: one root, 16 L2 sub-devices of one PU each") {
    auto out = probe("", "", std::string(TESSERA_TEST_DATA) + "/topologies/xeon-16core-vm.xml",
                     "machine");
    CHECK(out.rfind("0 pus=0-15 sub=- root=-\n", 0) == 0);
    CHECK(out.find("0.15 pus=15 sub=15 root=0-15\n") != std::string::npos);
    CHECK(std::count(out.begin(), out.end(), '\n') == 17);
  }
  SECTION("this machine: one root device whose PUs are the machine's") {
    auto r = runProbe({});
    REQUIRE(r.exitCode == 0);
    CHECK(r.out.rfind("0 pus=", 0) == 0);
    CHECK(r.out.find("\n1 pus=") == std::string::npos);
  }
}
