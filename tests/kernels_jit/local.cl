// Kernels with barriers and __local memory.
__kernel void reduce_sum(__global const float* in, __global float* out, __local float* tmp) {
  size_t l = get_local_id(0);
  tmp[l] = in[get_global_id(0)];
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < s) tmp[l] += tmp[l + s];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) out[get_group_id(0)] = tmp[0];
}

// Static __local and a value (mine) that lives across two barriers; reverses each group's slice.
__kernel void reverse_static(__global const int* in, __global int* out) {
  __local int buf[64];
  size_t l = get_local_id(0), n = get_local_size(0);
  int mine = in[get_global_id(0)];
  buf[l] = mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  int other = buf[n - 1 - l];
  barrier(CLK_LOCAL_MEM_FENCE);
  buf[l] = other + mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = buf[l] * 2 - mine;
}

#define TILE 16
__kernel void matmul_tiled(__global const float* A, __global const float* B, __global float* C,
                           int n) {
  __local float As[TILE][TILE];
  __local float Bs[TILE][TILE];
  int tx = get_local_id(0), ty = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    As[ty][tx] = A[row * n + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}

// A barrier inside a conditional that is uniform across the work-group, and a private array
// that lives across a barrier.
__kernel void uniform_branch(__global const int* in, __global int* out, int mode,
                             __local int* tmp) {
  size_t l = get_local_id(0), n = get_local_size(0);
  int p[4];
  for (int i = 0; i < 4; ++i) p[i] = in[get_global_id(0)] + i;
  tmp[l] = p[l % 4];
  if (mode > 0) {
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tmp[(l + 1) % n] + p[3];
  } else {
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tmp[(l + n - 1) % n] - p[0];
  }
}
