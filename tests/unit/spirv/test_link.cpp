// Linking separately compiled OpenCL C: a kernel calling a function of another unit, libraries
// (-create-library) and unresolved symbols.
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <spirv/unified1/spirv.hpp>

#include "spirv/link.h"
#include "spirv/opencl_c.h"
#include "spirv/reflect.h"
#include "spirv/clc/translate.h"
#include "spirv/validate.h"
#include "spirv_test_support.h"

using namespace tessera::spirv;
using namespace tessera::spirv::test;

namespace {

constexpr const char* kUser = R"(
int scale(int x);  // defined in another unit
__kernel void user(__global int* data) {
  size_t i = get_global_id(0);
  data[i] = scale(data[i]);
}
)";
constexpr const char* kLibrary = "int scale(int x) { return 3 * x + 1; }\n";

std::vector<uint32_t> compileUnit(const char* source) {
  CompileResult r = compileOpenCLC(source, "");
  INFO(r.log);
  REQUIRE(r.ok);
  return r.spirv;
}

bool hasFunctionImport(const ModuleInfo& m, const std::string& name) {
  return std::any_of(m.linkage.begin(), m.linkage.end(), [&](const LinkageEntry& e) {
    return e.name == name && e.kind == LinkageKind::Import && e.isFunction;
  });
}

ModuleInfo reflectWords(const std::vector<uint32_t>& words) {
  ReflectResult r = reflect(asBytes(words));
  REQUIRE(r.ok);
  return r.module;
}

}  // namespace

TEST_CASE("Given a kernel calling a function of another unit, when linked, then the call resolves",
          "[spirv][link]") {
  std::vector<uint32_t> user = compileUnit(kUser);
  std::vector<uint32_t> library = compileUnit(kLibrary);
  CHECK(hasFunctionImport(reflectWords(user), "scale"));

  CompileResult linked = linkSpirv({user, library}, false);
  INFO(linked.log);
  REQUIRE(linked.ok);
  CHECK(validate(asBytes(linked.spirv)).ok);
  ModuleInfo m = reflectWords(linked.spirv);
  CHECK(!hasFunctionImport(m, "scale"));
  REQUIRE(m.kernels.size() == 1);
  CHECK(m.kernels[0].name == "user");
  CHECK(m.kernels[0].args.at(0).name == "data");

  // The order of the units does not matter, and the options form says the same.
  CHECK(linkSpirvWithOptions({library, user}, "").ok);
}

TEST_CASE(
    "Given an unresolved function, when linked as a program, then it fails with the symbol "
    "named; as a library it links",
    "[spirv][link]") {
  std::vector<uint32_t> user = compileUnit(kUser);
  CompileResult program = linkSpirv({user}, false);
  CHECK(!program.ok);
  CHECK(program.spirv.empty());
  INFO(program.log);
  CHECK(program.log.find("scale") != std::string::npos);

  CompileResult library = linkSpirvWithOptions({user}, "-create-library");
  INFO(library.log);
  REQUIRE(library.ok);
  CHECK(hasFunctionImport(reflectWords(library.spirv), "scale"));
  // A library links on with the unit that defines the symbol.
  CompileResult finished = linkSpirv({library.spirv, compileUnit(kLibrary)}, false);
  INFO(finished.log);
  CHECK(finished.ok);
}

TEST_CASE("Given bad link input, then the link fails with a log", "[spirv][link]") {
  std::vector<uint32_t> library = compileUnit(kLibrary);
  CompileResult twice = linkSpirv({library, library}, false);
  CHECK(!twice.ok);
  CHECK(!twice.log.empty());
  CHECK(!linkSpirv({}, false).ok);
  CHECK(!linkSpirv({std::vector<uint32_t>{kMagic, 0x00010000, 0, 999, 0, 0xdeadbeef}}, false).ok);
  CompileResult badOptions = linkSpirvWithOptions({library}, "-create-library -DX");
  CHECK(badOptions.invalidOptions);
  CHECK(badOptions.log.find("-DX") != std::string::npos);
}

TEST_CASE(
    "Given two kernels using the same built-in in two units, when linked, then one variable is "
    "left per built-in and the module translates",
    "[spirv][link][builtins]") {
  std::vector<uint32_t> a = compileUnit(
      "__kernel void a(__global int* p) { p[get_global_id(0)] = (int)get_local_id(0); }\n");
  std::vector<uint32_t> b = compileUnit(
      "__kernel void b(__global int* p) { p[get_global_id(0)] += (int)get_local_id(0); }\n");
  for (bool library : {false, true}) {
    INFO("library " << library);
    CompileResult linked = linkSpirv({a, b}, library);
    INFO(linked.log);
    REQUIRE(linked.ok);
    // Every BuiltIn decoration now names a distinct variable with a distinct built-in.
    std::vector<uint32_t> builtins, targets;
    const std::vector<uint32_t>& w = linked.spirv;
    for (size_t at = 5; at < w.size(); at += w[at] >> 16) {
      if ((w[at] & 0xffff) == spv::OpDecorate && w[at + 2] == spv::DecorationBuiltIn) {
        targets.push_back(w[at + 1]);
        builtins.push_back(w[at + 3]);
      }
    }
    std::sort(builtins.begin(), builtins.end());
    CHECK(std::adjacent_find(builtins.begin(), builtins.end()) == builtins.end());
    CHECK(builtins.size() == 2);
    ModuleInfo m = reflectWords(linked.spirv);
    CHECK(m.kernels.size() == 2);
    llvm::LLVMContext context;
    TranslateResult t = translate(context, asBytes(linked.spirv), {});
    INFO(t.log);
    CHECK(t.module != nullptr);
  }
}
