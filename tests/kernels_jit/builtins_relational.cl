// Relational functions, any/all, select and bitselect on scalars and vectors, for
// test_jit_builtin_relational.cpp. Vector relationals return -1/0 per lane in the integer type of
// the lane's width (int for float, long for double), scalar ones 1/0 (int).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define vload1(i, p) ((p)[i])
#define vstore1(v, i, p) ((p)[i] = (v))
#define VTYPE(T, N) VTYPE_(T, N)
#define VTYPE_(T, N) T##N
#define float1 float
#define double1 double
#define int1 int

// Function k of lane e goes to out[k * total + e].
#define RELATIONAL_KERNEL(T, I, S, N)                                                             \
  __kernel void relational_##T##N(__global const T* x, __global const T* y, __global I* out,     \
                                  __global T* sel) {                                            \
    size_t i = get_global_id(0), s = get_global_size(0);                                         \
    VTYPE(T, N) a = vload##N(i, x), b = vload##N(i, y);                                          \
    int k = 0;                                                                                   \
    vstore##N(isnan(a), k++ * s + i, out);                                                       \
    vstore##N(isinf(a), k++ * s + i, out);                                                       \
    vstore##N(isfinite(a), k++ * s + i, out);                                                    \
    vstore##N(isnormal(a), k++ * s + i, out);                                                    \
    vstore##N(signbit(a), k++ * s + i, out);                                                     \
    vstore##N(isordered(a, b), k++ * s + i, out);                                                \
    vstore##N(isunordered(a, b), k++ * s + i, out);                                              \
    vstore##N(islessgreater(a, b), k++ * s + i, out);                                            \
    vstore##N(isequal(a, b), k++ * s + i, out);                                                  \
    vstore##N(isnotequal(a, b), k++ * s + i, out);                                               \
    vstore##N(isgreater(a, b), k++ * s + i, out);                                                \
    vstore##N(isgreaterequal(a, b), k++ * s + i, out);                                           \
    vstore##N(isless(a, b), k++ * s + i, out);                                                   \
    vstore##N(islessequal(a, b), k++ * s + i, out);                                              \
    vstore##N(select(a, b, (VTYPE(S, N))isless(a, b)), 2 * i, sel);                                           \
    vstore##N(bitselect(a, b, (VTYPE(T, N))(-0.0)), 2 * i + 1, sel);                            \
  }

#define long1 long
RELATIONAL_KERNEL(float, int, int, 1)
RELATIONAL_KERNEL(float, int, int, 4)
RELATIONAL_KERNEL(float, int, int, 16)
RELATIONAL_KERNEL(double, int, long, 1)
RELATIONAL_KERNEL(double, long, long, 3)
RELATIONAL_KERNEL(double, long, long, 8)

// any / all of integer vectors (the sign bit of each lane), and of relational results.
#define ANY_ALL_KERNEL(T, N)                                                                      \
  __kernel void any_all_##T##N(__global const T* x, __global int* out) {                         \
    size_t i = get_global_id(0);                                                                  \
    VTYPE(T, N) v = vload##N(i, x);                                                               \
    out[2 * i] = any(v);                                                                          \
    out[2 * i + 1] = all(v);                                                                      \
  }
#define ANY_ALL_WIDTHS(T) \
  ANY_ALL_KERNEL(T, 2) ANY_ALL_KERNEL(T, 3) ANY_ALL_KERNEL(T, 4) ANY_ALL_KERNEL(T, 8) \
  ANY_ALL_KERNEL(T, 16)
ANY_ALL_WIDTHS(char)
ANY_ALL_WIDTHS(short)
ANY_ALL_WIDTHS(int)
ANY_ALL_WIDTHS(long)

__kernel void any_all_relational(__global const float4* x, __global const double2* d,
                                 __global int* out) {
  size_t i = get_global_id(0);
  out[4 * i] = any(isnan(x[i]));
  out[4 * i + 1] = all(isfinite(x[i]));
  out[4 * i + 2] = any(signbit(d[i]));
  out[4 * i + 3] = all(isnormal(d[i]));
}
