// Validation with SPIRV-Tools: the corpus passes, broken modules fail with a log that says why.
#include <catch2/catch.hpp>

#include <spirv/unified1/spirv.hpp>

#include "spirv/opencl_c.h"
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

namespace {

// OpenCL C using 64-bit atomics, compiled to SPIR-V 1.0 (the version the OpenCL C path emits).
std::vector<uint32_t> int64AtomicsModule() {
  CompileResult r = compileOpenCLC(R"(
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
__kernel void k(__global long* c, __local long* l) {
  atom_add(&c[0], 1L);
  atom_max(&c[1], (long)get_global_id(0));
  atom_cmpxchg(&c[2], 0L, 7L);
  atom_inc(&l[0]);
}
)",
                                   "", {});
  INFO(r.log);
  REQUIRE(r.ok);
  return r.spirv;
}

// The operand word of the first instruction with `opcode` (plus `operand`).
uint32_t& operandOf(std::vector<uint32_t>& words, uint32_t opcode, size_t operand) {
  for (size_t at = 5; at < words.size(); at += words[at] >> 16) {
    if ((words[at] & 0xffff) == opcode) return words[at + operand];
  }
  FAIL("opcode " << opcode << " not found");
  return words[0];
}

}  // namespace

TEST_CASE("Given SPIR-V 1.0 with 64-bit atomics, when validated, then the extension allows it",
          "[spirv][validate][atomics64]") {
  std::vector<uint32_t> words = int64AtomicsModule();
  REQUIRE(words[1] == 0x00010000);
  ValidationResult r = validate(asBytes(words));
  INFO(r.log);
  CHECK(r.ok);
  CHECK(r.environment.find("OpenCL 2.1") != std::string::npos);
  CHECK(r.environment.find("Int64Atomics") != std::string::npos);
}

TEST_CASE(
    "Given SPIR-V with 64-bit atomics and what the OpenCL environment forbids, when validated, "
    "then the environment's rules still apply",
    "[spirv][validate][atomics64]") {
  SECTION("a capability the OpenCL environment does not have") {
    std::vector<uint32_t> words = int64AtomicsModule();
    operandOf(words, spv::OpCapability, 1) = spv::CapabilityShader;
    ValidationResult r = validate(asBytes(words));
    CHECK_FALSE(r.ok);
    CHECK(r.log.find("Shader is not allowed by OpenCL") != std::string::npos);
  }
  SECTION("the Logical addressing model") {
    std::vector<uint32_t> words = int64AtomicsModule();
    operandOf(words, spv::OpMemoryModel, 1) = spv::AddressingModelLogical;
    ValidationResult r = validate(asBytes(words));
    CHECK_FALSE(r.ok);
    INFO(r.log);
    CHECK(r.log.find("Addressing model must be Physical32 or Physical64") != std::string::npos);
  }
  SECTION("a 64-bit atomic without the capability") {
    std::vector<uint32_t> words = int64AtomicsModule();
    for (size_t at = 5; at < words.size(); at += words[at] >> 16) {
      if ((words[at] & 0xffff) == spv::OpCapability && words[at + 1] == spv::CapabilityInt64Atomics)
        words[at + 1] = spv::CapabilityInt64;  // declared twice now, which is allowed
    }
    ValidationResult r = validate(asBytes(words));
    CHECK_FALSE(r.ok);
    CHECK(r.log.find("64-bit atomics require the Int64Atomics capability") != std::string::npos);
  }
}

TEST_CASE(
    "Given half arithmetic in SPIR-V declaring the Float16 capability, when validated, then "
    "cl_khr_fp16 allows it",
    "[spirv][validate][half]") {
  for (const char* options : {"", "-cl-std=CL1.2", "-cl-std=CL3.0"}) {
    INFO(options);
    CompileResult c = compileOpenCLC(R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#if !defined(cl_khr_fp16) || (__OPENCL_C_VERSION__ >= 300 && !defined(__opencl_c_fp16))
#error half precision is not declared
#endif
typedef struct { half h; half4 v; } S;
__kernel void k(__global half* p, half x, __global S* s) {
  half4 v = vload4(0, p) * x;
  s->v = v;
  s->h = sin(v.x) + convert_half_rtz(p[1]);
}
)",
                                     options, {});
    INFO(c.log);
    REQUIRE(c.ok);
    CHECK(validate(asBytes(c.spirv)).ok);
    // The translator declares Float16Buffer for this; other producers (and the OpenCL-CTS's
    // SPIR-V) declare Float16, which SPIRV-Tools' OpenCL environments refuse on their own.
    std::vector<uint32_t> words = c.spirv;
    bool swapped = false;
    for (size_t at = 5; at < words.size(); at += words[at] >> 16) {
      if ((words[at] & 0xffff) == spv::OpCapability &&
          words[at + 1] == spv::CapabilityFloat16Buffer)
        words[at + 1] = spv::CapabilityFloat16, swapped = true;
    }
    REQUIRE(swapped);
    ValidationResult r = validate(asBytes(words));
    INFO(r.log);
    CHECK(r.ok);
    CHECK(r.environment.find("Float16 (cl_khr_fp16)") != std::string::npos);
  }
}

TEST_CASE(
    "Given OpenCL C whose SPIR-V needs 1.4 that the translator declares 1.0, when compiled, then "
    "the module is raised to 1.4 and validates",
    "[spirv][validate][opencl_c]") {
  // clang: select i1 %flag, <4 x float>, <4 x float>; the translator: an OpSelect with a scalar
  // condition (SPIR-V 1.4) in a module it declares 1.0. The program-scope table must join the
  // entry point's interface (1.4's rule).
  CompileResult c = compileOpenCLC(R"(
constant float table[2] = {1.0f, 2.0f};
kernel void k(global float4* out, int flag) {
  const float4 v = flag ? (float4)(1.0f, 2.0f, 3.0f, 4.0f) : (float4)(5.0f, 6.0f, 7.0f, 8.0f);
  out[0] = v + table[flag & 1];
})",
                                   "");
  INFO(c.log);
  REQUIRE(c.ok);
  CHECK(c.spirv[1] == kNewestReadableVersion);
  ValidationResult r = validate(asBytes(c.spirv));
  INFO(r.log);
  CHECK(r.ok);

  // Written back as 1.0, the same module does not validate; validateAtNeededVersion raises it.
  std::vector<uint32_t> old = c.spirv;
  old[1] = 0x00010000;
  CHECK_FALSE(validate(asBytes(old)).ok);
  ValidationResult raised = validateAtNeededVersion(old);
  INFO(raised.log);
  CHECK(raised.ok);
  CHECK(old[1] == kNewestReadableVersion);
}

TEST_CASE(
    "Given a module invalid at every version, when validated at the needed version, then it fails "
    "unchanged with the declared version's diagnostic",
    "[spirv][validate]") {
  std::vector<uint32_t> words = asWords(loadKernel("vector_add"));
  for (size_t pos = 5; pos < words.size(); pos += words[pos] >> 16) {
    if ((words[pos] & 0xffff) == spv::OpEntryPoint) {
      words[pos + 2] = words[3] - 1 == words[pos + 2] ? 1 : words[3] - 1;
      break;
    }
  }
  std::vector<uint32_t> before = words;
  ValidationResult r = validateAtNeededVersion(words);
  CHECK_FALSE(r.ok);
  CHECK(words == before);
  CHECK(r.log.find("raised to SPIR-V 1.4") != std::string::npos);
  // Not SPIR-V at all: left alone.
  std::vector<uint32_t> garbage = {1, 2, 3, 4, 5, 6};
  CHECK(raiseToVersion14(garbage) == garbage);
}
