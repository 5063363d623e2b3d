// reflectIR (spirv/ir_reflect.h) against reflect (spirv/reflect.h). Every OpenCL C kernel of the
// corpus is compiled once by clang's cc1 (as the compiler process runs it), and that one output
// is translated to SPIR-V and, apart, given only the translator's IR-to-IR passes (Tessera IR,
// before the wrappers take their kernels' names): tests/CMakeLists.txt, TESSERA_TEST_KERNELS_IR.
// The two reflections must describe the same kernels, variables, linkage and printf, in the
// wrapper form and after the renaming spirv/friendly_ir.cpp does (friendly_ir.h's
// nameAsTheReaderDoes, called here directly rather than through the compiler process). A few values are checked
// outright too, and hand-written IR covers what the corpus has no example of.
#include <catch2/catch.hpp>

#include <llvm/AsmParser/Parser.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/CallingConv.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <spirv/unified1/spirv.hpp>
#include <tuple>

#include "spirv/friendly_ir.h"
#include "spirv/ir_reflect.h"
#include "spirv/kernel_table.h"
#include "spirv/reflect.h"

using namespace tessera::spirv;

namespace {

const std::string kDir = TESSERA_TEST_KERNELS_IR;

std::vector<uint8_t> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

// Every program of the IR corpus, by name.
std::vector<std::string> irCorpus() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(kDir)) {
    std::string file = entry.path().filename().string();
    if (file.size() > 6 && file.ends_with(".ir.bc"))
      names.push_back(file.substr(0, file.size() - 6));
  }
  std::sort(names.begin(), names.end());
  return names;
}

ModuleInfo reflectSpirv(const std::string& name) {
  ReflectResult r = reflect(readFile(kDir + "/" + name + ".spv"));
  INFO(r.error);
  REQUIRE(r.ok);
  return r.module;
}

ModuleInfo reflectBitcode(const std::string& name) {
  ReflectResult r = reflectIR(readFile(kDir + "/" + name + ".ir.bc"));
  INFO(r.error);
  REQUIRE(r.ok);
  return r.module;
}

// friendly_ir.cpp's renaming: the wrapper takes the kernel's name, the body an internal one, and
// clang's image and sampler types the reader's names.
void adapt(llvm::Module& m) { nameAsTheReaderDoes(m); }

using Variable = std::tuple<std::string, uint64_t, uint32_t>;
std::vector<Variable> variables(const std::vector<WorkgroupVariable>& list) {
  std::vector<Variable> out;
  for (const WorkgroupVariable& v : list) out.emplace_back(v.name, v.size, v.alignment);
  std::sort(out.begin(), out.end());
  return out;
}

// The IR's builtins are calls, the SPIR-V's builtin variables imports (which consumers skip).
using Link = std::tuple<std::string, int, bool>;
std::vector<Link> linkage(const ModuleInfo& m) {
  std::vector<Link> out;
  for (const LinkageEntry& e : m.linkage)
    if (!e.builtIn) out.emplace_back(e.name, static_cast<int>(e.kind), e.isFunction);
  std::sort(out.begin(), out.end());
  return out;
}

void checkSize(const std::optional<WorkGroupSize>& ir, const std::optional<WorkGroupSize>& spv) {
  REQUIRE(ir.has_value() == spv.has_value());
  if (!ir) return;
  CHECK(ir->size == spv->size);
  CHECK(ir->specIds == spv->specIds);
}

// `inlined`: the kernels' bodies were inlined into them (nameAsTheReaderDoes), which moves the
// lifetime markers whose i64 sizes are the writer's only reason for Int64 in some programs.
void compare(const ModuleInfo& ir, const ModuleInfo& spv, bool inlined = false) {
  REQUIRE(ir.kernels.size() == spv.kernels.size());
  for (size_t k = 0; k < ir.kernels.size(); ++k) {
    const KernelInfo& a = ir.kernels[k];
    const KernelInfo& b = spv.kernels[k];
    INFO("kernel " << b.name);
    CHECK(a.name == b.name);  // in the same order, too
    REQUIRE(a.args.size() == b.args.size());
    for (size_t i = 0; i < a.args.size(); ++i) {
      INFO("argument " << i << " " << b.args[i].name);
      CHECK(argKindName(a.args[i].kind) == std::string(argKindName(b.args[i].kind)));
      CHECK(a.args[i].size == b.args[i].size);
      CHECK(a.args[i].alignment == b.args[i].alignment);
      CHECK(a.args[i].name == b.args[i].name);
      CHECK(a.args[i].imageAccess == b.args[i].imageAccess);
    }
    checkSize(a.requiredSize, b.requiredSize);
    checkSize(a.sizeHint, b.sizeHint);
    CHECK(a.vecTypeHint == b.vecTypeHint);
  }
  CHECK(variables(ir.globalVariables) == variables(spv.globalVariables));
  CHECK(variables(ir.workgroupVariables) == variables(spv.workgroupVariables));
  CHECK(linkage(ir) == linkage(spv));
  CHECK(ir.usesPrintf == spv.usesPrintf);
  CHECK(ir.pointerSize == spv.pointerSize);
  CHECK(ir.addressingModel == spv.addressingModel);
  for (uint32_t c : {spv::CapabilityFloat64, spv::CapabilityInt64, spv::CapabilityImageBasic}) {
    if (inlined && c == spv::CapabilityInt64) continue;
    INFO("capability " << c);
    CHECK(ir.hasCapability(c) == spv.hasCapability(c));
  }
}

const KernelArg& arg(const ModuleInfo& m, const std::string& kernel, size_t i) {
  const KernelInfo* k = m.findKernel(kernel);
  REQUIRE(k != nullptr);
  REQUIRE(i < k->args.size());
  return k->args[i];
}

ReflectResult reflectText(const char* text, bool opaquePointers = false) {
  llvm::LLVMContext context;
  context.setOpaquePointers(opaquePointers);
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> m = llvm::parseAssemblyString(text, diagnostic, context);
  INFO(diagnostic.getMessage().str());
  REQUIRE(m != nullptr);
  return reflectIR(*m);
}

}  // namespace

TEST_CASE("Given the corpus as Tessera IR and as SPIR-V, when both are reflected, then they agree",
          "[spirv][ir_reflect]") {
  std::vector<std::string> names = irCorpus();
  // What the comparison must cover: math, vectors (3-vectors in corpus_scalars), a struct by value,
  // images and a sampler, local pointers and static __local arrays, program-scope globals exported
  // and imported, functions exported and imported, required sizes and hints, printf.
  for (const char* needed :
       {"corpus_math", "corpus_vectors", "struct_by_value", "image_args", "sampler_image",
        "local_reduce", "corpus_locals", "static_local", "module_global", "global_export",
        "global_import", "export_lib", "import_user", "reqd_size", "printf_kernel", "corpus_fp64",
        "corpus_scalars"}) {
    CHECK(std::find(names.begin(), names.end(), needed) != names.end());
  }
  for (const std::string& name : names) {
    INFO(name);
    ModuleInfo spv = reflectSpirv(name);
    {
      INFO("wrapper form");
      compare(reflectBitcode(name), spv);
    }
    INFO("adapted form");
    llvm::LLVMContext context;
    std::vector<uint8_t> bitcode = readFile(kDir + "/" + name + ".ir.bc");
    llvm::StringRef bytes(reinterpret_cast<const char*>(bitcode.data()), bitcode.size());
    auto module = llvm::parseBitcodeFile(llvm::MemoryBufferRef(bytes, name), context);
    REQUIRE(static_cast<bool>(module));
    adapt(**module);
    ReflectResult r = reflectIR(**module);
    INFO(r.error);
    REQUIRE(r.ok);
    compare(r.module, spv, true);
  }
}

TEST_CASE("Given corpus programs as Tessera IR, when reflected, then the values are OpenCL's",
          "[spirv][ir_reflect]") {
  ModuleInfo s = reflectBitcode("struct_by_value");  // Params {float, int, long, char[4]}
  CHECK(arg(s, "struct_by_value", 0).kind == ArgKind::ByValue);
  CHECK(arg(s, "struct_by_value", 0).size == 24);
  CHECK(arg(s, "struct_by_value", 0).alignment == 8);
  CHECK(arg(s, "struct_by_value", 1).size == 16);  // float4
  CHECK(arg(s, "struct_by_value", 2).size == 1);   // char
  CHECK(arg(s, "struct_by_value", 3).kind == ArgKind::GlobalPointer);
  CHECK(arg(s, "struct_by_value", 3).name == "out");

  ModuleInfo vec3 = reflectBitcode("corpus_scalars");  // vec3_args(float3 h, char c, int3 k, ...)
  CHECK(arg(vec3, "vec3_args", 0).size == 16);
  CHECK(arg(vec3, "vec3_args", 0).alignment == 16);
  CHECK(arg(vec3, "vec3_args", 2).size == 16);

  ModuleInfo images = reflectBitcode("image_args");
  CHECK(arg(images, "image_args", 0).kind == ArgKind::Image);
  CHECK(arg(images, "image_args", 0).imageAccess == 0);
  CHECK(arg(images, "image_args", 1).kind == ArgKind::Sampler);
  CHECK(arg(images, "image_args", 2).imageAccess == 1);
  CHECK(images.hasCapability(spv::CapabilityImageBasic));

  ModuleInfo sizes = reflectBitcode("reqd_size");
  REQUIRE(sizes.findKernel("reqd_size") != nullptr);
  REQUIRE(sizes.findKernel("reqd_size")->requiredSize.has_value());
  CHECK(sizes.findKernel("reqd_size")->requiredSize->size == std::array<uint32_t, 3>{8, 4, 2});
  REQUIRE(sizes.findKernel("hinted") != nullptr);
  CHECK(sizes.findKernel("hinted")->vecTypeHint ==
        std::optional<uint32_t>(4u << 16 | 5));  // float4
  CHECK(sizes.findKernel("hinted")->sizeHint->size == std::array<uint32_t, 3>{16, 1, 1});

  ModuleInfo locals = reflectBitcode("static_local");  // int[64], float4[16]
  REQUIRE(locals.workgroupVariables.size() == 2);
  CHECK(locals.workgroupVariables[0].size == 256);
  CHECK(locals.workgroupVariables[1].size == 256);
  CHECK(locals.workgroupVariables[1].alignment == 16);

  ModuleInfo globals = reflectBitcode("module_global");
  CHECK(variables(globals.globalVariables) ==
        std::vector<Variable>{{"counter", 4, 4}, {"table", 16, 4}});
  ModuleInfo imported = reflectBitcode("global_import");
  CHECK(imported.globalVariables.empty());
  CHECK(linkage(imported) == std::vector<Link>{{"add_shared", 0, true},
                                               {"read_imported", 0, true},
                                               {"shared_counter", 1, false},
                                               {"shared_table", 1, false}});
  CHECK(linkage(reflectBitcode("import_user")) ==
        std::vector<Link>{{"import_user", 0, true}, {"tessera_scale", 1, true}});
  CHECK(reflectBitcode("printf_kernel").usesPrintf);
  CHECK_FALSE(reflectBitcode("vector_add").usesPrintf);
  CHECK(reflectBitcode("corpus_fp64").hasCapability(spv::CapabilityFloat64));
}

TEST_CASE("Given hand-written Tessera IR, when reflected, then forms the corpus lacks are read",
          "[spirv][ir_reflect]") {
  // spirv.* handle types, an i32 sampler, a pipe, a private pointer, a packed struct, a 3-vector,
  // a scalar vec_type_hint, a program-scope __constant and an import of a vendor builtin.
  ReflectResult r = reflectText(R"(
target triple = "spir64-unknown-unknown"
%spirv.Image._void_1_0_0_0_0_0_2 = type opaque
%spirv.Sampler = type opaque
%opencl.pipe_ro_t = type opaque
%struct.P = type <{ i8, i32 }>
@table = addrspace(2) constant [3 x i32] [i32 1, i32 2, i32 3], align 4
@wide = addrspace(1) global <3 x float> zeroinitializer, align 16
declare spir_func void @__builtin_IB_lsc_fence_global_untyped()
define spir_kernel void @k(%spirv.Image._void_1_0_0_0_0_0_2 addrspace(1)* %i, %spirv.Sampler addrspace(2)* %s,
    i32 %legacy, %opencl.pipe_ro_t addrspace(1)* %p, i32* %private, %struct.P* byval(%struct.P) %packed,
    <3 x i16> %v) !kernel_arg_base_type !0 !vec_type_hint !1 {
  call spir_func void @__builtin_IB_lsc_fence_global_untyped()
  ret void
}
!0 = !{!"image2d_t", !"sampler_t", !"sampler_t", !"int", !"int*", !"P", !"short3"}
!1 = !{float undef, i32 0}
)");
  INFO(r.error);
  REQUIRE(r.ok);
  const ModuleInfo& m = r.module;
  CHECK(arg(m, "k", 0).kind == ArgKind::Image);
  CHECK(arg(m, "k", 0).imageAccess == 2);  // from the type's name: no access metadata
  CHECK(arg(m, "k", 1).kind == ArgKind::Sampler);
  CHECK(arg(m, "k", 2).kind == ArgKind::Sampler);
  CHECK(arg(m, "k", 2).size == 8);
  CHECK(arg(m, "k", 3).kind == ArgKind::Unsupported);
  CHECK(arg(m, "k", 4).kind == ArgKind::Unsupported);
  CHECK(arg(m, "k", 4).size == 0);
  CHECK(arg(m, "k", 5).kind == ArgKind::ByValue);
  CHECK(arg(m, "k", 5).size == 5);
  CHECK(arg(m, "k", 5).alignment == 1);
  CHECK(arg(m, "k", 6).size == 8);
  CHECK(m.findKernel("k")->vecTypeHint == std::optional<uint32_t>(5));
  CHECK(variables(m.globalVariables) == std::vector<Variable>{{"wide", 16, 16}});
  CHECK(linkage(m) == std::vector<Link>{{"__builtin_IB_lsc_fence_global_untyped", 1, true},
                                        {"k", 0, true},
                                        {"table", 0, false},
                                        {"wide", 0, false}});
}

TEST_CASE("Given Tessera IR with opaque pointers, when reflected, then metadata names the handles",
          "[spirv][ir_reflect]") {
  ReflectResult r = reflectText(R"(
target triple = "spir64-unknown-unknown"
define spir_kernel void @k(ptr addrspace(1) %i, ptr addrspace(2) %s, ptr addrspace(3) %l)
    !kernel_arg_base_type !0 !kernel_arg_access_qual !1 !kernel_arg_name !2 {
  ret void
}
!0 = !{!"image3d_t", !"sampler_t", !"float*"}
!1 = !{!"write_only", !"none", !"none"}
!2 = !{!"img", !"smp", !"scratch"}
)",
                                true);
  REQUIRE(r.ok);
  CHECK(arg(r.module, "k", 0).kind == ArgKind::Image);
  CHECK(arg(r.module, "k", 0).imageAccess == 1);
  CHECK(arg(r.module, "k", 1).kind == ArgKind::Sampler);
  CHECK(arg(r.module, "k", 2).kind == ArgKind::LocalPointer);
  CHECK(arg(r.module, "k", 2).name == "scratch");
}

TEST_CASE("Given a work-group size without three integers, when reflected, then it is refused",
          "[spirv][ir_reflect]") {
  ReflectResult r = reflectText(R"(
define spir_kernel void @k() !reqd_work_group_size !0 {
  ret void
}
!0 = !{i32 8, i32 4}
)");
  CHECK_FALSE(r.ok);
  CHECK(r.error.find("reqd_work_group_size") != std::string::npos);
}

TEST_CASE("Given bytes that are no valid bitcode, when reflected, then ok is false",
          "[spirv][ir_reflect]") {
  CHECK_FALSE(reflectIR(std::span<const uint8_t>()).ok);
  std::vector<uint8_t> garbage(64, 0x5a);
  CHECK_FALSE(reflectIR(garbage).ok);
  ReflectResult spirv = reflectIR(readFile(kDir + "/vector_add.spv"));
  CHECK_FALSE(spirv.ok);
  CHECK_FALSE(spirv.error.empty());
  // Cut short anywhere (odd lengths too, and a span that does not start 4-byte aligned).
  std::vector<uint8_t> bitcode = readFile(kDir + "/vector_add.ir.bc");
  for (size_t length = 0; length < bitcode.size(); length += 1 + length / 16) {
    INFO("length " << length);
    CHECK_FALSE(reflectIR(std::span<const uint8_t>(bitcode.data(), length)).ok);
  }
  std::vector<uint8_t> shifted(1, 0);
  shifted.insert(shifted.end(), bitcode.begin(), bitcode.end());
  CHECK(reflectIR(std::span<const uint8_t>(shifted.data() + 1, bitcode.size())).ok);
}

TEST_CASE("Given the corpus's kernels and variables, when written as a kernel table and read back, "
          "then they are the same; a table cut short or of another version is refused",
          "[spirv][ir_reflect][kernel_table]") {
  for (const std::string& name : irCorpus()) {
    INFO(name);
    ModuleInfo reflected = reflectBitcode(name);
    std::vector<uint8_t> table = writeKernelTable(reflected);
    ModuleInfo read = reflected;
    read.kernels.clear();
    read.globalVariables.clear();
    REQUIRE(readKernelTable(table, read));
    compare(read, reflected);
    for (size_t i = 0; i < read.kernels.size(); ++i)
      for (size_t a = 0; a < read.kernels[i].args.size(); ++a) {
        CHECK(read.kernels[i].args[a].typeName == reflected.kernels[i].args[a].typeName);
        CHECK(read.kernels[i].args[a].typeQualifier == reflected.kernels[i].args[a].typeQualifier);
      }
    for (size_t cut = 0; cut < table.size(); cut += 1 + table.size() / 64) {
      ModuleInfo out;
      CHECK_FALSE(readKernelTable(std::span<const uint8_t>(table.data(), cut), out));
    }
    std::vector<uint8_t> other = table;
    other[0] ^= 0xff;
    ModuleInfo out;
    CHECK_FALSE(readKernelTable(other, out));
  }
}
