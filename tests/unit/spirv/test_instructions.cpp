// The one walk over a module's instructions (spirv/instructions.h) that reflect, validate, repair,
// legalize and translator_guard share: offsets, word counts and where a malformed stream stops.
#include <catch2/catch.hpp>

#include <spirv/unified1/spirv.hpp>
#include <vector>

#include "spirv/instructions.h"
#include "spirv/reflect.h"
#include "spirv_test_support.h"

using namespace tessera::spirv;

namespace {

// A header and three instructions: OpCapability Kernel, OpMemoryModel Physical64 OpenCL,
// OpCapability Addresses.
std::vector<uint32_t> smallModule() {
  return {kMagic,
          0x00010000,
          0,
          10,
          0,
          (2u << 16) | spv::OpCapability,
          spv::CapabilityKernel,
          (3u << 16) | spv::OpMemoryModel,
          spv::AddressingModelPhysical64,
          spv::MemoryModelOpenCL,
          (2u << 16) | spv::OpCapability,
          spv::CapabilityAddresses};
}

}  // namespace

TEST_CASE(
    "Given a well-formed module, then the walk yields each instruction with its offset and "
    "words, and nothing is malformed",
    "[spirv][instructions]") {
  std::vector<uint32_t> w = smallModule();
  std::vector<size_t> offsets;
  std::vector<uint32_t> opcodes, counts;
  Instructions instructions(w);
  for (const Instruction& i : instructions) {
    offsets.push_back(i.offset);
    opcodes.push_back(i.opcode());
    counts.push_back(i.wordCount());
    CHECK(i[0] == w[i.offset]);
  }
  CHECK(offsets == std::vector<size_t>{5, 7, 10});
  CHECK(opcodes == std::vector<uint32_t>{spv::OpCapability, spv::OpMemoryModel, spv::OpCapability});
  CHECK(counts == std::vector<uint32_t>{2, 3, 2});
  CHECK_FALSE(instructions.malformed());
}

TEST_CASE(
    "Given a word count of 0 or one past the end, then the walk stops before it and "
    "malformed() names it",
    "[spirv][instructions]") {
  for (uint32_t bad : {0u, 9u}) {
    INFO("word count " << bad);
    std::vector<uint32_t> w = smallModule();
    w[7] = (bad << 16) | spv::OpMemoryModel;
    Instructions instructions(w);
    size_t seen = 0;
    for (const Instruction& i : instructions) {
      CHECK(i.offset == 5);
      ++seen;
    }
    CHECK(seen == 1);
    std::optional<Malformed> m = instructions.malformed();
    REQUIRE(m);
    CHECK(m->offset == 7);
    CHECK(m->wordCount == bad);
  }
}

TEST_CASE("Given only a header, or fewer words, then the walk yields nothing",
          "[spirv][instructions]") {
  std::vector<uint32_t> header = smallModule();
  header.resize(kHeaderWords);
  CHECK(Instructions(header).begin() == Instructions(header).end());
  std::vector<uint32_t> shorter{kMagic, 0x00010000};
  CHECK(Instructions(shorter).begin() == Instructions(shorter).end());
  CHECK_FALSE(Instructions(shorter).malformed());
}

TEST_CASE("Given every corpus module, then the walk covers every word", "[spirv][instructions]") {
  for (const std::string& name : test::corpusNames()) {
    INFO(name);
    std::vector<uint32_t> w = toWords(test::loadKernel(name));
    REQUIRE(!w.empty());
    size_t next = kHeaderWords;
    for (const Instruction& i : Instructions(w)) {
      CHECK(i.offset == next);
      next = i.offset + i.wordCount();
    }
    CHECK(next == w.size());
  }
}
