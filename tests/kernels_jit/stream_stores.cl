// Kernels whose widened stores may go past the caches (backends/cpu/jit/stream_stores.cpp).

// 16 bytes a work-item, in 32-byte pieces (copy_pieces.cpp) of two lanes, aligned by their type to
// 16 bytes only: a streamed piece checks its address.
__kernel void stream_copy4(__global const float4* in, __global float4* out) {
  size_t i = get_global_id(0);
  out[i] = in[i];
}

// 4 bytes a work-item, in vectors of lanes whose address is aligned only when `out` and the row
// are: a streamed store checks its address. (The edge branch, around loads that may not run at
// the edges, is what makes the widening take the kernel rather than leave it to LLVM's loop
// vectorizer, whose stores are not streamed.)
__kernel void stream_scale(__global const float* in, __global float* out, int width) {
  int x = get_global_id(0), y = get_global_id(1);
  int i = y * width + x;
  if (min(x, width - 1 - x) == 0)
    out[i] = in[i];
  else
    out[i] = 0.5f * in[i] + 0.25f * (in[i - 1] + in[i + 1]);
}

// The same with an atomic another thread may see before the launch ends: plain stores.
__kernel void stream_counted(__global const float* in, __global float* out, int width,
                             __global uint* counter) {
  atomic_add(counter, 1u);
  int x = get_global_id(0), y = get_global_id(1);
  int i = y * width + x;
  if (min(x, width - 1 - x) == 0)
    out[i] = in[i];
  else
    out[i] = 0.5f * in[i] + 0.25f * (in[i - 1] + in[i + 1]);
}
