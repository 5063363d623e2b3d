// Half precision (cl_khr_fp16) for test_jit_half.cpp: arithmetic, conversions with every rounding
// mode and saturation, vectors, vload/vstore, builtins, structs, local memory and arguments by
// value. Result k of element i goes to out[k * s + i] (s: the global size) unless said otherwise.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// + - * / fma sqrt on halves in global memory; each statement one operation (no contraction).
__kernel void arith(__global const half* a, __global const half* b, __global const half* c,
                    __global half* out) {
  size_t i = get_global_id(0), s = get_global_size(0);
  half x = a[i], y = b[i];
  out[i] = x + y;
  out[s + i] = x - y;
  out[2 * s + i] = x * y;
  out[3 * s + i] = x / y;
  out[4 * s + i] = fma(x, y, c[i]);
  out[5 * s + i] = sqrt(x);
  out[6 * s + i] = -x;
  out[7 * s + i] = (half)((double)x * (double)y + (double)c[i]);  // fptrunc double -> half
}

// The same on 8 lanes per work-item (out: 8 results of 8 lanes).
__kernel void arith8(__global const half* a, __global const half* b, __global const half* c,
                     __global half* out) {
  size_t i = get_global_id(0), s = get_global_size(0);
  half8 x = vload8(i, a), y = vload8(i, b), z = vload8(i, c);
  vstore8(x + y, i, out);
  vstore8(x - y, s + i, out);
  vstore8(x * y, 2 * s + i, out);
  vstore8(x / y, 3 * s + i, out);
  vstore8(fma(x, y, z), 4 * s + i, out);
  vstore8(sqrt(x), 5 * s + i, out);
  vstore8(-x, 6 * s + i, out);
  vstore8(convert_half8((convert_double8(x) * convert_double8(y) + convert_double8(z))), 7 * s + i,
          out);
}

#define vstore(v, k, p) ((p)[k] = (v))  // MODES of a scalar
#define MODES(N, v, k)                                                     \
  vstore##N(convert_half##N##_rte(v), (k)*s + i, out);                     \
  vstore##N(convert_half##N##_rtz(v), (k + 1) * s + i, out);               \
  vstore##N(convert_half##N##_rtp(v), (k + 2) * s + i, out);               \
  vstore##N(convert_half##N##_rtn(v), (k + 3) * s + i, out);               \
  vstore##N(convert_half##N(v), (k + 4) * s + i, out);

// Sources in order: float, double, char, uchar, short, ushort, int, uint, long, ulong; for each the
// modes rte, rtz, rtp, rtn and the default.
__kernel void to_half(__global const float* f, __global const double* d, __global const char* c,
                      __global const uchar* uc, __global const short* h, __global const ushort* uh,
                      __global const int* n, __global const uint* un, __global const long* l,
                      __global const ulong* ul, __global half* out) {
  size_t i = get_global_id(0), s = get_global_size(0);
  MODES(, f[i], 0)
  MODES(, d[i], 5)
  MODES(, c[i], 10)
  MODES(, uc[i], 15)
  MODES(, h[i], 20)
  MODES(, uh[i], 25)
  MODES(, n[i], 30)
  MODES(, un[i], 35)
  MODES(, l[i], 40)
  MODES(, ul[i], 45)
}

__kernel void to_half4(__global const float* f, __global const double* d, __global const char* c,
                       __global const uchar* uc, __global const short* h,
                       __global const ushort* uh, __global const int* n, __global const uint* un,
                       __global const long* l, __global const ulong* ul, __global half* out) {
  size_t i = get_global_id(0), s = get_global_size(0);
  MODES(4, vload4(i, f), 0)
  MODES(4, vload4(i, d), 5)
  MODES(4, vload4(i, c), 10)
  MODES(4, vload4(i, uc), 15)
  MODES(4, vload4(i, h), 20)
  MODES(4, vload4(i, uh), 25)
  MODES(4, vload4(i, n), 30)
  MODES(4, vload4(i, un), 35)
  MODES(4, vload4(i, l), 40)
  MODES(4, vload4(i, ul), 45)
}

#define SAT(T, k)                                     \
  out[(k)*s + i] = convert_##T##_sat_rte(x);          \
  out[(k + 1) * s + i] = convert_##T##_sat_rtz(x);    \
  out[(k + 2) * s + i] = convert_##T##_sat_rtp(x);    \
  out[(k + 3) * s + i] = convert_##T##_sat_rtn(x);    \
  out[(k + 4) * s + i] = convert_##T##_sat(x);

// half -> every integer type with saturation and each mode (to long: out), then float and double
// (exact) as bits.
__kernel void from_half(__global const half* a, __global long* out) {
  size_t i = get_global_id(0), s = get_global_size(0);
  half x = a[i];
  SAT(char, 0)
  SAT(uchar, 5)
  SAT(short, 10)
  SAT(ushort, 15)
  SAT(int, 20)
  SAT(uint, 25)
  SAT(long, 30)
  out[35 * s + i] = (long)convert_ulong_sat_rte(x);
  out[36 * s + i] = (long)convert_ulong_sat_rtz(x);
  out[37 * s + i] = (long)convert_ulong_sat_rtp(x);
  out[38 * s + i] = (long)convert_ulong_sat_rtn(x);
  out[39 * s + i] = (long)convert_ulong_sat(x);
  out[40 * s + i] = as_int(convert_float(x));
  out[41 * s + i] = as_long(convert_double(x));
  out[42 * s + i] = convert_int(x);  // in-range values only (rtz)
}

// vload_half / vstore_half(_r) with float and double sources, vloadn/vstoren of half and as_half.
__kernel void vector_data(__global const float* f, __global const double* d,
                          __global const half* h, __global half* out, __global float* back) {
  size_t i = get_global_id(0), s = get_global_size(0);
  vstore_half(f[i], i, out);
  vstore_half_rte(f[i], s + i, out);
  vstore_half_rtz(f[i], 2 * s + i, out);
  vstore_half_rtp(f[i], 3 * s + i, out);
  vstore_half_rtn(f[i], 4 * s + i, out);
  vstore_half_rtz(d[i], 5 * s + i, out);
  vstore_half_rtp(d[i], 6 * s + i, out);
  vstore_half_rtn(d[i], 7 * s + i, out);
  vstore_half(d[i], 8 * s + i, out);
  back[i] = vload_half(i, h);
  out[9 * s + i] = as_half(as_ushort(h[i]));
}

// vloadN / vstoreN of halves for each width; out = a reversed within each group of 16 by way of
// the vectors' lanes.
__kernel void widths(__global const half* a, __global half* out) {
  size_t i = get_global_id(0);
  __global const half* p = a + 16 * i;
  __global half* q = out + 16 * i;
  half2 v2 = vload2(0, p);
  half3 v3 = vload3(0, p + 2);
  half4 v4 = vload4(0, p + 5);
  half8 v8 = vload8(0, p + 8);
  half16 v16 = vload16(i, a);
  vstore2(v2.s10, 0, q);
  vstore3(v3.s210, 0, q + 2);
  vstore4(v4.s3210, 0, q + 5);
  vstore8(v8.s76543210, 0, q + 8);
  vstore16(v16 * (half)2, i, out + 16 * get_global_size(0));
}

// Math builtins, half -> half; reference: the float function rounded (test).
__kernel void math(__global const half* a, __global const half* b, __global half* out,
                   __global int* iout) {
  size_t i = get_global_id(0), s = get_global_size(0);
  half x = a[i], y = b[i];
  int k = 0;
  out[k++ * s + i] = sin(x);
  out[k++ * s + i] = cos(x);
  out[k++ * s + i] = tan(x);
  out[k++ * s + i] = exp(x);
  out[k++ * s + i] = exp2(x);
  out[k++ * s + i] = exp10(x);
  out[k++ * s + i] = log(x);
  out[k++ * s + i] = log2(x);
  out[k++ * s + i] = log10(x);
  out[k++ * s + i] = pow(x, y);
  out[k++ * s + i] = atan2(x, y);
  out[k++ * s + i] = hypot(x, y);
  out[k++ * s + i] = fmod(x, y);
  out[k++ * s + i] = floor(x);
  out[k++ * s + i] = ceil(x);
  out[k++ * s + i] = rint(x);
  out[k++ * s + i] = round(x);
  out[k++ * s + i] = trunc(x);
  out[k++ * s + i] = fabs(x);
  out[k++ * s + i] = fmin(x, y);
  out[k++ * s + i] = fmax(x, y);
  out[k++ * s + i] = copysign(x, y);
  out[k++ * s + i] = rsqrt(x);
  out[k++ * s + i] = cbrt(x);
  out[k++ * s + i] = tanh(x);
  out[k++ * s + i] = asin(x);
  out[k++ * s + i] = atan(x);
  out[k++ * s + i] = ldexp(x, 3);
  out[k++ * s + i] = mad(x, y, x);
  out[k++ * s + i] = clamp(x, (half)-1, (half)1);
  out[k++ * s + i] = max(x, y);
  out[k++ * s + i] = min(x, y);
  out[k++ * s + i] = sign(x);
  out[k++ * s + i] = step(y, x);
  out[k++ * s + i] = degrees(x);
  half cosine, whole, floored;
  out[k++ * s + i] = sincos(x, &cosine);
  out[k++ * s + i] = cosine;
  out[k++ * s + i] = modf(x, &whole);
  out[k++ * s + i] = whole;
  out[k++ * s + i] = fract(x, &floored);
  out[k++ * s + i] = floored;
  int e;
  out[k++ * s + i] = frexp(x, &e);
  iout[i] = e;
  iout[s + i] = ilogb(x);
  iout[2 * s + i] = isnan(x);
  iout[3 * s + i] = isinf(x);
  iout[4 * s + i] = isequal(x, y);
  iout[5 * s + i] = isless(x, y);
  iout[6 * s + i] = signbit(x);
  iout[7 * s + i] = x < y;
}

// Geometric functions and relationals on half4: dot, length, distance, normalize, cross; isnan and
// select per lane (shorts).
__kernel void geometric(__global const half* a, __global const half* b, __global half* out,
                        __global short* sout) {
  size_t i = get_global_id(0), s = get_global_size(0);
  half4 x = vload4(i, a), y = vload4(i, b);
  out[i] = dot(x, y);
  out[s + i] = length(x);
  out[2 * s + i] = distance(x, y);
  vstore4(normalize(x), s + i, out);  // out[4s .. 8s)
  vstore4(cross(x, y), 2 * s + i, out);  // out[8s .. 12s)
  vstore4(isnan(x), i, sout);
  vstore4(x < y, s + i, sout);
  vstore4(as_short4(select(x, y, x < y)), 2 * s + i, sout);
}

typedef struct {
  char tag;
  half h;
  float f;
  half2 v;
  half3 w;
} Mixed;

// A struct holding halves (global and by value), a half argument by value, local and private half
// arrays.
__kernel void memory(__global Mixed* m, Mixed byValue, half scale, __global half* out,
                     __local half* scratch) {
  size_t i = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
  __local half fixed[64];
  half private_[4] = {scale, byValue.h, byValue.v.y, byValue.w.z};
  scratch[l] = m[i].h * scale;
  fixed[l] = m[i].v.x + m[i].v.y + m[i].w.z;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[4 * i] = scratch[n - 1 - l];
  out[4 * i + 1] = fixed[n - 1 - l];
  out[4 * i + 2] = private_[i % 4];
  out[4 * i + 3] = (half)m[i].f;
  m[i].h = m[i].h + (half)1;
  m[i].w = m[i].w * byValue.h;
}

// Half vector add.
__kernel void add(__global const half* a, __global const half* b, __global half* out) {
  size_t i = get_global_id(0);
  out[i] = a[i] + b[i];
}

// The float version, for comparison.
__kernel void add_float(__global const float* a, __global const float* b, __global float* out) {
  size_t i = get_global_id(0);
  out[i] = a[i] + b[i];
}

// printf of a half (promoted to double as a variadic argument) and of half vectors (%v2hf).
__kernel void print_half(__global const half* a) {
  size_t i = get_global_id(0);
  printf("%d: %.4f %v2hf %.3v4hf\n", (int)i, a[i], (half2)(a[i], -a[i]), vload4(i, a));
}

// vstore_half3 with directed modes from double3, widened (48-lane vectors once widened by 16: the
// code LLVM's instruction selection once took minutes on).
__kernel void store_half3(__global const double* p, __global half* f) {
  size_t i = get_global_id(0), s = get_global_size(0);
  double3 v = vload3(i, p);
  vstore_half3_rtz(v, i, f);
  vstore_half3_rtp(v, s + i, f);
  vstore_half3_rtn(v, 2 * s + i, f);
  vstore_half3(v, 3 * s + i, f);
}

// Halves in the constant and global address spaces at program scope.
__constant half kTable[4] = {1.5h, -2.0h, 0.25h, 65504.0h};
__global half gCounter = 0.5h;
__global half4 gVector = (half4)(1.0h, 2.0h, 3.0h, 4.0h);

__kernel void program_scope(__global half* out) {
  size_t i = get_global_id(0);
  out[i] = kTable[i % 4] * gVector[i % 4];
  if (i == 0) {
    gCounter = gCounter + 1.0h;
    out[8] = gCounter;
  }
}
