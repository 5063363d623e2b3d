// The math builtins on float and double, scalar and vector, for test_jit_builtin_math.cpp: each
// kernel evaluates every function of its list on its inputs. Work-item i takes N consecutive
// elements (vloadN); function k's results go to out[k * total + element], total being the number
// of elements the launch covers, whatever N is.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// Listed in the order the test's tables use (test_jit_builtin_math.cpp).
#define UNARY(X)                                                                          \
  X(acos) X(acosh) X(acospi) X(asin) X(asinh) X(asinpi) X(atan) X(atanh) X(atanpi) X(cbrt) \
  X(ceil) X(cos) X(cosh) X(cospi) X(erfc) X(erf) X(exp) X(exp2) X(exp10) X(expm1) X(fabs)  \
  X(floor) X(lgamma) X(log) X(log2) X(log10) X(log1p) X(logb) X(rint) X(round) X(rsqrt)    \
  X(sin) X(sinh) X(sinpi) X(sqrt) X(tan) X(tanh) X(tanpi) X(tgamma) X(trunc) X(degrees)    \
  X(radians) X(sign)
#define BINARY(X)                                                                            \
  X(atan2) X(atan2pi) X(copysign) X(fdim) X(fmax) X(fmin) X(fmod) X(hypot) X(maxmag) X(minmag) \
  X(nextafter) X(pow) X(powr) X(remainder) X(step)
#define WITH_INT(X) X(ldexp) X(pown) X(rootn)
#define TERNARY(X) X(fma) X(mad) X(clamp) X(mix) X(smoothstep)
#define HALF_NATIVE(X)                                                                       \
  X(half_cos) X(half_exp) X(half_exp2) X(half_exp10) X(half_log) X(half_log2) X(half_log10)  \
  X(half_recip) X(half_rsqrt) X(half_sin) X(half_sqrt) X(half_tan) X(native_cos)             \
  X(native_exp) X(native_exp2) X(native_exp10) X(native_log) X(native_log2) X(native_log10)  \
  X(native_recip) X(native_rsqrt) X(native_sin) X(native_sqrt) X(native_tan)

// Scalars load and store as vectors of one.
#define vload1(i, p) ((p)[i])
#define vstore1(v, i, p) ((p)[i] = (v))
#define VTYPE(T, N) VTYPE_(T, N)
#define VTYPE_(T, N) T##N
#define float1 float
#define double1 double
#define int1 int

#define VSTORE(n) VSTORE_(n)
#define VSTORE_(n) vstore##n
#define STORE1(f) VSTORE(N)(f(x), k++ * (total / N) + i, out);
#define STORE2(f) VSTORE(N)(f(x, y), k++ * (total / N) + i, out);
#define STORE3(f) VSTORE(N)(f(x, y, z), k++ * (total / N) + i, out);
#define STORE_INT(f) VSTORE(N)(f(x, e), k++ * (total / N) + i, out);

#define MATH_KERNELS(T, N)                                                                        \
  __kernel void unary_##T##N(__global const T* in, __global T* out) {                            \
    size_t i = get_global_id(0), total = get_global_size(0) * N;                                 \
    int k = 0;                                                                                     \
    VTYPE(T, N) x = vload##N(i, in);                                                               \
    UNARY(STORE1)                                                                                  \
  }                                                                                                \
  __kernel void binary_##T##N(__global const T* a, __global const T* b, __global T* out) {        \
    size_t i = get_global_id(0), total = get_global_size(0) * N;                                 \
    int k = 0;                                                                                     \
    VTYPE(T, N) x = vload##N(i, a), y = vload##N(i, b);                                            \
    BINARY(STORE2)                                                                                 \
  }                                                                                                \
  __kernel void ternary_##T##N(__global const T* a, __global const T* b, __global const T* c,     \
                               __global T* out) {                                                 \
    size_t i = get_global_id(0), total = get_global_size(0) * N;                                 \
    int k = 0;                                                                                     \
    VTYPE(T, N) x = vload##N(i, a), y = vload##N(i, b), z = vload##N(i, c);                        \
    TERNARY(STORE3)                                                                                \
  }                                                                                                \
  __kernel void with_int_##T##N(__global const T* a, __global const int* n, __global T* out,      \
                                __global int* logb_out) {                                         \
    size_t i = get_global_id(0), total = get_global_size(0) * N;                                 \
    int k = 0;                                                                                     \
    VTYPE(T, N) x = vload##N(i, a);                                                                \
    VTYPE(int, N) e = vload##N(i, n);                                                              \
    WITH_INT(STORE_INT)                                                                            \
    vstore##N(ilogb(x), i, logb_out);                                                              \
  }

#define N 1
MATH_KERNELS(float, 1)
MATH_KERNELS(double, 1)
#undef N
#define N 16
MATH_KERNELS(float, 16)
#undef N
#define N 3
MATH_KERNELS(double, 3)
#undef N

#define N 1
__kernel void half_native_float(__global const float* in, __global float* out) {
  size_t i = get_global_id(0), total = get_global_size(0);
  int k = 0;
  float x = in[i];
  HALF_NATIVE(STORE1)
  float y = in[total - 1 - i];
  vstore1(half_divide(x, y), k++ * total + i, out);
  vstore1(native_divide(x, y), k++ * total + i, out);
  vstore1(half_powr(fabs(x), y), k++ * total + i, out);
  vstore1(native_powr(fabs(x), y), k++ * total + i, out);
}
#undef N

// nan(code), and the scalar forms OpenCL C allows with vectors: ldexp(floatn, int),
// fmax(floatn, float), clamp(floatn, float, float), mix(floatn, floatn, float), step(float,
// floatn), smoothstep(float, float, floatn).
__kernel void mixed_scalars(__global const float4* x, __global float4* out, __global uint* nans,
                            __global ulong* dnans) {
  size_t i = get_global_id(0);
  float4 v = x[i];
  out[6 * i] = ldexp(v, 3);
  out[6 * i + 1] = fmax(v, 0.5f);
  out[6 * i + 2] = clamp(v, -1.0f, 1.0f);
  out[6 * i + 3] = mix(v, (float4)(2.0f), 0.25f);
  out[6 * i + 4] = step(0.5f, v);
  out[6 * i + 5] = smoothstep(-1.0f, 2.0f, v);
  nans[i] = as_uint(nan((uint)i + 1));
  dnans[i] = as_ulong(nan((ulong)i + 1));
}
