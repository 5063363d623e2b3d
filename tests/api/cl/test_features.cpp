// What the device reports agrees with what the OpenCL C compiler defines, and what is reported
// works: the OpenCL C 3.0 feature macros against CL_DEVICE_OPENCL_C_FEATURES and the capability
// queries they mirror, extension macros against CL_DEVICE_EXTENSIONS, the spec's predefined
// macros, program-scope globals and the atomic orders and scopes, the conformance version string
// and CL_KERNEL_ATTRIBUTES.
#include <cstring>
#include <regex>
#include <set>
#include <sstream>

#include "cl_program_support.h"
#include "image_test_support.h"

using namespace tessera::cltest;

namespace {

cl_int buildSource(ClFixture& fx, const std::string& source, const char* options,
                   std::string* log = nullptr, cl_program* keep = nullptr) {
  const char* text = source.c_str();
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(fx.ctx, 1, &text, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_int r = clBuildProgram(p, 1, &fx.dev, options, nullptr, nullptr);
  if (log) *log = buildLog(p, fx.dev);
  if (keep)
    *keep = p;
  else
    clReleaseProgram(p);
  return r;
}

// Whether the compiler defines `macro` under `options`: a kernel that fails with #error unless it
// is defined, and one that fails if it is; exactly one of them must build.
bool compilerDefines(ClFixture& fx, const std::string& macro, const char* options) {
  std::string defined = "#ifndef " + macro + "\n#error not defined\n#endif\n" +
                        "__kernel void k(__global int* p) { p[0] = 1; }\n";
  std::string undefined = "#ifdef " + macro + "\n#error defined\n#endif\n" +
                          "__kernel void k(__global int* p) { p[0] = 1; }\n";
  std::string log;
  cl_int a = buildSource(fx, defined, options, &log);
  INFO(macro << " " << options << ": " << log);
  cl_int b = buildSource(fx, undefined, options);
  REQUIRE((a == CL_SUCCESS) != (b == CL_SUCCESS));
  return a == CL_SUCCESS;
}

std::set<std::string> reportedFeatures(cl_device_id d) {
  size_t n = 0;
  REQUIRE(clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &n) == CL_SUCCESS);
  std::vector<cl_name_version> v(n / sizeof(cl_name_version));
  REQUIRE(clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_FEATURES, n, v.data(), nullptr) == CL_SUCCESS);
  std::set<std::string> names;
  for (const cl_name_version& f : v) {
    CHECK(f.version == CL_MAKE_VERSION(3, 0, 0));
    names.insert(f.name);
  }
  return names;
}

std::set<std::string> extensions(cl_device_id d) {
  std::istringstream in(deviceString(d, CL_DEVICE_EXTENSIONS));
  std::set<std::string> out;
  for (std::string w; in >> w;) out.insert(w);
  return out;
}

// Every OpenCL C 3.0 optional feature of the spec, and those of extensions clang knows.
const char* const kFeatureMacros[] = {
    "__opencl_c_3d_image_writes",
    "__opencl_c_atomic_order_acq_rel",
    "__opencl_c_atomic_order_seq_cst",
    "__opencl_c_atomic_scope_device",
    "__opencl_c_atomic_scope_all_devices",
    "__opencl_c_device_enqueue",
    "__opencl_c_generic_address_space",
    "__opencl_c_fp64",
    "__opencl_c_fp16",
    "__opencl_c_images",
    "__opencl_c_int64",
    "__opencl_c_pipes",
    "__opencl_c_program_scope_global_variables",
    "__opencl_c_read_write_images",
    "__opencl_c_subgroups",
    "__opencl_c_work_group_collective_functions",
    "__opencl_c_integer_dot_product_input_4x8bit",
    "__opencl_c_integer_dot_product_input_4x8bit_packed",
    "__opencl_c_ext_fp32_global_atomic_add",
    "__opencl_c_ext_fp64_global_atomic_add",
    "__opencl_c_ext_fp32_local_atomic_min_max",
    "__opencl_c_kernel_clock_scope_device",
};

// The OpenCL C language extensions the CTS knows (test_compiler_defines_for_extensions).
const char* const kLanguageExtensions[] = {
    "cl_khr_byte_addressable_store",
    "cl_khr_3d_image_writes",
    "cl_khr_fp16",
    "cl_khr_fp64",
    "cl_khr_global_int32_base_atomics",
    "cl_khr_global_int32_extended_atomics",
    "cl_khr_local_int32_base_atomics",
    "cl_khr_local_int32_extended_atomics",
    "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics",
    "cl_khr_select_fprounding_mode",
    "cl_khr_depth_images",
    "cl_khr_gl_msaa_sharing",
    "cl_khr_subgroups",
    "cl_khr_mipmap_image",
    "cl_khr_mipmap_image_writes",
    "cl_khr_srgb_image_writes",
    "cl_khr_subgroup_named_barrier",
    "cl_khr_extended_async_copies",
    "cl_khr_subgroup_extended_types",
    "cl_khr_subgroup_non_uniform_vote",
    "cl_khr_subgroup_ballot",
    "cl_khr_subgroup_non_uniform_arithmetic",
    "cl_khr_subgroup_shuffle",
    "cl_khr_subgroup_shuffle_relative",
    "cl_khr_subgroup_clustered_reduce",
    "cl_khr_extended_bit_ops",
    "cl_khr_integer_dot_product",
    "cl_khr_subgroup_rotate",
    "cl_ext_float_atomics",
};

}  // namespace

TEST_CASE(
    "Given -cl-std=CL3.0, when each feature macro is tested, then the compiler defines exactly "
    "what CL_DEVICE_OPENCL_C_FEATURES reports",
    "[cl][features]") {
  ClFixture fx;
  std::set<std::string> reported = reportedFeatures(fx.dev);
  std::set<std::string> known(std::begin(kFeatureMacros), std::end(kFeatureMacros));
  for (const std::string& name : reported) {
    INFO(name);
    CHECK(known.count(name) == 1);  // a reported feature must be tested here
  }
  for (const char* macro : kFeatureMacros) {
    INFO(macro);
    CHECK(compilerDefines(fx, macro, "-cl-std=CL3.0") == (reported.count(macro) == 1));
  }
}

TEST_CASE(
    "Given the feature queries, then each agrees with its feature macro as the 3.0 consistency "
    "rules say",
    "[cl][features]") {
  ClFixture fx;
  std::set<std::string> f = reportedFeatures(fx.dev);
  auto has = [&](const char* name) { return f.count(name) == 1; };
  auto atomics =
      deviceInfo<cl_device_atomic_capabilities>(fx.dev, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES);
  auto fences =
      deviceInfo<cl_device_atomic_capabilities>(fx.dev, CL_DEVICE_ATOMIC_FENCE_CAPABILITIES);
  CHECK(has("__opencl_c_atomic_order_acq_rel") == bool(atomics & CL_DEVICE_ATOMIC_ORDER_ACQ_REL));
  CHECK(has("__opencl_c_atomic_order_seq_cst") == bool(atomics & CL_DEVICE_ATOMIC_ORDER_SEQ_CST));
  CHECK(has("__opencl_c_atomic_scope_device") == bool(atomics & CL_DEVICE_ATOMIC_SCOPE_DEVICE));
  CHECK(has("__opencl_c_atomic_scope_all_devices") ==
        bool(atomics & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES));
  // The 3.0 minimums: "CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP" for
  // memory operations, with CL_DEVICE_ATOMIC_ORDER_ACQ_REL for fences; and each order or scope
  // needs the weaker ones.
  for (cl_device_atomic_capabilities c : {atomics, fences}) {
    CHECK((c & CL_DEVICE_ATOMIC_ORDER_RELAXED) != 0);
    CHECK((c & CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP) != 0);
    if (c & CL_DEVICE_ATOMIC_ORDER_SEQ_CST) CHECK((c & CL_DEVICE_ATOMIC_ORDER_ACQ_REL) != 0);
    if (c & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES) CHECK((c & CL_DEVICE_ATOMIC_SCOPE_DEVICE) != 0);
  }
  CHECK((fences & CL_DEVICE_ATOMIC_ORDER_ACQ_REL) != 0);
  CHECK(has("__opencl_c_generic_address_space") ==
        (deviceInfo<cl_bool>(fx.dev, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT) == CL_TRUE));
  CHECK(has("__opencl_c_pipes") ==
        (deviceInfo<cl_bool>(fx.dev, CL_DEVICE_PIPE_SUPPORT) == CL_TRUE));
  CHECK(
      has("__opencl_c_work_group_collective_functions") ==
      (deviceInfo<cl_bool>(fx.dev, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT) == CL_TRUE));
  CHECK(has("__opencl_c_program_scope_global_variables") ==
        (deviceInfo<size_t>(fx.dev, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE) >= 64 * 1024));
  CHECK(has("__opencl_c_images") ==
        (deviceInfo<cl_bool>(fx.dev, CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE));
  CHECK(has("__opencl_c_read_write_images") ==
        (deviceInfo<cl_uint>(fx.dev, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS) > 0));
  CHECK(has("__opencl_c_subgroups") ==
        (deviceInfo<cl_uint>(fx.dev, CL_DEVICE_MAX_NUM_SUB_GROUPS) > 0));
  CHECK(has("__opencl_c_device_enqueue") ==
        bool(deviceInfo<cl_device_device_enqueue_capabilities>(
                 fx.dev, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES) &
             CL_DEVICE_QUEUE_SUPPORTED));
  CHECK(has("__opencl_c_fp64") ==
        (deviceInfo<cl_device_fp_config>(fx.dev, CL_DEVICE_DOUBLE_FP_CONFIG) != 0));
  CHECK(has("__opencl_c_fp16") ==
        (deviceInfo<cl_device_fp_config>(fx.dev, CL_DEVICE_HALF_FP_CONFIG) != 0));
  CHECK(has("__opencl_c_int64"));  // FULL_PROFILE
}

TEST_CASE(
    "Given OpenCL C 1.2 and 3.0, when each known extension macro is tested, then it is defined "
    "exactly when the device advertises the extension",
    "[cl][features][extensions]") {
  ClFixture fx;
  std::set<std::string> advertised = extensions(fx.dev);
  for (const char* options : {"", "-cl-std=CL3.0"}) {
    for (const char* name : kLanguageExtensions) {
      INFO(name << " with '" << options << "'");
      CHECK(compilerDefines(fx, name, options) == (advertised.count(name) == 1));
    }
  }
}

TEST_CASE("Given any -cl-std, then the spec's predefined macros have the device's values",
          "[cl][features][macros]") {
  ClFixture fx;
  for (const char* options : {"", "-cl-std=CL1.1", "-cl-std=CL1.2", "-cl-std=CL3.0"}) {
    INFO(options);
    // OpenCL 3.0 device: "must be defined but may substitute any implementation-defined integer
    // value greater than 200"; the CTS wants at most the device's version.
    std::string log;
    CHECK(buildSource(fx,
                      "#if !defined(__OPENCL_VERSION__) || __OPENCL_VERSION__ != 300\n#error v\n"
                      "#endif\n__kernel void k(__global int* p) { p[0] = __OPENCL_VERSION__; }\n",
                      options, &log) == CL_SUCCESS);
    INFO(log);
    // "__IMAGE_SUPPORT__ is an integer constant of 1 if images are supported and is undefined
    // otherwise".
    CHECK(compilerDefines(fx, "__IMAGE_SUPPORT__", options) == deviceHasImages(fx.dev));
    CHECK(compilerDefines(fx, "__ENDIAN_LITTLE__", options));
    CHECK(compilerDefines(fx, "__OPENCL_C_VERSION__", options));
  }
}

TEST_CASE(
    "Given program-scope global variables, when one kernel writes them and another reads them, "
    "then the values persist and the build reports their total size",
    "[cl][features][globals]") {
  ClFixture fx;
  cl_program p = nullptr;
  std::string log;
  REQUIRE(buildSource(fx, R"(
__global long counter = 5;
__global int table[1000] = {1, 2, 3};
__global int* where = &table[2];
__constant int bias = 100;
__kernel void write(__global long* out) {
  if (get_global_id(0) == 0) { counter += 1; table[1] += 10; *where += 1000; }
}
__kernel void read(__global long* out) {
  out[get_global_id(0)] = counter + table[1] * 10 + *where + bias;
}
)",
                      "-cl-std=CL3.0", &log, &p) == CL_SUCCESS);
  INFO(log);
  size_t total = 0;
  REQUIRE(clGetProgramBuildInfo(p, fx.dev, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                sizeof total, &total, nullptr) == CL_SUCCESS);
  CHECK(total >= 8 + 4000 + 8);
  cl_int err = CL_SUCCESS;
  cl_mem buf = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, 8 * sizeof(cl_long), nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_kernel w = makeKernel(p, "write"), r = makeKernel(p, "read");
  REQUIRE(clSetKernelArg(w, 0, sizeof buf, &buf) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(r, 0, sizeof buf, &buf) == CL_SUCCESS);
  size_t n = 8;
  REQUIRE(clEnqueueNDRangeKernel(fx.queue, w, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(fx.queue, r, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  cl_long out[8] = {};
  REQUIRE(clEnqueueReadBuffer(fx.queue, buf, CL_TRUE, 0, sizeof out, out, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  for (cl_long v : out) CHECK(v == 6 + 12 * 10 + 1003 + 100);
  clReleaseKernel(w);
  clReleaseKernel(r);
  clReleaseMemObject(buf);
  clReleaseProgram(p);
}

TEST_CASE("Given every reported atomic order and scope, when kernels use them, then they work",
          "[cl][features][atomics]") {
  ClFixture fx;
  cl_program p = nullptr;
  std::string log;
  REQUIRE(buildSource(fx, R"(
__kernel void k(__global atomic_int* c, __global atomic_long* l) {
  atomic_fetch_add_explicit(&c[0], 1, memory_order_relaxed, memory_scope_work_group);
  atomic_fetch_add_explicit(&c[1], 1, memory_order_acq_rel, memory_scope_device);
  atomic_fetch_add_explicit(&c[2], 1, memory_order_seq_cst, memory_scope_all_devices);
  atomic_fetch_max_explicit(&l[0], (long)get_global_id(0) << 33, memory_order_acq_rel,
                            memory_scope_all_svm_devices);
  atomic_store_explicit(&c[3], 7, memory_order_release, memory_scope_device);
  int seen = atomic_load_explicit(&c[3], memory_order_acquire, memory_scope_device);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_all_devices);
  int expected = 0;
  atomic_compare_exchange_strong_explicit(&c[4], &expected, seen, memory_order_acq_rel,
                                          memory_order_acquire, memory_scope_device);
}
)",
                      "-cl-std=CL3.0", &log, &p) == CL_SUCCESS);
  INFO(log);
  cl_kernel k = makeKernel(p, "k");
  cl_int ints[5] = {}, err = CL_SUCCESS;
  cl_long longs[1] = {};
  cl_mem c =
      clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof ints, ints, &err);
  cl_mem l =
      clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof longs, longs, &err);
  REQUIRE(clSetKernelArg(k, 0, sizeof c, &c) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof l, &l) == CL_SUCCESS);
  size_t n = 256, local = 64;
  REQUIRE(clEnqueueNDRangeKernel(fx.queue, k, 1, nullptr, &n, &local, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(fx.queue, c, CL_TRUE, 0, sizeof ints, ints, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(fx.queue, l, CL_TRUE, 0, sizeof longs, longs, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  CHECK(ints[0] == 256);
  CHECK(ints[1] == 256);
  CHECK(ints[2] == 256);
  CHECK(ints[3] == 7);
  CHECK(ints[4] == 7);
  CHECK(longs[0] == cl_long{255} << 33);
  clReleaseMemObject(c);
  clReleaseMemObject(l);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

TEST_CASE("Given the device, then CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED is well formed",
          "[cl][features]") {
  // "the latest version of the conformance test suite that this device has fully passed in
  // accordance with the official conformance process", in the format vYYYY-MM-DD-XX.
  std::string v = deviceString(device(), CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED);
  INFO(v);
  std::smatch m;
  REQUIRE(std::regex_match(v, m, std::regex(R"(v(\d{4})-(\d{2})-(\d{2})-(\d{2}))")));
  CHECK(std::stoi(m[1]) >= 2020);
  CHECK(std::stoi(m[2]) >= 1);
  CHECK(std::stoi(m[2]) <= 12);
  CHECK(std::stoi(m[3]) >= 1);
  CHECK(std::stoi(m[3]) <= 31);
}

TEST_CASE(
    "Given vec_type_hint of every type in the source, then CL_KERNEL_ATTRIBUTES names the type "
    "as declared, and kernels not from source have no attributes",
    "[cl][features][attributes]") {
  ClFixture fx;
  std::vector<std::string> types;
  for (const char* base :
       {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double"}) {
    types.push_back(base);
    for (const char* n : {"2", "3", "4", "8", "16"}) types.push_back(std::string(base) + n);
  }
  for (const std::string& type : types) {
    INFO(type);
    std::string source = "__attribute__((vec_type_hint(" + type +
                         ")))\n__attribute__((reqd_work_group_size(1,1,1)))\n"
                         "__kernel void test_kernel() {}\n";
    cl_program p = nullptr;
    REQUIRE(buildSource(fx, source, nullptr, nullptr, &p) == CL_SUCCESS);
    cl_kernel k = makeKernel(p, "test_kernel");
    size_t n = 0;
    REQUIRE(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, 0, nullptr, &n) == CL_SUCCESS);
    std::string attributes(n, '\0');
    REQUIRE(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, n, attributes.data(), nullptr) == CL_SUCCESS);
    attributes = attributes.c_str();
    CHECK(attributes.find("vec_type_hint(" + type + ")") != std::string::npos);
    CHECK(attributes.find("reqd_work_group_size(1,1,1)") != std::string::npos);
    clReleaseKernel(k);
    clReleaseProgram(p);
  }
  // The kernel_exec macro of the spec spells the same attribute.
  cl_program p = nullptr;
  REQUIRE(buildSource(fx, "__kernel_exec(1, ushort4) void test_kernel() {}\n", nullptr, nullptr,
                      &p) == CL_SUCCESS);
  cl_kernel k = makeKernel(p, "test_kernel");
  char text[256] = {};
  REQUIRE(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof text, text, nullptr) == CL_SUCCESS);
  CHECK(std::string(text).find("vec_type_hint(ushort4)") != std::string::npos);
  clReleaseKernel(k);
  clReleaseProgram(p);
  // "For kernels not created from OpenCL C source and the clCreateProgramWithSource API call the
  // string returned from this query will be empty."
  p = ilProgram(fx.ctx, "reqd_size");
  k = makeKernel(p, "reqd_size");
  REQUIRE(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof text, text, nullptr) == CL_SUCCESS);
  CHECK(std::string(text).empty());
  clReleaseKernel(k);
  clReleaseProgram(p);
}
