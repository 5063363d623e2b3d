// Kernels compiled when first needed (compiler/lazy_code.h) through the compiler facade: a build
// compiles nothing, a kernel is compiled once however many threads ask at once, each kernel has its
// own disk entry that another compiler (another process) loads instead of compiling, and a native
// binary holds every kernel.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "compiler/compiler.h"
#include "compiler/lazy_code.h"

using namespace tessera::compiler;
namespace fs = std::filesystem;

namespace {

std::vector<uint8_t> corpus(const std::string& name) {
  std::ifstream in(std::string(TESSERA_TEST_KERNELS) + "/" + name + ".spv", std::ios::binary);
  REQUIRE(in.good());
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

CompilerConfig settingsWithDisk(const fs::path& dir) {
  CompilerConfig s;
  s.cache.enabled = !dir.empty();
  s.cache.folder = dir.string();
  return s;
}

}  // namespace

TEST_CASE(
    "Given a program of six kernels, when it is built, then nothing is compiled; kernels "
    "compile one by one when asked, each once however many threads ask at once",
    "[compiler][lazy]") {
  Compiler c(settingsWithDisk({}), tessera::backends::cpuKind());
  Compiler::Result r = c.build(corpus("corpus_ranges"), nullptr, {});
  INFO(r.log);
  REQUIRE(r.ok());
  REQUIRE(r.lazy != nullptr);
  CHECK(r.code == nullptr);
  CHECK(c.compileCount() == 0);
  const size_t kernels = r.program->info.kernels.size();
  REQUIRE(kernels == 6);
  // Eight threads ask for kernel 2 at once: one compile.
  std::vector<std::thread> threads;
  std::vector<const ModuleCode*> got(8, nullptr);
  for (size_t i = 0; i < got.size(); ++i)
    threads.emplace_back([&, i] {
      std::string log;
      got[i] = r.lazy->kernel(2, log).get();
    });
  for (std::thread& t : threads) t.join();
  CHECK(c.compileCount() == 1);
  for (const ModuleCode* code : got) CHECK(code == got[0]);
  REQUIRE(got[0] != nullptr);
  CHECK(got[0]->find(r.program->info.kernels[2].name) != nullptr);
  CHECK(r.lazy->compiledCount() == 1);
  // The same program built again shares the compiled kernels.
  Compiler::Result again = c.build(corpus("corpus_ranges"), nullptr, {});
  CHECK(again.lazy == r.lazy);
  // The rest, in parallel: five more compiles, and one for the exported functions that are not
  // kernels, if any.
  const size_t units = kernels + (r.program->functionExports().empty() ? 0 : 1);
  std::string log;
  REQUIRE(r.lazy->compile({}, log));
  CHECK(c.compileCount() == units);
  CHECK(r.lazy->compiledCount() == kernels);
  std::shared_ptr<const ModuleCode> whole = r.lazy->whole();
  REQUIRE(whole != nullptr);
  CHECK(whole->kernelCount() == kernels);
  CHECK(whole->parts.size() == units);
  for (const auto& k : r.program->info.kernels) CHECK(whole->find(k.name) != nullptr);
}

TEST_CASE(
    "Given kernels compiled by one compiler with a disk tier, then another compiler (another "
    "process) loads each kernel from its own entry without compiling, and a native binary "
    "of the program loads every kernel",
    "[compiler][lazy][cache]") {
  char t[] = "/tmp/tessera-lazy-test-XXXXXX";
  REQUIRE(mkdtemp(t));
  const fs::path dir = t;
  {
    Compiler first(settingsWithDisk(dir), tessera::backends::cpuKind());
    Compiler::Result r = first.build(corpus("corpus_ranges"), nullptr, {});
    REQUIRE(r.ok());
    std::string log;
    REQUIRE(r.lazy->kernel(0, log) != nullptr);
    REQUIRE(r.lazy->kernel(4, log) != nullptr);
    CHECK(first.compileCount() == 2);
  }
  size_t entries = 0, notes = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    entries += e.path().extension() == ".tnb";
    notes += e.path().extension() == ".ttr";
  }
  CHECK(entries == 2);
  CHECK(notes == 1);  // the program translated
  Compiler second(settingsWithDisk(dir), tessera::backends::cpuKind());
  Compiler::Result r = second.build(corpus("corpus_ranges"), nullptr, {});
  REQUIRE(r.ok());
  // The note says the program translates: the build does not translate it, nor do kernels found
  // on disk; the first kernel that is not there does.
  CHECK(second.translateCount() == 0);
  std::string log;
  REQUIRE(r.lazy->kernel(4, log) != nullptr);
  REQUIRE(r.lazy->kernel(0, log) != nullptr);
  CHECK(second.compileCount() == 0);  // both from disk
  CHECK(second.translateCount() == 0);
  REQUIRE(r.lazy->kernel(1, log) != nullptr);
  CHECK(second.compileCount() == 1);
  CHECK(second.translateCount() == 1);
  REQUIRE(r.lazy->kernel(2, log) != nullptr);
  CHECK(second.translateCount() == 1);  // once per program
  // A native binary: every kernel, each its own unit; loading it compiles nothing.
  compileAll(r);
  REQUIRE(r.code != nullptr);
  std::vector<uint8_t> binary = second.nativeBinary(*r.program, r.code.get());
  Compiler third(settingsWithDisk({}), tessera::backends::cpuKind());
  Compiler::Result loaded = third.load(binary);
  INFO(loaded.log);
  REQUIRE(loaded.ok());
  REQUIRE(loaded.code != nullptr);
  CHECK(loaded.code->kernelCount() == r.program->info.kernels.size());
  for (const auto& k : r.program->info.kernels) CHECK(loaded.code->find(k.name) != nullptr);
  CHECK(third.compileCount() == 0);

  // A note that is not whole (here one byte short) is no note: the build translates again and
  // writes it again.
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".ttr") fs::resize_file(e.path(), fs::file_size(e.path()) - 1);
  Compiler fourth(settingsWithDisk(dir), tessera::backends::cpuKind());
  REQUIRE(fourth.build(corpus("corpus_ranges"), nullptr, {}).ok());
  CHECK(fourth.translateCount() == 1);
  Compiler fifth(settingsWithDisk(dir), tessera::backends::cpuKind());
  REQUIRE(fifth.build(corpus("corpus_ranges"), nullptr, {}).ok());
  CHECK(fifth.translateCount() == 0);
  fs::remove_all(dir);
}
