// compileOpenCLC and translate() through the compiler process (spirv/clc): what the installed
// translator answers with exit() or an assertion fails one build, not the test program; a missing
// or dying compiler gives a log that says so; the next request works again.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <fstream>
#include <iterator>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "spirv/opencl_c.h"
#include "spirv/clc/translate.h"

using namespace tessera::spirv;

namespace {

constexpr const char* kKernel = "__kernel void k(__global int* o) { o[get_global_id(0)] = 7; }\n";

// An integer of 7 bits (clang's _BitInt): SPIR-V without SPV_INTEL_arbitrary_precision_integers
// has no such type, and SPIRV-LLVM-Translator 15 calls exit(InvalidBitWidth) on it. (The first
// input found this way, a zero-length array from fuzz_cl_source, is now lowered before translation:
// spirv/zero_length_arrays.h.)
constexpr const char* kOddWidth = R"(
__kernel void k(__global int* out, int flag) { _BitInt(7) x = flag; out[0] = (int)(x * 3); }
)";

void requireCompiles() {
  CompileResult r = compileOpenCLC(kKernel, "");
  INFO(r.log);
  REQUIRE(r.ok);
  CHECK(!r.spirv.empty());
}

// Sets TESSERA_CLC for one scope, with no idle compiler process left from before.
class CompilerOverride {
 public:
  explicit CompilerOverride(const char* path) {
    unloadCompiler();
    setenv("TESSERA_CLC", path, 1);
  }
  ~CompilerOverride() {
    unsetenv("TESSERA_CLC");
    unloadCompiler();
  }
};

}  // namespace

TEST_CASE("Given IR the translator exits on, then only that build fails, with the reason",
          "[spirv][opencl_c][process]") {
  requireCompiles();
  CompileResult r = compileOpenCLC(kOddWidth, "");
  CHECK_FALSE(r.ok);
  CHECK(r.spirv.empty());
  CHECK(r.log.find("Invalid bit width in input: 7") != std::string::npos);
  requireCompiles();
  // Again, now that the process that ended is replaced.
  CHECK_FALSE(compileOpenCLC(kOddWidth, "").ok);
  requireCompiles();
}

TEST_CASE("Given no compiler program, then the build fails with a log that names it",
          "[spirv][opencl_c][process]") {
  {
    CompilerOverride missing("/nonexistent/tessera-clc");
    CompileResult r = compileOpenCLC(kKernel, "");
    CHECK_FALSE(r.ok);
    CHECK(r.log.find("cannot start the compiler process /nonexistent/tessera-clc") !=
          std::string::npos);
    // Option errors need no compiler.
    CHECK(compileOpenCLC(kKernel, "-no-such-option").invalidOptions);
  }
  requireCompiles();
}

TEST_CASE("Given a compiler that ends without replying, then the build fails and says so",
          "[spirv][opencl_c][process]") {
  {
    CompilerOverride ends("/bin/true");
    CompileResult r = compileOpenCLC(kKernel, "");
    CHECK_FALSE(r.ok);
    CHECK(r.log.find("compiler process (tessera-clc)") != std::string::npos);
  }
  requireCompiles();
}

TEST_CASE("Given many threads compiling while the compiler is unloaded, then all results are right",
          "[spirv][opencl_c][process]") {
  std::vector<std::thread> threads;
  std::vector<int> ok(6, 0);
  for (size_t t = 0; t < ok.size(); ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 3; ++i) {
        bool bad = (t + i) % 3 == 0;
        CompileResult r = compileOpenCLC(bad ? kOddWidth : kKernel, "");
        if (r.ok != bad) ++ok[t];
        if (t == 0) unloadCompiler();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int n : ok) CHECK(n == 3);
}

TEST_CASE("Given validated SPIR-V the translator asserts on, then translate fails with the "
          "process's end and the next translation works",
          "[spirv][translate][process]") {
  // Found by fuzz_ze_module in CI: a kernel parameter that points into the Image storage class;
  // SPIRV-Tools accepts it, the translator's address-space map asserts ("Invalid key").
  std::ifstream in(std::string(TESSERA_FUZZ_CORPUS) +
                       "/fuzz_ze_module/regress_image_storage_pointer.spv",
                   std::ios::binary);
  REQUIRE(in);
  std::vector<uint8_t> hostile(std::istreambuf_iterator<char>(in), {});
  std::ifstream good(std::string(TESSERA_FUZZ_CORPUS) + "/fuzz_ze_module/vector_add.spv",
                     std::ios::binary);
  REQUIRE(good);
  std::vector<uint8_t> vectorAdd(std::istreambuf_iterator<char>(good), {});
  for (int round = 0; round < 2; ++round) {
    llvm::LLVMContext context;
    TranslateResult bad = translate(context, hostile);
    CHECK_FALSE(bad.ok());
    CHECK(bad.log.find("compiler process (tessera-clc) ended") != std::string::npos);
    TranslateResult fine = translate(context, vectorAdd);
    INFO(fine.log);
    REQUIRE(fine.ok());
    CHECK(fine.module->getFunction("vector_add") != nullptr);
  }
}
