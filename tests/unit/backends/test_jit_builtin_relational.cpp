// Relational functions on scalars and vectors (OpenCL C 1.2, 6.12.6): "the scalar versions return
// 0 if the specified relation is false and 1 if true; the vector versions return 0 if false and -1
// (i.e. all bits set) if true", in int for float and long for double lanes; any / all of integer
// vectors (the sign bits) and of relational results; select and bitselect. Kernels:
// tests/kernels_jit/builtins_relational.cl. Vector relationals used to fail the work-group
// function's verifier (a bitcast of <n x i1> to the translator's <n x i8>).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "builtin_reference.h"
#include "jit_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

const char* const kRelations[] = {"isnan",   "isinf",      "isfinite",    "isnormal",
                                  "signbit", "isordered",  "isunordered", "islessgreater",
                                  "isequal", "isnotequal", "isgreater",   "isgreaterequal",
                                  "isless",  "islessequal"};

template <typename T>
std::vector<bool> relations(T a, T b) {
  return {std::isnan(a),
          std::isinf(a),
          std::isfinite(a),
          std::isnormal(a),
          std::signbit(a),
          !std::isnan(a) && !std::isnan(b),
          std::isnan(a) || std::isnan(b),
          a < b || a > b,
          a == b,
          a != b,
          a > b,
          a >= b,
          a < b,
          a <= b};
}

template <typename T, typename I>
void checkRelational(unsigned lanes) {
  std::string name =
      std::string("relational_") + (sizeof(T) == 4 ? "float" : "double") + std::to_string(lanes);
  INFO(name);
  const CompiledKernel& k = kernel("builtins_relational", name);
  std::vector<T> v = edgeValues<T>();
  v.resize(40);
  AlignedVector<T> x, y;
  for (T a : v)
    for (T b : v) x.push_back(a), y.push_back(b);
  while (x.size() % (16 * 3 * 4) != 0) x.push_back(T(1)), y.push_back(T(2));
  size_t n = x.size();
  AlignedVector<I> out(14 * n);
  AlignedVector<T> sel(2 * n);
  ArgBuffer args(k);
  args.set(0, static_cast<void*>(x.data())).set(1, static_cast<void*>(y.data()));
  args.set(2, static_cast<void*>(out.data())).set(3, static_cast<void*>(sel.data()));
  launch(k, args.data(), dims1(uint32_t(n / lanes / 4), 4), pool());
  const I yes = lanes == 1 ? I(1) : I(-1);
  for (size_t e = 0; e < n; ++e) {
    std::vector<bool> want = relations(x[e], y[e]);
    for (size_t f = 0; f < want.size(); ++f) {
      if (out[f * n + e] != (want[f] ? yes : I(0))) {
        FAIL_CHECK(name << ": " << kRelations[f] << "(" << x[e] << ", " << y[e]
                        << ") = " << int64_t(out[f * n + e]));
      }
    }
    // Element e of vector i = e / lanes lies at sel[2 * i * lanes + lane] (select), then + lanes
    // (bitselect).
    size_t i = e / lanes, lane = e % lanes;
    T selected = sel[2 * i * lanes + lane];
    T bits = sel[2 * i * lanes + lanes + lane];
    T wantSelected = x[e] < y[e] ? y[e] : x[e];
    T wantBits = std::copysign(x[e], y[e]);
    CHECK((std::memcmp(&selected, &wantSelected, sizeof(T)) == 0));
    CHECK((std::memcmp(&bits, &wantBits, sizeof(T)) == 0));
  }
}

TEST_CASE(
    "Given the relational functions, when run on scalars and vectors of float and double, "
    "then scalars give 1/0 and vector lanes -1/0 in the lane's integer type",
    "[jit][builtins][relational]") {
  checkRelational<float, int32_t>(1);
  checkRelational<float, int32_t>(4);
  checkRelational<float, int32_t>(16);
  checkRelational<double, int32_t>(1);
  checkRelational<double, int64_t>(3);
  checkRelational<double, int64_t>(8);
}

template <typename T>
void checkAnyAll(const char* type) {
  for (unsigned lanes : {2u, 3u, 4u, 8u, 16u}) {
    std::string name = std::string("any_all_") + type + std::to_string(lanes);
    INFO(name);
    const CompiledKernel& k = kernel("builtins_relational", name);
    const size_t vectors = 64;
    AlignedVector<T> x(vectors * lanes);
    uint64_t s = 12345;
    for (size_t v = 0; v < vectors; ++v) {
      for (size_t l = 0; l < lanes; ++l) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        // Vector v: lanes negative with probability v / vectors; low bits random.
        bool negative = (s >> 40) % vectors < v;
        T value = T(s >> 17) & std::numeric_limits<T>::max();
        x[v * lanes + l] = negative ? T(~value) : value;
      }
    }
    std::vector<int32_t> out(2 * vectors);
    ArgBuffer args(k);
    args.set(0, static_cast<void*>(x.data())).set(1, static_cast<void*>(out.data()));
    launch(k, args.data(), dims1(vectors / 8, 8), pool());
    for (size_t v = 0; v < vectors; ++v) {
      bool any = false, all = true;
      for (size_t l = 0; l < lanes; ++l) {
        any = any || x[v * lanes + l] < 0;
        all = all && x[v * lanes + l] < 0;
      }
      INFO("vector " << v);
      CHECK(out[2 * v] == int(any));
      CHECK(out[2 * v + 1] == int(all));
    }
  }
}

TEST_CASE(
    "Given any and all, when run on char, short, int and long vectors of every width, then "
    "they read the lanes' sign bits",
    "[jit][builtins][relational]") {
  checkAnyAll<int8_t>("char");
  checkAnyAll<int16_t>("short");
  checkAnyAll<int32_t>("int");
  checkAnyAll<int64_t>("long");
}

TEST_CASE("Given any and all of vector relationals, when run, then they see every lane",
          "[jit][builtins][relational]") {
  const CompiledKernel& k = kernel("builtins_relational", "any_all_relational");
  const float nan = NAN, inf = INFINITY;
  AlignedVector<float> x = {1, 2, 3, 4, 1, nan, 3, 4, 1, 2, inf, 4, -0.0f, 2, 3, nan};
  AlignedVector<double> d = {1, 2, -1, 2, 1e-310, 1, 0, -0.0};
  std::vector<int32_t> out(16);
  ArgBuffer args(k);
  args.set(0, static_cast<void*>(x.data())).set(1, static_cast<void*>(d.data()));
  args.set(2, static_cast<void*>(out.data()));
  launch(k, args.data(), dims1(1, 4), pool());
  const int want[16] = {0, 1, 0, 1, /**/ 1, 0, 1, 1, /**/ 0, 0, 0, 0, /**/ 1, 0, 1, 0};
  for (int i = 0; i < 16; ++i) {
    INFO("result " << i);
    CHECK(out[i] == want[i]);
  }
}

}  // namespace
}  // namespace tessera::backends::cpu::test
