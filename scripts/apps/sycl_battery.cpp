// A battery of SYCL features on the Level Zero device (AdaptiveCpp, generic SSCP flow), each case
// checked on the host and printed ok/FAIL; `omp` as argument runs it on AdaptiveCpp's OpenMP host
// device instead, for comparison. Built and run by scripts/apps/sycl_check.sh.
#include <sycl/sycl.hpp>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>
#include <string>
static int failures = 0;
static void report(const char* name, bool ok) {
  std::printf("%-28s %s\n", name, ok ? "ok" : "FAIL");
  if (!ok) ++failures;
}
int main(int argc, char** argv) {
  const bool host = argc > 1 && std::string(argv[1]) == "omp";
  sycl::device dev;
  bool found = false;
  for (auto& d : sycl::device::get_devices())
    if (d.get_backend() == (host ? sycl::backend::omp : sycl::backend::level_zero)) dev = d, found = true;
  if (!found) { std::printf("no Level Zero device\n"); return 2; }
  sycl::queue q{dev, sycl::property::queue::in_order{}};
  std::printf("device: %s\n", dev.get_info<sycl::info::device::name>().c_str());
  const size_t n = 1 << 16;
  // 1. device USM + memcpy
  {
    int* d = sycl::malloc_device<int>(n, q);
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { d[i] = int(i[0]) * 3; });
    std::vector<int> h(n);
    q.memcpy(h.data(), d, n * sizeof(int)).wait();
    bool ok = true;
    for (size_t i = 0; i < n; ++i) ok &= h[i] == int(i) * 3;
    report("usm device + memcpy", ok);
    sycl::free(d, q);
  }
  // 2. nd_range with local memory and barrier: reverse within a group
  {
    const size_t wg = 64;
    int* d = sycl::malloc_shared<int>(n, q);
    for (size_t i = 0; i < n; ++i) d[i] = int(i);
    q.submit([&](sycl::handler& h) {
      sycl::local_accessor<int, 1> tile(wg, h);
      h.parallel_for(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
        size_t l = it.get_local_id(0), g = it.get_global_id(0);
        tile[l] = d[g];
        sycl::group_barrier(it.get_group());
        d[g] = tile[wg - 1 - l];
      });
    }).wait();
    bool ok = true;
    for (size_t i = 0; i < n; ++i) ok &= d[i] == int((i / wg) * wg + (wg - 1 - i % wg));
    report("local memory + barrier", ok);
    sycl::free(d, q);
  }
  // 3. reduction
  {
    int* d = sycl::malloc_shared<int>(n, q);
    int* sum = sycl::malloc_shared<int>(1, q);
    for (size_t i = 0; i < n; ++i) d[i] = int(i % 7);
    *sum = 0;
    q.parallel_for(sycl::range<1>(n), sycl::reduction(sum, sycl::plus<int>()),
                   [=](sycl::id<1> i, auto& r) { r += d[i]; }).wait();
    long expect = 0;
    for (size_t i = 0; i < n; ++i) expect += i % 7;
    report("reduction (plus<int>)", *sum == expect);
    sycl::free(d, q); sycl::free(sum, q);
  }
  // 4. atomics: int and float fetch_add
  {
    int* ci = sycl::malloc_shared<int>(1, q);
    float* cf = sycl::malloc_shared<float>(1, q);
    *ci = 0; *cf = 0.f;
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1>) {
      sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device> a(*ci);
      a.fetch_add(1);
      sycl::atomic_ref<float, sycl::memory_order::relaxed, sycl::memory_scope::device> f(*cf);
      f.fetch_add(1.0f);
    }).wait();
    report("atomic_ref int fetch_add", *ci == int(n));
    report("atomic_ref float fetch_add", *cf == float(n));
    sycl::free(ci, q); sycl::free(cf, q);
  }
  // 5. sub-group queries (AdaptiveCpp 49544a4's SSCP library has no group collectives, such as
  // reduce_over_group or select_from_group, for any backend: its own host backend fails them too)
  {
    const size_t wg = 128;
    int* info = sycl::malloc_shared<int>(4 * n, q);
    q.parallel_for(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
      auto sg = it.get_sub_group();
      size_t g = it.get_global_id(0);
      info[4 * g + 0] = int(sg.get_local_linear_id());
      info[4 * g + 1] = int(sg.get_local_linear_range());
      info[4 * g + 2] = int(sg.get_group_linear_id());
      info[4 * g + 3] = int(sg.get_group_linear_range());
    }).wait();
    bool ok = true;
    for (size_t g = 0; g < n; ++g) {
      int lid = info[4 * g], size = info[4 * g + 1], id = info[4 * g + 2], count = info[4 * g + 3];
      size_t l = g % wg;
      ok &= size > 0 && count * size == int(wg) && size_t(id * size + lid) == l;
    }
    report("sub-group ids and sizes", ok);
    sycl::free(info, q);
  }
  // 6. math builtins
  {
    float* d = sycl::malloc_shared<float>(n, q);
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
      float x = float(i[0]) / n;
      d[i] = sycl::exp(x) * sycl::sin(x) + sycl::pow(x, 1.5f) + sycl::log1p(x);
    }).wait();
    bool ok = true;
    for (size_t i = 0; i < n; ++i) {
      float x = float(i) / n;
      double e = std::exp(double(x)) * std::sin(double(x)) + std::pow(double(x), 1.5) + std::log1p(double(x));
      ok &= std::fabs(d[i] - e) <= 1e-5 * (1 + std::fabs(e));
    }
    report("math (exp sin pow log1p)", ok);
    sycl::free(d, q);
  }
  // 7. 2-D range with buffers and accessors, double precision
  {
    const size_t w = 256, hgt = 128;
    std::vector<double> a(w * hgt);
    {
      sycl::buffer<double, 2> b(a.data(), sycl::range<2>(hgt, w));
      q.submit([&](sycl::handler& h) {
        sycl::accessor acc(b, h, sycl::write_only);
        h.parallel_for(sycl::range<2>(hgt, w), [=](sycl::id<2> i) { acc[i] = double(i[0]) * 1000 + i[1]; });
      });
    }
    bool ok = true;
    for (size_t y = 0; y < hgt; ++y) for (size_t x = 0; x < w; ++x) ok &= a[y * w + x] == double(y) * 1000 + x;
    report("2-D buffer (double)", ok);
  }
  // 8. host task + event dependencies on an out-of-order queue
  {
    sycl::queue oq{dev};
    int* d = sycl::malloc_shared<int>(n, oq);
    auto e1 = oq.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { d[i] = 1; });
    auto e2 = oq.parallel_for(sycl::range<1>(n), e1, [=](sycl::id<1> i) { d[i] += 2; });
    e2.wait();
    bool ok = true;
    for (size_t i = 0; i < n; ++i) ok &= d[i] == 3;
    report("out-of-order deps", ok);
    sycl::free(d, oq);
  }
  // 9. matrix multiply, 16x16 tiles in local memory
  {
    const size_t m = 256, tile = 16;
    std::vector<float> a(m * m), b(m * m), c(m * m);
    for (size_t i = 0; i < m * m; ++i) a[i] = float(i % 13) - 6, b[i] = float(i % 7) - 3;
    {
      sycl::buffer<float, 2> A(a.data(), sycl::range<2>(m, m)), B(b.data(), sycl::range<2>(m, m)),
          C(c.data(), sycl::range<2>(m, m));
      q.submit([&](sycl::handler& h) {
        sycl::accessor x(A, h, sycl::read_only), y(B, h, sycl::read_only);
        sycl::accessor z(C, h, sycl::write_only, sycl::no_init);
        sycl::local_accessor<float, 2> ta(sycl::range<2>(tile, tile), h), tb(sycl::range<2>(tile, tile), h);
        h.parallel_for(sycl::nd_range<2>({m, m}, {tile, tile}), [=](sycl::nd_item<2> it) {
          const size_t r = it.get_global_id(0), col = it.get_global_id(1);
          const size_t lr = it.get_local_id(0), lc = it.get_local_id(1);
          float acc = 0;
          for (size_t t = 0; t < m; t += tile) {
            ta[lr][lc] = x[r][t + lc];
            tb[lr][lc] = y[t + lr][col];
            sycl::group_barrier(it.get_group());
            for (size_t k = 0; k < tile; ++k) acc += ta[lr][k] * tb[k][lc];
            sycl::group_barrier(it.get_group());
          }
          z[r][col] = acc;
        });
      });
    }
    bool ok = true;
    for (size_t i = 0; i < m && ok; ++i)
      for (size_t j = 0; j < m; ++j) {
        float e = 0;
        for (size_t k = 0; k < m; ++k) e += a[i * m + k] * b[k * m + j];
        ok &= c[i * m + j] == e;  // small integers: exact in float
      }
    report("matrix multiply (tiled)", ok);
  }
  // 10. scan: inclusive prefix sums of each work-group's slice (Hillis-Steele in local memory),
  // then the groups' totals added on the host side of a second kernel
  {
    const size_t wg = 256, groups = n / wg;
    int* d = sycl::malloc_shared<int>(n, q);
    int* totals = sycl::malloc_shared<int>(groups, q);
    for (size_t i = 0; i < n; ++i) d[i] = int(i % 11) - 5;
    std::vector<long> expect(n);
    long run = 0;
    for (size_t i = 0; i < n; ++i) expect[i] = run += d[i];
    q.submit([&](sycl::handler& h) {
      sycl::local_accessor<int, 1> buf(2 * wg, h);
      h.parallel_for(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
        const size_t l = it.get_local_id(0), g = it.get_global_id(0);
        size_t in = wg, out = 0;  // swapped before the first step: data in the first half
        buf[l] = d[g];
        sycl::group_barrier(it.get_group());
        for (size_t off = 1; off < wg; off *= 2) {
          in = wg - in, out = wg - out;
          buf[out + l] = buf[in + l] + (l >= off ? buf[in + l - off] : 0);
          sycl::group_barrier(it.get_group());
        }
        d[g] = buf[(wg > 1 ? out : 0) + l];
        if (l == wg - 1) totals[it.get_group(0)] = buf[out + l];
      });
    });
    q.submit([&](sycl::handler& h) {
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
        int add = 0;
        for (size_t k = 0; k < i[0] / wg; ++k) add += totals[k];
        d[i] += add;
      });
    }).wait();
    bool ok = true;
    for (size_t i = 0; i < n; ++i) ok &= d[i] == expect[i];
    report("scan (work-group + totals)", ok);
    sycl::free(d, q); sycl::free(totals, q);
  }
  std::printf("%s: %d failing\n", failures ? "FAIL" : "ok", failures);
  return failures != 0;
}
