// The integer builtins on every integer type, scalar and vector (3 and 16 lanes), for
// test_jit_builtin_integer.cpp. Work-item i takes N consecutive elements; function k's results go
// to out[k * total + element]. Results of unsigned type (abs, abs_diff) are stored as the bits.
#define vload1(i, p) ((p)[i])
#define vstore1(v, i, p) ((p)[i] = (v))
#define VTYPE(T, N) VTYPE_(T, N)
#define VTYPE_(T, N) T##N
#define AS(T, N) AS_(T, N)
#define AS_(T, N) as_##T##N
#define char1 char
#define uchar1 uchar
#define short1 short
#define ushort1 ushort
#define int1 int
#define uint1 uint
#define long1 long
#define ulong1 ulong
#define as_char1 as_char
#define as_uchar1 as_uchar
#define as_short1 as_short
#define as_ushort1 as_ushort
#define as_int1 as_int
#define as_uint1 as_uint
#define as_long1 as_long
#define as_ulong1 as_ulong

#define INTEGER_KERNEL(T, N)                                                                    \
  __kernel void int_##T##N(__global const T* a, __global const T* b, __global const T* c,      \
                           __global T* out) {                                                  \
    size_t i = get_global_id(0), total = get_global_size(0) * N, s = total / N;               \
    VTYPE(T, N) x = vload##N(i, a), y = vload##N(i, b), z = vload##N(i, c);                    \
    int k = 0;                                                                                  \
    vstore##N(AS(T, N)(abs(x)), k++ * s + i, out);                                              \
    vstore##N(AS(T, N)(abs_diff(x, y)), k++ * s + i, out);                                      \
    vstore##N(add_sat(x, y), k++ * s + i, out);                                                 \
    vstore##N(hadd(x, y), k++ * s + i, out);                                                    \
    vstore##N(rhadd(x, y), k++ * s + i, out);                                                   \
    vstore##N(clamp(x, min(y, z), max(y, z)), k++ * s + i, out);                                \
    vstore##N(clz(x), k++ * s + i, out);                                                        \
    vstore##N(ctz(x), k++ * s + i, out);                                                        \
    vstore##N(mad_hi(x, y, z), k++ * s + i, out);                                               \
    vstore##N(mad_sat(x, y, z), k++ * s + i, out);                                              \
    vstore##N(max(x, y), k++ * s + i, out);                                                     \
    vstore##N(min(x, y), k++ * s + i, out);                                                     \
    vstore##N(mul_hi(x, y), k++ * s + i, out);                                                  \
    vstore##N(rotate(x, y), k++ * s + i, out);                                                  \
    vstore##N(sub_sat(x, y), k++ * s + i, out);                                                 \
    vstore##N(popcount(x), k++ * s + i, out);                                                   \
  }

// upsample(hi, lo): hi of the signed or unsigned type, lo unsigned, result twice as wide.
#define UPSAMPLE_KERNEL(T, UT, W, N)                                                            \
  __kernel void upsample_##T##N(__global const T* a, __global const UT* b, __global W* out) {  \
    size_t i = get_global_id(0);                                                                \
    vstore##N(upsample(vload##N(i, a), vload##N(i, b)), i, out);                                \
  }

#define ALL_TYPES(X, N) \
  X(char, N) X(uchar, N) X(short, N) X(ushort, N) X(int, N) X(uint, N) X(long, N) X(ulong, N)

ALL_TYPES(INTEGER_KERNEL, 1)
ALL_TYPES(INTEGER_KERNEL, 3)
ALL_TYPES(INTEGER_KERNEL, 16)

#define UPSAMPLES(N)                                                                  \
  UPSAMPLE_KERNEL(char, uchar, short, N) UPSAMPLE_KERNEL(uchar, uchar, ushort, N)    \
  UPSAMPLE_KERNEL(short, ushort, int, N) UPSAMPLE_KERNEL(ushort, ushort, uint, N)    \
  UPSAMPLE_KERNEL(int, uint, long, N) UPSAMPLE_KERNEL(uint, uint, ulong, N)
UPSAMPLES(1)
UPSAMPLES(4)

// mul24 and mad24 (int and uint, arguments within 24 bits).
__kernel void int24(__global const int* a, __global const int* b, __global const int* c,
                    __global int* out) {
  size_t i = get_global_id(0), n = get_global_size(0);
  out[i] = mul24(a[i], b[i]);
  out[n + i] = mad24(a[i], b[i], c[i]);
  out[2 * n + i] = (int)mul24((uint)a[i] & 0xFFFFFF, (uint)b[i] & 0xFFFFFF);
  out[3 * n + i] = (int)mad24((uint)a[i] & 0xFFFFFF, (uint)b[i] & 0xFFFFFF, (uint)c[i]);
}

// shuffle and shuffle2 with masks read at run time, and with constant masks.
__kernel void shuffles(__global const int8* x, __global const int8* y, __global const uint8* m,
                       __global int8* out, __global float4* f) {
  size_t i = get_global_id(0);
  out[4 * i] = shuffle(x[i], m[i]);
  out[4 * i + 1] = shuffle2(x[i], y[i], m[i]);
  out[4 * i + 2] = shuffle2(x[i], y[i], (uint8)(15, 0, 14, 1, 13, 2, 8, 7));
  out[4 * i + 3] = (int8)(shuffle(x[i].lo, m[i].lo), shuffle2(x[i].s01, y[i].s01, m[i].hi));
  f[i] = shuffle((float2)(1.0f, 2.0f), (uint4)(1, 0, 1, 3));
}
