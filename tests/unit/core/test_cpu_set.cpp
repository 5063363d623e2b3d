// CpuSet: the PU sets every other part of core/ works on.
#include <catch2/catch.hpp>

#include "core/topology/cpu_set.h"
#include "core_test_support.h"

using tessera::core::CpuSet;
using tessera::core::test::puRange;
using tessera::core::test::puSet;

TEST_CASE("Given an empty CpuSet, then it has no members and prints as empty", "[cpu_set]") {
  CpuSet s;
  CHECK(s.empty());
  CHECK(s.count() == 0);
  CHECK(s.members().empty());
  CHECK(s.toString() == "");
  CHECK_FALSE(s.contains(0));
  CHECK_FALSE(s.contains(63));
  CHECK_FALSE(s.contains(1000));
  CHECK(s == CpuSet{});
}

TEST_CASE("Given PUs added out of order and twice, then members are sorted and unique",
          "[cpu_set]") {
  CpuSet s = puSet({5, 1, 3, 1, 5});
  CHECK(s.count() == 3);
  CHECK(s.members() == std::vector<uint32_t>{1, 3, 5});
  CHECK(s.contains(1));
  CHECK(s.contains(3));
  CHECK(s.contains(5));
  CHECK_FALSE(s.contains(0));
  CHECK_FALSE(s.contains(2));
  CHECK_FALSE(s.contains(4));
  CHECK_FALSE(s.contains(6));
  CHECK_FALSE(s.empty());
}

TEST_CASE("Given sets of ranges and singletons, when printed, then hwloc's list syntax is used",
          "[cpu_set]") {
  CHECK(puSet({0}).toString() == "0");
  CHECK(puSet({0, 1}).toString() == "0-1");
  CHECK(puSet({0, 1, 2, 3, 8, 10, 11}).toString() == "0-3,8,10-11");
  CHECK(puSet({7, 9}).toString() == "7,9");
  CHECK(puRange(0, 15).toString() == "0-15");
  CHECK(puSet({63, 64}).toString() == "63-64");
  CHECK((puRange(60, 70) | puSet({200})).toString() == "60-70,200");
}

TEST_CASE("Given PUs beyond 64 and 128, then they are kept in further words", "[cpu_set]") {
  CpuSet s = puSet({0, 63, 64, 127, 128, 129, 300});
  CHECK(s.count() == 7);
  CHECK(s.members() == std::vector<uint32_t>{0, 63, 64, 127, 128, 129, 300});
  CHECK(s.contains(64));
  CHECK(s.contains(128));
  CHECK(s.contains(300));
  CHECK_FALSE(s.contains(65));
  CHECK_FALSE(s.contains(192));
  CHECK_FALSE(s.contains(301));
  CHECK_FALSE(s.contains(100000));
  CHECK(s.toString() == "0,63-64,127-129,300");

  CpuSet high = puSet({130});
  CHECK(high.count() == 1);
  CHECK(high.members() == std::vector<uint32_t>{130});
  CHECK_FALSE(high.contains(2));  // same bit, other word
  CHECK_FALSE(high.contains(66));
}

TEST_CASE("Given two sets, when intersected, then only common PUs remain", "[cpu_set]") {
  CpuSet a = puSet({0, 1, 2, 64, 130});
  CpuSet b = puSet({1, 2, 3, 130});
  CHECK((a & b) == puSet({1, 2, 130}));
  CHECK((b & a) == puSet({1, 2, 130}));
  CHECK((a & CpuSet{}).empty());
  CHECK(a.intersects(b));
  CHECK_FALSE(puSet({0}).intersects(puSet({1})));
  CHECK_FALSE(a.intersects(CpuSet{}));
}

TEST_CASE("Given sets whose intersection is empty in high words, then it equals the empty set",
          "[cpu_set]") {
  // The intersection of two multi-word sets that only share nothing must compare equal to a
  // default-constructed set, whatever words it kept internally.
  CpuSet a = puSet({1, 200});
  CpuSet b = puSet({2, 201});
  CpuSet both = a & b;
  CHECK(both.empty());
  CHECK(both == CpuSet{});
  CHECK(both.toString() == "");
  // Same low word only.
  CHECK((puSet({3, 200}) & puSet({3, 201})) == puSet({3}));
}

TEST_CASE("Given two sets, when united, then every PU of either is present", "[cpu_set]") {
  CpuSet a = puSet({0, 70});
  CpuSet b = puSet({1, 200});
  CpuSet u = a | b;
  CHECK(u == puSet({0, 1, 70, 200}));
  CHECK((b | a) == u);
  CHECK((a | CpuSet{}) == a);
  CHECK((CpuSet{} | a) == a);
  CHECK(u.count() == 4);
  // Operands are unchanged.
  CHECK(a == puSet({0, 70}));
  CHECK(b == puSet({1, 200}));
}

TEST_CASE("Given sets of equal and different contents, then == compares contents", "[cpu_set]") {
  CHECK(puSet({1, 2}) == puSet({2, 1}));
  CHECK_FALSE(puSet({1, 2}) == puSet({1, 2, 3}));
  CHECK_FALSE(puSet({1}) == puSet({65}));
  CHECK_FALSE(puSet({0}) == CpuSet{});
  CHECK(puSet({100}) == puSet({100}));
}

TEST_CASE("Given sets, then isSubsetOf holds exactly for contained sets", "[cpu_set]") {
  CpuSet all = puRange(0, 135);
  CHECK(puSet({0, 64, 135}).isSubsetOf(all));
  CHECK(all.isSubsetOf(all));
  CHECK(CpuSet{}.isSubsetOf(all));
  CHECK(CpuSet{}.isSubsetOf(CpuSet{}));
  CHECK_FALSE(puSet({136}).isSubsetOf(all));
  CHECK_FALSE(all.isSubsetOf(puSet({0, 64, 135})));
  CHECK_FALSE(puSet({0, 200}).isSubsetOf(puSet({0})));
  CHECK_FALSE(puSet({0}).isSubsetOf(CpuSet{}));
}
