// Builds in seconds (issue 27): kernels compiled when first needed (clCreateKernel), a kernel whose
// code generation fails reported at clCreateKernel with the reason in the build log, binaries that
// still hold every kernel, and the OpenCL C front end's disk cache across processes
// (spirv/clc/frontend_cache.h).
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "cl_program_support.h"
#include "process.h"

using namespace tessera::cltest;

namespace {

// One kernel calls itself: the JIT refuses recursion when it compiles that kernel.
const char* kOneBadKernel = R"(
int down(int n) { return n <= 0 ? 0 : 1 + down(n - 1); }
kernel void good(global int* out) { out[get_global_id(0)] = 7; }
kernel void bad(global int* out) { out[get_global_id(0)] = down(out[0]); }
)";

cl_program built(ClFixture& fx, const char* source, const char* options = "") {
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(fx.ctx, 1, &source, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clBuildProgram(p, 1, &fx.dev, options, nullptr, nullptr) == CL_SUCCESS);
  return p;
}

}  // namespace

TEST_CASE(
    "Given a program with a kernel the JIT cannot compile, when it is built, then the build "
    "succeeds, the other kernels run and launching that one fails with its reason in the build "
    "log",
    "[cl][program][lazy]") {
  ClFixture fx;
  cl_program p = built(fx, kOneBadKernel);
  cl_kernel good = makeKernel(p, "good");
  size_t n = 4;
  cl_int err = CL_SUCCESS;
  cl_mem buf = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, n * sizeof(cl_int), nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clSetKernelArg(good, 0, sizeof buf, &buf) == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(fx.queue, good, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  cl_int out[4] = {};
  REQUIRE(clEnqueueReadBuffer(fx.queue, buf, CL_TRUE, 0, sizeof out, out, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  CHECK(out[3] == 7);
  // Documented in docs/conformance.md: the kernel has no executable.
  std::string log = failedKernelLog(fx, p, "bad");
  CHECK(log.find("kernel bad") != std::string::npos);
  CHECK(log.find("recurs") != std::string::npos);
  // clCreateKernelsInProgram compiles every kernel first (in parallel); the failure is still the
  // launch's.
  cl_kernel all[2] = {};
  CHECK(clCreateKernelsInProgram(p, 2, all, nullptr) == CL_SUCCESS);
  for (cl_kernel k : all) {
    char name[8] = {};
    REQUIRE(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, nullptr) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 0, sizeof buf, &buf) == CL_SUCCESS);
    CHECK(clEnqueueNDRangeKernel(fx.queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) ==
          (std::string(name) == "bad" ? CL_INVALID_PROGRAM_EXECUTABLE : CL_SUCCESS));
    clReleaseKernel(k);
  }
  clReleaseMemObject(buf);
  clReleaseKernel(good);
  clReleaseProgram(p);
}

TEST_CASE(
    "Given a program built from source, when its binary is read before any kernel was "
    "created, then a program made from that binary runs every kernel",
    "[cl][program][lazy][binary]") {
  ClFixture fx;
  const char* source = R"(
kernel void one(global int* out) { out[get_global_id(0)] = 1; }
kernel void two(global int* out) { out[get_global_id(0)] = 2; }
kernel void three(global int* out) { out[get_global_id(0)] = 3; }
)";
  cl_program p = built(fx, source);
  size_t size = 0;
  REQUIRE(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) == CL_SUCCESS);
  std::vector<unsigned char> binary(size);
  unsigned char* data = binary.data();
  REQUIRE(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof data, &data, nullptr) == CL_SUCCESS);
  cl_int err = CL_SUCCESS, status = CL_SUCCESS;
  const unsigned char* bytes = binary.data();
  cl_program q = clCreateProgramWithBinary(fx.ctx, 1, &fx.dev, &size, &bytes, &status, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clBuildProgram(q, 1, &fx.dev, "", nullptr, nullptr) == CL_SUCCESS);
  const char* names[] = {"one", "two", "three"};
  for (int i = 0; i < 3; ++i) {
    cl_kernel k = makeKernel(q, names[i]);
    cl_mem buf = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, sizeof(cl_int), nullptr, &err);
    REQUIRE(clSetKernelArg(k, 0, sizeof buf, &buf) == CL_SUCCESS);
    size_t one = 1;
    REQUIRE(clEnqueueNDRangeKernel(fx.queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr) ==
            CL_SUCCESS);
    cl_int v = 0;
    REQUIRE(clEnqueueReadBuffer(fx.queue, buf, CL_TRUE, 0, sizeof v, &v, 0, nullptr, nullptr) ==
            CL_SUCCESS);
    CHECK(v == i + 1);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
  }
  clReleaseProgram(q);
  clReleaseProgram(p);
}

namespace {

constexpr const char* kFrontendChildVar = "TESSERA_TEST_FRONTEND_CHILD";

// How the front end's cache answered a child's build (TESSERA_CACHE_DEBUG's line for the ".tfe"
// entry).
enum class Frontend { Hit, Miss, Failed };

// Runs the hidden case below in a copy of this binary with the cache in `cacheDir` and the header
// folder `includeDir`.
Frontend buildInChild(const std::string& cacheDir, const std::string& includeDir) {
  char self[4096] = {};
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  REQUIRE(n > 0);
  auto env = tessera::test::currentEnvironment();
  env[kFrontendChildVar] = includeDir;
  env["TESSERA_CACHE"] = "1";
  env["TESSERA_CACHE_DIR"] = cacheDir;
  env["TESSERA_CACHE_DEBUG"] = "1";
  auto r = tessera::test::runProcess({self, "frontend cache child"}, env);
  INFO(r.out << r.err);
  if (r.exitCode != 0) return Frontend::Failed;
  auto said = [&](const char* what) {
    for (size_t at = r.err.find(what); at != std::string::npos; at = r.err.find(what, at + 1)) {
      size_t end = r.err.find('\n', at);
      if (r.err.substr(at, end - at).find(".tfe") != std::string::npos) return true;
    }
    return false;
  };
  if (said("tessera cache: hit ")) return Frontend::Hit;
  return said("tessera cache: miss ") ? Frontend::Miss : Frontend::Failed;
}

void writeFile(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

}  // namespace

TEST_CASE("frontend cache child", "[.]") {
  const char* dir = std::getenv(kFrontendChildVar);
  REQUIRE(dir != nullptr);
  ClFixture fx;
  const char* source = "#include \"value.h\"\nkernel void k(global int* o) { o[0] = VALUE; }\n";
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(fx.ctx, 1, &source, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  std::string options = std::string("-I ") + dir;
  REQUIRE(clBuildProgram(p, 1, &fx.dev, options.c_str(), nullptr, nullptr) == CL_SUCCESS);
  clReleaseProgram(p);
}

TEST_CASE(
    "Given an OpenCL C program built once, when another process builds it again, then the "
    "front end's result comes from the disk cache, and a header changed since misses",
    "[cl][program][lazy][cache]") {
  char cacheTemplate[] = "/tmp/tessera-fe-cache-XXXXXX";
  char includeTemplate[] = "/tmp/tessera-fe-include-XXXXXX";
  REQUIRE(mkdtemp(cacheTemplate) != nullptr);
  REQUIRE(mkdtemp(includeTemplate) != nullptr);
  const std::string cache = cacheTemplate, include = includeTemplate;
  writeFile(include + "/value.h", "#define VALUE 1\n");
  CHECK(buildInChild(cache, include) == Frontend::Miss);  // clang runs; the result is stored
  CHECK(buildInChild(cache, include) == Frontend::Hit);   // another process: from the cache
  writeFile(include + "/value.h", "#define VALUE 2\n");   // the header's contents change
  CHECK(buildInChild(cache, include) == Frontend::Miss);
  CHECK(buildInChild(cache, include) == Frontend::Hit);
  std::string cleanup = "rm -rf '" + cache + "' '" + include + "'";
  CHECK(std::system(cleanup.c_str()) == 0);
}
