// The corrupt-SPIR-V set: truncations, wrong magic, random byte flips over every corpus file,
// huge and zero word counts, out-of-range ids, random opcodes. Each must fail (or pass) cleanly in
// reflect() and in translate() (validation + translation): no crash, no exit(), no hang.
#include <catch2/catch.hpp>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <spirv/unified1/spirv.hpp>

#include "spirv/reflect.h"
#include "spirv/clc/translate.h"
#include "spirv/validate.h"
#include "spirv_test_support.h"

using namespace tessera::spirv;
using namespace tessera::spirv::test;

namespace {

struct Outcome {
  int reflected = 0;
  int translated = 0;
  int total = 0;
};

// Runs one mutant through every entry point. Returning at all is the test.
void exercise(const std::vector<uint8_t>& binary, Outcome& outcome) {
  ++outcome.total;
  ReflectResult r = reflect(binary);
  if (r.ok) {
    ++outcome.reflected;
  } else {
    CHECK_FALSE(r.error.empty());
  }
  // TESSERA_FUZZ_DUMP=<file>: each mutant is written there first, so a crash leaves it behind.
  if (const char* dump = std::getenv("TESSERA_FUZZ_DUMP")) {
    std::ofstream(dump, std::ios::binary)
        .write(reinterpret_cast<const char*>(binary.data()), binary.size());
  }
  llvm::LLVMContext context;
  TranslateResult t = translate(context, binary);
  if (t.ok()) {
    ++outcome.translated;
  } else {
    CHECK_FALSE(t.log.empty());
  }
}

// Word offsets of each instruction in a well-formed module.
std::vector<size_t> instructionOffsets(const std::vector<uint32_t>& words) {
  std::vector<size_t> offsets;
  size_t pos = 5;
  while (pos < words.size() && (words[pos] >> 16) != 0) {
    offsets.push_back(pos);
    pos += words[pos] >> 16;
  }
  return offsets;
}

// TESSERA_FUZZ_SEED and TESSERA_FUZZ_MUTANTS widen the search when set (defaults keep CI fast).
uint32_t fuzzSetting(const char* name, uint32_t fallback) {
  const char* value = std::getenv(name);
  return value != nullptr ? static_cast<uint32_t>(std::strtoul(value, nullptr, 10)) : fallback;
}

}  // namespace

TEST_CASE("Given truncated modules, when read, then each fails cleanly", "[spirv][corrupt]") {
  Outcome outcome;
  for (const std::string& name : corpusNames()) {
    std::vector<uint8_t> binary = loadKernel(name);
    for (size_t length : {size_t{0}, size_t{1}, size_t{3}, size_t{4}, size_t{8}, size_t{19},
                          size_t{20}, size_t{24}, binary.size() / 3, binary.size() / 2,
                          binary.size() - 5, binary.size() - 4, binary.size() - 1}) {
      INFO(name << " cut to " << length);
      std::vector<uint8_t> cut(binary.begin(), binary.begin() + std::min(length, binary.size()));
      exercise(cut, outcome);
    }
  }
  // A module cut short never translates (a truncated function has no OpFunctionEnd).
  CHECK(outcome.translated == 0);
}

TEST_CASE("Given a wrong magic number, when read, then reflect and validate say so",
          "[spirv][corrupt]") {
  std::vector<uint8_t> binary = loadKernel("vector_add");
  binary[0] ^= 0xff;
  ReflectResult r = reflect(binary);
  CHECK_FALSE(r.ok);
  CHECK(r.error.find("magic") != std::string::npos);
  llvm::LLVMContext context;
  TranslateResult t = translate(context, binary);
  CHECK_FALSE(t.ok());
  CHECK(t.log.find("magic") != std::string::npos);
}

TEST_CASE("Given huge and zero word counts, when read, then reflect reports the instruction",
          "[spirv][corrupt]") {
  for (const std::string& name : corpusNames()) {
    std::vector<uint32_t> words = asWords(loadKernel(name));
    std::vector<size_t> offsets = instructionOffsets(words);
    for (size_t i = 0; i < offsets.size(); i += std::max<size_t>(1, offsets.size() / 8)) {
      INFO(name << " instruction at word " << offsets[i]);
      for (uint32_t count : {0u, 0xffffu, static_cast<uint32_t>(words.size())}) {
        std::vector<uint32_t> mutant = words;
        mutant[offsets[i]] = (mutant[offsets[i]] & 0xffff) | (count << 16);
        std::vector<uint8_t> bytes = asBytes(mutant);
        ReflectResult r = reflect(bytes);
        CHECK_FALSE(r.ok);
        CHECK(r.error.find("word " + std::to_string(offsets[i])) != std::string::npos);
        Outcome outcome;
        exercise(bytes, outcome);
        CHECK(outcome.translated == 0);
      }
    }
  }
}

TEST_CASE("Given out-of-range ids, when read, then each fails cleanly", "[spirv][corrupt]") {
  for (const std::string& name : corpusNames()) {
    std::vector<uint32_t> words = asWords(loadKernel(name));
    INFO(name);
    {
      std::vector<uint32_t> mutant = words;
      mutant[3] = 2;  // the header's id bound
      ReflectResult r = reflect(asBytes(mutant));
      CHECK_FALSE(r.ok);
      CHECK(r.error.find("outside the bound") != std::string::npos);
      Outcome outcome;
      exercise(asBytes(mutant), outcome);
      CHECK(outcome.translated == 0);
    }
    // Every id-like operand of a few instructions pushed past the bound or to 0xffffffff.
    std::vector<size_t> offsets = instructionOffsets(words);
    Outcome outcome;
    for (size_t i = 0; i < offsets.size(); i += std::max<size_t>(1, offsets.size() / 10)) {
      uint32_t count = words[offsets[i]] >> 16;
      for (uint32_t operand = 1; operand < count; ++operand) {
        for (uint32_t value : {words[3], words[3] + 100, 0xffffffffu}) {
          std::vector<uint32_t> mutant = words;
          mutant[offsets[i] + operand] = value;
          exercise(asBytes(mutant), outcome);
        }
      }
    }
  }
}

TEST_CASE("Given random byte flips over every corpus file, when read, then nothing crashes",
          "[spirv][corrupt][fuzz]") {
  std::mt19937 rng(fuzzSetting("TESSERA_FUZZ_SEED", 20240605));
  const int mutants = static_cast<int>(fuzzSetting("TESSERA_FUZZ_MUTANTS", 40));
  Outcome outcome;
  for (const std::string& name : corpusNames()) {
    std::vector<uint8_t> binary = loadKernel(name);
    for (int m = 0; m < mutants; ++m) {
      std::vector<uint8_t> mutant = binary;
      int flips = 1 + static_cast<int>(rng() % 4);
      for (int f = 0; f < flips; ++f) {
        // Mostly past the header, so mutants get beyond the magic check.
        size_t at = 20 + rng() % (mutant.size() - 20);
        if (rng() % 8 == 0) at = rng() % 20;
        mutant[at] ^= static_cast<uint8_t>(1 + rng() % 255);
      }
      INFO(name << " mutant " << m);
      exercise(mutant, outcome);
    }
  }
  INFO("reflected " << outcome.reflected << ", translated " << outcome.translated << " of "
                    << outcome.total);
  CHECK(outcome.total == mutants * static_cast<int>(corpusNames().size()));
  CHECK(outcome.translated < outcome.total);
}

TEST_CASE("Given random opcodes swapped into valid instructions, when read, then nothing crashes",
          "[spirv][corrupt][fuzz]") {
  std::mt19937 rng(fuzzSetting("TESSERA_FUZZ_SEED", 7));
  const int mutants = static_cast<int>(fuzzSetting("TESSERA_FUZZ_MUTANTS", 25));
  Outcome outcome;
  for (const std::string& name : corpusNames()) {
    std::vector<uint32_t> words = asWords(loadKernel(name));
    std::vector<size_t> offsets = instructionOffsets(words);
    for (int m = 0; m < mutants; ++m) {
      std::vector<uint32_t> mutant = words;
      size_t at = offsets[rng() % offsets.size()];
      uint32_t opcode = rng() % 2 == 0 ? rng() % 400 : 4400 + rng() % 2000;
      mutant[at] = (mutant[at] & 0xffff0000u) | opcode;
      INFO(name << " opcode " << opcode << " at word " << at);
      exercise(asBytes(mutant), outcome);
    }
  }
  CHECK(outcome.total == mutants * static_cast<int>(corpusNames().size()));
}

TEST_CASE(
    "Given structs of structs nested 20 deep, 500 members each, when reflected, then it "
    "finishes quickly and reports no size",
    "[spirv][corrupt]") {
  // Without memoized layouts this would visit 500^20 members.
  std::vector<uint32_t> w = {kMagic, 0x00010000, 0, 0, 0};
  auto emit = [&](uint32_t opcode, std::vector<uint32_t> operands) {
    w.push_back(static_cast<uint32_t>(operands.size() + 1) << 16 | opcode);
    w.insert(w.end(), operands.begin(), operands.end());
  };
  emit(spv::OpCapability, {spv::CapabilityAddresses});
  emit(spv::OpCapability, {spv::CapabilityKernel});
  emit(spv::OpMemoryModel, {spv::AddressingModelPhysical64, spv::MemoryModelOpenCL});
  const uint32_t fn = 1, intType = 2, voidType = 3, fnType = 4, param = 5, label = 6;
  emit(spv::OpEntryPoint, {spv::ExecutionModelKernel, fn, 0x0000006b});  // "k"
  emit(spv::OpTypeInt, {intType, 32, 0});
  uint32_t previous = intType;
  uint32_t next = 10;
  for (int level = 0; level < 20; ++level) {
    std::vector<uint32_t> operands = {next};
    operands.insert(operands.end(), 500, previous);
    emit(spv::OpTypeStruct, operands);
    previous = next++;
  }
  emit(spv::OpTypeVoid, {voidType});
  emit(spv::OpTypeFunction, {fnType, voidType, previous});
  emit(spv::OpFunction, {voidType, fn, 0, fnType});
  emit(spv::OpFunctionParameter, {previous, param});
  emit(spv::OpLabel, {label});
  emit(spv::OpReturn, {});
  emit(spv::OpFunctionEnd, {});
  w[3] = next;
  ReflectResult r = reflect(asBytes(w));
  INFO(r.error);
  REQUIRE(r.ok);
  REQUIRE(r.module.kernels.size() == 1);
  REQUIRE(r.module.kernels[0].args.size() == 1);
  CHECK(r.module.kernels[0].args[0].kind == ArgKind::Unsupported);  // too large to be a value
  CHECK(r.module.kernels[0].args[0].size == 0);
}
