// Tessera IR (TESSERA_ZE_MODULE_FORMAT_LLVM_IR, spirv/friendly_ir.h): OpenCL C compiled by
// Tessera's front end to clang's LLVM IR with the builtins in the SPIR-V friendly form, and a module
// made of it without SPIR-V. The format is what clBuildProgram uses; these tests take it through
// the ze* API directly: it runs, survives native binaries, and bytes that are not Tessera's own
// front end's output are refused in the compiler process without harm to the application.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kernel_test_support.h"
#include "spirv/opencl_c.h"
#include "tessera/ze_tessera.h"
#include "ze_test_support.h"

using namespace tessera::test;

namespace {

std::string compileToIR(const char* source, const char* options = "") {
  tessera::spirv::CompileResult r = tessera::spirv::compileOpenCLC(
      source, options, {}, tessera::spirv::CompileOutput::TesseraIR);
  INFO(r.log);
  REQUIRE(r.ok);
  REQUIRE(r.spirv.empty());
  return r.ir;
}

// zeModuleCreate of `bytes` as Tessera IR: the result, the module (or null) and the build log.
ze_result_t createIRModule(KernelFixture& fx, const std::string& bytes, ze_module_handle_t& m,
                           std::string& log, const ze_module_constants_t* constants = nullptr) {
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC};
  desc.format = TESSERA_ZE_MODULE_FORMAT_LLVM_IR;
  desc.inputSize = bytes.size();
  desc.pInputModule = reinterpret_cast<const uint8_t*>(bytes.data());
  desc.pBuildFlags = "";
  desc.pConstants = constants;
  ze_module_build_log_handle_t buildLog = nullptr;
  m = nullptr;
  ze_result_t r = zeModuleCreate(fx.context, fx.device, &desc, &m, &buildLog);
  log = buildLogText(buildLog);
  zeModuleBuildLogDestroy(buildLog);
  return r;
}

// The forms SPIR-V 1.0 could not carry from clang's IR (a scalar condition selecting vectors,
// darktable's gaussian.cl; a flexible array member), and a program-scope constant.
constexpr const char* kSource = R"(
typedef struct { int n; int data[]; } counted;
constant float table[2] = {0.25f, 0.5f};
kernel void k(global int* out, int flag) {
  float4 v = flag ? (float4)(1, 2, 3, 4) : (float4)(0.25f, 0.5f, 0, 0);
  v += (float4)(table[flag & 1]);
  int storage[4] = {3, 10 + flag, 20, 30};
  counted* c = (counted*)storage;
  vstore4(convert_int4(v * 4), 0, out);
  out[4] = c->data[0] + exp(0.0f);
}
)";

// Runs `module`'s kernel k with `flag`: its five outputs.
std::vector<int> run(KernelFixture& fx, ze_module_handle_t module, int flag) {
  ze_kernel_handle_t kernel = fx.kernel(module, "k");
  std::vector<int> out(5, -1);
  setGroupSize(kernel, 1);
  setArgs(kernel, out.data(), flag);
  fx.runOnce([&](ze_command_list_handle_t l) { fx.launch(l, kernel, {1, 1, 1}); });
  fx.dropKernel(kernel);
  zeKernelDestroy(kernel);
  return out;
}

// zeTesseraModuleGetIL, reached as the loader's clients reach it.
std::string moduleIL(ze_module_handle_t module) {
  using GetIL = ze_result_t (*)(ze_module_handle_t, size_t*, uint8_t*);
  auto getIL = extensionFunction<GetIL>(initDriver(), "zeTesseraModuleGetIL");
  REQUIRE(getIL != nullptr);
  size_t size = 0;
  REQUIRE(getIL(module, &size, nullptr) == ZE_RESULT_SUCCESS);
  std::string il(size, '\0');
  REQUIRE(getIL(module, &size, reinterpret_cast<uint8_t*>(il.data())) == ZE_RESULT_SUCCESS);
  return il;
}

}  // namespace

TEST_CASE(
    "Given OpenCL C compiled to Tessera IR, when made a module, then it runs right and its IL is "
    "the bitcode it was made of, with no SPIR-V; its native binary loads and runs too",
    "[module][tessera_ir][novalidation]") {
  // [novalidation]: the validation layer of Debian's loader refuses formats past NATIVE.
  const std::string ir = compileToIR(kSource);
  REQUIRE(ir.compare(0, 2, "BC") == 0);
  KernelFixture fx;
  ze_module_handle_t module = nullptr;
  std::string log;
  REQUIRE(createIRModule(fx, ir, module, log) == ZE_RESULT_SUCCESS);
  CHECK(run(fx, module, 0) == std::vector<int>{2, 3, 1, 1, 11});
  CHECK(run(fx, module, 1) == std::vector<int>{6, 10, 14, 18, 12});

  CHECK(moduleIL(module) == ir);

  size_t size = 0;
  REQUIRE(zeModuleGetNativeBinary(module, &size, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<uint8_t> native(size);
  REQUIRE(zeModuleGetNativeBinary(module, &size, native.data()) == ZE_RESULT_SUCCESS);
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC};
  desc.format = ZE_MODULE_FORMAT_NATIVE;
  desc.inputSize = native.size();
  desc.pInputModule = native.data();
  ze_module_handle_t loaded = nullptr;
  REQUIRE(zeModuleCreate(fx.context, fx.device, &desc, &loaded, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(run(fx, loaded, 1) == std::vector<int>{6, 10, 14, 18, 12});
  zeModuleDestroy(loaded);
  zeModuleDestroy(module);
}

TEST_CASE(
    "Given bytes that are not Tessera IR (garbage, truncated or bit-flipped bitcode, SPIR-V), when "
    "made a module as Tessera IR, then each is refused with a log or builds, and the application "
    "lives on",
    "[module][tessera_ir][novalidation]") {
  const std::string ir = compileToIR(kSource);
  KernelFixture fx;
  auto refused = [&](const std::string& bytes) {
    ze_module_handle_t m = nullptr;
    std::string log;
    ze_result_t r = createIRModule(fx, bytes, m, log);
    INFO(log);
    CHECK(r == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    CHECK(m == nullptr);
    CHECK(log.find("invalid Tessera IR") != std::string::npos);
  };
  refused("BC\xc0\xde garbage after the magic");
  refused(ir.substr(0, ir.size() / 2));
  refused(std::string("\x03\x02\x23\x07", 4) + std::string(64, '\0'));  // SPIR-V's magic

  // Specialization constants are SPIR-V's.
  uint32_t id = 1, value = 2;
  const void* values[] = {&value};
  ze_module_constants_t constants{1, &id, values};
  ze_module_handle_t m = nullptr;
  std::string log;
  CHECK(createIRModule(fx, ir, m, log, &constants) == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  CHECK(log.find("specialization constants") != std::string::npos);

  // Bit flips: LLVM's bitcode reader is not written for hostile input (about 1 in 50 such inputs
  // ends its process), so it first reads them in the compiler process.
  std::mt19937 random(27);
  int built = 0;
  for (int i = 0; i < 48; ++i) {
    std::string flipped = ir;
    for (int f = 0; f < 3; ++f) {
      size_t bit = random() % (flipped.size() * 8);
      flipped[bit / 8] = char(flipped[bit / 8] ^ (1 << (bit % 8)));
    }
    ze_result_t r = createIRModule(fx, flipped, m, log);
    INFO(log);
    CHECK((r == ZE_RESULT_SUCCESS || r == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE));
    if (r == ZE_RESULT_SUCCESS) {
      ++built;
      zeModuleDestroy(m);
    }
  }
  // Still a working driver.
  REQUIRE(createIRModule(fx, ir, m, log) == ZE_RESULT_SUCCESS);
  CHECK(run(fx, m, 0) == std::vector<int>{2, 3, 1, 1, 11});
  zeModuleDestroy(m);
}

TEST_CASE(
    "Given OpenCL C in Intel's OCLC format, when the module is created, then it is built from "
    "Tessera IR (its IL is bitcode), not SPIR-V",
    "[module][tessera_ir][oclc][novalidation]") {
  KernelFixture fx;
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC};
  desc.format = TESSERA_ZE_MODULE_FORMAT_OCLC;
  desc.inputSize = std::char_traits<char>::length(kSource);
  desc.pInputModule = reinterpret_cast<const uint8_t*>(kSource);
  desc.pBuildFlags = "";
  ze_module_handle_t module = nullptr;
  REQUIRE(zeModuleCreate(fx.context, fx.device, &desc, &module, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(moduleIL(module).compare(0, 4, "BC\xc0\xde") == 0);
  CHECK(run(fx, module, 1) == std::vector<int>{6, 10, 14, 18, 12});
  zeModuleDestroy(module);
}
