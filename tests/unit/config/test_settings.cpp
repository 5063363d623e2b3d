// config/: the rule of each kind of variable (what it accepts, what it does with the rest and the
// warning it gives), the readers' structs, and the table as documentation.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "config/describe.h"
#include "config/settings.h"

using namespace tessera::config;

namespace {

// Reads `value` by `variable`'s rule; `warning` gets the one warning (empty when none).
template <typename V>
typename V::Value readOne(const V& variable, const char* value, std::string& warning) {
  std::vector<std::string> w;
  auto v = variable.read(value, w);
  REQUIRE(w.size() <= 1);
  warning = w.empty() ? "" : w[0];
  return v;
}

// Each text read by `variable` gives its value and no warning (null and empty: the default).
template <typename V>
void checkReads(const V& variable,
                std::initializer_list<std::pair<const char*, typename V::Value>> cases) {
  for (const auto& [text, value] : cases) {
    INFO((text ? text : "(unset)"));
    std::string w;
    CHECK(readOne(variable, text, w) == value);
    CHECK(w.empty());
  }
}

// Each of `values` read by `variable` gives its default and the warning NAME="value" `tail`.
template <typename V>
void checkWarns(const V& variable, std::initializer_list<const char*> values,
                const std::string& tail) {
  for (const char* value : values) {
    INFO(value);
    std::string w;
    CHECK(readOne(variable, value, w) == variable.fallback());
    CHECK(w == std::string(variable.name) + "=\"" + value + "\" " + tail);
  }
}

// Sets variables for one scope and puts back what was there.
class ScopedEnv {
 public:
  void set(const char* name, const char* value) {
    const char* old = std::getenv(name);
    saved_.push_back({name, old ? std::optional<std::string>(old) : std::nullopt});
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~ScopedEnv() {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
      if (it->second)
        setenv(it->first.c_str(), it->second->c_str(), 1);
      else
        unsetenv(it->first.c_str());
    }
  }

 private:
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

}  // namespace

TEST_CASE("Given a switch, then 0 is off, 1 on, anything else on with a warning", "[config]") {
  std::string w;
  CHECK(readOne(var::inlineLaunch, nullptr, w) == true);
  CHECK(w.empty());
  CHECK(readOne(var::inlineLaunch, "", w) == true);
  CHECK(w.empty());
  CHECK(readOne(var::inlineLaunch, "0", w) == false);
  CHECK(w.empty());
  CHECK(readOne(var::inlineLaunch, "1", w) == true);
  CHECK(w.empty());
  // What the sites did before the table: only an exact "0" turned these off.
  checkWarns(var::inlineLaunch, {"off", "00", " 0", "no", "2"},
             "is neither 0 nor 1; taken as 1 (on)");
  // A switch that is off by default: on with anything but 0.
  CHECK(readOne(var::noFaultGuard, nullptr, w) == false);
  CHECK(readOne(var::noFaultGuard, "0", w) == false);
  CHECK(readOne(var::noFaultGuard, "1", w) == true);
  CHECK(readOne(var::noFaultGuard, "yes", w) == true);
  CHECK(w.find("TESSERA_NO_FAULT_GUARD=\"yes\"") == 0);
}

TEST_CASE("Given an opt-in switch, then only 1 is on, anything else off with a warning",
          "[config]") {
  std::string w;
  CHECK(readOne(var::sharedForceDeviceAlloc, nullptr, w) == false);
  CHECK(readOne(var::sharedForceDeviceAlloc, "1", w) == true);
  CHECK(w.empty());
  CHECK(readOne(var::sharedForceDeviceAlloc, "0", w) == false);
  CHECK(w.empty());
  checkWarns(var::sharedForceDeviceAlloc, {"yes", "true", "2", "10"},
             "is neither 0 nor 1; taken as 0 (off)");
}

TEST_CASE(
    "Given a whole number, then decimal digits in range are read, the rest warns and is the "
    "default",
    "[config]") {
  checkReads(var::spinUs, {{nullptr, 100},
                           {"", 100},
                           {"0", 0},
                           {"250", 250},
                           {"007", 7},
                           {"1000000000000", 1'000'000'000'000}});
  checkWarns(
      var::spinUs,
      {"abc", "-1", "+5", " 5", "5 ", "12us", "1.5", "1000000000001", "99999999999999999999999"},
      "is not a whole number from 0 to 1000000000000; using 100");
  // Below the minimum: a trace of no records is refused.
  std::string w;
  CHECK(readOne(var::events, "0", w) == 131072);
  CHECK(w == "TESSERA_TRACE_EVENTS=\"0\" is not a whole number from 1 to 4294967296; using 131072");
  CHECK(readOne(var::events, "64", w) == 64);
  CHECK(readOne(var::queueDestroyTimeoutMs, "0", w) == 0);  // 0: wait forever
  CHECK(readOne(var::queueDestroyTimeoutMs, "forever", w) == 2000);
  CHECK_FALSE(w.empty());
}

TEST_CASE(
    "Given a number, then what strtod reads whole in range is read, the rest warns and is "
    "the default",
    "[config]") {
  checkReads(var::compileTimeoutS,
             {{nullptr, 600}, {"", 600}, {"0", 0}, {"2.5", 2.5}, {"1e3", 1000}, {"1e9", 1e9}});
  checkWarns(var::compileTimeoutS, {"abc", "-1", "nan", "inf", "1e10", "5s"},
             "is not a number from 0 to 1e+09; using 600");
  checkReads(var::cacheMaxMb, {{"0.5", 0.5}});
  checkWarns(var::cacheMaxMb, {"12MB"}, "is not a number from 0 to 1e+09; using 256");
}

TEST_CASE("Given text, then any value is kept as it is and empty is unset", "[config]") {
  std::string w;
  CHECK(readOne(var::topologyText, nullptr, w).empty());
  CHECK(readOne(var::topologyText, "", w).empty());
  CHECK(readOne(var::topologyText, " pack:2 pu:2 ", w) == " pack:2 pu:2 ");
  CHECK(readOne(var::path, "/tmp/trace-%p.json", w) == "/tmp/trace-%p.json");
  CHECK(w.empty());
}

TEST_CASE(
    "Given a choice, then its words in any case and spacing are read, a blank is the "
    "default, anything else warns",
    "[config]") {
  std::string w;
  CHECK(readOne(var::hierarchy, nullptr, w) == HierarchyMode::Composite);
  CHECK(readOne(var::hierarchy, "  ", w) == HierarchyMode::Composite);
  CHECK(readOne(var::hierarchy, "flat", w) == HierarchyMode::Flat);
  CHECK(readOne(var::hierarchy, " Combined\t", w) == HierarchyMode::Combined);
  CHECK(readOne(var::rootMode, "PACKAGE", w) == RootMode::Package);
  CHECK(w.empty());
  CHECK(readOne(var::hierarchy, " flatt ", w) == HierarchyMode::Composite);
  CHECK(w ==
        "ZE_FLAT_DEVICE_HIERARCHY=\"flatt\" is not COMPOSITE, FLAT or COMBINED; using "
        "COMPOSITE");
  CHECK(readOne(var::rootMode, "sockets", w) == RootMode::Machine);
  CHECK(w == "TESSERA_ROOT_DEVICE=\"sockets\" is not machine or package; using machine");
}

TEST_CASE(
    "Given an affinity mask, then dotted ordinals are read and a malformed one is ignored "
    "whole",
    "[config]") {
  std::string w;
  CHECK_FALSE(readOne(var::affinityMask, " ", w).has_value());
  auto m = readOne(var::affinityMask, "0, 1.2", w);
  REQUIRE(m);
  CHECK(m->entries == std::vector<std::vector<uint32_t>>{{0}, {1, 2}});
  CHECK(w.empty());
  CHECK_FALSE(readOne(var::affinityMask, "0,x", w).has_value());
  CHECK(w ==
        "ZE_AFFINITY_MASK=\"0,x\" is malformed at \"x\" (expected a comma-separated list such "
        "as 0,1.2); ignoring it and reporting every device");
}

TEST_CASE(
    "Given a widening width, then 0, 1 and powers of two up to 64 are read, the rest warns "
    "and is 1",
    "[config]") {
  std::string w;
  CHECK(readOne(var::widen, nullptr, w) == 1);
  for (uint32_t ok : {0u, 1u, 2u, 4u, 8u, 16u, 32u, 64u}) {
    CHECK(readOne(var::widen, std::to_string(ok).c_str(), w) == ok);
    CHECK(w.empty());
  }
  checkWarns(var::widen, {"3", "128", "-2", "abc", "16x"},
             "is not 0, 1 or a power of two up to 64; using 1");
}

TEST_CASE(
    "Given the environment, then each reader reads its own variables and warns once per "
    "bad value",
    "[config]") {
  ScopedEnv env;
  env.set("TESSERA_SPIN_US", "7");
  env.set("TESSERA_INLINE_LAUNCH", "0");
  env.set("TESSERA_QUEUE_DESTROY_TIMEOUT_MS", "soon");
  env.set("ZE_FLAT_DEVICE_HIERARCHY", "FLAT");
  env.set("TESSERA_CL_EVENT_REUSE", "0");
  env.set("TESSERA_TRACE_EVENTS", "10");
  env.set("TESSERA_WIDEN", "4");
  std::vector<std::string> w;
  DriverSettings d = DriverSettings::fromEnvironment(w);
  CHECK(d.spinUs == 7);
  CHECK(d.inlineLaunch == false);
  CHECK(d.queueDestroyTimeoutMs == 2000);
  CHECK(d.hierarchy == HierarchyMode::Flat);
  REQUIRE(w.size() == 1);
  CHECK(w[0].find("TESSERA_QUEUE_DESTROY_TIMEOUT_MS") == 0);

  // The other readers' variables are not the driver's business, and the reverse.
  w.clear();
  OpenClSettings cl = OpenClSettings::fromEnvironment(w);
  CHECK(cl.eventReuse == false);
  CHECK(cl.dumpPartitions.empty());
  TraceSettings t = TraceSettings::fromEnvironment(w);
  CHECK(t.events == 10);
  CompilerSettings c = CompilerSettings::fromEnvironment(w);
  CHECK(c.widen == 4);
  CHECK(w.empty());
}

TEST_CASE("Given nothing set, then each struct holds the table's defaults", "[config]") {
  DriverSettings d;
  CHECK(d.hierarchy == HierarchyMode::Composite);
  CHECK(d.rootMode == RootMode::Machine);
  CHECK_FALSE(d.affinityMask.has_value());
  CHECK(d.sharedForceDeviceAlloc == false);
  CHECK(d.spinUs == 100);
  CHECK(d.inlineLaunch == true);
  CHECK(d.queueDestroyTimeoutMs == 2000);
  CHECK(d.noFaultGuard == false);
  CHECK(d.guardPages == false);
  CHECK(TraceSettings{}.events == 131072);
  CHECK(OpenClSettings{}.eventReuse == true);
  CompilerSettings c;
  CHECK(c.widen == 1);
  CHECK(c.prefetch == true);
  CHECK(c.rowJam == true);
  CHECK(c.groupCopy == true);
  CHECK(c.cache == true);
  CHECK(c.cacheMaxMb == 256);
  CHECK(c.compileTimeoutS == 600);
  CHECK(c.jitDump == JitDump::Off);
}

TEST_CASE(
    "Given the table, then every variable is declared once, named as Tessera's or Level "
    "Zero's, documented, and in the usage table",
    "[config][docs]") {
  std::vector<Description> all = describeAll();
  CHECK(all.size() == 31);
  std::set<std::string> names;
  std::string table = usageTable();
  for (const Description& d : all) {
    INFO(d.name);
    CHECK(names.insert(d.name).second);
    CHECK((d.name.rfind("TESSERA_", 0) == 0 || d.name.rfind("ZE_", 0) == 0));
    CHECK_FALSE(d.effect.empty());
    CHECK_FALSE(d.usedBy.empty());
    CHECK_FALSE(d.rule.empty());
    CHECK(table.find("| `" + d.name + "`") != std::string::npos);
  }
  // The compiler's variables, which its settings function reads in one place.
  for (const char* n : {"TESSERA_WIDEN", "TESSERA_PREFETCH", "TESSERA_ROW_JAM", "TESSERA_GROUP_COPY",
                        "TESSERA_JIT_DUMP", "TESSERA_PERF_JIT",
                        "TESSERA_CACHE", "TESSERA_CACHE_DIR", "TESSERA_CACHE_MAX_MB",
                        "TESSERA_CACHE_DEBUG", "TESSERA_CLC", "TESSERA_COMPILE_TIMEOUT_S"}) {
    INFO(n);
    bool found = false;
    for (const Description& d : all) found |= d.name == n && d.reader == "CompilerSettings";
    CHECK(found);
  }
}
