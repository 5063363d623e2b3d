// The benchmark suite's kernels (bench/cl_suite_bench.cpp builds this file from source on every
// OpenCL platform; bench/ze_suite_bench.cpp uses its SPIR-V). They are the kernels PoCL's baseline
// figures were taken with (../shared/baselines/pocl-3.1.md): no vector types, build options empty.

__kernel void empty(__global int* out) {}

__kernel void vadd(__global const float* a, __global const float* b, __global float* c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}

// One work-item per output; col = get_global_id(0).
__kernel void sgemm_naive(__global const float* A, __global const float* B, __global float* C,
                          int N) {
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < N; ++k) acc += A[row * N + k] * B[k * N + col];
  C[row * N + col] = acc;
}

// The classic 16x16 tile loop with two barriers per tile; local size 16x16, N a multiple of 16.
#define TS 16
__kernel void sgemm_tiled(__global const float* A, __global const float* B, __global float* C,
                          int N) {
  __local float As[TS][TS];
  __local float Bs[TS][TS];
  int lc = get_local_id(0), lr = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < N; t += TS) {
    As[lr][lc] = A[row * N + t + lc];
    Bs[lr][lc] = B[(t + lr) * N + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k) acc += As[lr][k] * Bs[k][lc];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * N + col] = acc;
}

// A grid-stride loop into __local scratch, then halving with a barrier per step; local size 256.
__kernel void reduce(__global const float* in, __global float* partial, uint n) {
  __local float scratch[256];
  size_t gid = get_global_id(0), lid = get_local_id(0), stride = get_global_size(0);
  float s = 0.0f;
  for (size_t i = gid; i < n; i += stride) s += in[i];
  scratch[lid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t off = get_local_size(0) / 2; off > 0; off >>= 1) {
    if (lid < off) scratch[lid] += scratch[lid + off];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial[get_group_id(0)] = scratch[0];
}
