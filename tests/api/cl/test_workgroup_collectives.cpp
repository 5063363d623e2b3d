// Work-group collective functions (CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT,
// __opencl_c_work_group_collective_functions): every reduce and inclusive/exclusive scan of add,
// min and max for int, uint, long, ulong, float, double and half, broadcast in 1, 2 and 3
// dimensions, all and any; in OpenCL C 3.0 (the feature macro declares them) and 2.0, in uniform
// ranges and in ranges whose last group is partial. Against a host fold in local id order.
#include <CL/cl_half.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "cl_program_support.h"

using namespace tessera::cltest;

namespace {

struct Type {
  const char* name;
  size_t size;
  bool isSigned, isFloat;
  long double min, max;  // the exclusive scans' identities for max and min
};

const Type kTypes[] = {
    {"int", 4, true, false, INT32_MIN, INT32_MAX},  {"uint", 4, false, false, 0, UINT32_MAX},
    {"long", 8, true, false, INT64_MIN, INT64_MAX}, {"ulong", 8, false, false, 0, UINT64_MAX},
    {"float", 4, true, true, -INFINITY, INFINITY},  {"double", 8, true, true, -INFINITY, INFINITY},
    {"half", 2, true, true, -INFINITY, INFINITY},
};

constexpr const char* kOps[9] = {"reduce_add",         "reduce_min",         "reduce_max",
                                 "scan_inclusive_add", "scan_inclusive_min", "scan_inclusive_max",
                                 "scan_exclusive_add", "scan_exclusive_min", "scan_exclusive_max"};

std::string source(const Type& t) {
  std::string s =
      std::string(t.name) == "half" ? "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n" : "";
  s += "kernel void coll(global const T* in, global T* out) {\n"
       "  size_t i = get_global_id(0), n = get_global_size(0);\n  T x = in[i];\n";
  for (int o = 0; o < 9; ++o)
    s += "  out[" + std::to_string(o) + " * n + i] = work_group_" + kOps[o] + "(x);\n";
  s += "}\n";
  return "#define T " + std::string(t.name) + "\n" + s;
}

// A value of `t` in `bytes` as a long double (exact for every value used here).
long double read(const Type& t, const unsigned char* bytes) {
  if (std::string(t.name) == "half") {
    cl_half h;
    std::memcpy(&h, bytes, 2);
    return cl_half_to_float(h);
  }
  if (t.isFloat) {
    if (t.size == 4) {
      float f;
      std::memcpy(&f, bytes, 4);
      return f;
    }
    double d;
    std::memcpy(&d, bytes, 8);
    return d;
  }
  if (t.size == 4) {
    if (t.isSigned) {
      int32_t v;
      std::memcpy(&v, bytes, 4);
      return v;
    }
    uint32_t v;
    std::memcpy(&v, bytes, 4);
    return v;
  }
  if (t.isSigned) {
    int64_t v;
    std::memcpy(&v, bytes, 8);
    return v;
  }
  uint64_t v;
  std::memcpy(&v, bytes, 8);
  return v;
}

void write(const Type& t, long double v, unsigned char* bytes) {
  if (std::string(t.name) == "half") {
    cl_half h = cl_half_from_float(float(v), CL_HALF_RTE);
    std::memcpy(bytes, &h, 2);
  } else if (t.isFloat && t.size == 4) {
    float f = float(v);
    std::memcpy(bytes, &f, 4);
  } else if (t.isFloat) {
    double d = double(v);
    std::memcpy(bytes, &d, 8);
  } else if (t.size == 4) {
    int32_t i = int32_t(v);
    std::memcpy(bytes, &i, 4);
  } else {
    int64_t i = int64_t(v);
    std::memcpy(bytes, &i, 8);
  }
}

// Runs `coll` for `t` over `global` work-items in groups of `local` and checks every output.
void checkType(ClFixture& fx, cl_kernel k, const Type& t, size_t global, size_t local) {
  std::vector<long double> x(global);
  std::vector<unsigned char> in(global * t.size), out(9 * global * t.size);
  for (size_t i = 0; i < global; ++i) {
    // Small integers: every sum is exact in each type (half: at most 2048).
    x[i] = (long double)(int((i * 37) % 23) - (t.isSigned ? 11 : 0));
    write(t, x[i], &in[i * t.size]);
  }
  cl_int err = CL_SUCCESS;
  cl_mem a = clCreateBuffer(fx.ctx, CL_MEM_COPY_HOST_PTR, in.size(), in.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem b = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, out.size(), nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  setKernelArgs(k, {{sizeof a, &a}, {sizeof b, &b}});
  runKernel(fx.queue, k, 1, &global, &local);
  REQUIRE(clEnqueueReadBuffer(fx.queue, b, CL_TRUE, 0, out.size(), out.data(), 0, nullptr,
                              nullptr) == CL_SUCCESS);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  for (size_t g = 0; g < global; g += local) {
    const size_t end = std::min(global, g + local);
    long double sum = 0, mn = t.max, mx = t.min;
    for (size_t j = g; j < end; ++j) sum += x[j], mn = std::min(mn, x[j]), mx = std::max(mx, x[j]);
    long double psum = 0, pmin = t.max, pmax = t.min;  // over the work-items before
    for (size_t i = g; i < end; ++i) {
      const long double expect[9] = {
          sum, mn, mx, psum + x[i], std::min(pmin, x[i]), std::max(pmax, x[i]), psum, pmin, pmax};
      for (int o = 0; o < 9; ++o) {
        INFO(t.name << " work_group_" << kOps[o] << ", global " << global << " local " << local
                    << ", work-item " << i);
        CHECK(read(t, &out[(o * global + i) * t.size]) == expect[o]);
      }
      psum += x[i], pmin = std::min(pmin, x[i]), pmax = std::max(pmax, x[i]);
    }
  }
}

const char* kVotes = R"(
kernel void b1(global const int* in, global int* out) {
  size_t i = get_global_linear_id();
  out[2 * i] = work_group_broadcast(in[i], get_local_size(0) - 1);
  out[2 * i + 1] = work_group_all(in[i] > 3) + 2 * work_group_any(in[i] > 90);
}
kernel void b2(global const int* in, global int* out) {
  size_t i = get_global_linear_id();
  out[2 * i] = work_group_broadcast(in[i], get_local_size(0) - 1, get_local_size(1) / 2);
  out[2 * i + 1] = work_group_all(in[i] > 3) + 2 * work_group_any(in[i] > 90);
}
kernel void b3(global const int* in, global int* out) {
  size_t i = get_global_linear_id();
  out[2 * i] = work_group_broadcast(in[i], get_local_size(0) - 1, get_local_size(1) / 2,
                                    get_local_size(2) - 1);
  out[2 * i + 1] = work_group_all(in[i] > 3) + 2 * work_group_any(in[i] > 90);
}
)";

}  // namespace

TEST_CASE(
    "Given every work-group reduction and scan of add, min and max for each type, when run "
    "in uniform and partial groups, then each work-item gets the host's fold",
    "[cl][collectives][non_uniform]") {
  ClFixture fx;
  for (const char* std : {"-cl-std=CL3.0", "-cl-std=CL2.0"}) {
    for (const Type& t : kTypes) {
      INFO(std << " " << t.name);
      const std::string src = source(t);
      cl_program p = builtProgram(fx, src.c_str(), std);
      cl_kernel k = makeKernel(p, "coll");
      checkType(fx, k, t, 64, 16);  // uniform
      checkType(fx, k, t, 45, 16);  // a last group of 13
      checkType(fx, k, t, 7, 32);   // one partial group
      clReleaseKernel(k);
      clReleaseProgram(p);
    }
  }
}

TEST_CASE(
    "Given work_group_broadcast in 1, 2 and 3 dimensions and all/any, when groups are partial, "
    "then the broadcast value is the named work-item's of the calling group",
    "[cl][collectives][non_uniform]") {
  ClFixture fx;
  cl_program p = builtProgram(fx, kVotes, "-cl-std=CL3.0");
  struct Shape {
    cl_uint dims;
    size_t global[3], local[3];
  };
  for (const Shape& s : {Shape{1, {45, 1, 1}, {16, 1, 1}}, Shape{2, {13, 7, 1}, {4, 4, 1}},
                         Shape{3, {7, 5, 6}, {4, 2, 4}}, Shape{3, {8, 4, 4}, {4, 2, 2}}}) {
    const char* name = s.dims == 1 ? "b1" : s.dims == 2 ? "b2" : "b3";
    cl_kernel k = makeKernel(p, name);
    const size_t n = s.global[0] * s.global[1] * s.global[2];
    std::vector<int> in(n), out(2 * n, -1);
    for (size_t i = 0; i < n; ++i) in[i] = int((i * 53) % 97);
    cl_int err = CL_SUCCESS;
    cl_mem a = clCreateBuffer(fx.ctx, CL_MEM_COPY_HOST_PTR, n * 4, in.data(), &err);
    REQUIRE(err == CL_SUCCESS);
    cl_mem b = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, 2 * n * 4, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    setKernelArgs(k, {{sizeof a, &a}, {sizeof b, &b}});
    runKernel(fx.queue, k, s.dims, s.global, s.local);
    REQUIRE(clEnqueueReadBuffer(fx.queue, b, CL_TRUE, 0, 2 * n * 4, out.data(), 0, nullptr,
                                nullptr) == CL_SUCCESS);
    auto linear = [&](size_t x, size_t y, size_t z) {
      return (z * s.global[1] + y) * s.global[0] + x;
    };
    for (size_t z = 0; z < s.global[2]; ++z)
      for (size_t y = 0; y < s.global[1]; ++y)
        for (size_t x = 0; x < s.global[0]; ++x) {
          const size_t id[3] = {x, y, z};
          size_t first[3], size[3];
          for (int d = 0; d < 3; ++d) {
            first[d] = id[d] / s.local[d] * s.local[d];
            size[d] = std::min(s.local[d], s.global[d] - first[d]);
          }
          const size_t src =
              linear(first[0] + size[0] - 1, first[1] + (s.dims > 1 ? size[1] / 2 : 0),
                     first[2] + (s.dims > 2 ? size[2] - 1 : 0));
          bool all = true, any = false;
          for (size_t zz = first[2]; zz < first[2] + size[2]; ++zz)
            for (size_t yy = first[1]; yy < first[1] + size[1]; ++yy)
              for (size_t xx = first[0]; xx < first[0] + size[0]; ++xx) {
                all = all && in[linear(xx, yy, zz)] > 3;
                any = any || in[linear(xx, yy, zz)] > 90;
              }
          INFO(name << " work-item " << x << "," << y << "," << z);
          CHECK(out[2 * linear(x, y, z)] == in[src]);
          CHECK(out[2 * linear(x, y, z) + 1] == int(all) + 2 * int(any));
        }
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseKernel(k);
  }
  clReleaseProgram(p);
}
