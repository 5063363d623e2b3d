// What JIT code calls outside itself (backends/cpu/jit/host_symbols.h) and vector math as vector
// code (vector_math.cpp): the object code of a kernel whose lanes compute exp, erfc and pow refers
// to libmvec's vector variants, widened or not, and the results
// stay within OpenCL's bounds (test_jit_builtin_math.cpp checks every function's bound).
#include <catch2/catch.hpp>

#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/MemoryBuffer.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "backends/cpu/jit/host_symbols.h"
#include "jit_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

// The names an object refers to without defining.
std::set<std::string> undefinedSymbols(const std::vector<char>& object) {
  std::set<std::string> names;
  auto buffer = llvm::MemoryBuffer::getMemBuffer(
      llvm::StringRef(object.data(), object.size()), "object", false);
  auto file = llvm::object::ObjectFile::createObjectFile(buffer->getMemBufferRef());
  REQUIRE(static_cast<bool>(file));
  for (const llvm::object::SymbolRef& s : (*file)->symbols()) {
    auto flags = s.getFlags();
    auto name = s.getName();
    if (flags && name && (*flags & llvm::object::SymbolRef::SF_Undefined) && !name->empty())
      names.insert(name->str());
  }
  llvm::consumeError(file.takeError());
  return names;
}

const char* kMathIR = R"(
target triple = "spir64-unknown-unknown"
declare spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32)
declare spir_func float @_Z15__spirv_ocl_expf(float)
declare spir_func float @_Z16__spirv_ocl_erfcf(float)
declare spir_func float @_Z15__spirv_ocl_powff(float, float)
define spir_kernel void @lanes(ptr addrspace(1) %out, ptr addrspace(1) %in) {
entry:
  %gid = call spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32 0)
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %gid
  %x = load float, ptr addrspace(1) %p, align 4
  %e = call spir_func float @_Z15__spirv_ocl_expf(float %x)
  %c = call spir_func float @_Z16__spirv_ocl_erfcf(float %x)
  %w = call spir_func float @_Z15__spirv_ocl_powff(float %x, float 2.5)
  %s = fadd float %e, %c
  %t = fadd float %s, %w
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %gid
  store float %t, ptr addrspace(1) %q, align 4
  ret void
}
)";

}  // namespace

TEST_CASE("host symbols: the math library, its vector variants and the compiler runtime only",
          "[jit][host_symbols]") {
  using jit::isHostSymbolAllowed;
  for (const char* name : {"expf", "exp", "erfcf", "lgammaf_r", "fmodf", "sincosf", "memcpy",
                           "memset", "_ZGVdN8v_expf", "_ZGVbN2vv_pow", "__truncsfhf2",
                           "__extendhfsf2", "__powisf2"})
    CHECK(isHostSymbolAllowed(name));
  for (const char* name : {"abort", "system", "exit", "printf", "malloc", "dlopen",
                           "feenableexcept", "fesetround", "_ZGVdN8v_system", "zeInit",
                           "__register_frame", "_Unwind_Resume"})
    CHECK_FALSE(isHostSymbolAllowed(name));
}

TEST_CASE("vector math: lanes of exp, erfc and pow are libmvec calls",
          "[jit][vector_math]") {
  const uint32_t items = 64;
  std::vector<float> in(items);
  for (uint32_t i = 0; i < items; ++i) in[i] = -2.0f + 0.0625f * float(i);
  for (int width : {-1, 16, 8, 0}) {
    INFO("widen " << width);
    CompileOptions options;
    options.widen = width;
    auto compiled = compileIR(kMathIR, options);
    REQUIRE(compiled);
    std::set<std::string> undefined = undefinedSymbols(compiled->object);
    std::string names;
    for (const std::string& n : undefined) names += n + " ";
    INFO("undefined: " << names);
    // Each function in a vector variant (the scalar one stays for the work-items a group's rows
    // leave past the last full vector).
    for (const char* fn : {"expf", "erfcf", "powf"}) {
      bool vector = false;
      for (const std::string& n : undefined)
        vector |= n.rfind("_ZGV", 0) == 0 && n.size() > 5 && n.substr(n.find('_', 4) + 1) == fn;
      CHECK(vector);
    }
    const CompiledKernel& k = *compiled->find("lanes");
    std::vector<float> out(items, -1.0f);
    ArgBuffer args(k);
    args.set(0, out.data()).set(1, in.data());
    launch(k, args.data(), dims1(items / 16, 16), pool());
    for (uint32_t i = 0; i < items; ++i) {
      double x = in[i];
      double want = std::exp(x) + std::erfc(x) + (x < 0 ? NAN : std::pow(x, 2.5));
      INFO("x = " << x);
      if (std::isnan(want))
        CHECK(std::isnan(out[i]));
      else
        CHECK(std::fabs(out[i] - want) <= 1e-5 * std::fmax(1.0, std::fabs(want)));
    }
  }
}

}  // namespace tessera::backends::cpu::test
