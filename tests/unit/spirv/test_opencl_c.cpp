// The in-process OpenCL C compiler: options, headers, every -cl-std, diagnostics, hostile input,
// concurrency and compile time.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include <spirv/unified1/spirv.hpp>

#include "spirv/opencl_c.h"
#include "spirv/opencl_options.h"
#include "spirv/reflect.h"
#include "spirv_test_support.h"

using namespace tessera::spirv;
using namespace tessera::spirv::test;

namespace {

constexpr const char* kVectorAdd = R"(
__kernel void vector_add(__global const float* a, __global const float* b, __global float* c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
)";

ModuleInfo reflectResult(const CompileResult& r) {
  ReflectResult reflection = reflect(asBytes(r.spirv));
  REQUIRE(reflection.ok);
  return reflection.module;
}

CompileResult compileOk(std::string_view source, std::string_view options = "",
                        const std::vector<OpenCLHeader>& headers = {}) {
  CompileResult r = compileOpenCLC(source, options, headers);
  INFO("options: " << options << "\nlog:\n" << r.log);
  REQUIRE(r.ok);
  REQUIRE(!r.spirv.empty());
  return r;
}

// A kernel whose one argument's value is the macro expression `expr`.
std::string macroKernel(const std::string& expr) {
  return "__kernel void k(__global int* out) { out[0] = " + expr + "; }\n";
}

}  // namespace

TEST_CASE("Given options strings, when tokenized, then quotes group and backslashes escape",
          "[spirv][opencl_c][options]") {
  std::string error;
  CHECK(tokenizeOptions("  -D A=1   -I \"/a b/c\" -DX='y z'\t-w ", error) ==
        std::vector<std::string>{"-D", "A=1", "-I", "/a b/c", "-DX=y z", "-w"});
  CHECK(error.empty());
  CHECK(tokenizeOptions(R"(-DA=\"q\" "")", error) == std::vector<std::string>{"-DA=\"q\"", ""});
  CHECK(tokenizeOptions("-D 'open", error).empty());
  CHECK(!error.empty());
  error.clear();
  CHECK(tokenizeOptions("-D x\\", error).empty());
  CHECK(!error.empty());
}

TEST_CASE("Given OpenCL options, when parsed, then valid ones map and invalid ones are named",
          "[spirv][opencl_c][options]") {
  CompileOptions o = parseCompileOptions(
      "-cl-std=CL2.0 -cl-fast-relaxed-math -cl-denorms-are-zero -cl-kernel-arg-info -DN=4 -g");
  REQUIRE(o.ok);
  CHECK(o.version == OpenCLVersion::CL20);
  CHECK(o.denormsAreZero);
  CHECK(std::find(o.clangArgs.begin(), o.clangArgs.end(), "-cl-fast-relaxed-math") !=
        o.clangArgs.end());
  CHECK(std::find(o.clangArgs.begin(), o.clangArgs.end(), "N=4") != o.clangArgs.end());

  for (const char* bad : {"-cl-std=CL2.1", "-O3", "-cl-fast-relaxed", "-D", "-I", "--", "-x cl",
                          "-cl-std=CLC++", "-Xclang -ast-dump", "-create-library"}) {
    INFO(bad);
    CompileOptions r = parseCompileOptions(bad);
    CHECK(!r.ok);
    CHECK(!r.error.empty());
  }
  LinkOptions l = parseLinkOptions("-create-library -enable-link-options -cl-finite-math-only");
  CHECK(l.ok);
  CHECK(l.createLibrary);
  CHECK(!parseLinkOptions("-enable-link-options").ok);
  CHECK(!parseLinkOptions("-DX").ok);
}

TEST_CASE(
    "Given build options, when parsed once, then the module flags and include folders are what "
    "the runtime and the compiler need of them",
    "[spirv][opencl_c][options]") {
  const std::string tmp = std::filesystem::temp_directory_path().string();
  CompileOptions o = parseCompileOptions("-D N=4 -DM=2 -I inc -Iother -w -Werror -cl-opt-disable "
                                         "-cl-mad-enable -cl-kernel-arg-info -g -DROOT=" + tmp +
                                         " -DSLASH=/ -DFILE=/no/such/folder");
  REQUIRE(o.ok);
  // The front end's options are gone, -cl-opt-disable is the JIT's level, the rest stays.
  CHECK(o.moduleFlags == "-ze-opt-disable -cl-mad-enable -cl-kernel-arg-info -g");
  CHECK(o.kernelArgInfo);
  // -I folders made absolute, then an existing absolute folder given as a macro's value; "/" and a
  // missing folder are not folders of headers.
  REQUIRE(o.includeFolders.size() == 3);
  CHECK(o.includeFolders[0] == std::filesystem::absolute("inc").string());
  CHECK(o.includeFolders[1] == std::filesystem::absolute("other").string());
  CHECK(o.includeFolders[2] == tmp);
  CHECK(parseCompileOptions("-D N -cl-fast-relaxed-math").moduleFlags == "-cl-fast-relaxed-math");
  CHECK(parseCompileOptions("-cl-no-such -cl-mad-enable").moduleFlags.empty());

  // SPIR-V input (IL, binaries): the same words dropped, and words unknown here are kept for the
  // module build to refuse with a log.
  CHECK(moduleFlagsOf("-D X=1 -I dir -w -cl-opt-disable -ze-opt-level=1 -cl-no-such") ==
        "-ze-opt-disable -ze-opt-level=1 -cl-no-such");
  CHECK(moduleFlagsOf("-D 'open").empty());
}

TEST_CASE("Given a vector add, when compiled, then the SPIR-V names the kernel and its arguments",
          "[spirv][opencl_c]") {
  CompileResult r = compileOk(kVectorAdd);
  CHECK(!r.invalidOptions);
  ModuleInfo m = reflectResult(r);
  CHECK(m.version == 0x00010000);
  REQUIRE(m.kernels.size() == 1);
  const KernelInfo& k = m.kernels[0];
  CHECK(k.name == "vector_add");
  REQUIRE(k.args.size() == 3);
  const char* names[] = {"a", "b", "c"};
  for (size_t i = 0; i < 3; ++i) {
    CHECK(k.args[i].kind == ArgKind::GlobalPointer);
    CHECK(k.args[i].size == 8);
    CHECK(k.args[i].name == names[i]);
  }
  // Type names for clGetKernelArgInfo travel as an OpString.
  std::string bytes(reinterpret_cast<const char*>(r.spirv.data()), r.spirv.size() * 4);
  CHECK(bytes.find("kernel_arg_type.vector_add.float*,float*,float*,") != std::string::npos);
}

// clpeak's compute kernel: clang lays the loop's exit block out before the loop body, whose last
// value the exit stores; the SPIR-V must still define every id before its use.
TEST_CASE("Given a loop whose exit uses the body's last value, when compiled, then the SPIR-V validates",
          "[spirv][opencl_c]") {
  CompileResult r = compileOk(R"(
__kernel void mad_loop(__global float* ptr, float a) {
  float x = a, y = (float)get_local_id(0);
  for (int i = 0; i < 128; i++) { x = mad(y, x, y); y = mad(x, y, x); }
  ptr[get_global_id(0)] = y;
}
)");
  CHECK(reflectResult(r).kernels.size() == 1);
}

TEST_CASE("Given -D options in every spelling, when compiled, then the macros are defined",
          "[spirv][opencl_c][options]") {
  compileOk(macroKernel("A + B + C + D"), "-D A -DB=2 -D C=3 -D 'D=(4 + 1)'");
  CompileResult missing = compileOpenCLC(macroKernel("UNDEFINED_MACRO"), "");
  CHECK(!missing.ok);
  CHECK(!missing.invalidOptions);
  CHECK(missing.log.find("UNDEFINED_MACRO") != std::string::npos);
}

TEST_CASE("Given input headers and -I directories, when included, then both resolve",
          "[spirv][opencl_c][headers]") {
  std::vector<OpenCLHeader> headers = {
      {"defs.h", "#include \"sub/more.h\"\n#define FROM_HEADER (MORE + 1)\n"},
      {"sub/more.h", "#define MORE 41\n"}};
  compileOk("#include \"defs.h\"\n" + macroKernel("FROM_HEADER"), "", headers);
  compileOk("#include <defs.h>\n" + macroKernel("FROM_HEADER"), "", headers);

  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("tessera_oclc_inc_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "with space");
  std::ofstream(dir / "with space" / "real.h") << "#define FROM_DISK 7\n";
  compileOk("#include \"real.h\"\n" + macroKernel("FROM_DISK"),
            "-I \"" + (dir / "with space").string() + "\"");
  CompileResult noDir = compileOpenCLC("#include \"real.h\"\n" + macroKernel("FROM_DISK"), "");
  CHECK(!noDir.ok);
  CHECK(noDir.log.find("real.h") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("Given every -cl-std, when compiled, then the version macro matches",
          "[spirv][opencl_c][options]") {
  const std::pair<const char*, int> versions[] = {
      {"CL1.0", 100}, {"CL1.1", 110}, {"CL1.2", 120}, {"CL2.0", 200}, {"CL3.0", 300}};
  for (const auto& [name, value] : versions) {
    INFO(name);
    std::string source = "#if __OPENCL_C_VERSION__ != " + std::to_string(value) +
                         "\n#error wrong version\n#endif\n" + kVectorAdd;
    ModuleInfo m = reflectResult(compileOk(source, std::string("-cl-std=") + name));
    CHECK(m.kernels.size() == 1);
  }
  // The default is OpenCL C 1.2; 3.0 has the features of a CPU and none it lacks (images,
  // read-write images, 3D image writes and the generic address space it has).
  compileOk(
      "#if __OPENCL_C_VERSION__ != 120 || __IMAGE_SUPPORT__ != 1 || "
      "!defined(cl_khr_3d_image_writes)\n#error\n#endif\n" +
      std::string(kVectorAdd));
  compileOk(
      "#if !defined(__opencl_c_generic_address_space) || !defined(__opencl_c_fp64) || "
      "!defined(__opencl_c_images) || defined(__opencl_c_pipes) || "
      "!defined(__opencl_c_read_write_images) || !defined(__opencl_c_3d_image_writes) || "
      "__IMAGE_SUPPORT__ != 1 || __OPENCL_VERSION__ != 300\n#error features\n#endif\n"
      "__kernel void k(__global double* d) { d[0] = 1.0; }\n",
      "-cl-std=CL3.0");
}

TEST_CASE("Given every documented option, when compiled, then each is accepted",
          "[spirv][opencl_c][options]") {
  for (const char* option :
       {"-w", "-Werror", "-cl-single-precision-constant", "-cl-denorms-are-zero",
        "-cl-fp32-correctly-rounded-divide-sqrt", "-cl-opt-disable", "-cl-mad-enable",
        "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations", "-cl-finite-math-only",
        "-cl-fast-relaxed-math", "-cl-uniform-work-group-size", "-cl-no-subgroup-ifp",
        "-cl-kernel-arg-info", "-g", "-cl-strict-aliasing"}) {
    compileOk(kVectorAdd, option);
  }
}

TEST_CASE("Given an unknown option, then nothing compiles and invalidOptions names it",
          "[spirv][opencl_c][options]") {
  CompileResult r = compileOpenCLC(kVectorAdd, "-cl-mad-enable -fno-such-thing");
  CHECK(!r.ok);
  CHECK(r.invalidOptions);
  CHECK(r.log.find("-fno-such-thing") != std::string::npos);
  CHECK(compileOpenCLC(kVectorAdd, "-D \"unterminated").invalidOptions);
}

TEST_CASE("Given a syntax error, then the log gives its line and nothing crashes",
          "[spirv][opencl_c][errors]") {
  CompileResult r = compileOpenCLC("__kernel void k(__global int* p) {\n  p[0] = 1\n}\n", "");
  CHECK(!r.ok);
  CHECK(!r.invalidOptions);
  CHECK(r.spirv.empty());
  INFO(r.log);
  CHECK(r.log.rfind("program.cl:2:", 0) == 0);  // relative name: no in-memory directory
  CHECK(r.log.find("error") != std::string::npos);
  // -Werror turns a warning into a failure; without it the warning is still logged.
  std::string warns = "#warning careful\n" + std::string(kVectorAdd);
  CompileResult warned = compileOpenCLC(warns, "");
  CHECK(warned.ok);
  CHECK(warned.log.find("program.cl:1:2: warning: careful") != std::string::npos);
  CHECK(!compileOpenCLC(warns, "-Werror").ok);
  CHECK(compileOpenCLC(warns, "-w").log.empty());
}

TEST_CASE("Given hostile sources, then each fails or compiles without crashing",
          "[spirv][opencl_c][errors]") {
  std::vector<std::string> sources = {
      "",
      std::string("\0\0\0\xff\xfe garbage", 13),  // the literal's 13 characters, nuls included
      "#error stop here\n",
      "#include \"does_not_exist.h\"\n",
      "#include \"/dev/zero\"\n",  // a device: read as empty, not forever
      "#include \"/\"\n",
      "#include __FILE__\n",  // includes itself until the depth limit
      std::string(100000, '(') + "\n",
      "__kernel void k() {" + std::string(5000, '{') + std::string(5000, '}') + "}\n",
      "#define A(x) A(x) x\nA(A(A(A(1))))\n",
      "__kernel void k(__global int* p) { p[0] = 1 / 0; }\n",
      "int main() { return 0; }\n",
      "__kernel int k() { return 1; }\n",
      "__kernel void k(__global float* p) { p[0] = sqrt(); }\n",
      "__kernel void k(image2d_t i) {}\n",
      "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n__kernel void k(__global half* p) "
      "{ p[0] = p[0] * 2; }\n",
  };
  std::mt19937 random(1234);
  for (int i = 0; i < 8; ++i) {
    std::string junk(200 + random() % 2000, '\0');
    for (char& c : junk) c = static_cast<char>(random());
    sources.push_back(junk);
  }
  for (size_t i = 0; i < sources.size(); ++i) {
    INFO("source " << i);
    CompileResult r = compileOpenCLC(sources[i], "");
    CHECK(!r.invalidOptions);
    if (r.ok)
      CHECK(reflect(asBytes(r.spirv)).ok);
    else
      CHECK(!r.log.empty());
  }
}

TEST_CASE("Given OpenCL C 2.0 features a CPU may lack, then each compiles or fails cleanly",
          "[spirv][opencl_c][errors]") {
  const char* sources[] = {
      "__kernel void k(__global atomic_int* a) {\n"
      "  atomic_fetch_add_explicit(a, 1, memory_order_seq_cst, memory_scope_all_svm_devices);\n"
      "  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, memory_scope_device);\n"
      "}\n",
      "__kernel void k(__global int* p) { __generic int* g = p; __global int* q = to_global(g);\n"
      "  q[0] = work_group_reduce_add((int)get_local_id(0)); }\n",
      "__kernel void child(__global int* p) { p[0] = 1; }\n"
      "__kernel void k(__global int* p) { enqueue_kernel(get_default_queue(),\n"
      "  CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ p[0] = 2; }); }\n",
      "__kernel void k(__write_only pipe int out) { int v = 1; write_pipe(out, &v); }\n",
      "__kernel void k(__global int* p) { p[0] = get_sub_group_size(); }\n",
      "__global int counter = 0;\n__kernel void k(__global int* p) { p[0] = counter++; }\n",
      "__kernel __attribute__((reqd_work_group_size(8, 1, 1), vec_type_hint(float4)))\n"
      "void k(__global float* p) { printf(\"%f %v4f\\n\", p[0], vload4(0, p));\n"
      "  vstore_half(p[1], 0, (__global half*)p); }\n",
      "__kernel void k(__global double* d) { d[0] = sqrt(d[1]) + (double)get_global_id(0); }\n",
  };
  for (const char* std : {"-cl-std=CL2.0", "-cl-std=CL3.0", ""}) {
    for (const char* source : sources) {
      INFO(std << "\n" << source);
      CompileResult r = compileOpenCLC(source, std);
      CHECK(!r.invalidOptions);
      if (r.ok)
        CHECK(reflect(asBytes(r.spirv)).ok);
      else
        CHECK(!r.log.empty());
    }
  }
}

TEST_CASE("Given two threads compiling at once, then every result is right",
          "[spirv][opencl_c][threads]") {
  std::vector<int> good(2, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([t, &good] {
      for (int i = 0; i < 6; ++i) {
        std::string name = "k" + std::to_string(t) + "_" + std::to_string(i);
        CompileResult r =
            compileOpenCLC("__kernel void NAME(__global int* p) { p[get_global_id(0)] = VALUE; }\n",
                           "-D NAME=" + name + " -DVALUE=" + std::to_string(i));
        CompileResult bad = compileOpenCLC("__kernel void broken( {", "");
        if (!r.ok || bad.ok) continue;
        ReflectResult m = reflect(asBytes(r.spirv));
        if (m.ok && m.module.kernels.size() == 1 && m.module.kernels[0].name == name) ++good[t];
      }
    });
  }
  for (auto& t : threads) t.join();
  CHECK(good[0] == 6);
  CHECK(good[1] == 6);
}

TEST_CASE("Given int index arithmetic, when compiled to SPIR-V, then clang's no-wrap flags are "
          "kept as decorations",
          "[spirv][opencl_c]") {
  // Signed overflow is undefined in OpenCL C (C99 6.5p5), so clang marks int arithmetic `nsw`;
  // SPV_KHR_no_integer_wrap_decoration carries that to whoever reads the SPIR-V (the JIT, through
  // the SPIR-V front end or CL_PROGRAM_BINARIES).
  CompileResult r = compileOk(
      "__kernel void k(__global float* a, int w) {\n"
      "  int i = get_global_id(0);\n"
      "  a[i * w + 1] = a[(i + 1) * w];\n"
      "}\n");
  size_t noSignedWrap = 0;
  bool extension = false;
  for (size_t at = 5; at < r.spirv.size();) {
    const uint32_t count = r.spirv[at] >> 16, op = r.spirv[at] & 0xffff;
    REQUIRE(count > 0);
    if (op == spv::OpDecorate && count >= 3 && r.spirv[at + 2] == spv::DecorationNoSignedWrap)
      ++noSignedWrap;
    if (op == spv::OpExtension &&
        std::string(reinterpret_cast<const char*>(&r.spirv[at + 1])) ==
            "SPV_KHR_no_integer_wrap_decoration")
      extension = true;
    at += count;
  }
  CHECK(extension);
  CHECK(noSignedWrap >= 3);  // (i + 1), * w, i * w, + 1
}
