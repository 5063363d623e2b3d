// Odd-width integers (spirv/odd_integers.h): a module declaring SPV_INTEL_arbitrary_precision_integers
// validates through a copy at standard widths that keeps every other rule; one that may not use such
// widths, or uses them wrongly, fails with a message that says so.
#include <catch2/catch.hpp>

#include <random>
#include <spirv/unified1/spirv.hpp>

#include "spirv/clc/translate.h"
#include "spirv/link.h"
#include "spirv/odd_integers.h"
#include "spirv/validate.h"
#include "spirv_test_support.h"

using namespace tessera::spirv;
using namespace tessera::spirv::test;

namespace {

struct Inst {
  size_t at;
  uint32_t count, opcode;
};

std::vector<Inst> instructionsOf(const std::vector<uint32_t>& w) {
  std::vector<Inst> out;
  for (size_t at = 5; at < w.size() && (w[at] >> 16) != 0; at += w[at] >> 16)
    out.push_back({at, w[at] >> 16, w[at] & 0xffff});
  return out;
}

// The id of `OpTypeInt width 0`.
uint32_t intType(const std::vector<uint32_t>& w, uint32_t width) {
  for (const Inst& i : instructionsOf(w))
    if (i.opcode == spv::OpTypeInt && w[i.at + 2] == width) return w[i.at + 1];
  FAIL("no OpTypeInt " << width);
  return 0;
}

size_t count(const std::vector<uint32_t>& w, uint32_t opcode) {
  size_t n = 0;
  for (const Inst& i : instructionsOf(w)) n += i.opcode == opcode;
  return n;
}

}  // namespace

TEST_CASE(
    "Given a module computing with i48 and i24 under SPV_INTEL_arbitrary_precision_integers, when "
    "validated, then it passes through a copy at standard widths",
    "[spirv][validate][odd_integers]") {
  std::vector<uint32_t> words = asWords(loadKernel("odd_integers"));
  ValidationResult r = validate(asBytes(words));
  INFO(r.log);
  CHECK(r.ok);
  CHECK(r.environment.find("integer widths 24, 48") != std::string::npos);
  CHECK(r.environment.find("validated as 32, 64") != std::string::npos);

  StandardWidthShadow shadow = standardWidthShadow(words);
  REQUIRE(shadow.needed);
  REQUIRE(shadow.error.empty());
  for (const Inst& i : instructionsOf(shadow.words)) {
    if (i.opcode != spv::OpTypeInt) continue;
    uint32_t width = shadow.words[i.at + 2];
    CHECK((width == 8 || width == 16 || width == 32 || width == 64));
  }
  // Constants keep their words: the shadow's OpConstants are the module's, word for word.
  std::vector<std::vector<uint32_t>> constants[2];
  for (int k = 0; k < 2; ++k) {
    const std::vector<uint32_t>& w = k == 0 ? words : shadow.words;
    for (const Inst& i : instructionsOf(w))
      if (i.opcode == spv::OpConstant) constants[k].emplace_back(w.begin() + i.at, w.begin() + i.at + i.count);
  }
  CHECK(constants[0] == constants[1]);
  // i48 -> u64 (OpUConvert) and i48 -> <3 x ushort> (OpBitcast) break at 64 bits only: written as
  // OpUndef; i48 -> i24 (64 -> 32 in the copy), i24 -> i48, i24 -> u64 and ushort -> u64 stay.
  CHECK(count(shadow.words, spv::OpUndef) == 2);
  CHECK(count(shadow.words, spv::OpUConvert) == count(words, spv::OpUConvert) - 1);
  CHECK(count(shadow.words, spv::OpSConvert) == count(words, spv::OpSConvert));
  CHECK(count(shadow.words, spv::OpBitcast) == count(words, spv::OpBitcast) - 1);
}

TEST_CASE(
    "Given odd-width integers used wrongly or without what allows them, when validated, then "
    "validation fails and says why",
    "[spirv][validate][odd_integers]") {
  const std::vector<uint32_t> module = asWords(loadKernel("odd_integers"));
  SECTION("without the capability (and its extension)") {
    std::vector<uint32_t> words(module.begin(), module.begin() + 5);
    for (const Inst& i : instructionsOf(module)) {
      bool capability = i.opcode == spv::OpCapability &&
                        module[i.at + 1] == spv::CapabilityArbitraryPrecisionIntegersINTEL;
      if (!capability && i.opcode != spv::OpExtension)
        words.insert(words.end(), module.begin() + i.at, module.begin() + i.at + i.count);
    }
    ValidationResult r = validate(asBytes(words));
    CHECK_FALSE(r.ok);
    INFO(r.log);
    CHECK(r.log.find("of width 24: integer widths other than 8, 16, 32 and 64 need the capability "
                     "ArbitraryPrecisionIntegersINTEL") != std::string::npos);
  }
  SECTION("with the capability but not its extension") {
    std::vector<uint32_t> words(module.begin(), module.begin() + 5);
    for (const Inst& i : instructionsOf(module))
      if (i.opcode != spv::OpExtension)
        words.insert(words.end(), module.begin() + i.at, module.begin() + i.at + i.count);
    ValidationResult r = validate(asBytes(words));
    CHECK_FALSE(r.ok);
    CHECK(r.log.find("needs OpExtension \"SPV_INTEL_arbitrary_precision_integers\"") !=
          std::string::npos);
  }
  SECTION("wider than 64 bits") {
    std::vector<uint32_t> words = module;
    for (const Inst& i : instructionsOf(words))
      if (i.opcode == spv::OpTypeInt && words[i.at + 2] == 24) words[i.at + 2] = 72;
    ValidationResult r = validate(asBytes(words));
    CHECK_FALSE(r.ok);
    CHECK(r.log.find("of width 72: arbitrary-precision integers are taken from 1 to 64 bits") !=
          std::string::npos);
  }
  SECTION("an OpBitcast between different numbers of bits") {
    std::vector<uint32_t> words = module;
    for (const Inst& i : instructionsOf(words))
      if (i.opcode == spv::OpTypeVector && words[i.at + 3] == 3 &&
          words[i.at + 2] == intType(words, 16))
        words[i.at + 3] = 4;  // <4 x ushort> is 64 bits, the i48 it is cast from 48
    ValidationResult r = validate(asBytes(words));
    CHECK_FALSE(r.ok);
    CHECK(r.log.find("of a 48-bit operand to a 64-bit type") != std::string::npos);
  }
  SECTION("an arithmetic result of another type than its operands") {
    std::vector<uint32_t> words = module;
    const uint32_t i48 = intType(words, 48), i24 = intType(words, 24);
    for (const Inst& i : instructionsOf(words)) {
      if (i.opcode == spv::OpIAdd && words[i.at + 1] == i48) {
        words[i.at + 1] = i24;
        break;
      }
    }
    ValidationResult r = validate(asBytes(words));
    CHECK_FALSE(r.ok);
    INFO(r.log);
    CHECK(r.log.find("Result Type") != std::string::npos);
  }
  SECTION("an OpUConvert between equal widths") {
    std::vector<uint32_t> words = module;
    const uint32_t i48 = intType(words, 48), i24 = intType(words, 24);
    for (const Inst& i : instructionsOf(words)) {
      if (i.opcode == spv::OpUConvert && words[i.at + 1] == i24) {
        words[i.at + 1] = i48;  // i48 -> i48
        break;
      }
    }
    ValidationResult r = validate(asBytes(words));
    CHECK_FALSE(r.ok);
    INFO(r.log);
    CHECK(r.log.find("different bit width") != std::string::npos);
  }
}

// The shadow is built from words nobody has validated yet: flipped bytes (odd widths of every
// size, word counts that cut instructions, operands naming anything) must come back as a verdict.
TEST_CASE("Given random byte flips of a module with odd-width integers, when validated, then "
          "each gets a verdict and nothing crashes",
          "[spirv][validate][odd_integers][fuzz]") {
  std::mt19937 rng(20261129);
  const std::vector<uint8_t> binary = loadKernel("odd_integers");
  int valid = 0;
  const int mutants = 300;
  for (int m = 0; m < mutants; ++m) {
    std::vector<uint8_t> mutant = binary;
    int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; ++f)
      mutant[20 + rng() % (mutant.size() - 20)] ^= static_cast<uint8_t>(1 + rng() % 255);
    INFO("mutant " << m);
    ValidationResult r = validate(mutant);
    valid += r.ok;
    CHECK(r.ok == r.log.empty());
    checkTranslatable(mutant);  // repairs, reflection, legalization, the guard: no crash
  }
  CHECK(valid < mutants);
}

// clLinkProgram's path (spirv/link.h): the inputs and the linked module are validated the same way.
TEST_CASE("Given a module with odd-width integers, when linked, then the linked module keeps them "
          "and validates",
          "[spirv][link][odd_integers]") {
  CompileResult r = linkSpirv({asWords(loadKernel("odd_integers"))}, false);
  INFO(r.log);
  REQUIRE(r.ok);
  bool i48 = false;
  for (const Inst& i : instructionsOf(r.spirv))
    i48 |= i.opcode == spv::OpTypeInt && r.spirv[i.at + 2] == 48;
  CHECK(i48);
  CHECK(validate(asBytes(r.spirv)).ok);
}
