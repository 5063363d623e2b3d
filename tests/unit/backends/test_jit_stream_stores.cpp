// Stores past the caches (backends/cpu/jit/stream_stores.cpp; the launcher's choice,
// streamsStores in backends/cpu/runtime/launcher.h): which kernels' stores may stream, when a
// launch has them do so, and that streamed stores write what the kernel does, aligned or not.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "jit_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

TEST_CASE("Given kernels with widened global stores, when compiled, then those without atomics "
          "stream their stores, sized by their largest store per work-item",
          "[jit][stream_stores]") {
  // Only the widening's stores stream: none when a run turns it off (TESSERA_WIDEN=0).
  const bool widened = kernel("stream_stores", "stream_scale").widen.width != 0;
  CHECK(kernel("stream_stores", "stream_copy4").streamBytesPerItem == (widened ? 16u : 0u));
  CHECK(kernel("stream_stores", "stream_scale").streamBytesPerItem == (widened ? 4u : 0u));
  const CompiledKernel& counted = kernel("stream_stores", "stream_counted");
  CHECK(counted.widen.contiguous == kernel("stream_stores", "stream_scale").widen.contiguous);
  CHECK(counted.streamBytesPerItem == 0);
}

TEST_CASE("Given a launch, when it writes more than the caches hold, then it streams its stores",
          "[jit][stream_stores]") {
  CompiledKernel k = kernel("stream_stores", "stream_copy4");
  k.streamBytesPerItem = 16;
  const LaunchDims d = dims1(64, 256);  // 16,384 work-items of 16 bytes: 256 KiB
  CHECK(streamsStores(k, d, 128 << 10));
  CHECK_FALSE(streamsStores(k, d, 256 << 10));
  CHECK_FALSE(streamsStores(k, d, 0));  // caches unknown: never
  CompiledKernel none = k;
  none.streamBytesPerItem = 0;
  CHECK_FALSE(streamsStores(none, d, 1));
  LaunchDims huge = dims1(~0u, ~0u);  // work-items x bytes past 64 bits
  huge.groupCount = {~0u, ~0u, ~0u};
  CHECK(streamsStores(k, huge, ~uint64_t{0}));
}

TEST_CASE("Given a float4 copy, when it streams, then the output is the input",
          "[jit][stream_stores]") {
  const CompiledKernel& k = kernel("stream_stores", "stream_copy4");
  for (uint64_t above : {uint64_t{0}, uint64_t{1}}) {
    std::vector<float> in(4 * 4096), out(in.size(), -1.0f);
    for (size_t i = 0; i < in.size(); ++i) in[i] = float(i % 977) - 400.0f;
    ArgBuffer args(k);
    args.set(0, static_cast<void*>(in.data()));
    args.set(1, static_cast<void*>(out.data()));
    REQUIRE(streamsStores(k, dims1(16, 256), above) == (above != 0 && k.streamBytesPerItem != 0));
    launch(k, args.data(), dims1(16, 256), &pool(), nullptr, 0, above);
    INFO("streamAbove " << above);
    REQUIRE(out == in);
  }
}

TEST_CASE("Given stores whose address is aligned in some rows only, when they stream, then every "
          "value lands where the kernel wrote it and nothing beside it",
          "[jit][stream_stores]") {
  const CompiledKernel& k = kernel("stream_stores", "stream_scale");
  // Widths that keep rows 64-byte aligned or not; the output at offsets of 0 to 3 floats from a
  // 64-byte boundary; a partial last group in x.
  for (int w : {256, 200, 37})
    for (size_t shift : {0, 1, 3}) {
      const int h = 24;
      std::vector<float> in(size_t(w) * h);
      for (size_t i = 0; i < in.size(); ++i) in[i] = float(i % 613) * 0.25f;
      std::vector<float> space(in.size() + 64, -7.0f);
      auto* base = reinterpret_cast<float*>((reinterpret_cast<uintptr_t>(space.data()) + 63) &
                                            ~uintptr_t{63});
      float* out = base + shift;
      ArgBuffer args(k);
      args.set(0, static_cast<void*>(in.data()));
      args.set(1, static_cast<void*>(out));
      args.set(2, w);
      LaunchDims d = dims2((w + 15) / 16, h / 8, 16, 8);
      d.workDim = 2;
      d.lastGroupSize[0] = w % 16;
      launch(k, args.data(), d, &pool(), nullptr, 0, 1);
      INFO("width " << w << ", shift " << shift);
      for (float* p = space.data(); p < out; ++p) REQUIRE(*p == -7.0f);
      for (float* p = out + in.size(); p < space.data() + space.size(); ++p) REQUIRE(*p == -7.0f);
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          const size_t i = size_t(y) * w + x;
          const float want = x == 0 || x == w - 1
                                 ? in[i]
                                 : 0.5f * in[i] + 0.25f * (in[i - 1] + in[i + 1]);
          REQUIRE(out[i] == Approx(want).epsilon(1e-6));
        }
    }
}

}  // namespace
}  // namespace tessera::backends::cpu::test
