// The parsers of ZE_FLAT_DEVICE_HIERARCHY, TESSERA_ROOT_DEVICE and ZE_AFFINITY_MASK: what they
// accept, and the documented default (with a warning) for what they do not.
#include <catch2/catch.hpp>

#include <string>

#include "core/device/hierarchy.h"

using namespace tessera::core;

using Paths = std::vector<std::vector<uint32_t>>;

TEST_CASE("Given valid hierarchy modes in any case and spacing, then they parse without warning",
          "[hierarchy][parse]") {
  std::vector<std::string> w;
  CHECK(parseHierarchyMode("COMPOSITE", w) == HierarchyMode::Composite);
  CHECK(parseHierarchyMode("FLAT", w) == HierarchyMode::Flat);
  CHECK(parseHierarchyMode("COMBINED", w) == HierarchyMode::Combined);
  CHECK(parseHierarchyMode("flat", w) == HierarchyMode::Flat);
  CHECK(parseHierarchyMode("Combined", w) == HierarchyMode::Combined);
  CHECK(parseHierarchyMode("composite", w) == HierarchyMode::Composite);
  CHECK(parseHierarchyMode("  FLAT\t", w) == HierarchyMode::Flat);
  CHECK(parseHierarchyMode("\ncombined ", w) == HierarchyMode::Combined);
  CHECK(w.empty());
}

TEST_CASE("Given an unset or blank hierarchy mode, then it is COMPOSITE without warning",
          "[hierarchy][parse]") {
  std::vector<std::string> w;
  CHECK(parseHierarchyMode(nullptr, w) == HierarchyMode::Composite);
  CHECK(parseHierarchyMode("", w) == HierarchyMode::Composite);
  CHECK(parseHierarchyMode("   ", w) == HierarchyMode::Composite);
  CHECK(w.empty());
}

TEST_CASE("Given an unknown hierarchy mode, then a warning and COMPOSITE", "[hierarchy][parse]") {
  for (const char* bad : {"FLATT", "1", "0", "flat combined", "COMPOSITE,FLAT", "F"}) {
    INFO(bad);
    std::vector<std::string> w;
    CHECK(parseHierarchyMode(bad, w) == HierarchyMode::Composite);
    REQUIRE(w.size() == 1);
    CHECK(w[0].find("ZE_FLAT_DEVICE_HIERARCHY") != std::string::npos);
    CHECK(w[0].find(bad) != std::string::npos);
  }
}

TEST_CASE("Given the hierarchy modes, then their names are the variable's values", "[hierarchy]") {
  CHECK(std::string(hierarchyModeName(HierarchyMode::Composite)) == "COMPOSITE");
  CHECK(std::string(hierarchyModeName(HierarchyMode::Flat)) == "FLAT");
  CHECK(std::string(hierarchyModeName(HierarchyMode::Combined)) == "COMBINED");
}

TEST_CASE("Given root modes, then machine and package parse, anything else warns",
          "[hierarchy][parse]") {
  std::vector<std::string> w;
  CHECK(parseRootMode(nullptr, w) == RootMode::Machine);
  CHECK(parseRootMode("", w) == RootMode::Machine);
  CHECK(parseRootMode("machine", w) == RootMode::Machine);
  CHECK(parseRootMode("MACHINE", w) == RootMode::Machine);
  CHECK(parseRootMode("package", w) == RootMode::Package);
  CHECK(parseRootMode(" Package ", w) == RootMode::Package);
  CHECK(w.empty());

  for (const char* bad : {"packages", "socket", "numa", "1"}) {
    INFO(bad);
    std::vector<std::string> bw;
    CHECK(parseRootMode(bad, bw) == RootMode::Machine);
    REQUIRE(bw.size() == 1);
    CHECK(bw[0].find("TESSERA_ROOT_DEVICE") != std::string::npos);
  }
}

TEST_CASE("Given an unset or blank affinity mask, then there is no mask and no warning",
          "[hierarchy][mask]") {
  std::vector<std::string> w;
  CHECK_FALSE(parseAffinityMask(nullptr, w).has_value());
  CHECK_FALSE(parseAffinityMask("", w).has_value());
  CHECK_FALSE(parseAffinityMask(" \t ", w).has_value());
  CHECK(w.empty());
}

TEST_CASE("Given well-formed affinity masks, then each entry is a path of ordinals",
          "[hierarchy][mask]") {
  std::vector<std::string> w;
  auto one = parseAffinityMask("0", w);
  REQUIRE(one);
  CHECK(one->entries == Paths{{0}});

  auto several = parseAffinityMask("0,1.2,3.4.5", w);
  REQUIRE(several);
  CHECK(several->entries == Paths{{0}, {1, 2}, {3, 4, 5}});

  // The guide writes masks with spaces after the commas.
  auto spaced = parseAffinityMask("0, 1.2", w);
  REQUIRE(spaced);
  CHECK(spaced->entries == Paths{{0}, {1, 2}});
  auto guide = parseAffinityMask(" 0.2, 1.3 ,1.0 , 0.3 ", w);
  REQUIRE(guide);
  CHECK(guide->entries == Paths{{0, 2}, {1, 3}, {1, 0}, {0, 3}});

  // Order and duplicates are kept as written; multi-digit ordinals and leading zeros are numbers.
  auto raw = parseAffinityMask("7,12,07,1", w);
  REQUIRE(raw);
  CHECK(raw->entries == Paths{{7}, {12}, {7}, {1}});
  CHECK(w.empty());
}

TEST_CASE("Given malformed affinity masks, then a warning and the whole mask is ignored",
          "[hierarchy][mask]") {
  const char* bad[] = {
      "a",           "0,,1", "0.",   ".1",   "-1",         "1.x",
      "99999999999", "0,",   ",0",   "0 1",  "1..2",       "0;1",
      "+1",          "0x1",  "1.2.", "0, a", "4294967296", "0.99999999999999999999"};
  for (const char* value : bad) {
    INFO("ZE_AFFINITY_MASK=\"" << value << "\"");
    std::vector<std::string> w;
    CHECK_FALSE(parseAffinityMask(value, w).has_value());
    REQUIRE(w.size() == 1);
    CHECK(w[0].find("ZE_AFFINITY_MASK") != std::string::npos);
    CHECK(w[0].find("ignoring") != std::string::npos);
  }
}

TEST_CASE("Given a warning list that already has entries, then parsers append to it",
          "[hierarchy][parse]") {
  std::vector<std::string> w{"earlier"};
  parseHierarchyMode("nope", w);
  parseRootMode("nope", w);
  parseAffinityMask("nope", w);
  REQUIRE(w.size() == 4);
  CHECK(w[0] == "earlier");
  CHECK(w[1].find("ZE_FLAT_DEVICE_HIERARCHY") != std::string::npos);
  CHECK(w[2].find("TESSERA_ROOT_DEVICE") != std::string::npos);
  CHECK(w[3].find("ZE_AFFINITY_MASK") != std::string::npos);
}
