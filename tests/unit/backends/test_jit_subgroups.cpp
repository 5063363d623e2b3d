// Sub-groups (backends/cpu/jit/subgroup_*.cpp; kernel_abi.h's contract): every sub-group builtin
// compiled from OpenCL C for each offered size (intel_reqd_sub_group_size) and the default, widened
// (TESSERA_WIDEN=16, the default plan) and scalar (0), run with local sizes that are and are not
// multiples of the size, in 1, 2 and 3 dimensions, against a reference computed here from the
// kernel_abi.h mapping (sub-group k = local linear ids [k * S, min((k + 1) * S, n))).
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include <spirv-tools/libspirv.h>

#include "compiler/compiler.h"
#include "image_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

// One work-item's view of its sub-group: the inputs x of its lanes (in lane order), its lane.
struct Lanes {
  std::vector<int32_t> x;
  uint32_t lane;
  uint32_t S;   // the kernel's sub-group size
  uint32_t n;   // work-items in the group
  uint32_t sg;  // sub-group id
  uint32_t size() const { return uint32_t(x.size()); }
  int32_t me() const { return x[lane]; }
};

using Ref = std::function<std::optional<int64_t>(const Lanes&)>;
struct Case {
  const char* expr;  // OpenCL C, of x (int, this work-item's input); converted to long
  Ref ref;           // nullopt: undefined for this work-item
};

template <typename T, typename F>
int64_t fold(const Lanes& l, uint32_t from, uint32_t to, T init, F f) {
  T acc = init;
  for (uint32_t j = from; j < to; ++j) acc = f(acc, T(l.x[j]));
  return int64_t(acc);
}
template <typename T, typename F>
int64_t reduce(const Lanes& l, T init, F f) {
  return fold<T>(l, 0, l.size(), init, f);
}
template <typename T, typename F>
int64_t inclusive(const Lanes& l, T init, F f) {
  return fold<T>(l, 0, l.lane + 1, init, f);
}
template <typename T, typename F>
int64_t exclusive(const Lanes& l, T init, F f) {
  return fold<T>(l, 0, l.lane, init, f);
}
auto add = [](auto a, auto b) { return decltype(a)(a + b); };
auto mul = [](auto a, auto b) { return decltype(a)(a * b); };
auto mn = [](auto a, auto b) { return std::min(a, b); };
auto mx = [](auto a, auto b) { return std::max(a, b); };
auto band = [](auto a, auto b) { return decltype(a)(a & b); };
auto bor = [](auto a, auto b) { return decltype(a)(a | b); };
auto bxor = [](auto a, auto b) { return decltype(a)(a ^ b); };

// The ballot of a predicate over the sub-group, as the low 64 bits.
uint64_t ballot(const Lanes& l, const std::function<bool(int32_t)>& p) {
  uint64_t m = 0;
  for (uint32_t j = 0; j < l.size(); ++j)
    if (p(l.x[j])) m |= uint64_t{1} << j;
  return m;
}
uint64_t bits(uint32_t count) {
  return count >= 64 ? ~uint64_t{0} : (uint64_t{1} << count) - 1;
}
std::optional<int64_t> laneValue(const Lanes& l, int64_t j) {
  if (j < 0 || j >= int64_t(l.size())) return std::nullopt;
  return l.x[size_t(j)];
}
const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {"get_sub_group_size()", [](const Lanes& l) { return int64_t(l.size()); }},
      {"get_max_sub_group_size()", [](const Lanes& l) { return int64_t(l.S); }},
      {"get_num_sub_groups()", [](const Lanes& l) { return int64_t((l.n + l.S - 1) / l.S); }},
      {"get_enqueued_num_sub_groups()",
       [](const Lanes& l) { return int64_t((l.n + l.S - 1) / l.S); }},
      {"get_sub_group_id()", [](const Lanes& l) { return int64_t(l.sg); }},
      {"get_sub_group_local_id()", [](const Lanes& l) { return int64_t(l.lane); }},
      // cl_khr_subgroups
      {"sub_group_reduce_add(x)", [](const Lanes& l) { return reduce<int32_t>(l, 0, add); }},
      {"sub_group_reduce_min(x)", [](const Lanes& l) { return reduce<int32_t>(l, INT32_MAX, mn); }},
      {"sub_group_reduce_max((uint)x)", [](const Lanes& l) { return reduce<uint32_t>(l, 0u, mx); }},
      {"sub_group_scan_inclusive_add(x)",
       [](const Lanes& l) { return inclusive<int32_t>(l, 0, add); }},
      {"sub_group_scan_exclusive_add(x)",
       [](const Lanes& l) { return exclusive<int32_t>(l, 0, add); }},
      {"sub_group_scan_inclusive_min(x)",
       [](const Lanes& l) { return inclusive<int32_t>(l, INT32_MAX, mn); }},
      {"sub_group_scan_exclusive_max(x)",
       [](const Lanes& l) { return exclusive<int32_t>(l, INT32_MIN, mx); }},
      {"sub_group_reduce_add((float)x)",
       [](const Lanes& l) { return reduce<float>(l, 0.0f, add); }},
      {"sub_group_scan_exclusive_add((double)x)",
       [](const Lanes& l) { return exclusive<double>(l, 0.0, add); }},
      {"sub_group_scan_inclusive_max((float)x)",
       [](const Lanes& l) { return inclusive<float>(l, -INFINITY, mx); }},
      {"sub_group_reduce_min((long)x * 1000000000L)",
       [](const Lanes& l) {
         int64_t m = INT64_MAX;
         for (int32_t v : l.x) m = std::min(m, int64_t(v) * 1000000000);
         return m;
       }},
      {"sub_group_broadcast(x, get_sub_group_size() - 1)",
       [](const Lanes& l) { return int64_t(l.x.back()); }},
      {"sub_group_broadcast((float)x, 0)", [](const Lanes& l) { return int64_t(l.x[0]); }},
      {"sub_group_any(x > 9)",
       [](const Lanes& l) {
         return int64_t(std::any_of(l.x.begin(), l.x.end(), [](int32_t v) { return v > 9; }));
       }},
      {"sub_group_all(x > -9)",
       [](const Lanes& l) {
         return int64_t(std::all_of(l.x.begin(), l.x.end(), [](int32_t v) { return v > -9; }));
       }},
      // cl_khr_subgroup_extended_types
      {"sub_group_reduce_add((uchar)x)",
       [](const Lanes& l) { return reduce<uint8_t>(l, uint8_t(0), add); }},
      {"sub_group_scan_inclusive_max((char)x)",
       [](const Lanes& l) { return inclusive<int8_t>(l, int8_t(-128), mx); }},
      {"sub_group_scan_exclusive_min((ushort)x)",
       [](const Lanes& l) { return exclusive<uint16_t>(l, uint16_t(0xFFFF), mn); }},
      {"sub_group_broadcast((short2)(x, -x), 1 % get_sub_group_size()).y",
       [](const Lanes& l) { return int64_t(-l.x[1 % l.size()]); }},
      // cl_khr_subgroup_non_uniform_vote
      {"sub_group_elect()", [](const Lanes& l) { return int64_t(l.lane == 0); }},
      {"sub_group_non_uniform_all(x < 10)",
       [](const Lanes& l) {
         return int64_t(std::all_of(l.x.begin(), l.x.end(), [](int32_t v) { return v < 10; }));
       }},
      {"sub_group_non_uniform_any(x == 3)",
       [](const Lanes& l) {
         return int64_t(std::any_of(l.x.begin(), l.x.end(), [](int32_t v) { return v == 3; }));
       }},
      {"sub_group_non_uniform_all_equal(x)",
       [](const Lanes& l) {
         return int64_t(
             std::all_of(l.x.begin(), l.x.end(), [&](int32_t v) { return v == l.x[0]; }));
       }},
      {"sub_group_non_uniform_all_equal((float)(get_sub_group_size()))",
       [](const Lanes&) { return int64_t(1); }},
      // cl_khr_subgroup_ballot
      {"sub_group_non_uniform_broadcast(x, get_sub_group_size() / 2)",
       [](const Lanes& l) { return int64_t(l.x[l.size() / 2]); }},
      {"sub_group_broadcast_first(x)", [](const Lanes& l) { return int64_t(l.x[0]); }},
      {"b64(sub_group_ballot(x > 0))",
       [](const Lanes& l) { return int64_t(ballot(l, [](int32_t v) { return v > 0; })); }},
      {"sub_group_ballot(x > 0).z | sub_group_ballot(x > 0).w",
       [](const Lanes&) { return int64_t(0); }},
      {"sub_group_inverse_ballot(sub_group_ballot(x > 0))",
       [](const Lanes& l) { return int64_t(l.me() > 0); }},
      {"sub_group_inverse_ballot((uint4)(0x55555555, 0xAAAAAAAA, 0, 0))",
       [](const Lanes& l) {
         return int64_t(l.lane < 32 ? (0x55555555u >> l.lane) & 1
                                    : (0xAAAAAAAAu >> (l.lane - 32)) & 1);
       }},
      {"sub_group_ballot_bit_extract(sub_group_ballot(x > 0), 3 % get_sub_group_size())",
       [](const Lanes& l) { return int64_t(l.x[3 % l.size()] > 0); }},
      {"sub_group_ballot_bit_count(sub_group_ballot(x > 0))",
       [](const Lanes& l) {
         return int64_t(__builtin_popcountll(ballot(l, [](int32_t v) { return v > 0; })));
       }},
      {"sub_group_ballot_inclusive_scan(sub_group_ballot(x > 0))",
       [](const Lanes& l) {
         return int64_t(
             __builtin_popcountll(ballot(l, [](int32_t v) { return v > 0; }) & bits(l.lane + 1)));
       }},
      {"sub_group_ballot_exclusive_scan(sub_group_ballot(x > 0))",
       [](const Lanes& l) {
         return int64_t(
             __builtin_popcountll(ballot(l, [](int32_t v) { return v > 0; }) & bits(l.lane)));
       }},
      {"sub_group_ballot_find_lsb(sub_group_ballot(x > 0 || get_sub_group_local_id() == "
       "get_sub_group_size() - 1))",
       [](const Lanes& l) {
         uint64_t m = ballot(l, [](int32_t v) { return v > 0; }) | (uint64_t{1} << (l.size() - 1));
         return int64_t(__builtin_ctzll(m));
       }},
      {"sub_group_ballot_find_msb(sub_group_ballot(x > 0 || get_sub_group_local_id() == 0))",
       [](const Lanes& l) {
         uint64_t m = ballot(l, [](int32_t v) { return v > 0; }) | 1;
         return int64_t(63 - __builtin_clzll(m));
       }},
      {"b64(get_sub_group_eq_mask())",
       [](const Lanes& l) { return int64_t(uint64_t{1} << l.lane); }},
      {"b64(get_sub_group_ge_mask())",
       [](const Lanes& l) { return int64_t(bits(l.size()) & ~bits(l.lane)); }},
      {"b64(get_sub_group_gt_mask())",
       [](const Lanes& l) { return int64_t(bits(l.size()) & ~bits(l.lane + 1)); }},
      {"b64(get_sub_group_le_mask())", [](const Lanes& l) { return int64_t(bits(l.lane + 1)); }},
      {"b64(get_sub_group_lt_mask())", [](const Lanes& l) { return int64_t(bits(l.lane)); }},
      // cl_khr_subgroup_non_uniform_arithmetic
      {"sub_group_non_uniform_reduce_add(x)",
       [](const Lanes& l) { return reduce<int32_t>(l, 0, add); }},
      {"sub_group_non_uniform_reduce_mul(x)",
       [](const Lanes& l) { return int64_t(int32_t(uint32_t(reduce<uint32_t>(l, 1u, mul)))); }},
      {"sub_group_non_uniform_scan_inclusive_mul((float)(x % 2))",
       [](const Lanes& l) {
         float acc = 1;
         for (uint32_t j = 0; j <= l.lane; ++j) acc *= float(l.x[j] % 2);
         return int64_t(acc);
       }},
      {"sub_group_non_uniform_reduce_and(x)",
       [](const Lanes& l) { return reduce<int32_t>(l, -1, band); }},
      {"sub_group_non_uniform_scan_exclusive_or(x)",
       [](const Lanes& l) { return exclusive<int32_t>(l, 0, bor); }},
      {"sub_group_non_uniform_scan_inclusive_xor(x)",
       [](const Lanes& l) { return inclusive<int32_t>(l, 0, bxor); }},
      {"sub_group_non_uniform_reduce_logical_and(x > -8)",
       [](const Lanes& l) {
         return int64_t(std::all_of(l.x.begin(), l.x.end(), [](int32_t v) { return v > -8; }));
       }},
      {"sub_group_non_uniform_scan_inclusive_logical_or(x == 2)",
       [](const Lanes& l) {
         bool r = false;
         for (uint32_t j = 0; j <= l.lane; ++j) r = r || l.x[j] == 2;
         return int64_t(r);
       }},
      {"sub_group_non_uniform_scan_exclusive_logical_xor(x > 0)",
       [](const Lanes& l) {
         bool r = false;
         for (uint32_t j = 0; j < l.lane; ++j) r = r != (l.x[j] > 0);
         return int64_t(r);
       }},
      {"sub_group_non_uniform_reduce_max((double)x)",
       [](const Lanes& l) { return reduce<double>(l, -INFINITY, mx); }},
      {"sub_group_non_uniform_scan_inclusive_min((ulong)x)",
       [](const Lanes& l) { return inclusive<uint64_t>(l, ~uint64_t{0}, mn); }},
      // cl_khr_subgroup_clustered_reduce
      {"sub_group_clustered_reduce_add(x, 4)",
       [](const Lanes& l) {
         uint32_t c = l.lane / 4 * 4;
         return fold<int32_t>(l, c, std::min(c + 4, l.size()), 0, add);
       }},
      {"sub_group_clustered_reduce_max((float)x, 2)",
       [](const Lanes& l) {
         uint32_t c = l.lane / 2 * 2;
         return fold<float>(l, c, std::min(c + 2, l.size()), -INFINITY, mx);
       }},
      {"sub_group_clustered_reduce_logical_or(x == 5, 4)",
       [](const Lanes& l) {
         uint32_t c = l.lane / 4 * 4;
         bool r = false;
         for (uint32_t j = c; j < std::min(c + 4, l.size()); ++j) r = r || l.x[j] == 5;
         return int64_t(r);
       }},
      // cl_khr_subgroup_shuffle, _shuffle_relative
      {"sub_group_shuffle(x, (get_sub_group_local_id() + 1) % get_sub_group_size())",
       [](const Lanes& l) { return int64_t(l.x[(l.lane + 1) % l.size()]); }},
      {"sub_group_shuffle_xor((long)x, 1)",
       [](const Lanes& l) { return laneValue(l, l.lane ^ 1); }},
      {"sub_group_shuffle_up(x, 1)",
       [](const Lanes& l) { return laneValue(l, int64_t(l.lane) - 1); }},
      {"sub_group_shuffle_down((double)x, 2)",
       [](const Lanes& l) { return laneValue(l, int64_t(l.lane) + 2); }},
      // cl_intel_subgroups
      {"intel_sub_group_shuffle(x, (get_sub_group_local_id() + 3) % get_sub_group_size())",
       [](const Lanes& l) { return int64_t(l.x[(l.lane + 3) % l.size()]); }},
      {"intel_sub_group_shuffle_xor((float)x, 2)",
       [](const Lanes& l) { return laneValue(l, l.lane ^ 2); }},
      {"intel_sub_group_shuffle((int4)(x, 2 * x, 3 * x, 4 * x), 0).w",
       [](const Lanes& l) { return int64_t(4 * l.x[0]); }},
      {"intel_sub_group_shuffle_down(x, x + 100, 3)",
       [](const Lanes& l) -> std::optional<int64_t> {
         uint32_t j = l.lane + 3;
         if (j < l.S) return laneValue(l, j);
         auto v = laneValue(l, j - l.S);
         return v ? std::optional<int64_t>(*v + 100) : std::nullopt;
       }},
      {"intel_sub_group_shuffle_up(x - 100, x, 3)",
       [](const Lanes& l) -> std::optional<int64_t> {
         int64_t j = int64_t(l.lane) - 3;
         if (j >= 0) return laneValue(l, j);
         auto v = laneValue(l, j + l.S);
         return v ? std::optional<int64_t>(*v - 100) : std::nullopt;
       }},
      {"intel_sub_group_shuffle_down((uchar2)(x, x + 1), (uchar2)(x + 2, x + 3), 1).y",
       [](const Lanes& l) -> std::optional<int64_t> {
         uint32_t j = l.lane + 1;
         if (j < l.S) {
           auto v = laneValue(l, j);
           return v ? std::optional<int64_t>(uint8_t(*v + 1)) : std::nullopt;
         }
         auto v = laneValue(l, j - l.S);
         return v ? std::optional<int64_t>(uint8_t(*v + 3)) : std::nullopt;
       }},
      // sub_group_barrier: a cut like any other
      {"(sub_group_barrier(CLK_LOCAL_MEM_FENCE), x)",
       [](const Lanes& l) { return int64_t(l.me()); }},
  };
  return c;
}

// One kernel per case, c<i>: out[global linear id] = (long)(case i's expression). (One kernel
// with every case compiles far slower: each operation is a cut, and O3 meets one function of
// seventy regions.)
std::string source(uint32_t required) {
  // A ballot's (or mask's) low 64 bits.
  std::string s = "long b64(uint4 b) { return (long)b.x | ((long)b.y << 32); }\n";
  for (size_t c = 0; c < cases().size(); ++c) {
    if (required)
      s += "__attribute__((intel_reqd_sub_group_size(" + std::to_string(required) + ")))\n";
    s += "kernel void c" + std::to_string(c) +
         "(global const int* in, global long* out) {\n"
         "  size_t gid = (get_global_id(2) * get_global_size(1) + get_global_id(1)) * "
         "get_global_size(0) + get_global_id(0);\n"
         "  int x = in[gid];\n"
         "  out[gid] = (long)(" +
         cases()[c].expr + ");\n}\n";
  }
  return s;
}

struct Shape {
  std::array<uint32_t, 3> local;
  std::array<uint32_t, 3> groups;
};

void check(const std::shared_ptr<const CompiledModule>& m, uint32_t S, const Shape& shape) {
  uint32_t global[3], items = 1, n = 1;
  for (int d = 0; d < 3; ++d) {
    global[d] = shape.local[d] * shape.groups[d];
    items *= global[d];
    n *= shape.local[d];
  }
  std::vector<int32_t> in(items);
  for (uint32_t i = 0; i < items; ++i) in[i] = int32_t((i * 7 + i / 5) % 23) - 11;
  const size_t count = cases().size();
  std::vector<int64_t> out(count * items, -12345);
  LaunchDims dims;
  for (int d = 0; d < 3; ++d)
    dims.groupCount[d] = shape.groups[d], dims.groupSize[d] = shape.local[d];
  dims.workDim = shape.local[2] > 1 || shape.groups[2] > 1 ? 3 : shape.local[1] > 1 ? 2 : 1;
  for (size_t c = 0; c < count; ++c) {
    const CompiledKernel& k = kernelOf(m, "c" + std::to_string(c));
    REQUIRE(k.subgroupSize == S);
    ArgBuffer args(k);
    args.set(0, static_cast<const int32_t*>(in.data())).set(1, out.data() + c * items);
    launch(k, args.data(), dims, pool());
  }
  // Global linear index of a work-item, by group and local linear id.
  auto globalIndex = [&](const uint32_t g[3], uint32_t linear) {
    uint32_t l[3] = {linear % shape.local[0], linear / shape.local[0] % shape.local[1],
                     linear / (shape.local[0] * shape.local[1])};
    uint32_t id[3];
    for (int d = 0; d < 3; ++d) id[d] = g[d] * shape.local[d] + l[d];
    return (id[2] * global[1] + id[1]) * global[0] + id[0];
  };
  uint32_t g[3];
  for (g[2] = 0; g[2] < shape.groups[2]; ++g[2])
    for (g[1] = 0; g[1] < shape.groups[1]; ++g[1])
      for (g[0] = 0; g[0] < shape.groups[0]; ++g[0])
        for (uint32_t linear = 0; linear < n; ++linear) {
          Lanes l;
          l.S = S, l.n = n, l.sg = linear / S, l.lane = linear % S;
          for (uint32_t j = l.sg * S; j < std::min(n, (l.sg + 1) * S); ++j)
            l.x.push_back(in[globalIndex(g, j)]);
          uint32_t at = globalIndex(g, linear);
          for (size_t c = 0; c < count; ++c) {
            std::optional<int64_t> want = cases()[c].ref(l);
            if (!want) continue;
            INFO(cases()[c].expr << " at local linear id " << linear << " of group (" << g[0]
                                 << ", " << g[1] << ", " << g[2] << ")");
            REQUIRE(out[c * items + at] == *want);
          }
        }
}

// Each required size (0: none, the default size) built widened 16 work-items at a time
// (TESSERA_WIDEN=16) and scalar, the default plan once, and checked on every shape.
void checkSizes(std::initializer_list<uint32_t> requiredSizes) {
  const std::vector<Shape> shapes = {{{64, 1, 1}, {2, 1, 1}}, {{37, 1, 1}, {2, 1, 1}},
                                     {{5, 1, 1}, {3, 1, 1}},  {{6, 5, 1}, {2, 2, 1}},
                                     {{3, 4, 5}, {1, 1, 2}},  {{16, 8, 1}, {1, 1, 1}}};
  for (uint32_t required : requiredSizes) {
    for (int widen : {16, 0, 1}) {
      if (widen == 1 && required != 0) continue;
      INFO("required size " << required << ", TESSERA_WIDEN " << widen);
      auto m = buildOpenCL(source(required), widen, "-cl-std=CL3.0");
      const uint32_t S = required ? required : kDefaultSubgroupSize;
      CHECK(kernelOf(m, "c0").requiredSubgroupSize == required);
      for (const Shape& shape : shapes) {
        INFO("local size " << shape.local[0] << " x " << shape.local[1] << " x " << shape.local[2]);
        check(m, S, shape);
      }
    }
  }
}

}  // namespace

// Four cases of about equal compile time (seventy kernels per build; sizes 8 and 16 cost the
// most), which ctest runs side by side (tests/CMakeLists.txt, unit.backends.subgroup_sizes.*).
TEST_CASE(
    "Given every sub-group builtin, when run with no required size (the default) and size 4, "
    "widened or not, then each work-item's result matches its sub-group's reference",
    "[jit][subgroups][subgroup_sizes][sizes_a]") {
  checkSizes({0u, 4u});
}

TEST_CASE(
    "Given every sub-group builtin, when run with required size 8, widened or not, then each "
    "work-item's result matches its sub-group's reference",
    "[jit][subgroups][subgroup_sizes][sizes_b]") {
  checkSizes({8u});
}

TEST_CASE(
    "Given every sub-group builtin, when run with required size 16, widened or not, then each "
    "work-item's result matches its sub-group's reference",
    "[jit][subgroups][subgroup_sizes][sizes_c]") {
  checkSizes({16u});
}

TEST_CASE(
    "Given every sub-group builtin, when run with required sizes 32 and 64, widened or not, then "
    "each work-item's result matches its sub-group's reference",
    "[jit][subgroups][subgroup_sizes][sizes_d]") {
  checkSizes({32u, 64u});
}

TEST_CASE("Given a required sub-group size that is not offered, then the build fails with a log",
          "[jit][subgroups]") {
  for (int size : {1, 2, 12, 128}) {
    std::string log =
        buildFailure("__attribute__((intel_reqd_sub_group_size(" + std::to_string(size) +
                     "))) kernel void k(global int* p) { p[0] = 1; }");
    INFO(log);
    CHECK(log.find("required sub-group size " + std::to_string(size) + " is not supported") !=
          std::string::npos);
  }
}

TEST_CASE(
    "Given sub-group operations under control flow that differs between the lanes of a sub-group, "
    "then "
    "the build fails with a log; under uniform control flow and loops, it builds and runs",
    "[jit][subgroups]") {
  for (const char* body : {
           "if (get_local_id(0) < 5) p[get_global_id(0)] = sub_group_reduce_add(1);",
           "if (get_sub_group_local_id() == 0) p[get_global_id(0)] = sub_group_any(1);",
           "if (get_sub_group_local_id() % 2) p[get_global_id(0)] = intel_sub_group_shuffle(1, 0);",
           "if (p[get_global_id(0)] > 0) sub_group_barrier(CLK_LOCAL_MEM_FENCE);",
           "for (int i = 0; i < p[0]; ++i) p[get_global_id(0)] += sub_group_broadcast(i, 0);",
       }) {
    std::string log =
        buildFailure(std::string("kernel void k(global int* p, int n) {") + body + "}");
    INFO(body << ": " << log);
    CHECK(log.find("under control flow that may differ between the work-items of a sub-group") !=
          std::string::npos);
  }
  // A loop with a uniform trip count, a branch on an argument, and one call site reached again
  // and again (its exchange slots double-buffered): each step adds the sub-group's sum.
  auto m = buildOpenCL(
      "__attribute__((intel_reqd_sub_group_size(8)))\n"
      "kernel void k(global int* p, int n, int twice) {\n"
      "  int x = p[get_global_id(0)];\n"
      "  int acc = 0;\n"
      "  for (int i = 0; i < n; ++i) {\n"
      "    acc += sub_group_reduce_add(x + i);\n"
      "    if (twice) acc += sub_group_shuffle_xor(x, 1);\n"
      "  }\n"
      "  p[get_global_id(0)] = acc;\n"
      "}\n",
      16);
  const CompiledKernel& k = kernelOf(m, "k");
  for (int twice : {0, 1}) {
    std::vector<int32_t> p(64);
    for (int i = 0; i < 64; ++i) p[i] = i * 3 - 50;
    std::vector<int32_t> want(64, 0);
    for (int i = 0; i < 64; ++i)
      for (int step = 0; step < 5; ++step) {
        int base = i / 8 * 8;
        for (int j = base; j < base + 8; ++j) want[i] += p[j] + step;
        if (twice) want[i] += p[i ^ 1];
      }
    ArgBuffer args(k);
    args.set(0, p.data()).set(1, int32_t{5}).set(2, int32_t{twice});
    launch(k, args.data(), dims1(2, 32), pool());
    for (int i = 0; i < 64; ++i) REQUIRE(p[i] == want[i]);
  }
}

TEST_CASE(
    "Given sub-groups taking different paths, when a sub-group operation is reached by some "
    "sub-groups only, then each sub-group computes its own result (bench's two-level "
    "reduction and scan)",
    "[jit][subgroups]") {
  // cl_subgroup_bench's kernels: per sub-group sums, then sub-group 0 alone folds them; and a scan
  // whose sub-groups add the totals of those before them.
  const std::string source =
      "kernel void reduce(global const int* in, global int* out, local int* totals) {\n"
      "  int x = sub_group_reduce_add(in[get_global_id(0)]);\n"
      "  if (get_sub_group_local_id() == 0) totals[get_sub_group_id()] = x;\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  if (get_sub_group_id() == 0) {\n"
      "    int t = 0;\n"
      "    for (uint i = get_sub_group_local_id(); i < get_num_sub_groups(); i += "
      "get_sub_group_size())\n"
      "      t += totals[i];\n"
      "    t = sub_group_reduce_add(t);\n"
      "    if (get_sub_group_local_id() == 0) out[get_group_id(0)] = t;\n"
      "  }\n"
      "}\n"
      "kernel void scan(global const int* in, global int* out, local int* totals) {\n"
      "  int x = sub_group_scan_inclusive_add(in[get_global_id(0)]);\n"
      "  if (get_sub_group_local_id() == get_sub_group_size() - 1) totals[get_sub_group_id()] = "
      "x;\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  int before = 0;\n"
      "  for (uint i = 0; i < get_sub_group_id(); ++i) before += totals[i];\n"
      "  out[get_global_id(0)] = x + before;\n"
      "}\n"
      "kernel void odd(global int* p) {\n"
      "  int x = p[get_global_id(0)];\n"
      "  if (get_sub_group_id() % 2 == 1) x = sub_group_scan_exclusive_add(x);\n"
      "  else if (get_sub_group_id() % 3 == 0) x = sub_group_broadcast(x, 1);\n"
      "  p[get_global_id(0)] = sub_group_reduce_max(x);\n"
      "}\n";
  for (int widen : {16, 0, 8}) {
    auto m = buildOpenCL(source, widen);
    for (uint32_t local : {256u, 100u, 16u, 7u}) {
      INFO("TESSERA_WIDEN " << widen << ", local size " << local);
      const uint32_t groups = 3, n = groups * local, S = kDefaultSubgroupSize;
      std::vector<int32_t> in(n);
      for (uint32_t i = 0; i < n; ++i) in[i] = int32_t(i % 13) - 4;
      {
        const CompiledKernel& k = kernelOf(m, "reduce");
        std::vector<int32_t> out(groups, -1);
        ArgBuffer args(k);
        args.set(0, in.data()).set(1, out.data()).local(2, 4 * ((local + S - 1) / S));
        launch(k, args.data(), dims1(groups, local), pool());
        for (uint32_t g = 0; g < groups; ++g) {
          int32_t want = 0;
          for (uint32_t i = 0; i < local; ++i) want += in[g * local + i];
          REQUIRE(out[g] == want);
        }
      }
      {
        const CompiledKernel& k = kernelOf(m, "scan");
        std::vector<int32_t> out(n, -1);
        ArgBuffer args(k);
        args.set(0, in.data()).set(1, out.data()).local(2, 4 * ((local + S - 1) / S));
        launch(k, args.data(), dims1(groups, local), pool());
        for (uint32_t g = 0; g < groups; ++g) {
          int32_t want = 0;
          for (uint32_t i = 0; i < local; ++i) {
            want += in[g * local + i];
            REQUIRE(out[g * local + i] == want);
          }
        }
      }
      {
        const CompiledKernel& k = kernelOf(m, "odd");
        std::vector<int32_t> p = in;
        ArgBuffer args(k);
        args.set(0, p.data());
        launch(k, args.data(), dims1(groups, local), pool());
        for (uint32_t g = 0; g < groups; ++g)
          for (uint32_t sg = 0; sg * S < local; ++sg) {
            uint32_t first = g * local + sg * S, size = std::min(S, local - sg * S);
            std::vector<int32_t> x(in.begin() + first, in.begin() + first + size);
            if (sg % 2 == 1) {
              int32_t acc = 0;
              for (int32_t& v : x) {
                int32_t before = acc;
                acc += v;
                v = before;
              }
            } else if (sg % 3 == 0) {
              int32_t b = x[1 % size];
              for (int32_t& v : x) v = b;
            }
            int32_t want = *std::max_element(x.begin(), x.end());
            for (uint32_t j = 0; j < size; ++j) REQUIRE(p[first + j] == want);
          }
      }
    }
  }
}

namespace {

// SPIR-V assembly (another producer's module, not the translator's) built by the compiler facade.
std::shared_ptr<const CompiledModule> buildAssembly(const std::string& text, spv_target_env env) {
  spv_context context = spvContextCreate(env);
  spv_binary binary = nullptr;
  spv_diagnostic diagnostic = nullptr;
  spv_result_t r = spvTextToBinary(context, text.data(), text.size(), &binary, &diagnostic);
  std::string why = diagnostic && diagnostic->error ? diagnostic->error : "";
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  INFO(why);
  REQUIRE(r == SPV_SUCCESS);
  std::vector<uint8_t> bytes(binary->wordCount * 4);
  std::memcpy(bytes.data(), binary->code, bytes.size());
  spvBinaryDestroy(binary);
  static compiler::Compiler compiler{compiler::CompilerConfig{}, backends::cpuKind()};
  compiler::Compiler::Result built = compiler.build(bytes, nullptr, {});
  compiler::compileAll(built);
  INFO(built.log);
  REQUIRE(built.ok());
  REQUIRE(built.code != nullptr);
  return compiledModule(built.code);
}

}  // namespace

TEST_CASE(
    "Given SPIR-V of another producer with GroupNonUniform capabilities and the "
    "SubgroupSize execution mode, then it validates, builds and runs with that size",
    "[jit][subgroups]") {
  // out[g] = (inclusive scan of out[] over the sub-group), of lane ^ 1, plus the lane.
  auto m = buildAssembly(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability GroupNonUniform
               OpCapability GroupNonUniformArithmetic
               OpCapability GroupNonUniformShuffle
               OpCapability SubgroupDispatch
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %lid %gid
               OpExecutionMode %k SubgroupSize 8
               OpDecorate %lid BuiltIn SubgroupLocalInvocationId
               OpDecorate %gid BuiltIn GlobalInvocationId
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
    %v3ulong = OpTypeVector %ulong 3
       %void = OpTypeVoid
   %ptr_in_u = OpTypePointer Input %uint
   %ptr_in_v = OpTypePointer Input %v3ulong
   %ptr_glob = OpTypePointer CrossWorkgroup %uint
      %fn_ty = OpTypeFunction %void %ptr_glob
        %lid = OpVariable %ptr_in_u Input
        %gid = OpVariable %ptr_in_v Input
 %subgroup = OpConstant %uint 3
     %uint_1 = OpConstant %uint 1
          %k = OpFunction %void None %fn_ty
        %out = OpFunctionParameter %ptr_glob
      %entry = OpLabel
         %g3 = OpLoad %v3ulong %gid Aligned 32
          %g = OpCompositeExtract %ulong %g3 0
          %p = OpInBoundsPtrAccessChain %ptr_glob %out %g
          %x = OpLoad %uint %p Aligned 4
          %s = OpGroupNonUniformIAdd %uint %subgroup InclusiveScan %x
          %d = OpGroupNonUniformShuffleXor %uint %subgroup %s %uint_1
          %l = OpLoad %uint %lid Aligned 4
          %r = OpIAdd %uint %d %l
               OpStore %p %r Aligned 4
               OpReturn
               OpFunctionEnd
)",
                         SPV_ENV_UNIVERSAL_1_3);
  const CompiledKernel& k = kernelOf(m, "k");
  CHECK(k.subgroupSize == 8);
  CHECK(k.requiredSubgroupSize == 8);
  std::vector<uint32_t> p(48), in(48);
  for (uint32_t i = 0; i < 48; ++i) in[i] = p[i] = i * 5 % 11;
  ArgBuffer args(k);
  args.set(0, p.data());
  launch(k, args.data(), dims1(2, 24), pool());
  for (uint32_t i = 0; i < 48; ++i) {
    uint32_t j = i ^ 1, scan = 0;
    for (uint32_t t = j / 8 * 8; t <= j; ++t) scan += in[t];
    REQUIRE(p[i] == scan + i % 8);
  }
}

TEST_CASE(
    "Given SPIR-V 1.0 of another producer with the Groups, SubgroupShuffleINTEL and "
    "SubgroupBufferBlockIOINTEL capabilities, then it validates, builds and runs with the "
    "default size",
    "[jit][subgroups]") {
  // out[g] = the sub-group's maximum of in[], shuffled down by 1 (next: that maximum + 100), plus
  // 1000 * the block read of blk[] (lane i: blk[i]).
  auto m = buildAssembly(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Groups
               OpCapability SubgroupShuffleINTEL
               OpCapability SubgroupBufferBlockIOINTEL
               OpExtension "SPV_INTEL_subgroups"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %gid
               OpDecorate %gid BuiltIn GlobalInvocationId
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
    %v3ulong = OpTypeVector %ulong 3
       %void = OpTypeVoid
   %ptr_in_v = OpTypePointer Input %v3ulong
   %ptr_glob = OpTypePointer CrossWorkgroup %uint
      %fn_ty = OpTypeFunction %void %ptr_glob %ptr_glob %ptr_glob
        %gid = OpVariable %ptr_in_v Input
   %subgroup = OpConstant %uint 3
     %uint_1 = OpConstant %uint 1
   %uint_100 = OpConstant %uint 100
  %uint_1000 = OpConstant %uint 1000
          %k = OpFunction %void None %fn_ty
         %in = OpFunctionParameter %ptr_glob
        %blk = OpFunctionParameter %ptr_glob
        %out = OpFunctionParameter %ptr_glob
      %entry = OpLabel
         %g3 = OpLoad %v3ulong %gid Aligned 32
          %g = OpCompositeExtract %ulong %g3 0
         %pi = OpInBoundsPtrAccessChain %ptr_glob %in %g
          %x = OpLoad %uint %pi Aligned 4
         %mx = OpGroupUMax %uint %subgroup Reduce %x
       %next = OpIAdd %uint %mx %uint_100
         %sh = OpSubgroupShuffleDownINTEL %uint %mx %next %uint_1
          %b = OpSubgroupBlockReadINTEL %uint %blk
         %bk = OpIMul %uint %b %uint_1000
          %r = OpIAdd %uint %sh %bk
         %po = OpInBoundsPtrAccessChain %ptr_glob %out %g
               OpStore %po %r Aligned 4
               OpReturn
               OpFunctionEnd
)",
                         SPV_ENV_UNIVERSAL_1_0);
  const CompiledKernel& k = kernelOf(m, "k");
  const uint32_t S = kDefaultSubgroupSize;
  CHECK(k.subgroupSize == S);
  CHECK(k.requiredSubgroupSize == 0);
  const uint32_t n = 2 * S;
  std::vector<uint32_t> in(n), blk(S), out(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = i * 7 % 23;
  for (uint32_t i = 0; i < S; ++i) blk[i] = i + 1;
  ArgBuffer args(k);
  args.set(0, in.data()).set(1, blk.data()).set(2, out.data());
  launch(k, args.data(), dims1(2, S), pool());
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t mx = *std::max_element(in.begin() + i / S * S, in.begin() + i / S * S + S);
    uint32_t lane = i % S;
    REQUIRE(out[i] == (lane + 1 < S ? mx : mx + 100) + 1000 * blk[lane]);
  }
}

TEST_CASE(
    "Given non-uniform sub-group operations reached by some lanes of a sub-group, then the "
    "lanes that arrive together take part, and the sub-group meets again after the branch",
    "[jit][subgroups]") {
  const char* body = R"(
kernel void nu(global const int* in, global int* out, uint mask) {
  size_t gid = get_global_id(0);
  int x = in[gid];
  uint lane = get_sub_group_local_id();
  int r[11] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
  if ((mask >> (lane % 32)) & 1) {
    r[0] = sub_group_non_uniform_reduce_add(x);
    r[1] = sub_group_non_uniform_scan_inclusive_add(x);
    r[2] = sub_group_non_uniform_scan_exclusive_max(x);
    r[3] = sub_group_non_uniform_all(x > -3);
    r[4] = sub_group_non_uniform_any(x == 4);
    r[5] = sub_group_non_uniform_all_equal(x / 100);
    r[6] = sub_group_elect();
    r[7] = sub_group_broadcast_first(x);
    uint4 b = sub_group_ballot(x > 0);
    r[8] = b.x;
    r[9] = b.y;
  } else {
    r[0] = sub_group_non_uniform_reduce_max(x);
  }
  r[10] = sub_group_reduce_add(x);
  for (int k = 0; k < 11; ++k) out[gid * 11 + k] = r[k];
}
)";
  for (uint32_t required : {0u, 4u, 32u, 64u}) {
    std::string source = required ? "__attribute__((intel_reqd_sub_group_size(" +
                                        std::to_string(required) + ")))" + body
                                  : body;
    for (int widen : {16, 0}) {
      auto m = buildOpenCL(source, widen);
      const CompiledKernel& k = kernelOf(m, "nu");
      const uint32_t S = k.subgroupSize;
      for (uint32_t mask : {0x55555555u, 0xFFFFFFFEu, 0x1u, 0xF0F0F0F0u, 0xFFFFFFFFu, 0u}) {
        for (uint32_t local : {64u, 37u}) {
          INFO("size " << S << ", TESSERA_WIDEN " << widen << ", mask " << mask << ", local size "
                       << local);
          const uint32_t groups = 2, n = groups * local;
          std::vector<int32_t> in(n), out(11 * n, -7);
          for (uint32_t i = 0; i < n; ++i) in[i] = int32_t(i * 5 % 13) - 4;
          ArgBuffer args(k);
          args.set(0, static_cast<const int32_t*>(in.data())).set(1, out.data()).set(2, mask);
          launch(k, args.data(), dims1(groups, local), pool());
          for (uint32_t g = 0; g < groups; ++g)
            for (uint32_t first = 0; first < local; first += S) {
              const uint32_t size = std::min(S, local - first);
              auto on = [&](uint32_t lane) { return (mask >> (lane % 32)) & 1; };
              const int32_t* x = in.data() + g * local + first;
              for (uint32_t lane = 0; lane < size; ++lane) {
                const int32_t* got = out.data() + 11 * (g * local + first + lane);
                int32_t all = 0;
                for (uint32_t j = 0; j < size; ++j) all += x[j];
                REQUIRE(got[10] == all);
                if (!on(lane)) {
                  int32_t mx = INT32_MIN;
                  for (uint32_t j = 0; j < size; ++j)
                    if (!on(j)) mx = std::max(mx, x[j]);
                  REQUIRE(got[0] == mx);
                  continue;
                }
                int32_t sum = 0, upTo = 0, maxBefore = INT32_MIN, firstX = 0;
                bool allOf = true, anyOf = false, same = true, seen = false;
                uint32_t firstLane = 0;
                uint64_t ballot = 0;
                for (uint32_t j = 0; j < size; ++j) {
                  if (!on(j)) continue;
                  if (!seen) firstLane = j, firstX = x[j], seen = true;
                  sum += x[j];
                  if (j <= lane) upTo += x[j];
                  if (j < lane) maxBefore = std::max(maxBefore, x[j]);
                  allOf = allOf && x[j] > -3;
                  anyOf = anyOf || x[j] == 4;
                  same = same && x[j] / 100 == firstX / 100;
                  if (x[j] > 0) ballot |= uint64_t{1} << j;
                }
                const int32_t want[10] = {sum,
                                          upTo,
                                          maxBefore,
                                          int32_t(allOf),
                                          int32_t(anyOf),
                                          int32_t(same),
                                          int32_t(lane == firstLane),
                                          firstX,
                                          int32_t(uint32_t(ballot)),
                                          int32_t(uint32_t(ballot >> 32))};
                for (int c = 0; c < 10; ++c) {
                  INFO("result " << c << " of lane " << lane << " in the sub-group at " << first);
                  REQUIRE(got[c] == want[c]);
                }
              }
            }
        }
      }
    }
  }
}

}  // namespace tessera::backends::cpu::test
