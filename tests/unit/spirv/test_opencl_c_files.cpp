// What the OpenCL C compiler may read (spirv/include_filesystem.h) and how long it may take
// (spirv/clc/client.cpp's deadline): by default the preprocessor's semantics (any regular file the
// user can read, OpenCL-CTS's absolute includes), and such a build is not cached; with
// TESSERA_STRICT_INCLUDES=1 includes outside the -I folders, the input headers and the OpenCL
// headers are refused with a build-log line and none of their text; either way a FIFO at an
// include target fails that build at once and no system include path is searched; a compiler
// process that does not reply in time is stopped.
// Every compile here runs with TESSERA_COMPILE_TIMEOUT_S set, so even a regression cannot hang the
// test program (ctest's TIMEOUT on unit.spirv.files bounds the rest).
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <llvm/IR/LLVMContext.h>

#include "spirv/opencl_c.h"
#include "spirv/clc/translate.h"
#include "spirv_test_support.h"

using namespace tessera::spirv;
namespace fs = std::filesystem;

namespace {

constexpr const char* kSecret = "TESSERA_SECRET_TEXT_4711";

std::string kernelUsing(const std::string& macro) {
  return "__kernel void k(__global int* out) { out[0] = " + macro + "; }\n";
}

// A scratch folder: inc/ (given with -I, holding ok.h, a FIFO and a link out) and outside/ (a
// "secret" header whose first line would show in a diagnostic if it were read).
struct Folders {
  fs::path root, inc, outside, secret;
  Folders() {
    char t[] = "/tmp/tessera-includes-XXXXXX";
    REQUIRE(mkdtemp(t));
    root = t;
    inc = root / "inc";
    outside = root / "outside";
    secret = outside / "secret.h";
    fs::create_directories(inc);
    fs::create_directories(outside);
    std::ofstream(inc / "ok.h") << "#define FROM_INC 5\n";
    std::ofstream(secret) << kSecret << " is not OpenCL C\n";
    REQUIRE(mkfifo((inc / "fifo.h").c_str(), 0600) == 0);
    fs::create_symlink(secret, inc / "link.h");
  }
  ~Folders() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  std::string option() const { return "-I " + inc.string(); }
};

// A bound for every compile of this file: a hang becomes a failed build, not a stuck test.
// One environment variable set for a scope.
class ScopedVariable {
 public:
  ScopedVariable(const char* name, const std::string& value) : name_(name) {
    setenv(name, value.c_str(), 1);
  }
  ~ScopedVariable() { unsetenv(name_); }

 private:
  const char* name_;
};

class Deadline : public ScopedVariable {
 public:
  explicit Deadline(const char* seconds) : ScopedVariable("TESSERA_COMPILE_TIMEOUT_S", seconds) {}
};

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

}  // namespace

TEST_CASE("Given TESSERA_STRICT_INCLUDES=1 and includes outside the include folders, then each "
          "build fails with a message naming the path and none of the file's text",
          "[spirv][opencl_c][files]") {
  Deadline bound("120");
  ScopedVariable strict("TESSERA_STRICT_INCLUDES", "1");
  Folders f;
  const std::string secret = f.secret.string();
  const std::vector<std::pair<std::string, std::string>> includes = {
      {"#include \"" + secret + "\"\n", secret},                      // absolute, quoted
      {"#include <" + secret + ">\n", secret},                        // absolute, angled
      {"#include \"../outside/secret.h\"\n", "outside/secret.h"},     // out of an -I folder
      {"#include \"link.h\"\n", "link.h"},                            // a link out of it
      {"#include </usr/local/include/tessera_none.h>\n", "/usr/local/include/tessera_none.h"},
      {"#include \"/etc/shadow\"\n", "/etc/shadow"},
  };
  for (const auto& [line, named] : includes) {
    INFO(line);
    CompileResult r = compileOpenCLC(line + kernelUsing("1"), f.option());
    INFO(r.log);
    CHECK_FALSE(r.ok);
    CHECK(has(r.log, named));
    CHECK(has(r.log, "the compiler reads only the -I folders"));
    // The whole rule: absolute folders given as a macro's value are allowed too.
    CHECK(has(r.log, "by absolute path as a macro's value (-D NAME=/folder)"));
    CHECK_FALSE(has(r.log, kSecret));
    CHECK_FALSE(has(r.log, "root:"));  // /etc/shadow's first line
  }
}

TEST_CASE("Given includes outside the include folders under the default rule, then they are "
          "read as the C preprocessor reads them, and such builds are not cached",
          "[spirv][opencl_c][files]") {
  Deadline bound("120");
  Folders f;
  const fs::path header = f.outside / "value.h";
  ScopedVariable cache("TESSERA_CACHE", "1");
  ScopedVariable cacheDir("TESSERA_CACHE_DIR", (f.root / "cache").string());
  const std::vector<std::string> includes = {
      "#include \"" + header.string() + "\"\n",  // absolute, quoted (OpenCL-CTS's preprocessor_include)
      "#include <" + header.string() + ">\n",      // absolute, angled
      "#include \"../outside/value.h\"\n",          // out of an -I folder
      "#include \"value_link.h\"\n",                // a link out of it
  };
  fs::create_symlink(header, f.inc / "value_link.h");
  for (const std::string& line : includes) {
    INFO(line);
    std::vector<uint32_t> first;
    for (int value : {1, 2}) {
      std::ofstream(header, std::ios::trunc) << "#define VALUE " << value << "\n";
      CompileResult r = compileOpenCLC(line + kernelUsing("VALUE"), f.option());
      INFO(r.log);
      REQUIRE(r.ok);
      CHECK_FALSE(has(r.log, "outside the folders"));
      // The header changed between the two builds: a cached first result would be stale.
      if (value == 1) first = r.spirv;
      else CHECK(r.spirv != first);
    }
  }
}

TEST_CASE("Given headers the default system include path would find, then they are not found",
          "[spirv][opencl_c][files]") {
  Deadline bound("120");
  // /usr/include/CL/cl.h is installed (the project builds against it); clang's cc1 for spir64 would
  // search /usr/local/include and /usr/include by default.
  REQUIRE(fs::exists("/usr/include/CL/cl.h"));
  CompileResult r = compileOpenCLC("#include <CL/cl.h>\n" + kernelUsing("1"), "");
  INFO(r.log);
  CHECK_FALSE(r.ok);
  CHECK(has(r.log, "'CL/cl.h' file not found"));
}

TEST_CASE("Given -I folders, input headers and the OpenCL headers, then includes from them still "
          "resolve, by name and by absolute path inside an -I folder",
          "[spirv][opencl_c][files]") {
  Deadline bound("120");
  Folders f;
  std::vector<OpenCLHeader> headers = {{"mine/h.h", "#define FROM_INPUT 6\n"}};
  std::string source = "#include \"ok.h\"\n#include <ok.h>\n#include \"" + (f.inc / "ok.h").string() +
                       "\"\n#include \"mine/h.h\"\n#include <opencl-c-base.h>\n" +
                       kernelUsing("FROM_INC + FROM_INPUT");
  CompileResult r = compileOpenCLC(source, f.option(), headers);
  INFO(r.log);
  CHECK(r.ok);
  CHECK_FALSE(has(r.log, "error"));
  // An -I folder that does not exist is searched (in vain) before the input headers: no refusal.
  CompileResult missing = compileOpenCLC("#include <mine/h.h>\n" + kernelUsing("FROM_INPUT"),
                                         "-I /nonexistent/tessera-inc", headers);
  INFO(missing.log);
  CHECK(missing.ok);
  CHECK(missing.log.empty());
}

TEST_CASE("Given a FIFO at an include target, then the build fails at once and says why",
          "[spirv][opencl_c][files]") {
  Deadline bound("120");
  Folders f;
  CompileResult r = compileOpenCLC("#include \"fifo.h\"\n" + kernelUsing("1"), f.option());
  INFO(r.log);
  CHECK_FALSE(r.ok);
  CHECK(has(r.log, "fifo.h"));
  CHECK(has(r.log, "is a FIFO"));
  CHECK_FALSE(has(r.log, "did not finish"));
  // And the next build works: the process was not lost.
  CHECK(compileOpenCLC(kernelUsing("1"), "").ok);
}

namespace {

// TESSERA_CLC naming a program that never replies (a shell script that sleeps), for one scope.
class SilentCompiler {
 public:
  SilentCompiler() {
    char t[] = "/tmp/tessera-silent-clc-XXXXXX";
    REQUIRE(mkdtemp(t));
    dir_ = t;
    script_ = dir_ / "tessera-clc";
    std::ofstream(script_) << "#!/bin/sh\nexec sleep 100000\n";
    fs::permissions(script_, fs::perms::owner_all);
    unloadCompiler();
    setenv("TESSERA_CLC", script_.c_str(), 1);
  }
  ~SilentCompiler() {
    unsetenv("TESSERA_CLC");
    unloadCompiler();
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

 private:
  fs::path dir_, script_;
};

}  // namespace

TEST_CASE("Given a compiler process that does not reply within TESSERA_COMPILE_TIMEOUT_S, then "
          "the build fails with a log line and the next build works",
          "[spirv][opencl_c][process][files]") {
  {
    SilentCompiler silent;
    Deadline bound("1");
    CompileResult r = compileOpenCLC(kernelUsing("1"), "");
    INFO(r.log);
    CHECK_FALSE(r.ok);
    CHECK(has(r.log, "did not finish within 1 s (TESSERA_COMPILE_TIMEOUT_S)"));
    // The SPIR-V translation of zeModuleCreate goes through the same processes.
    llvm::LLVMContext context;
    TranslateResult t = translate(context, tessera::spirv::test::loadKernel("vector_add"));
    CHECK_FALSE(t.ok());
    CHECK(has(t.log, "did not finish within 1 s"));
  }
  Deadline bound("120");
  CompileResult again = compileOpenCLC(kernelUsing("1"), "");
  INFO(again.log);
  CHECK(again.ok);
}
