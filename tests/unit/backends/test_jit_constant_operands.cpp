// Sums keep their constants first (backends/cpu/jit/constant_operands.cpp): after the pass, x86's
// instruction selection adds a constant splat before the late operand of the sum, as Reassociate
// ordered it, instead of last (on the critical path of a chain of such steps).
#include <catch2/catch.hpp>

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::test {
namespace {

// One MD5-like step: b + rotl(a + K + f, 7), f computed from b, c, d; plus adds the pass must
// leave alone (a constant of 0, a constant whose sum has two users, a scalar sum, lanes wider
// than 64 bits).
constexpr const char* kStep = R"(
declare <16 x i32> @llvm.fshl.v16i32(<16 x i32>, <16 x i32>, <16 x i32>)
define <16 x i32> @step(<16 x i32> %a, <16 x i32> %b, <16 x i32> %c, <16 x i32> %d) {
  %ak = add <16 x i32> %a, <i32 -680876936, i32 -680876936, i32 -680876936, i32 -680876936, i32 -680876936, i32 -680876936, i32 -680876936, i32 -680876936, i32 -680876936, i32 -680876936, i32 -680876936, i32 -680876936, i32 -680876936, i32 -680876936, i32 -680876936, i32 -680876936>
  %x = xor <16 x i32> %c, %d
  %y = and <16 x i32> %x, %b
  %f = xor <16 x i32> %y, %d
  %s = add <16 x i32> %ak, %f
  %r = call <16 x i32> @llvm.fshl.v16i32(<16 x i32> %s, <16 x i32> %s, <16 x i32> <i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7, i32 7>)
  %out = add <16 x i32> %r, %b
  ret <16 x i32> %out
}
define <16 x i32> @untouched(<16 x i32> %a, <16 x i32> %b, i32 %p, i32 %q) {
  %zero = add <16 x i32> %a, zeroinitializer
  %z2 = add <16 x i32> %zero, %b
  %two = add <16 x i32> %a, <i32 3, i32 3, i32 3, i32 3, i32 3, i32 3, i32 3, i32 3, i32 3, i32 3, i32 3, i32 3, i32 3, i32 3, i32 3, i32 3>
  %t1 = add <16 x i32> %two, %z2
  %t2 = add <16 x i32> %two, %t1
  %sp = add i32 %p, 5
  %sq = add i32 %sp, %q
  %wa = zext <16 x i32> %a to <16 x i128>
  %wk = add <16 x i128> %wa, <i128 18446744073709551623, i128 18446744073709551623, i128 18446744073709551623, i128 18446744073709551623, i128 18446744073709551623, i128 18446744073709551623, i128 18446744073709551623, i128 18446744073709551623, i128 18446744073709551623, i128 18446744073709551623, i128 18446744073709551623, i128 18446744073709551623, i128 18446744073709551623, i128 18446744073709551623, i128 18446744073709551623, i128 18446744073709551623>
  %wb = add <16 x i128> %wk, %wa
  %wt = trunc <16 x i128> %wb to <16 x i32>
  %sum = add <16 x i32> %t2, %wt
  %v = insertelement <16 x i32> %sum, i32 %sq, i32 0
  ret <16 x i32> %v
}
)";

std::string assemblyFor(llvm::Module& m) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  const std::string triple = "x86_64-unknown-linux-gnu";
  std::string error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, error);
  REQUIRE(target != nullptr);
  // AVX-512 named explicitly: code generation does not need the host to have it.
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, "skylake-avx512", "", llvm::TargetOptions(), llvm::None, llvm::None,
      llvm::CodeGenOpt::Aggressive));
  m.setDataLayout(tm->createDataLayout());
  m.setTargetTriple(triple);
  llvm::SmallString<4096> text;
  llvm::raw_svector_ostream os(text);
  llvm::legacy::PassManager pm;
  REQUIRE_FALSE(tm->addPassesToEmitFile(pm, os, nullptr, llvm::CGFT_AssemblyFile));
  pm.run(m);
  return text.str().str();
}

// The lines of @step's body that add: "vpaddd ..." in order.
std::vector<std::string> addsOfStep(const std::string& assembly) {
  std::vector<std::string> adds;
  size_t begin = assembly.find("step:");
  size_t end = assembly.find(".Lfunc_end0", begin);
  REQUIRE(begin != std::string::npos);
  std::istringstream lines(assembly.substr(begin, end - begin));
  for (std::string line; std::getline(lines, line);)
    if (line.find("vpaddd") != std::string::npos) adds.push_back(line);
  return adds;
}

}  // namespace

TEST_CASE(
    "Given an MD5-like step (a + K) + f, when sums keep their constants first, then x86 adds K "
    "before f, not after it; sums the pattern does not cover are left alone",
    "[jit][codegen]") {
  llvm::LLVMContext context;
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> before = llvm::parseAssemblyString(kStep, diagnostic, context);
  std::unique_ptr<llvm::Module> after = llvm::parseAssemblyString(kStep, diagnostic, context);
  REQUIRE(before != nullptr);
  REQUIRE(after != nullptr);

  CHECK(jit::keepSumConstantsFirst(*after) == 1);
  CHECK_FALSE(llvm::verifyModule(*after, &llvm::errs()));

  // Without the pass the combiner moves K last: the broadcast add follows the add of f.
  std::vector<std::string> plain = addsOfStep(assemblyFor(*before));
  REQUIRE(plain.size() == 3);
  CHECK(plain[1].find("{1to16}") != std::string::npos);
  // With it, K is added first: a + K does not wait for f.
  std::vector<std::string> kept = addsOfStep(assemblyFor(*after));
  REQUIRE(kept.size() == 3);
  CHECK(kept[0].find("{1to16}") != std::string::npos);
}

}  // namespace tessera::backends::cpu::test
