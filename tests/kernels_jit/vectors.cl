// vloadn / vstoren for every n and several element types, and the half conversions.
#define ROUNDTRIP(T, N)                                      \
  __kernel void copy_##T##N(__global const T* in, __global T* out) { \
    size_t i = get_global_id(0);                             \
    vstore##N(vload##N(i, in) + (T)1, i, out);               \
  }
ROUNDTRIP(float, 2)
ROUNDTRIP(float, 3)
ROUNDTRIP(float, 4)
ROUNDTRIP(float, 8)
ROUNDTRIP(float, 16)
ROUNDTRIP(int, 3)
ROUNDTRIP(uchar, 16)
ROUNDTRIP(short, 8)
ROUNDTRIP(double, 3)
ROUNDTRIP(long, 2)

// vload3 into __local, read back through a vector of another offset.
__kernel void local_vload3(__global const float* in, __global float* out, __local float* tmp) {
  size_t l = get_local_id(0), g = get_global_id(0);
  vstore3(vload3(g, in), l, tmp);
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t other = (l + 1) % get_local_size(0);
  vstore3(vload3(other, tmp) * 2.0f, g, out);
}

__kernel void halves(__global const half* h, __global float* f, __global half* out) {
  size_t i = get_global_id(0);
  f[i] = vload_half(i, h);
  vstore4(vload_half4(i, h), i, f + 64);
  vstore_half(f[i] * 2.0f, i, out);
  vstore_half4(vload_half4(i, h) + 1.0f, i, out + 64);
  vstore3(vloada_half3(i, h), i, f + 128);
}

// One float per work-item stored with each rounding mode.
__kernel void half_rounding(__global const float* x, __global half* out) {
  size_t i = get_global_id(0);
  float v = x[i];
  vstore_half_rte(v, 4 * i, out);
  vstore_half_rtz(v, 4 * i + 1, out);
  vstore_half_rtp(v, 4 * i + 2, out);
  vstore_half_rtn(v, 4 * i + 3, out);
}

__kernel void half_vector_rounding(__global const float4* x, __global half* out) {
  size_t i = get_global_id(0);
  vstore_half4_rtz(x[i], 2 * i, out);
  vstorea_half4_rtp(x[i], 2 * i + 1, out);
}
