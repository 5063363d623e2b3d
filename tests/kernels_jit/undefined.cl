// What OpenCL C leaves undefined must not trap: integer division and remainder by zero and of the
// minimum by -1, for every integer type, scalar and vector (test_jit_undefined.cpp), out-of-range
// float to integer conversions, and alignment of __local data (long16 asks for 128 bytes).
#define DIVREM(T)                                                                           \
  __kernel void divrem_##T(__global const T* a, __global const T* b, __global T* q,         \
                           __global T* r) {                                                 \
    size_t i = get_global_id(0);                                                            \
    q[i] = a[i] / b[i];                                                                     \
    r[i] = a[i] % b[i];                                                                     \
  }
#define DIVREM_ALL_WIDTHS(T) \
  DIVREM(T) DIVREM(T##2) DIVREM(T##3) DIVREM(T##4) DIVREM(T##8) DIVREM(T##16)
DIVREM_ALL_WIDTHS(char)
DIVREM_ALL_WIDTHS(uchar)
DIVREM_ALL_WIDTHS(short)
DIVREM_ALL_WIDTHS(ushort)
DIVREM_ALL_WIDTHS(int)
DIVREM_ALL_WIDTHS(uint)
DIVREM_ALL_WIDTHS(long)
DIVREM_ALL_WIDTHS(ulong)

// A divisor every work-item shares (a kernel argument), which may be 0.
__kernel void divide_by(__global const int* a, int d, __global int* q, __global int* r) {
  size_t i = get_global_id(0);
  q[i] = a[i] / d;
  r[i] = a[i] % d;
}

// A division inside a varying branch: the widening predicates the block, so every lane divides,
// those that skip it with their own (zero) divisors.
__kernel void divide_where(__global const int* a, __global const int* b, __global int* q) {
  size_t i = get_global_id(0);
  int d = b[i];
  if (d != 0) q[i] = a[i] / d;
}

// Out-of-range conversions (infinities, NaN, beyond the integer range): a value, not a trap.
__kernel void float_to_int(__global const float* f, __global const double* d, __global int* i,
                           __global uint* u, __global long* l, __global ulong* ul,
                           __global int4* v) {
  size_t g = get_global_id(0);
  i[g] = (int)f[g];
  u[g] = (uint)f[g];
  l[g] = (long)d[g];
  ul[g] = (ulong)d[g];
  v[g] = convert_int4(vload4(g, f));
}

// The addresses of __local data that asks for 128 bytes, modulo 128: a static struct after a
// char, a static long16, and a __local long16 argument after a char one.
typedef struct {
  char c;
  long16 v;
} WithLong16;

__kernel void local_alignment(__global ulong* out, __local char* pad, __local long16* arg) {
  __local char before;
  __local WithLong16 s;
  __local long16 x;
  size_t l = get_local_id(0);
  if (l == 0) {
    before = 1;
    s.c = 2;
    s.v = (long16)(3);
    x = (long16)(4);
    pad[0] = 5;
    arg[0] = (long16)(6);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t g = get_group_id(0) * 4;
  if (l == 0) {
    out[g + 0] = (ulong)&s.v % 128;
    out[g + 1] = (ulong)&x % 128;
    out[g + 2] = (ulong)arg % 128;
    out[g + 3] = (ulong)(before + s.c + s.v.s7 + x.sf + pad[0] + arg[0].s3);
  }
}

// Row and column of a work-item by division by an argument, used after a barrier: the division's
// guard (a freeze and a select) is as cheap to recompute per region as the division itself, so
// nothing needs a scratch slot. (The column without %: with / and % of the same operands clang -O2
// writes the remainder with a freeze, which the SPIR-V translator refuses.)
__kernel void rows_across_barrier(__global float* a, int n, __local float* tmp) {
  size_t g = get_global_id(0), l = get_local_id(0);
  int row = (int)g / n, col = (int)g - row * n;
  tmp[l] = a[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  a[row * n + col] = tmp[get_local_size(0) - 1 - l] + (float)(row * 1000 + col);
}
