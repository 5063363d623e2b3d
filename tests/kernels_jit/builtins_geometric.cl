// Geometric functions on 1 to 4 lanes, float and double, for test_jit_builtin_geometric.cpp.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define vload1(i, p) ((p)[i])
#define vstore1(v, i, p) ((p)[i] = (v))
#define VTYPE(T, N) VTYPE_(T, N)
#define VTYPE_(T, N) T##N
#define float1 float
#define double1 double

// scalars: length, distance, dot (and the fast_ forms for float); vectors: normalize (and
// fast_normalize), work-item i at [i * 2 + k].
#define GEOMETRIC_KERNEL(T, N)                                                                   \
  __kernel void geometric_##T##N(__global const T* x, __global const T* y, __global T* scalars,  \
                                 __global T* vectors) {                                         \
    size_t i = get_global_id(0);                                                                 \
    VTYPE(T, N) a = vload##N(i, x), b = vload##N(i, y);                                          \
    scalars[5 * i] = length(a);                                                                  \
    scalars[5 * i + 1] = distance(a, b);                                                         \
    scalars[5 * i + 2] = dot(a, b);                                                              \
    vstore##N(normalize(a), 2 * i, vectors);                                                     \
    FAST(T, N)                                                                                   \
  }
#define FAST(T, N)                                  \
  scalars[5 * i + 3] = fast_length(a);              \
  scalars[5 * i + 4] = fast_distance(a, b);         \
  vstore##N(fast_normalize(a), 2 * i + 1, vectors);
GEOMETRIC_KERNEL(float, 1)
GEOMETRIC_KERNEL(float, 2)
GEOMETRIC_KERNEL(float, 3)
GEOMETRIC_KERNEL(float, 4)
#undef FAST
#define FAST(T, N)
GEOMETRIC_KERNEL(double, 1)
GEOMETRIC_KERNEL(double, 2)
GEOMETRIC_KERNEL(double, 3)
GEOMETRIC_KERNEL(double, 4)

__kernel void cross_float(__global const float* x, __global const float* y, __global float* out3,
                          __global float4* out4) {
  size_t i = get_global_id(0);
  vstore3(cross(vload3(i, x), vload3(i, y)), i, out3);
  out4[i] = cross(vload4(i, x), vload4(i, y));
}

__kernel void cross_double(__global const double* x, __global const double* y,
                           __global double* out3, __global double4* out4) {
  size_t i = get_global_id(0);
  vstore3(cross(vload3(i, x), vload3(i, y)), i, out3);
  out4[i] = cross(vload4(i, x), vload4(i, y));
}
