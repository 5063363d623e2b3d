// Conversions to floating point with each rounding mode, scalar and vector, and vstore_half_r
// from double, for test_jit_builtin_conversions.cpp. Conversion k of element e goes to
// out[k * total + e], k in the order: rte, rtz, rtp, rtn for each source.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define MODES(T, N, v, out, k)                                 \
  vstore##N(convert_##T##N##_rte(v), (k)*s + i, out);          \
  vstore##N(convert_##T##N##_rtz(v), (k + 1) * s + i, out);    \
  vstore##N(convert_##T##N##_rtp(v), (k + 2) * s + i, out);    \
  vstore##N(convert_##T##N##_rtn(v), (k + 3) * s + i, out);

__kernel void to_float(__global const int* a, __global const uint* b, __global const long* c,
                       __global const ulong* d, __global const double* e, __global float* out) {
  size_t i = get_global_id(0), s = get_global_size(0);
  out[i] = convert_float_rte(a[i]);
  out[s + i] = convert_float_rtz(a[i]);
  out[2 * s + i] = convert_float_rtp(a[i]);
  out[3 * s + i] = convert_float_rtn(a[i]);
  out[4 * s + i] = convert_float_rte(b[i]);
  out[5 * s + i] = convert_float_rtz(b[i]);
  out[6 * s + i] = convert_float_rtp(b[i]);
  out[7 * s + i] = convert_float_rtn(b[i]);
  out[8 * s + i] = convert_float_rte(c[i]);
  out[9 * s + i] = convert_float_rtz(c[i]);
  out[10 * s + i] = convert_float_rtp(c[i]);
  out[11 * s + i] = convert_float_rtn(c[i]);
  out[12 * s + i] = convert_float_rte(d[i]);
  out[13 * s + i] = convert_float_rtz(d[i]);
  out[14 * s + i] = convert_float_rtp(d[i]);
  out[15 * s + i] = convert_float_rtn(d[i]);
  out[16 * s + i] = convert_float_rte(e[i]);
  out[17 * s + i] = convert_float_rtz(e[i]);
  out[18 * s + i] = convert_float_rtp(e[i]);
  out[19 * s + i] = convert_float_rtn(e[i]);
}

// The same on 4 lanes per work-item.
__kernel void to_float4(__global const int* a, __global const uint* b, __global const long* c,
                        __global const ulong* d, __global const double* e, __global float* out) {
  size_t i = get_global_id(0), s = get_global_size(0);
  MODES(float, 4, vload4(i, a), out, 0)
  MODES(float, 4, vload4(i, b), out, 4)
  MODES(float, 4, vload4(i, c), out, 8)
  MODES(float, 4, vload4(i, d), out, 12)
  MODES(float, 4, vload4(i, e), out, 16)
}

__kernel void to_double(__global const long* c, __global const ulong* d, __global double* out) {
  size_t i = get_global_id(0), s = get_global_size(0);
  out[i] = convert_double_rte(c[i]);
  out[s + i] = convert_double_rtz(c[i]);
  out[2 * s + i] = convert_double_rtp(c[i]);
  out[3 * s + i] = convert_double_rtn(c[i]);
  out[4 * s + i] = convert_double_rte(d[i]);
  out[5 * s + i] = convert_double_rtz(d[i]);
  out[6 * s + i] = convert_double_rtp(d[i]);
  out[7 * s + i] = convert_double_rtn(d[i]);
}

__kernel void to_double2(__global const long* c, __global const ulong* d, __global double* out) {
  size_t i = get_global_id(0), s = get_global_size(0);
  MODES(double, 2, vload2(i, c), out, 0)
  MODES(double, 2, vload2(i, d), out, 4)
}

// double -> half by each mode: one rounding, not two through float.
__kernel void double_to_half(__global const double* x, __global half* out) {
  size_t i = get_global_id(0);
  vstore_half_rte(x[i], 4 * i, out);
  vstore_half_rtz(x[i], 4 * i + 1, out);
  vstore_half_rtp(x[i], 4 * i + 2, out);
  vstore_half_rtn(x[i], 4 * i + 3, out);
}
