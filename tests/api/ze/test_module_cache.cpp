// The on-disk module cache (support/disk_cache.h), observed from outside: each step runs a
// child process (this executable, a hidden test case) that builds the vector add from SPIR-V with
// TESSERA_CACHE_DIR at a fresh folder and TESSERA_CACHE_DEBUG=1, runs it and checks the result.
// The child's stderr says whether the entry was a hit (nothing compiled), a miss or corrupt, and
// whether it stored one; the folder shows the entry. No time is measured.
#include <level_zero/ze_api.h>

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "ze_test_support.h"

namespace fs = std::filesystem;

namespace {

constexpr const char* kChildVar = "TESSERA_TEST_CACHE_CHILD";

std::vector<uint8_t> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// The folder's files: with `notes`, only the compiler's translation notes (".ttr"); else every
// other file (code entries, and any temporary file left behind).
std::vector<fs::path> entries(const fs::path& dir, bool notes = false) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if ((it->path().extension() == ".ttr") == notes) out.push_back(it->path());
  return out;
}

struct TempDir {
  fs::path path;
  TempDir() {
    char t[] = "/tmp/tessera-cache-test-XXXXXX";
    REQUIRE(mkdtemp(t));
    path = t;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

tessera::test::ProcessResult runChild(const fs::path& dir,
                                      std::map<std::string, std::string> extra = {}) {
  extra[kChildVar] = "1";
  extra["TESSERA_CACHE_DIR"] = dir.string();
  extra["TESSERA_CACHE_DEBUG"] = "1";
  return tessera::test::runProgram({"/proc/self/exe", "module cache child: build and run"}, extra);
}

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

}  // namespace

TEST_CASE("module cache child: build and run", "[.cache_child]") {
  if (!std::getenv(kChildVar)) return;
  ze_driver_handle_t driver = tessera::test::initDriver();
  ze_device_handle_t device = tessera::test::devices(driver).at(0);
  ze_context_desc_t cd{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ze_context_handle_t context = nullptr;
  REQUIRE(zeContextCreate(driver, &cd, &context) == ZE_RESULT_SUCCESS);
  auto spv = readFile(std::string(TESSERA_TEST_KERNELS) + "/vector_add.spv");
  REQUIRE(!spv.empty());
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV,
                        spv.size(), spv.data(), "", nullptr};
  ze_module_handle_t m = nullptr;
  REQUIRE(zeModuleCreate(context, device, &desc, &m, nullptr) == ZE_RESULT_SUCCESS);
  ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "vector_add"};
  ze_kernel_handle_t k = nullptr;
  REQUIRE(zeKernelCreate(m, &kd, &k) == ZE_RESULT_SUCCESS);
  constexpr int n = 4096;
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (int i = 0; i < n; ++i) {
    a[i] = float(i);
    b[i] = float(3 * i + 1);
  }
  float *pa = a.data(), *pb = b.data(), *pc = c.data();
  REQUIRE(zeKernelSetArgumentValue(k, 0, sizeof pa, &pa) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetArgumentValue(k, 1, sizeof pb, &pb) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetArgumentValue(k, 2, sizeof pc, &pc) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetGroupSize(k, 64, 1, 1) == ZE_RESULT_SUCCESS);
  ze_command_queue_desc_t qd{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
  qd.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
  ze_command_list_handle_t list = nullptr;
  REQUIRE(zeCommandListCreateImmediate(context, device, &qd, &list) == ZE_RESULT_SUCCESS);
  ze_group_count_t groups{n / 64, 1, 1};
  REQUIRE(zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  for (int i = 0; i < n; ++i) REQUIRE(c[i] == float(4 * i + 1));
  zeCommandListDestroy(list);
  zeKernelDestroy(k);
  zeModuleDestroy(m);
  zeContextDestroy(context);
}

TEST_CASE("Given an empty cache folder, when processes build the same module, then the first "
          "compiles and stores an entry and the next load it without compiling",
          "[module][cache]") {
  TempDir dir;
  auto first = runChild(dir.path);
  INFO(first.out << first.err);
  REQUIRE(first.exitCode == 0);
  CHECK(has(first.err, "tessera cache: miss "));
  CHECK(has(first.err, "tessera cache: stored "));
  auto files = entries(dir.path);
  REQUIRE(files.size() == 1);
  CHECK(files[0].extension() == ".tnb");
  CHECK(entries(dir.path, true).size() == 1);  // the program translated (lazy_code.h)
  struct stat before{};
  REQUIRE(stat(files[0].c_str(), &before) == 0);

  auto second = runChild(dir.path);
  INFO(second.out << second.err);
  REQUIRE(second.exitCode == 0);
  CHECK(has(second.err, "tessera cache: hit "));
  CHECK_FALSE(has(second.err, "stored"));
  struct stat after{};
  REQUIRE(stat(files[0].c_str(), &after) == 0);
  CHECK(after.st_ino == before.st_ino);  // not rewritten
  CHECK(entries(dir.path).size() == 1);
}

TEST_CASE("Given a corrupt or truncated cache entry, when a process builds the module, then the "
          "entry is ignored, the module is compiled and runs, and the entry is rewritten",
          "[module][cache]") {
  TempDir dir;
  REQUIRE(runChild(dir.path).exitCode == 0);
  auto files = entries(dir.path);
  REQUIRE(files.size() == 1);
  const fs::path entry = files[0];
  auto good = readFile(entry.string());
  REQUIRE(good.size() > 64);

  SECTION("truncated") {
    fs::resize_file(entry, good.size() / 2);
  }
  SECTION("one byte flipped in the object code") {
    auto bad = good;
    bad[bad.size() - 100] ^= 0x5a;
    std::ofstream(entry, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(bad.data()), std::streamsize(bad.size()));
  }
  SECTION("garbage") {
    std::ofstream(entry, std::ios::binary | std::ios::trunc) << "not a native binary";
  }
  SECTION("empty") {
    fs::resize_file(entry, 0);
  }
  auto rebuilt = runChild(dir.path);
  INFO(rebuilt.out << rebuilt.err);
  REQUIRE(rebuilt.exitCode == 0);  // the kernel ran and its results were checked
  CHECK_FALSE(has(rebuilt.err, "tessera cache: hit "));
  CHECK(has(rebuilt.err, "tessera cache: stored "));
  CHECK(readFile(entry.string()) == good);
  auto again = runChild(dir.path);
  INFO(again.err);
  REQUIRE(again.exitCode == 0);
  CHECK(has(again.err, "tessera cache: hit "));
}

TEST_CASE("Given two processes building the same module at the same time into one empty cache "
          "folder, then both succeed and one valid entry remains",
          "[module][cache]") {
  TempDir dir;
  std::map<std::string, std::string> env{{kChildVar, "1"},
                                         {"TESSERA_CACHE_DIR", dir.path.string()}};
  // Each child from its own thread, so both run at once (runProgram waits for its child).
  for (int round = 0; round < 2; ++round) {
    tessera::test::ProcessResult a, b;
    std::thread ta([&] {
      a = tessera::test::runProgram({"/proc/self/exe", "module cache child: build and run"}, env);
    });
    std::thread tb([&] {
      b = tessera::test::runProgram({"/proc/self/exe", "module cache child: build and run"}, env);
    });
    ta.join();
    tb.join();
    INFO(a.err << b.err);
    CHECK(a.exitCode == 0);
    CHECK(b.exitCode == 0);
  }
  auto files = entries(dir.path);
  REQUIRE(files.size() == 1);  // no temporary file left behind
  CHECK(files[0].extension() == ".tnb");
  auto third = runChild(dir.path);
  INFO(third.err);
  REQUIRE(third.exitCode == 0);
  CHECK(has(third.err, "tessera cache: hit "));
}

TEST_CASE("Given TESSERA_CACHE=0, when a process builds a module, then nothing is read or "
          "written",
          "[module][cache]") {
  TempDir dir;
  auto r = runChild(dir.path, {{"TESSERA_CACHE", "0"}});
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  CHECK_FALSE(has(r.err, "tessera cache:"));
  CHECK(entries(dir.path).empty());
}

TEST_CASE("Given TESSERA_CACHE_DIR unset, then the cache lives under XDG_CACHE_HOME/tessera",
          "[module][cache]") {
  TempDir dir;
  std::map<std::string, std::string> env{{kChildVar, "1"},
                                         {"XDG_CACHE_HOME", dir.path.string()},
                                         {"TESSERA_CACHE_DEBUG", "1"}};
  // runProgram keeps the test environment's variables: clear TESSERA_CACHE_DIR for the child.
  const char* saved = std::getenv("TESSERA_CACHE_DIR");
  std::string keep = saved ? saved : "";
  unsetenv("TESSERA_CACHE_DIR");
  auto r = tessera::test::runProgram({"/proc/self/exe", "module cache child: build and run"}, env);
  if (saved) setenv("TESSERA_CACHE_DIR", keep.c_str(), 1);
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  CHECK(entries(dir.path / "tessera").size() == 1);
}

TEST_CASE("Given a cache folder over TESSERA_CACHE_MAX_MB, when a process stores an entry, then "
          "the least recently used entries are removed and the new one stays",
          "[module][cache]") {
  TempDir dir;
  // Three stale entries of 8 KiB each, older than anything the child writes.
  for (int i = 0; i < 3; ++i) {
    fs::path p = dir.path / ("stale" + std::to_string(i) + ".tnb");
    std::ofstream(p, std::ios::binary) << std::string(8192, char('a' + i));
    fs::last_write_time(p, fs::file_time_type::clock::now() - std::chrono::hours(1 + i));
  }
  fs::path other = dir.path / "not-an-entry.txt";
  std::ofstream(other) << std::string(8192, 'x');
  auto r = runChild(dir.path, {{"TESSERA_CACHE_MAX_MB", "0.015"}});  // 15 KiB
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  CHECK(has(r.err, "tessera cache: stored "));
  // The new entry (a few KiB) and the newest stale one fit; the two oldest went.
  CHECK(fs::exists(dir.path / "stale0.tnb"));
  CHECK_FALSE(fs::exists(dir.path / "stale1.tnb"));
  CHECK_FALSE(fs::exists(dir.path / "stale2.tnb"));
  CHECK(fs::exists(other));  // only .tnb files are the cache's
  auto again = runChild(dir.path, {{"TESSERA_CACHE_MAX_MB", "0.015"}});
  INFO(again.err);
  CHECK(has(again.err, "tessera cache: hit "));
}
