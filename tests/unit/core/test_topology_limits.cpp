// The bounds on TESSERA_TOPOLOGY (core/topology/source_limits.h): synthetic descriptions sized the
// way hwloc reads them, XML text by its objects and nesting, and Topology::load refusing what is
// over them before hwloc builds anything.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "core/topology/source_limits.h"
#include "core/topology/topology.h"
#include "core_test_support.h"

using namespace tessera::core;

TEST_CASE("Given synthetic descriptions, then those within the bounds pass and the others are "
          "refused with their size",
          "[topology][limits]") {
  for (const char* ok : {"pack:2 numa:2 l3:2 core:2 pu:1", "2 2 2", "pu:4096",
                         "pack:2 [numa] core:4 pu:2", "pack:2(memory=8GB) core:2 pu:2",
                         "pack:4 numa:16 l3:8 l2:8 core:1 pu:1", "pack:zero", "", "l3:2 l2:1 pu:1"}) {
    INFO(ok);
    CHECK(checkSyntheticTopology(ok).empty());
  }
  CHECK(checkSyntheticTopology("pack:1000 core:1000 pu:1") ==
        "asks for 1000000 PUs (at most 4096)");
  CHECK(checkSyntheticTopology("pu:4097") == "asks for 4097 PUs (at most 4096)");
  CHECK(checkSyntheticTopology("pu:0x100000") == "asks for 1048576 PUs (at most 4096)");
  CHECK(checkSyntheticTopology("pa6[u:90552  pu:3") == "asks for 271656 PUs (at most 4096)");
  CHECK(checkSyntheticTopology("pack:99999999999 core:99999999999 pu:99999999999") ==
        "asks for more than 2^64 PUs (at most 4096)");
  // Objects: 4,096 PUs under four full-width levels are 20,480+ objects.
  CHECK(checkSyntheticTopology("numa:4096 l2:1 l1d:1 core:1 pu:1") ==
        "asks for 20481 objects (at most 16384)");
  // What hwloc would refuse anyway is bounded by every count it contains.
  CHECK(checkSyntheticTopology("pack:1000 core:0 pu:1000") ==
        "asks for 1000000 PUs (at most 4096)");
}

TEST_CASE("Given hwloc XML text, then its objects, PUs and nesting are bounded",
          "[topology][limits]") {
  std::string xml;
  {
    std::ifstream in(tessera::core::test::xeonXml());
    xml.assign(std::istreambuf_iterator<char>(in), {});
  }
  CHECK(checkXmlTopology(xml).empty());
  std::string deep = "<?xml version=\"1.0\"?><!-- <object> --><topology>";
  for (int i = 0; i < 200; ++i) deep += "<object type=\"Group\" name=\"a>b\">";
  for (int i = 0; i < 200; ++i) deep += "</object>";
  deep += "</topology>";
  CHECK(checkXmlTopology(deep) == "nests elements more than 128 deep");
  std::string wide = "<topology><object type=\"Machine\">";
  for (int i = 0; i < 4097; ++i) wide += "<object type=\"PU\" os_index=\"1\"/>";
  wide += "</object></topology>";
  CHECK(checkXmlTopology(wide) == "asks for 4097 PUs (at most 4096)");
  std::string many = "<topology>";
  for (int i = 0; i < 16385; ++i) many += "<object type='Core'></object>";
  many += "</topology>";
  CHECK(checkXmlTopology(many) == "asks for 16385 objects (at most 16384)");
}

TEST_CASE("Given a source over the bounds, when loaded, then TopologyError says why before hwloc "
          "builds it",
          "[topology][limits]") {
  try {
    Topology::load({TopologySource::Kind::Synthetic, "pack:1000 core:1000 pu:1"});
    FAIL("loaded");
  } catch (const TopologyError& e) {
    CHECK(std::string(e.what()) ==
          "synthetic \"pack:1000 core:1000 pu:1\" refused: asks for 1000000 PUs (at most 4096)");
  }
  // The XML file of the tests still loads through the buffer path.
  auto xeon = Topology::load(TopologySource::fromString(tessera::core::test::xeonXml().c_str()));
  CHECK(xeon->allowedPus().count() == 16);
}

TEST_CASE("Given a FIFO or a folder as the XML file, when loaded, then TopologyError says what it "
          "is, without blocking",
          "[topology][limits]") {
  char t[] = "/tmp/tessera-topology-XXXXXX";
  REQUIRE(mkdtemp(t));
  std::string fifo = std::string(t) + "/machine.xml";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  // In a child bounded by alarm(): a regression blocks in open(), and SIGALRM ends only the child.
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    alarm(60);
    int code = 1;
    try {
      Topology::load({TopologySource::Kind::Xml, fifo});
    } catch (const TopologyError& e) {
      code = std::string(e.what()).find("refused: is a FIFO, not a regular file") !=
                     std::string::npos
                 ? 0
                 : 2;
    }
    std::_Exit(code);
  }
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  try {
    Topology::load({TopologySource::Kind::Xml, t});
    FAIL("loaded");
  } catch (const TopologyError& e) {
    CHECK(std::string(e.what()).find("refused: is a directory") != std::string::npos);
  }
  std::filesystem::remove_all(t);
}
