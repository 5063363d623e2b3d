// clLinkProgram of programs sharing program-scope variables (issue 19, item 4): `extern global`
// in one compiled program, the definition in another. Units of one SPIR-V version are linked
// into one module (spirv/link.cpp); units of different versions stay one module each and
// zeModuleDynamicLink gives the importer the definer's storage. Either way the kernels of both
// see one variable, and an extern nobody defines fails the link with a log naming it, as does a
// function or variable two inputs define (piglit's api@cllinkprogram).
#include <string>
#include <vector>

#include "cl_program_support.h"

using namespace tessera::cltest;

namespace {

cl_program compiled(ClFixture& fx, const char* source, const char* options = "-cl-std=CL3.0") {
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(fx.ctx, 1, &source, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_int r = clCompileProgram(p, 1, &fx.dev, options, 0, nullptr, nullptr, nullptr, nullptr);
  INFO("compile log: " << buildLog(p, fx.dev));
  REQUIRE(r == CL_SUCCESS);
  return p;
}

cl_program linkPrograms(ClFixture& fx, std::vector<cl_program> inputs, cl_int* err,
                        std::string* log) {
  cl_program p = clLinkProgram(fx.ctx, 1, &fx.dev, nullptr, cl_uint(inputs.size()), inputs.data(),
                               nullptr, nullptr, err);
  *log = p ? buildLog(p, fx.dev) : "";
  return p;
}

// Runs kernel `name` of `p` with `out` as argument 0 over one work-group of `n` work-items;
// returns out[0..n).
std::vector<cl_int> run(ClFixture& fx, cl_program p, const char* name, size_t n) {
  cl_kernel k = makeKernel(p, name);
  std::vector<cl_int> out(n, -1);
  REQUIRE(clSetKernelArgSVMPointer(k, 0, out.data()) == CL_SUCCESS);
  runKernel(fx.queue, k, 1, &n, &n);
  clReleaseKernel(k);
  return out;
}

constexpr const char* kUser = R"(
extern global int shared_counter;
kernel void use_counter(global int* out) {
  out[get_global_id(0)] = shared_counter;
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_global_id(0) == 0) shared_counter = 99;
}
)";

}  // namespace

TEST_CASE(
    "Given a program defining a variable as SPIR-V 1.4 and one using it extern as SPIR-V 1.0, "
    "when they are linked, then the kernels of both share the variable",
    "[cl][program][link][globals]") {
  ClFixture fx;
  // global_export comes from the corpus build as SPIR-V 1.4; OpenCL C compiles to 1.0: the link
  // keeps them two modules, which zeModuleDynamicLink resolves.
  auto spv = corpusSpirv("global_export");
  REQUIRE(spv.size() > 8);
  REQUIRE(spv[6] == 1);  // the version word (little-endian): 0x00010400
  REQUIRE(spv[5] == 4);
  cl_int err = CL_SUCCESS;
  cl_program defs = clCreateProgramWithIL(fx.ctx, spv.data(), spv.size(), &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clCompileProgram(defs, 1, &fx.dev, nullptr, 0, nullptr, nullptr, nullptr, nullptr) ==
          CL_SUCCESS);
  cl_program uses = compiled(fx, kUser);
  std::string log;
  cl_program linked = linkPrograms(fx, {uses, defs}, &err, &log);
  INFO("link log: " << log);
  REQUIRE(err == CL_SUCCESS);
  // The user reads the definer's initial value, then changes it for the definer's kernel.
  CHECK(run(fx, linked, "use_counter", 4) == std::vector<cl_int>{7, 7, 7, 7});
  CHECK(run(fx, linked, "read_shared", 2) == std::vector<cl_int>{99, 40});
  clReleaseProgram(linked);
  clReleaseProgram(uses);
  clReleaseProgram(defs);
}

TEST_CASE(
    "Given programs of one SPIR-V version, when the definer and the user are linked in either "
    "order, then the kernels of both share the variable",
    "[cl][program][link][globals]") {
  ClFixture fx;
  cl_program defs = compiled(fx, R"(
global int shared_counter = 5;
kernel void read_counter(global int* out) { out[get_global_id(0)] = shared_counter; }
)");
  cl_program uses = compiled(fx, kUser);
  for (bool definerFirst : {true, false}) {
    INFO((definerFirst ? "definer first" : "user first"));
    std::string log;
    cl_int err = CL_SUCCESS;
    cl_program linked = linkPrograms(
        fx, definerFirst ? std::vector{defs, uses} : std::vector{uses, defs}, &err, &log);
    INFO("link log: " << log);
    REQUIRE(err == CL_SUCCESS);
    CHECK(run(fx, linked, "use_counter", 2) == std::vector<cl_int>{5, 5});
    CHECK(run(fx, linked, "read_counter", 1) == std::vector<cl_int>{99});
    clReleaseProgram(linked);
  }
  clReleaseProgram(uses);
  clReleaseProgram(defs);
}

TEST_CASE(
    "Given an extern variable no input defines, when linked, then CL_LINK_PROGRAM_FAILURE "
    "comes back with a log naming it",
    "[cl][program][link][globals]") {
  ClFixture fx;
  cl_program uses = compiled(fx, kUser);
  cl_program other = compiled(fx, "kernel void nothing(global int* out) { out[0] = 1; }\n");
  SECTION("units of one SPIR-V version") {
    std::string log;
    cl_int err = CL_SUCCESS;
    cl_program linked = linkPrograms(fx, {uses, other}, &err, &log);
    CHECK(err == CL_LINK_PROGRAM_FAILURE);
    INFO("link log: " << log);
    CHECK(log.find("shared_counter") != std::string::npos);
    if (linked) clReleaseProgram(linked);
  }
  SECTION("units of different versions (one module each)") {
    // export_lib is SPIR-V 1.4 (the corpus build's), the user 1.0.
    auto spv = corpusSpirv("export_lib");
    cl_int err = CL_SUCCESS;
    cl_program il = clCreateProgramWithIL(fx.ctx, spv.data(), spv.size(), &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clCompileProgram(il, 1, &fx.dev, nullptr, 0, nullptr, nullptr, nullptr, nullptr) ==
            CL_SUCCESS);
    std::string log;
    cl_program linked = linkPrograms(fx, {uses, il}, &err, &log);
    INFO("link log: " << log);
    CHECK(err == CL_LINK_PROGRAM_FAILURE);
    CHECK(log.find("shared_counter") != std::string::npos);
    if (linked) clReleaseProgram(linked);
    clReleaseProgram(il);
  }
  clReleaseProgram(other);
  clReleaseProgram(uses);
}

TEST_CASE(
    "Given a function or a variable two inputs define, when linked, then CL_LINK_PROGRAM_FAILURE "
    "comes back with a log naming it",
    "[cl][program][link][globals]") {
  ClFixture fx;
  // piglit's api@cllinkprogram: the kernel's unit defines get_number itself, so it imports
  // nothing, and the other unit defines it too.
  cl_program function = compiled(fx, "int get_number() { return 42; }\n");
  cl_program kernel = compiled(fx,
                               "int get_number();\n"
                               "kernel void test_kernel(global int* out) { out[0] = get_number(); }\n"
                               "int get_number() { return 0; }\n");
  cl_program variable = compiled(fx, "global int shared_counter = 1;\n");
  cl_program variableAgain = compiled(
      fx, "global int shared_counter = 2;\nkernel void k(global int* o) { o[0] = shared_counter; }\n");
  // export_lib is SPIR-V 1.4 (the corpus build's): units of different versions stay apart.
  auto spv = corpusSpirv("export_lib");
  cl_int err = CL_SUCCESS;
  cl_program il = clCreateProgramWithIL(fx.ctx, spv.data(), spv.size(), &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clCompileProgram(il, 1, &fx.dev, nullptr, 0, nullptr, nullptr, nullptr, nullptr) ==
          CL_SUCCESS);
  cl_program scale = compiled(fx, "int tessera_scale(int x) { return x; }\n");
  const std::vector<std::pair<std::vector<cl_program>, const char*>> cases = {
      {{function, kernel}, "get_number"},
      {{variable, variableAgain}, "shared_counter"},
      {{il, scale}, "tessera_scale"},
  };
  for (const auto& [inputs, name] : cases) {
    INFO(name);
    std::string log;
    cl_program linked = linkPrograms(fx, inputs, &err, &log);
    INFO("link log: " << log);
    CHECK(err == CL_LINK_PROGRAM_FAILURE);
    CHECK(log.find(name) != std::string::npos);
    CHECK(log.find("multiple definition") != std::string::npos);
    if (linked) clReleaseProgram(linked);
  }
  // Each alone still links (the failure is the pair's).
  std::string log;
  cl_program alone = linkPrograms(fx, {kernel}, &err, &log);
  INFO("link log: " << log);
  CHECK(err == CL_SUCCESS);
  if (alone) clReleaseProgram(alone);
  for (cl_program p : {function, kernel, variable, variableAgain, il, scale}) clReleaseProgram(p);
}
