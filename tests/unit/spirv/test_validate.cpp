// Validation with SPIRV-Tools: the corpus passes, broken modules fail with a log that says why.
#include <catch2/catch.hpp>

#include <spirv/unified1/spirv.hpp>

#include "spirv/validate.h"
#include "spirv_test_support.h"

using namespace tessera::spirv;
using namespace tessera::spirv::test;

TEST_CASE("Given every corpus module, when validated, then it passes", "[spirv][validate]") {
  for (const std::string& name : corpusNames()) {
    INFO(name);
    ValidationResult r = validate(loadKernel(name));
    INFO(r.log);
    CHECK(r.ok);
    CHECK(r.log.empty());
    CHECK_FALSE(r.environment.empty());
  }
}

TEST_CASE(
    "Given SPIR-V 1.0 and 1.4 modules, when validated, then the environment follows the version",
    "[spirv][validate]") {
  CHECK(validate(loadKernel("vector_add")).environment.find("OpenCL 2.1") != std::string::npos);
  CHECK(validate(loadKernel("local_size_id")).environment.find("OpenCL 2.2") != std::string::npos);
  CHECK(validate(loadKernel("static_local")).environment.find("1.4") != std::string::npos);
}

TEST_CASE(
    "Given a module whose entry point names a missing function, when validated, then the log "
    "names the problem",
    "[spirv][validate]") {
  std::vector<uint32_t> words = asWords(loadKernel("vector_add"));
  // Redirect OpEntryPoint's function operand to an id that is not defined anywhere.
  size_t pos = 5;
  bool patched = false;
  while (pos < words.size()) {
    uint32_t count = words[pos] >> 16;
    if ((words[pos] & 0xffff) == spv::OpEntryPoint) {
      words[pos + 2] = words[3] - 1 == words[pos + 2] ? 1 : words[3] - 1;
      patched = true;
      break;
    }
    pos += count;
  }
  REQUIRE(patched);
  ValidationResult r = validate(asBytes(words));
  CHECK_FALSE(r.ok);
  CHECK(r.log.find("SPIR-V validation failed") != std::string::npos);
  CHECK(r.log.size() > 40);
}

TEST_CASE("Given garbage, when validated, then it fails with a log instead of crashing",
          "[spirv][validate]") {
  CHECK_FALSE(validate({}).ok);
  std::vector<uint8_t> three = {1, 2, 3};
  ValidationResult r = validate(three);
  CHECK_FALSE(r.ok);
  CHECK(r.log.find("multiple of 4") != std::string::npos);
  std::vector<uint8_t> wrongMagic(64, 0x11);
  r = validate(wrongMagic);
  CHECK_FALSE(r.ok);
  CHECK(r.log.find("magic") != std::string::npos);
  std::vector<uint32_t> badVersion = asWords(loadKernel("saxpy"));
  badVersion[1] = 0x00020000;
  r = validate(asBytes(badVersion));
  CHECK_FALSE(r.ok);
  CHECK(r.log.find("unsupported SPIR-V version") != std::string::npos);
}
