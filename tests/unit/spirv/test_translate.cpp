// Translation to LLVM IR: every kernel of the corpus becomes a function, builtins come as __spirv_*
// calls, specialization constants are applied, and what the translator cannot read is refused.
#include <catch2/catch.hpp>

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>
#include <cstring>
#include <spirv/unified1/spirv.hpp>

#include "spirv/reflect.h"
#include "spirv/clc/translate.h"
#include "spirv/validate.h"
#include "spirv_test_support.h"

using namespace tessera::spirv;
using namespace tessera::spirv::test;

namespace {

std::string printModule(const llvm::Module& m) {
  std::string text;
  llvm::raw_string_ostream os(text);
  m.print(os, nullptr);
  os.flush();
  return text;
}

}  // namespace

TEST_CASE("Given every translatable corpus module, when translated, then each kernel is a function",
          "[spirv][translate]") {
  for (const std::string& name : corpusNames()) {
    if (name == "local_size_id") continue;  // refused on purpose, see below
    INFO(name);
    std::vector<uint8_t> binary = loadKernel(name);
    ReflectResult reflection = reflect(binary);
    REQUIRE(reflection.ok);
    llvm::LLVMContext context;
    TranslateResult r = translate(context, binary);
    INFO(r.log);
    REQUIRE(r.ok());
    for (const KernelInfo& k : reflection.module.kernels) {
      llvm::Function* f = r.module->getFunction(k.name);
      INFO(k.name);
      REQUIRE(f != nullptr);
      CHECK_FALSE(f->isDeclaration());
      CHECK(f->getCallingConv() == llvm::CallingConv::SPIR_KERNEL);
      CHECK(f->arg_size() == k.args.size());
    }
  }
}

TEST_CASE("Given vector_add, when translated, then builtins are SPIR-V friendly calls",
          "[spirv][translate]") {
  llvm::LLVMContext context;
  TranslateResult r = translate(context, loadKernel("local_reduce"));
  REQUIRE(r.ok());
  std::string ir = printModule(*r.module);
  CHECK(ir.find("__spirv_BuiltInGlobalInvocationId") != std::string::npos);
  CHECK(ir.find("__spirv_ControlBarrier") != std::string::npos);
}

TEST_CASE("Given export_lib and import_user, when translated, then the import is a declaration",
          "[spirv][translate]") {
  llvm::LLVMContext context;
  TranslateResult lib = translate(context, loadKernel("export_lib"));
  REQUIRE(lib.ok());
  llvm::Function* exported = lib.module->getFunction("tessera_scale");
  REQUIRE(exported != nullptr);
  CHECK_FALSE(exported->isDeclaration());
  TranslateResult user = translate(context, loadKernel("import_user"));
  REQUIRE(user.ok());
  llvm::Function* imported = user.module->getFunction("tessera_scale");
  REQUIRE(imported != nullptr);
  CHECK(imported->isDeclaration());
}

TEST_CASE("Given specialization values, when translated, then the kernel uses them",
          "[spirv][translate][spec]") {
  std::vector<uint8_t> binary = loadKernel("spec_constants");
  ReflectResult reflection = reflect(binary);
  REQUIRE(reflection.ok);
  float f = 2.5f;
  std::vector<uint8_t> fbytes(4);
  std::memcpy(fbytes.data(), &f, 4);
  std::vector<SpecValue> values = {
      {1, {5, 0, 0, 0}}, {2, fbytes}, {3, {0}}, {4, {3, 0, 0, 0, 0, 0, 0, 0}}, {5, {1}}};
  SpecializationResult spec = resolveSpecialization(reflection.module, values);
  REQUIRE(spec.ok);
  llvm::LLVMContext context;
  TranslateOptions options;
  options.specConstants = spec.assignments;
  TranslateResult r = translate(context, binary, options);
  INFO(r.log);
  REQUIRE(r.ok());
  std::string ir = printModule(*r.module);
  INFO(ir);
  CHECK(ir.find("add i32 5, %") != std::string::npos);   // c1 = 5
  CHECK(ir.find("2.500000e+00") != std::string::npos);   // c2 = 2.5
  CHECK(ir.find("store i64 3,") != std::string::npos);   // c4 = 3
  CHECK(ir.find("i32 10 to i64") != std::string::npos);  // c1 * 2, an OpSpecConstantOp

  // Without values the defaults apply.
  TranslateResult defaults = translate(context, binary);
  REQUIRE(defaults.ok());
  std::string ir2 = printModule(*defaults.module);
  CHECK(ir2.find("1.500000e+00") != std::string::npos);
  CHECK(ir2.find("store i64 4294967296,") != std::string::npos);
}

TEST_CASE(
    "Given LocalSizeId, which the translator cannot read, when translated, then it is refused "
    "with a log",
    "[spirv][translate]") {
  std::vector<uint8_t> binary = loadKernel("local_size_id");
  llvm::LLVMContext context;
  TranslateResult r = translate(context, binary);
  CHECK_FALSE(r.ok());
  CHECK(r.log.find("OpExecutionModeId") != std::string::npos);
  CHECK(checkTranslatable(binary) == r.log);
  CHECK(checkTranslatable(loadKernel("saxpy")).empty());
}

TEST_CASE("Given an invalid module, when translated, then validation refuses it first",
          "[spirv][translate]") {
  std::vector<uint32_t> words = asWords(loadKernel("saxpy"));
  words.resize(words.size() - 1);  // drops the final OpFunctionEnd
  llvm::LLVMContext context;
  TranslateResult r = translate(context, asBytes(words));
  CHECK_FALSE(r.ok());
  CHECK(r.log.find("SPIR-V validation failed") != std::string::npos);
}

TEST_CASE(
    "Given valid SPIR-V whose hints the translator cannot read, when translated, then they are "
    "rewritten with a warning each and the module keeps its meaning",
    "[spirv][translate][legalize]") {
  std::vector<uint8_t> binary = loadKernel("legalize_hints");
  llvm::LLVMContext context;
  TranslateResult r = translate(context, binary);
  INFO(r.log);
  REQUIRE(r.ok());
  CHECK(checkTranslatable(binary).empty());
  for (const char* warned : {"Aligned memory operand", "Alignment decoration", "FuncParamAttr",
                             "VecTypeHint", "LocalSizeId of constants"}) {
    CHECK(r.warnings.find(warned) != std::string::npos);
  }
  std::string ir = printModule(*r.module);
  INFO(ir);
  CHECK(ir.find("load i32") != std::string::npos);
  CHECK(ir.find("add i32") != std::string::npos);
  CHECK(ir.find("store i32") != std::string::npos);
  CHECK(ir.find("reqd_work_group_size") != std::string::npos);  // LocalSize 8 2 1
  CHECK(ir.find("!{i32 8, i32 2, i32 1}") != std::string::npos);

  // Padding bytes after a string's nul (SPIR-V requires nul padding; SPIRV-Tools does not check,
  // the translator asserts) are cleared: OpName %kernel "legalize_hints" ends in a word "ts\0\0".
  std::vector<uint32_t> words = asWords(binary);
  bool planted = false;
  for (size_t pos = 5; pos < words.size() && !planted; pos += words[pos] >> 16) {
    uint32_t count = words[pos] >> 16;
    if ((words[pos] & 0xffff) == spv::OpName && count == 6) {  // 1 + id + 4 words of string
      uint32_t& last = words[pos + count - 1];
      if ((last >> 24) == 0 && ((last >> 16) & 0xff) == 0 && (last & 0xff) != 0) {
        last |= 0x41000000u;  // "ts\0A"
        planted = true;
      }
    }
  }
  REQUIRE(planted);
  TranslateResult padded = translate(context, asBytes(words));
  INFO(padded.log);
  CHECK(padded.ok());
  CHECK(padded.warnings.find("padded with nul") != std::string::npos);
}

TEST_CASE(
    "Given SPIR-V 1.4 pointer comparisons, when translated, then they are address comparisons "
    "with a warning, and a module without them is unchanged",
    "[spirv][translate][legalize]") {
  std::vector<uint8_t> binary = loadKernel("pointer_compare");
  CHECK(checkTranslatable(binary).empty());
  llvm::LLVMContext context;
  TranslateResult r = translate(context, binary);
  INFO(r.log);
  REQUIRE(r.ok());
  CHECK(r.warnings.find("OpPtrEqual, OpPtrNotEqual or OpPtrDiff") != std::string::npos);
  std::string ir = printModule(*r.module);
  INFO(ir);
  CHECK(ir.find("ptrtoint") != std::string::npos);
  CHECK(ir.find("icmp ne i64") != std::string::npos);
  CHECK(ir.find("sdiv") != std::string::npos);  // the float4 and struct differences
  TranslateResult plain = translate(context, loadKernel("legalize_hints"));
  CHECK(plain.warnings.find("OpPtr") == std::string::npos);
}

// spirv/repair.h: mistakes of real producers (oneAPI level-zero-tests' modules) that validation
// refuses are repaired, with a warning each, and only when the repaired module validates.
TEST_CASE(
    "Given a producer's invalid module whose meaning is clear, when translated, then it is "
    "repaired with a warning and translates",
    "[spirv][translate][repair]") {
  struct Case {
    const char* kernel;
    const char* warning;
    const char* function;  // in the translated module; null: no kernel
  };
  for (Case c : {Case{"repair_interface", "interface lacked global variables", "repair_interface"},
                 Case{"repair_capability", "ArbitraryPrecisionIntegersINTEL", "repair_capability"},
                 Case{"repair_extension", "SPV_INTEL_fp_fast_math_mode, which was declared",
                      "repair_extension"},
                 Case{"repair_no_entry", "given the Linkage capability", nullptr},
                 Case{"repair_duplicate_types", "declared more than once was merged",
                      "repair_duplicate_types"},
                 Case{"repair_alias_hints", "SPV_INTEL_memory_access_aliasing",
                      "repair_alias_hints"}}) {
    INFO(c.kernel);
    std::vector<uint8_t> binary = loadKernel(c.kernel);
    CHECK_FALSE(validate(binary).ok);  // invalid as written
    llvm::LLVMContext context;
    TranslateResult r = translate(context, binary);
    INFO(r.log);
    REQUIRE(r.ok());
    CHECK(r.warnings.find(c.warning) != std::string::npos);
    if (c.function) CHECK(r.module->getFunction(c.function) != nullptr);
  }
  // What no repair makes valid is refused with the validator's message, not a repair's.
  std::vector<uint32_t> words = asWords(loadKernel("repair_capability"));
  words.resize(words.size() - 1);
  llvm::LLVMContext context;
  TranslateResult broken = translate(context, asBytes(words));
  CHECK_FALSE(broken.ok());
  CHECK(broken.log.find("SPIR-V validation failed") != std::string::npos);
}
