// The API call log (TESSERA_API_LOG=1; support/api_log.h, cl_shim/api_log.h): a copy of this
// binary makes a few calls through the ICD loader, one of them refused and one through an
// extension function's address; its stderr has a line per call with the arguments, the result
// by name and a duration, and nothing without the setting.
#include <CL/cl_ext_qcom.h>

#include <map>
#include <string>

#include "cl_test_support.h"
#include "process.h"

using namespace tessera::cltest;

TEST_CASE("api log child: a few calls", "[.cl_api_log_child]") {
  ClFixture fx;
  cl_int err = CL_SUCCESS;
  cl_mem none = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, 0, nullptr, &err);
  CHECK(none == nullptr);
  CHECK(err == CL_INVALID_BUFFER_SIZE);
  CHECK(clFinish(fx.queue) == CL_SUCCESS);
  auto endRecording = reinterpret_cast<clEndRecordingQCOM_fn>(
      clGetExtensionFunctionAddressForPlatform(platform(), "clEndRecordingQCOM"));
  REQUIRE(endRecording != nullptr);
  CHECK(endRecording(nullptr) == CL_INVALID_VALUE);
}

namespace {

tessera::test::ProcessResult runChild(bool log) {
  std::map<std::string, std::string> env = tessera::test::currentEnvironment();
  env.erase("TESSERA_API_LOG");
  if (log) env["TESSERA_API_LOG"] = "1";
  return tessera::test::runProcess({"/proc/self/exe", "api log child: a few calls"}, env);
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("Given TESSERA_API_LOG=1, then every OpenCL call is a line with its arguments, its "
          "result by name and its duration, and without it there is none",
          "[cl][api_log]") {
  tessera::test::ProcessResult logged = runChild(true);
  INFO(logged.out << logged.err);
  REQUIRE(logged.exitCode == 0);
  // A refused call: its arguments (0 bytes, a NULL host pointer), the NULL it returned and the
  // code it wrote to errcode_ret.
  CHECK(has(logged.err, "clCreateBuffer(0x"));
  CHECK(has(logged.err, ", 1, 0, NULL, 0x"));
  CHECK(has(logged.err, ") -> NULL [CL_INVALID_BUFFER_SIZE] ("));
  CHECK(has(logged.err, "clFinish(0x"));
  CHECK(has(logged.err, ") -> CL_SUCCESS ("));
  // Through the extension function's address too.
  CHECK(has(logged.err, "clEndRecordingQCOM(NULL) -> CL_INVALID_VALUE ("));
  CHECK(has(logged.err, " us)\n"));
  CHECK(has(logged.err, "tessera api: ["));

  tessera::test::ProcessResult quiet = runChild(false);
  INFO(quiet.err);
  REQUIRE(quiet.exitCode == 0);
  CHECK_FALSE(has(quiet.err, "tessera api:"));
}
