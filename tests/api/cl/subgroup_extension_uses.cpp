// The sub-group extensions' entries of test_extensions.cpp: for each, a kernel
// k(__global int* out, __global const int* in) using the extension's functions is built under
// "", -cl-std=CL1.2 and -cl-std=CL3.0 and run as one work-group of n work-items; out is checked
// against the reference computed here from the kernel's sub-group size S (read through
// clGetKernelSubGroupInfo) and the contract's mapping (sub-group k: local ids [k * S,
// min((k + 1) * S, n))), with divergent lanes and a partial last sub-group where the functions
// define them.
#include "subgroup_extension_uses.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "cl_program_support.h"

namespace tessera::cltest {
namespace {

// The sub-groups of a work-group of n work-items with sub-group size s.
struct Groups {
  size_t s, n;
  size_t id(size_t l) const { return l / s; }
  size_t lane(size_t l) const { return l % s; }
  size_t first(size_t l) const { return id(l) * s; }
  size_t size(size_t l) const { return std::min(s, n - first(l)); }
  size_t count() const { return (n + s - 1) / s; }
  // The local ids of l's sub-group that satisfy `active`, in lane order.
  template <typename Active>
  std::vector<size_t> members(size_t l, Active active) const {
    std::vector<size_t> m;
    for (size_t i = first(l); i < first(l) + size(l); ++i)
      if (active(i)) m.push_back(i);
    return m;
  }
  std::vector<size_t> members(size_t l) const {
    return members(l, [](size_t) { return true; });
  }
};

// The kernels' input: small values of both signs, not in order.
std::vector<cl_int> inputValues(size_t n) {
  std::vector<cl_int> in(n);
  for (size_t i = 0; i < n; ++i) in[i] = cl_int((i * 7) % 13) - 5;
  return in;
}

using Reference = std::function<std::vector<cl_int>(const Groups&, const std::vector<cl_int>&)>;

// Builds `source` with each -cl-std, runs k over one work-group of n work-items with `outInts`
// ints of output, and checks them against `reference`.
void checkKernel(ClFixture& fx, const std::string& source, size_t n, size_t outInts,
                 const Reference& reference) {
  for (const char* options : {"", "-cl-std=CL1.2", "-cl-std=CL3.0"}) {
    INFO("options '" << options << "'");
    const char* text = source.c_str();
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(fx.ctx, 1, &text, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_int built = clBuildProgram(p, 1, &fx.dev, options, nullptr, nullptr);
    INFO("build log:\n" << buildLog(p, fx.dev));
    REQUIRE(built == CL_SUCCESS);
    cl_kernel k = makeKernel(p, "k");
    size_t s = 0;
    REQUIRE(clGetKernelSubGroupInfo(k, fx.dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof n,
                                    &n, sizeof s, &s, nullptr) == CL_SUCCESS);
    INFO("sub-group size " << s << ", " << n << " work-items");
    REQUIRE(s >= 1);
    std::vector<cl_int> in = inputValues(n), out(outInts, -7777);
    REQUIRE(clSetKernelArgSVMPointer(k, 0, out.data()) == CL_SUCCESS);
    REQUIRE(clSetKernelArgSVMPointer(k, 1, in.data()) == CL_SUCCESS);
    runKernel(fx.queue, k, 1, &n, &n);
    std::vector<cl_int> want = reference(Groups{s, n}, in);
    REQUIRE(want.size() == out.size());
    for (size_t i = 0; i < out.size(); ++i) {
      INFO("out[" << i << "]");
      CHECK(out[i] == want[i]);
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
  }
}

void khrSubgroups(ClFixture& fx) {
  const size_t n = 37, per = 8;
  checkKernel(fx, R"(#pragma OPENCL EXTENSION cl_khr_subgroups : enable
__kernel void k(__global int* out, __global const int* in) {
  __local int shared[64];
  uint l = get_local_id(0);
  int v = in[l];
  __global int* o = out + 8 * l;
  o[0] = (int)get_sub_group_id() * 10000 + (int)get_sub_group_local_id() * 100 +
         (int)get_sub_group_size();
  o[1] = (int)get_num_sub_groups() * 100 + (int)get_max_sub_group_size();
  o[2] = sub_group_reduce_add(v);
  o[3] = sub_group_scan_exclusive_add(v);
  o[4] = sub_group_scan_inclusive_max(v);
  o[5] = sub_group_reduce_min(v);
  o[6] = sub_group_broadcast(v, 0) + 1000 * (sub_group_any(v == 7) != 0) +
         2000 * (sub_group_all(v > -5) != 0);
  shared[l] = v;
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  o[7] = shared[l - get_sub_group_local_id() + get_sub_group_size() - 1];
})",
              n, n * per, [&](const Groups& g, const std::vector<cl_int>& in) {
                std::vector<cl_int> out(n * per);
                for (size_t l = 0; l < n; ++l) {
                  cl_int* o = &out[l * per];
                  auto m = g.members(l);
                  o[0] = cl_int(g.id(l) * 10000 + g.lane(l) * 100 + g.size(l));
                  o[1] = cl_int(g.count() * 100 + g.s);
                  o[2] = o[3] = 0;
                  o[4] = INT32_MIN;
                  o[5] = INT32_MAX;
                  bool any = false, all = true;
                  for (size_t i : m) {
                    o[2] += in[i];
                    if (i < l) o[3] += in[i];
                    if (i <= l) o[4] = std::max(o[4], in[i]);
                    o[5] = std::min(o[5], in[i]);
                    any = any || in[i] == 7;
                    all = all && in[i] > -5;
                  }
                  o[6] = in[m.front()] + 1000 * any + 2000 * all;
                  o[7] = in[m.back()];
                }
                return out;
              });
}

void extendedTypes(ClFixture& fx) {
  const size_t n = 37, per = 4;
  checkKernel(fx, R"(#pragma OPENCL EXTENSION cl_khr_subgroup_extended_types : enable
__kernel void k(__global int* out, __global const int* in) {
  uint l = get_local_id(0);
  int v = in[l];
  __global int* o = out + 4 * l;
  o[0] = sub_group_reduce_add((short)(v * 300));
  o[1] = sub_group_reduce_max((char)v);
  int2 b = sub_group_broadcast((int2)(v, 2 * v + 1), 0);
  o[2] = b.x;
  o[3] = b.y + (int)sub_group_scan_inclusive_add((uchar)(v + 5));
})",
              n, n * per, [&](const Groups& g, const std::vector<cl_int>& in) {
                std::vector<cl_int> out(n * per);
                for (size_t l = 0; l < n; ++l) {
                  cl_int* o = &out[l * per];
                  auto m = g.members(l);
                  int sum = 0, max = INT32_MIN, scan = 0;
                  for (size_t i : m) {
                    sum += in[i] * 300;
                    max = std::max(max, in[i]);
                    if (i <= l) scan += in[i] + 5;
                  }
                  o[0] = cl_short(sum);  // short arithmetic wraps
                  o[1] = max;
                  o[2] = in[m.front()];
                  o[3] = 2 * in[m.front()] + 1 + cl_uchar(scan);
                }
                return out;
              });
}

void nonUniformVote(ClFixture& fx) {
  const size_t n = 37, per = 5;
  checkKernel(
      fx, R"(#pragma OPENCL EXTENSION cl_khr_subgroup_non_uniform_vote : enable
__kernel void k(__global int* out, __global const int* in) {
  uint l = get_local_id(0);
  int v = in[l];
  __global int* o = out + 5 * l;
  o[0] = sub_group_elect() != 0;
  o[1] = o[2] = o[3] = -1;
  if (l % 2 == 1) {
    o[1] = sub_group_elect() != 0;
    o[2] = sub_group_non_uniform_all(v > -4) != 0;
    o[3] = sub_group_non_uniform_any(v == 6) != 0;
  }
  o[4] = (sub_group_non_uniform_all_equal(v) != 0) + 2 * (sub_group_non_uniform_all_equal(7) != 0);
})",
      n, n * per, [&](const Groups& g, const std::vector<cl_int>& in) {
        std::vector<cl_int> out(n * per);
        for (size_t l = 0; l < n; ++l) {
          cl_int* o = &out[l * per];
          auto m = g.members(l);
          o[0] = l == m.front();
          o[1] = o[2] = o[3] = -1;
          if (l % 2 == 1) {
            auto odd = g.members(l, [](size_t i) { return i % 2 == 1; });
            o[1] = l == odd.front();
            o[2] = std::all_of(odd.begin(), odd.end(), [&](size_t i) { return in[i] > -4; });
            o[3] = std::any_of(odd.begin(), odd.end(), [&](size_t i) { return in[i] == 6; });
          }
          bool equal =
              std::all_of(m.begin(), m.end(), [&](size_t i) { return in[i] == in[m.front()]; });
          o[4] = equal + 2;
        }
        return out;
      });
}

void ballot(ClFixture& fx) {
  const size_t n = 37, per = 9;
  checkKernel(
      fx, R"(#pragma OPENCL EXTENSION cl_khr_subgroup_ballot : enable
__kernel void k(__global int* out, __global const int* in) {
  uint l = get_local_id(0);
  int v = in[l];
  __global int* o = out + 9 * l;
  uint4 b = sub_group_ballot(v > 0);
  uint count = sub_group_ballot_bit_count(b);
  o[0] = count;
  o[1] = sub_group_ballot_inclusive_scan(b);
  o[2] = sub_group_ballot_exclusive_scan(b);
  o[3] = count ? (int)sub_group_ballot_find_lsb(b) : -1;
  o[4] = count ? (int)sub_group_ballot_find_msb(b) : -1;
  o[5] = (sub_group_ballot_bit_extract(b, 0) != 0) + 2 * (sub_group_inverse_ballot(b) != 0);
  o[6] = sub_group_broadcast_first(v);
  o[7] = sub_group_non_uniform_broadcast(v, 0);
  uint4 lt = get_sub_group_lt_mask(), eq = get_sub_group_eq_mask();
  o[8] = popcount(lt.x) + popcount(lt.y) + popcount(lt.z) + popcount(lt.w) +
         100 * (popcount(eq.x) + popcount(eq.y) + popcount(eq.z) + popcount(eq.w));
})",
      n, n * per, [&](const Groups& g, const std::vector<cl_int>& in) {
        std::vector<cl_int> out(n * per);
        for (size_t l = 0; l < n; ++l) {
          cl_int* o = &out[l * per];
          auto m = g.members(l);
          auto set = g.members(l, [&](size_t i) { return in[i] > 0; });
          o[0] = cl_int(set.size());
          o[1] = cl_int(std::count_if(set.begin(), set.end(), [&](size_t i) { return i <= l; }));
          o[2] = cl_int(std::count_if(set.begin(), set.end(), [&](size_t i) { return i < l; }));
          o[3] = set.empty() ? -1 : cl_int(g.lane(set.front()));
          o[4] = set.empty() ? -1 : cl_int(g.lane(set.back()));
          o[5] = (in[m.front()] > 0) + 2 * (in[l] > 0);
          o[6] = in[m.front()];
          o[7] = in[m.front()];
          o[8] = cl_int(g.lane(l)) + 100;
        }
        return out;
      });
}

void nonUniformArithmetic(ClFixture& fx) {
  const size_t n = 37, per = 6;
  checkKernel(fx, R"(#pragma OPENCL EXTENSION cl_khr_subgroup_non_uniform_arithmetic : enable
__kernel void k(__global int* out, __global const int* in) {
  uint l = get_local_id(0);
  int v = in[l];
  __global int* o = out + 6 * l;
  o[0] = sub_group_non_uniform_reduce_add(v);
  o[1] = sub_group_non_uniform_scan_inclusive_min(v);
  o[2] = o[3] = -1000;
  if (l % 3 != 0) {
    o[2] = sub_group_non_uniform_reduce_max(v);
    o[3] = sub_group_non_uniform_scan_exclusive_add(v);
  }
  o[4] = sub_group_non_uniform_reduce_or(v & 0xff) ^ sub_group_non_uniform_reduce_and(v | 0x100);
  o[5] = sub_group_non_uniform_reduce_logical_and(v != 3) != 0;
})",
              n, n * per, [&](const Groups& g, const std::vector<cl_int>& in) {
                std::vector<cl_int> out(n * per);
                for (size_t l = 0; l < n; ++l) {
                  cl_int* o = &out[l * per];
                  auto m = g.members(l);
                  o[0] = 0;
                  o[1] = INT32_MAX;
                  cl_int orv = 0, andv = -1;
                  bool logical = true;
                  for (size_t i : m) {
                    o[0] += in[i];
                    if (i <= l) o[1] = std::min(o[1], in[i]);
                    orv |= in[i] & 0xff;
                    andv &= in[i] | 0x100;
                    logical = logical && in[i] != 3;
                  }
                  o[2] = o[3] = -1000;
                  if (l % 3 != 0) {
                    auto active = g.members(l, [](size_t i) { return i % 3 != 0; });
                    o[2] = INT32_MIN;
                    o[3] = 0;
                    for (size_t i : active) {
                      o[2] = std::max(o[2], in[i]);
                      if (i < l) o[3] += in[i];
                    }
                  }
                  o[4] = orv ^ andv;
                  o[5] = logical;
                }
                return out;
              });
}

void shuffle(ClFixture& fx) {
  const size_t n = 37, per = 2;
  checkKernel(fx, R"(#pragma OPENCL EXTENSION cl_khr_subgroup_shuffle : enable
__kernel void k(__global int* out, __global const int* in) {
  uint l = get_local_id(0), lane = get_sub_group_local_id(), size = get_sub_group_size();
  int v = in[l];
  int next = sub_group_shuffle(v, (lane + 1) % size);
  int x = sub_group_shuffle_xor(v, 1);
  out[2 * l] = next;
  out[2 * l + 1] = (lane ^ 1) < size ? x : -1;
})",
              n, n * per, [&](const Groups& g, const std::vector<cl_int>& in) {
                std::vector<cl_int> out(n * per);
                for (size_t l = 0; l < n; ++l) {
                  size_t lane = g.lane(l), size = g.size(l), first = g.first(l);
                  out[2 * l] = in[first + (lane + 1) % size];
                  out[2 * l + 1] = (lane ^ 1) < size ? in[first + (lane ^ 1)] : -1;
                }
                return out;
              });
}

void shuffleRelative(ClFixture& fx) {
  const size_t n = 37, per = 2;
  checkKernel(fx, R"(#pragma OPENCL EXTENSION cl_khr_subgroup_shuffle_relative : enable
__kernel void k(__global int* out, __global const int* in) {
  uint l = get_local_id(0), lane = get_sub_group_local_id(), size = get_sub_group_size();
  int v = in[l];
  int up = sub_group_shuffle_up(v, 1);
  int down = sub_group_shuffle_down(v, 2);
  out[2 * l] = lane >= 1 ? up : -1;
  out[2 * l + 1] = lane + 2 < size ? down : -1;
})",
              n, n * per, [&](const Groups& g, const std::vector<cl_int>& in) {
                std::vector<cl_int> out(n * per);
                for (size_t l = 0; l < n; ++l) {
                  size_t lane = g.lane(l), size = g.size(l);
                  out[2 * l] = lane >= 1 ? in[l - 1] : -1;
                  out[2 * l + 1] = lane + 2 < size ? in[l + 2] : -1;
                }
                return out;
              });
}

void clusteredReduce(ClFixture& fx) {
  // 36 work-items: every sub-group, the partial last one too, holds whole clusters of 4.
  const size_t n = 36, per = 2;
  checkKernel(fx, R"(#pragma OPENCL EXTENSION cl_khr_subgroup_clustered_reduce : enable
__kernel void k(__global int* out, __global const int* in) {
  uint l = get_local_id(0);
  int v = in[l];
  out[2 * l] = sub_group_clustered_reduce_add(v, 4);
  out[2 * l + 1] = sub_group_clustered_reduce_max(v, 2);
})",
              n, n * per, [&](const Groups& g, const std::vector<cl_int>& in) {
                std::vector<cl_int> out(n * per);
                for (size_t l = 0; l < n; ++l) {
                  size_t c4 = g.first(l) + g.lane(l) / 4 * 4, c2 = g.first(l) + g.lane(l) / 2 * 2;
                  out[2 * l] = in[c4] + in[c4 + 1] + in[c4 + 2] + in[c4 + 3];
                  out[2 * l + 1] = std::max(in[c2], in[c2 + 1]);
                }
                return out;
              });
}

void intelSubgroups(ClFixture& fx) {
  // 64 work-items: whole sub-groups of every offered size (the Intel shuffles and block reads
  // are defined over get_max_sub_group_size() lanes).
  const size_t n = 64, per = 5;
  checkKernel(fx, R"(#pragma OPENCL EXTENSION cl_intel_subgroups : enable
__kernel void k(__global int* out, __global const int* in) {
  uint l = get_local_id(0), lane = get_sub_group_local_id(), s = get_max_sub_group_size();
  uint sg = get_sub_group_id(), count = get_num_sub_groups();
  int v = in[l];
  __global int* o = out + 5 * l;
  o[0] = intel_sub_group_shuffle(v, (lane + 3) % s);
  o[1] = intel_sub_group_shuffle_xor(v, 1);
  o[2] = intel_sub_group_shuffle_down(v, v + 1000, 1);
  o[3] = intel_sub_group_shuffle_up(v - 1000, v, 2);
  // Block reads and writes: lane i of the sub-group reads p[i] and writes q[i].
  uint b = intel_sub_group_block_read((const __global uint*)(in + (count - 1 - sg) * s));
  o[4] = (int)b;
  intel_sub_group_block_write((__global uint*)(out + 5 * 64 + sg * s), (uint)(2 * v));
})",
              n, n * per + n, [&](const Groups& g, const std::vector<cl_int>& in) {
                std::vector<cl_int> out(n * per + n);
                const size_t s = g.s;
                for (size_t l = 0; l < n; ++l) {
                  cl_int* o = &out[l * per];
                  size_t lane = g.lane(l), first = g.first(l);
                  o[0] = in[first + (lane + 3) % s];
                  o[1] = in[first + (lane ^ 1)];
                  o[2] = lane + 1 < s ? in[l + 1] : in[first + lane + 1 - s] + 1000;
                  o[3] = lane >= 2 ? in[l - 2] : in[first + lane + s - 2] - 1000;
                  o[4] = in[(g.count() - 1 - g.id(l)) * s + lane];
                  out[n * per + l] = 2 * in[l];
                }
                return out;
              });
}

void requiredSubgroupSize(ClFixture& fx) {
  size_t bytes = 0;
  REQUIRE(clGetDeviceInfo(fx.dev, CL_DEVICE_SUB_GROUP_SIZES_INTEL, 0, nullptr, &bytes) ==
          CL_SUCCESS);
  std::vector<size_t> sizes(bytes / sizeof(size_t));
  REQUIRE(clGetDeviceInfo(fx.dev, CL_DEVICE_SUB_GROUP_SIZES_INTEL, bytes, sizes.data(), nullptr) ==
          CL_SUCCESS);
  REQUIRE(!sizes.empty());
  const size_t n = 37, per = 3;
  for (size_t required : sizes) {
    INFO("intel_reqd_sub_group_size(" << required << ")");
    const std::string source =
        "#pragma OPENCL EXTENSION cl_intel_required_subgroup_size : enable\n"
        "__attribute__((intel_reqd_sub_group_size(" +
        std::to_string(required) + R"()))
__kernel void k(__global int* out, __global const int* in) {
  uint l = get_local_id(0);
  out[3 * l] = get_max_sub_group_size();
  out[3 * l + 1] = get_sub_group_size();
  out[3 * l + 2] = sub_group_reduce_add(in[l]);
})";
    checkKernel(fx, source, n, n * per, [&](const Groups& g, const std::vector<cl_int>& in) {
      // "When this attribute is present, get_max_sub_group_size() is guaranteed to return the
      // specified integer value."
      CHECK(g.s == required);
      std::vector<cl_int> out(n * per);
      for (size_t l = 0; l < n; ++l) {
        out[3 * l] = cl_int(required);
        out[3 * l + 1] = cl_int(g.size(l));
        out[3 * l + 2] = 0;
        for (size_t i : g.members(l)) out[3 * l + 2] += in[i];
      }
      return out;
    });
    // The query of the extension.
    const char* text = source.c_str();
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(fx.ctx, 1, &text, nullptr, &err);
    REQUIRE(clBuildProgram(p, 1, &fx.dev, nullptr, nullptr, nullptr) == CL_SUCCESS);
    cl_kernel k = makeKernel(p, "k");
    size_t compiled = 0;
    REQUIRE(clGetKernelSubGroupInfo(k, fx.dev, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0, nullptr,
                                    sizeof compiled, &compiled, nullptr) == CL_SUCCESS);
    CHECK(compiled == required);
    clReleaseKernel(k);
    clReleaseProgram(p);
  }
  // A size the device does not offer fails the kernel, where Tessera compiles it (its first
  // launch, docs/conformance.md), with a log.
  const char* bad =
      "__attribute__((intel_reqd_sub_group_size(3)))\n"
      "__kernel void k(__global int* out) { out[0] = 1; }\n";
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(fx.ctx, 1, &bad, nullptr, &err);
  CHECK(clBuildProgram(p, 1, &fx.dev, nullptr, nullptr, nullptr) == CL_SUCCESS);
  CHECK(!failedKernelLog(fx, p, "k").empty());
  clReleaseProgram(p);
}

}  // namespace

const std::map<std::string, std::function<void(ClFixture&)>>& subgroupExtensionUses() {
  static const std::map<std::string, std::function<void(ClFixture&)>> uses = {
      {"cl_khr_subgroups", khrSubgroups},
      {"cl_khr_subgroup_extended_types", extendedTypes},
      {"cl_khr_subgroup_non_uniform_vote", nonUniformVote},
      {"cl_khr_subgroup_ballot", ballot},
      {"cl_khr_subgroup_non_uniform_arithmetic", nonUniformArithmetic},
      {"cl_khr_subgroup_shuffle", shuffle},
      {"cl_khr_subgroup_shuffle_relative", shuffleRelative},
      {"cl_khr_subgroup_clustered_reduce", clusteredReduce},
      {"cl_intel_subgroups", intelSubgroups},
      {"cl_intel_required_subgroup_size", requiredSubgroupSize},
  };
  return uses;
}

}  // namespace tessera::cltest
