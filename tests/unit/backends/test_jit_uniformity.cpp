// Which values are the same for every work-item of a group (backends/cpu/jit/uniformity.h), as IR,
// and kernels whose values cross barriers under control flow that differs or only seems to differ
// between work-items (tests/kernels_jit/uniformity.cl), checked at widths 0, 8 and 16.
#include <catch2/catch.hpp>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/jit/uniformity.h"
#include "jit_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

using jit::Uniformity;

// A group's column idm = group * 16 + lid * 2 compared with m rounded down to whole tiles of 16,
// with the local id below `range`; the branch joins in %join.
std::string tileChoice(const std::string& compare, unsigned range) {
  return R"(
declare i64 @_Z32__spirv_BuiltInLocalInvocationIdi(i32)
declare i64 @_Z26__spirv_BuiltInWorkgroupIdi(i32)
define void @k(ptr %out, i32 %m) {
entry:
  %lid = call i64 @_Z32__spirv_BuiltInLocalInvocationIdi(i32 0), !range !0
  %g = call i64 @_Z26__spirv_BuiltInWorkgroupIdi(i32 0)
  %g32 = trunc i64 %g to i32
  %base = shl i32 %g32, 4
  %l32 = trunc i64 %lid to i32
  %off = shl i32 %l32, 1
  %idm = or i32 %base, %off
  %tiles = sdiv i32 %m, 16
  %bound = shl i32 %tiles, 4
  %c = )" +
         compare + R"(
  br i1 %c, label %full, label %edge
full:
  br label %join
edge:
  br label %join
join:
  %p = phi i32 [ 1, %full ], [ 2, %edge ]
  store i32 %p, ptr %out
  ret void
}
!0 = !{i64 0, i64 )" +
         std::to_string(range) + "}\n";
}

llvm::Value* named(llvm::Function& f, const std::string& name) {
  for (llvm::BasicBlock& bb : f)
    for (llvm::Instruction& i : bb)
      if (i.getName() == name) return &i;
  FAIL("no value " << name);
  return nullptr;
}

llvm::BasicBlock* block(llvm::Function& f, const std::string& name) {
  for (llvm::BasicBlock& bb : f)
    if (bb.getName() == name) return &bb;
  FAIL("no block " << name);
  return nullptr;
}

}  // namespace

TEST_CASE(
    "Given a group's column compared with whole tiles, when the local id cannot reach the "
    "next tile, then the choice is uniform, and otherwise varying",
    "[jit][uniformity]") {
  struct Case {
    std::string compare;
    unsigned range;
    bool uniform;
  };
  for (const Case& c :
       {Case{"icmp slt i32 %idm, %bound", 8, true}, Case{"icmp sgt i32 %bound, %idm", 8, true},
        Case{"icmp uge i32 %idm, %bound", 8, true},
        Case{"icmp slt i32 %idm, %bound", 9, false},  // lid * 2 reaches 16
        Case{"icmp sle i32 %idm, %bound", 8, false},  // idm == bound for lid 0
        Case{"icmp eq i32 %idm, %bound", 8, false},
        Case{"icmp slt i32 %idm, %m", 8, false}}) {  // m is not whole tiles
    INFO(c.compare << ", local id below " << c.range);
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> m = parseModule(context, tileChoice(c.compare, c.range).c_str());
    llvm::Function& f = *m->getFunction("k");
    Uniformity u(f, Uniformity::Scope::WorkGroup);
    CHECK(u.uniform(named(f, "c")) == c.uniform);
    CHECK(u.divergent(block(f, "full")) == !c.uniform);
    CHECK(u.uniform(named(f, "p")) == c.uniform);
    CHECK(u.controlUniform() == c.uniform);
    CHECK_FALSE(u.uniform(named(f, "idm")));
  }
}

TEST_CASE(
    "Given a loop whose trip count is each work-item's own, when analysed, then its "
    "counter and what leaves it are varying and a value of uniform operands in it is not",
    "[jit][uniformity]") {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> m = parseModule(context, R"(
declare i64 @_Z32__spirv_BuiltInLocalInvocationIdi(i32)
define void @k(ptr %out, i32 %n) {
entry:
  %lid = call i64 @_Z32__spirv_BuiltInLocalInvocationIdi(i32 0)
  %l = trunc i64 %lid to i32
  %limit = mul i32 %n, %l
  br label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %next, %loop ]
  %step = mul i32 %n, 5
  %next = add i32 %k, %step
  %c = icmp slt i32 %next, %limit
  br i1 %c, label %loop, label %exit
exit:
  %left = phi i32 [ %next, %loop ]
  store i32 %left, ptr %out
  ret void
}
)");
  llvm::Function& f = *m->getFunction("k");
  Uniformity u(f, Uniformity::Scope::WorkGroup);
  CHECK(u.divergent(block(f, "loop")));
  CHECK_FALSE(u.divergent(block(f, "exit")));
  CHECK_FALSE(u.uniform(named(f, "k")));
  CHECK_FALSE(u.uniform(named(f, "left")));
  CHECK(u.uniform(named(f, "step")));
  CHECK_FALSE(u.controlUniform());
}

namespace {

const CompiledKernel& compiled(const std::string& name, int width) {
  static std::map<int, std::shared_ptr<const CompiledModule>> modules;
  auto& m = modules[width];
  if (!m) {
    CompileOptions options;
    options.widen = width;
    options.prefetch = 1;
    m = readAndCompile("uniformity", options);
  }
  const CompiledKernel* k = m->find(name);
  REQUIRE(k != nullptr);
  return *k;
}

}  // namespace

// The tile counter crosses both barriers in a slot every work-item holds the same value in (read
// once a chunk of lanes); matrices of whole tiles, of a partial one (groups of both paths), and
// fewer k than one tile.
TEST_CASE(
    "Given edge_tiles, when a group chooses whole tiles with barriers by its work-items' "
    "columns, then every output of both paths is right",
    "[jit][uniformity][regions]") {
  for (int width : {0, 8, 16}) {
    const CompiledKernel& k = compiled("edge_tiles", width);
    CHECK(k.barrierCount == 2);
    for (auto [m, kSize] : {std::pair{32, 37}, {40, 37}, {40, 16}, {24, 5}}) {
      INFO("width " << width << " m " << m << " k " << kSize);
      std::vector<float> a(size_t(kSize) * m), out(size_t(m) * m, -1);
      for (size_t i = 0; i < a.size(); ++i) a[i] = float(int(i * 7 % 13) - 6);
      ArgBuffer args(k);
      args.set(0, a.data()).set(1, out.data()).set(2, m).set(3, kSize);
      const uint32_t groups = uint32_t(m + 15) / 16;
      launch(k, args.data(), dims2(groups, groups, 8, 8), pool());
      for (int row = 0; row < m; ++row)
        for (int col = 0; col < m; ++col) {
          float want = -1;
          if (row % 2 == 0) {
            want = 0;
            for (int kk = 0; kk < kSize; ++kk)
              want += a[size_t(kk) * m + col] * float((kk & 15) + (row & 3));
          }
          REQUIRE(out[size_t(row) * m + col] == want);
        }
    }
  }
}

TEST_CASE(
    "Given joined_values, when values of uniform operands join after a branch on the local "
    "id or leave a loop of each work-item's own trip count, then each work-item keeps its "
    "own across the barrier",
    "[jit][uniformity][regions]") {
  const int n = 7;
  for (int width : {0, 8, 16}) {
    const CompiledKernel& k = compiled("joined_values", width);
    CHECK(k.barrierCount == 1);
    for (uint32_t size : {1u, 12u, 16u, 37u}) {
      INFO("width " << width << " local size " << size);
      const uint32_t total = 2 * size;
      std::vector<int> out(2 * total, -1), marks(total, 0);
      ArgBuffer args(k);
      args.set(0, out.data()).set(1, marks.data()).set(2, n);
      launch(k, args.data(), dims2(2, 1, size, 1), pool());
      for (uint32_t g = 0; g < total; ++g) {
        const uint32_t lid = g % size;
        REQUIRE(out[2 * g] == (lid % 3 == 1 ? 3 * n : n));
        REQUIRE(out[2 * g + 1] == n * int(lid % 4 + 1));
        REQUIRE(marks[g] == (lid % 3 == 1 ? 1 : 0));
      }
    }
  }
}

}  // namespace tessera::backends::cpu::test
