// Reflection of every corpus kernel: argument kinds, sizes and names, work-group sizes, hints,
// specialization constants, linkage, printf and static __local arrays.
#include <catch2/catch.hpp>

#include <algorithm>
#include <spirv/unified1/spirv.hpp>

#include "spirv/reflect.h"
#include "spirv/specialize.h"
#include "spirv_test_support.h"

using namespace tessera::spirv;
using tessera::spirv::test::loadKernel;

namespace {

ModuleInfo reflectKernel(const std::string& name) {
  std::vector<uint8_t> binary = loadKernel(name);
  ReflectResult result = reflect(binary);
  INFO(result.error);
  REQUIRE(result.ok);
  return result.module;
}

const KernelInfo& kernel(const ModuleInfo& module, const std::string& name) {
  const KernelInfo* k = module.findKernel(name);
  REQUIRE(k != nullptr);
  return *k;
}

void checkArg(const KernelArg& arg, ArgKind kind, uint32_t size, const std::string& name) {
  INFO("argument " << name);
  CHECK(argKindName(arg.kind) == std::string(argKindName(kind)));
  CHECK(arg.size == size);
  CHECK(arg.name == name);
}

const LinkageEntry* findLinkage(const ModuleInfo& module, const std::string& name) {
  for (const LinkageEntry& e : module.linkage) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("Given vector_add, when reflected, then it has one kernel with three global pointers",
          "[spirv][reflect]") {
  ModuleInfo m = reflectKernel("vector_add");
  CHECK(m.addressingModel == spv::AddressingModelPhysical64);
  CHECK(m.pointerSize == 8);
  CHECK(m.versionMajor() == 1);
  CHECK(m.hasCapability(spv::CapabilityKernel));
  CHECK(m.hasCapability(spv::CapabilityAddresses));
  CHECK(std::find(m.extInstImports.begin(), m.extInstImports.end(), "OpenCL.std") !=
        m.extInstImports.end());
  REQUIRE(m.kernels.size() == 1);
  const KernelInfo& k = kernel(m, "vector_add");
  REQUIRE(k.args.size() == 3);
  checkArg(k.args[0], ArgKind::GlobalPointer, 8, "a");
  checkArg(k.args[1], ArgKind::GlobalPointer, 8, "b");
  checkArg(k.args[2], ArgKind::GlobalPointer, 8, "c");
  CHECK_FALSE(k.requiredSize);
  CHECK_FALSE(k.sizeHint);
  CHECK_FALSE(k.vecTypeHint);
  CHECK_FALSE(m.usesPrintf);
  CHECK(m.specConstants.empty());
  CHECK(m.workgroupVariables.empty());
}

TEST_CASE("Given saxpy, when reflected, then alpha is a 4-byte value and x a constant pointer",
          "[spirv][reflect]") {
  ModuleInfo m = reflectKernel("saxpy");
  const KernelInfo& k = kernel(m, "saxpy");
  REQUIRE(k.args.size() == 3);
  checkArg(k.args[0], ArgKind::ByValue, 4, "alpha");
  CHECK(k.args[0].alignment == 4);
  checkArg(k.args[1], ArgKind::ConstantPointer, 8, "x");
  checkArg(k.args[2], ArgKind::GlobalPointer, 8, "y");
}

TEST_CASE("Given local_reduce, when reflected, then scratch is a local pointer",
          "[spirv][reflect]") {
  ModuleInfo m = reflectKernel("local_reduce");
  const KernelInfo& k = kernel(m, "local_reduce");
  REQUIRE(k.args.size() == 3);
  checkArg(k.args[0], ArgKind::GlobalPointer, 8, "in");
  checkArg(k.args[1], ArgKind::GlobalPointer, 8, "out");
  checkArg(k.args[2], ArgKind::LocalPointer, 8, "scratch");
  CHECK(m.workgroupVariables.empty());
}

TEST_CASE(
    "Given static_local, when reflected, then its static __local arrays are listed with sizes",
    "[spirv][reflect]") {
  ModuleInfo m = reflectKernel("static_local");
  const KernelInfo& k = kernel(m, "static_local");
  REQUIRE(k.args.size() == 2);
  checkArg(k.args[0], ArgKind::GlobalPointer, 8, "out");
  checkArg(k.args[1], ArgKind::GlobalPointer, 8, "out4");
  REQUIRE(m.workgroupVariables.size() == 2);
  std::vector<WorkgroupVariable> vars = m.workgroupVariables;
  std::sort(vars.begin(), vars.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  CHECK(vars[0].name == "static_local.tile");
  CHECK(vars[0].size == 64 * 4);
  CHECK(vars[0].alignment == 4);
  CHECK(vars[1].name == "static_local.tile4");
  CHECK(vars[1].size == 16 * 16);
  CHECK(vars[1].alignment == 16);
  // SPIR-V 1.4 lists every global a kernel uses in its interface.
  for (const WorkgroupVariable& v : vars) {
    CHECK(std::find(k.interfaceIds.begin(), k.interfaceIds.end(), v.id) != k.interfaceIds.end());
  }
}

TEST_CASE(
    "Given struct_by_value, when reflected, then struct, vector and char sizes follow OpenCL C",
    "[spirv][reflect]") {
  ModuleInfo m = reflectKernel("struct_by_value");
  const KernelInfo& k = kernel(m, "struct_by_value");
  REQUIRE(k.args.size() == 4);
  checkArg(k.args[0], ArgKind::ByValue, 24, "p");  // float, int, long, char[4]: 20 padded to 24
  CHECK(k.args[0].alignment == 8);
  checkArg(k.args[1], ArgKind::ByValue, 16, "v");
  CHECK(k.args[1].alignment == 16);
  checkArg(k.args[2], ArgKind::ByValue, 1, "c");
  checkArg(k.args[3], ArgKind::GlobalPointer, 8, "out");
}

TEST_CASE("Given reqd_size, when reflected, then required size, hint and vector hint are read",
          "[spirv][reflect]") {
  ModuleInfo m = reflectKernel("reqd_size");
  REQUIRE(m.kernels.size() == 2);
  const KernelInfo& r = kernel(m, "reqd_size");
  REQUIRE(r.requiredSize);
  CHECK(r.requiredSize->size == std::array<uint32_t, 3>{8, 4, 2});
  CHECK(r.requiredSize->specIds == std::array<int64_t, 3>{-1, -1, -1});
  CHECK_FALSE(r.sizeHint);
  const KernelInfo& h = kernel(m, "hinted");
  CHECK_FALSE(h.requiredSize);
  REQUIRE(h.sizeHint);
  CHECK(h.sizeHint->size == std::array<uint32_t, 3>{16, 1, 1});
  REQUIRE(h.vecTypeHint);
  CHECK((*h.vecTypeHint >> 16) == 4);  // float4: 4 components of type 5 (float)
  CHECK((*h.vecTypeHint & 0xffff) == 5);
}

TEST_CASE("Given printf_kernel, when reflected, then it uses printf and others do not",
          "[spirv][reflect]") {
  CHECK(reflectKernel("printf_kernel").usesPrintf);
  CHECK_FALSE(reflectKernel("local_reduce").usesPrintf);
}

TEST_CASE(
    "Given export_lib and import_user, when reflected, then linkage lists exports and imports",
    "[spirv][reflect]") {
  ModuleInfo lib = reflectKernel("export_lib");
  CHECK(lib.kernels.empty());
  CHECK(lib.hasCapability(spv::CapabilityLinkage));
  const LinkageEntry* exported = findLinkage(lib, "tessera_scale");
  REQUIRE(exported != nullptr);
  CHECK(exported->kind == LinkageKind::Export);
  CHECK(exported->isFunction);

  ModuleInfo user = reflectKernel("import_user");
  const LinkageEntry* imported = findLinkage(user, "tessera_scale");
  REQUIRE(imported != nullptr);
  CHECK(imported->kind == LinkageKind::Import);
  CHECK(imported->isFunction);
  // The translator also marks builtin variables as imports: callers must tell them apart.
  const LinkageEntry* builtin = findLinkage(user, "__spirv_BuiltInGlobalInvocationId");
  REQUIRE(builtin != nullptr);
  CHECK(builtin->kind == LinkageKind::Import);
  CHECK_FALSE(builtin->isFunction);
  REQUIRE(user.kernels.size() == 1);
  checkArg(user.kernels[0].args[0], ArgKind::GlobalPointer, 8, "data");
}

TEST_CASE(
    "Given sampler_image, when reflected, then images carry their access and sampler its kind",
    "[spirv][reflect]") {
  ModuleInfo m = reflectKernel("sampler_image");
  const KernelInfo& k = kernel(m, "sampler_image");
  REQUIRE(k.args.size() == 3);
  checkArg(k.args[0], ArgKind::Image, 8, "src");
  CHECK(k.args[0].imageAccess == spv::AccessQualifierReadOnly);
  checkArg(k.args[1], ArgKind::Sampler, 8, "s");
  checkArg(k.args[2], ArgKind::Image, 8, "dst");
  CHECK(k.args[2].imageAccess == spv::AccessQualifierWriteOnly);
}

TEST_CASE("Given spec_constants, when reflected, then ids, kinds, sizes and defaults are listed",
          "[spirv][reflect][spec]") {
  ModuleInfo m = reflectKernel("spec_constants");
  REQUIRE(m.specConstants.size() == 5);
  const auto& s = m.specConstants;
  CHECK(s[0].specId == 1);
  CHECK(s[0].kind == SpecKind::Int);
  CHECK(s[0].defaultValue == std::vector<uint8_t>{7, 0, 0, 0});
  CHECK(s[1].specId == 2);
  CHECK(s[1].kind == SpecKind::Float);
  CHECK(s[1].defaultValue == std::vector<uint8_t>{0, 0, 0xc0, 0x3f});  // 1.5f
  CHECK(s[2].specId == 3);
  CHECK(s[2].kind == SpecKind::Bool);
  CHECK(s[2].size == 1);
  CHECK(s[2].defaultValue == std::vector<uint8_t>{1});
  CHECK(s[3].specId == 4);
  CHECK(s[3].size == 8);
  CHECK(s[3].defaultValue == std::vector<uint8_t>{0, 0, 0, 0, 1, 0, 0, 0});
  CHECK(s[4].specId == 5);
  CHECK(s[4].size == 1);
  CHECK(s[4].defaultValue == std::vector<uint8_t>{9});
  checkArg(kernel(m, "spec_constants").args[0], ArgKind::GlobalPointer, 8, "out");
}

TEST_CASE(
    "Given LocalSizeId fed by a spec constant, when specialized, then the required size follows",
    "[spirv][reflect][spec]") {
  ModuleInfo m = reflectKernel("local_size_id");
  const KernelInfo& k = kernel(m, "local_size_id");
  REQUIRE(k.requiredSize);
  CHECK(k.requiredSize->size == std::array<uint32_t, 3>{16, 1, 1});
  CHECK(k.requiredSize->specIds == std::array<int64_t, 3>{10, -1, -1});

  std::vector<SpecValue> values = {{10, {32, 0, 0, 0}}};
  SpecializationResult spec = resolveSpecialization(m, values);
  REQUIRE(spec.ok);
  applySpecializationToSizes(m, spec.assignments);
  CHECK(m.findKernel("local_size_id")->requiredSize->size == std::array<uint32_t, 3>{32, 1, 1});
}

TEST_CASE("Given a big-endian copy of a module, when reflected, then it reads the same",
          "[spirv][reflect]") {
  std::vector<uint8_t> binary = loadKernel("saxpy");
  for (size_t i = 0; i + 3 < binary.size(); i += 4) {
    std::swap(binary[i], binary[i + 3]);
    std::swap(binary[i + 1], binary[i + 2]);
  }
  ReflectResult r = reflect(binary);
  REQUIRE(r.ok);
  REQUIRE(r.module.kernels.size() == 1);
  checkArg(r.module.kernels[0].args[0], ArgKind::ByValue, 4, "alpha");
}

TEST_CASE("Given specialization values, when resolved, then unknown ids and wrong sizes fail",
          "[spirv][spec]") {
  ModuleInfo m = reflectKernel("spec_constants");
  std::vector<SpecValue> unknown = {{99, {1, 0, 0, 0}}};
  SpecializationResult r = resolveSpecialization(m, unknown);
  CHECK_FALSE(r.ok);
  CHECK(r.error.find("99") != std::string::npos);

  std::vector<SpecValue> wrongSize = {{1, {1, 0}}};
  r = resolveSpecialization(m, wrongSize);
  CHECK_FALSE(r.ok);
  CHECK(r.error.find("takes 4 bytes, 2 given") != std::string::npos);

  std::vector<SpecValue> good = {
      {3, {5}}, {4, {1, 2, 3, 4, 5, 6, 7, 8}}, {1, {1, 0, 0, 0}}, {1, {2, 0, 0, 0}}};
  r = resolveSpecialization(m, good);
  REQUIRE(r.ok);
  REQUIRE(r.assignments.size() == 3);
  CHECK(r.assignments[0].specId == 3);
  CHECK(r.assignments[0].value == 1);  // a non-zero bool is true
  CHECK(r.assignments[1].value == 0x0807060504030201ull);
  CHECK(r.assignments[2].value == 2);  // the last value given for an id wins
}

TEST_CASE("Given program-scope globals, when reflected, then each defined one has its size",
          "[spirv][reflect][globals]") {
  ModuleInfo m = reflectKernel("module_global");
  REQUIRE(m.globalVariables.size() == 2);
  std::vector<WorkgroupVariable> vars = m.globalVariables;
  std::sort(vars.begin(), vars.end(), [](auto& a, auto& b) { return a.name < b.name; });
  CHECK(vars[0].name == "counter");
  CHECK(vars[0].size == 4);
  CHECK(vars[1].name == "table");
  CHECK(vars[1].size == 16);
  CHECK(reflectKernel("vector_add").globalVariables.empty());
}
