// Tessera's libraries stay mapped after their last dlclose (linked -z nodelete): the driver's
// threads (executors, launch workers) run its code for the life of the process, and programs
// unload it under them. AdaptiveCpp dlcloses its Level Zero backend between test cases, which
// unloaded the loader and libze_tessera.so.1 while a worker thread was starting: the thread ran
// unmapped code and the process died (SIGSEGV, reduction tests, about one run in six).
#include <catch2/catch.hpp>

#include <string>

#include "ze_test_support.h"

TEST_CASE("Given the driver and the ICD loaded with dlopen and used, when they are dlclosed, then "
          "they stay resident",
          "[unload]") {
  const std::string lib = TESSERA_LIB_DIR;
  auto r = tessera::test::runProgram(
      {TESSERA_UNLOAD_PROBE, lib + "/libze_tessera.so.1", lib + "/libtessera_opencl.so"}, {});
  INFO(r.out << r.err);
  CHECK(r.exitCode == 0);
  CHECK(r.out.find("libze_tessera.so.1 resident") != std::string::npos);
  CHECK(r.out.find("libtessera_opencl.so resident") != std::string::npos);
}
