// C = A * B for N x N row-major matrices (N a multiple of 16), in 16 x 16 tiles staged in __local
// memory; launched with 16 x 16 work-groups.
#define TILE 16
__kernel void matmul_tiled(__global const float* A, __global const float* B, __global float* C,
                           uint N) {
  __local float As[TILE][TILE];
  __local float Bs[TILE][TILE];
  size_t lx = get_local_id(0), ly = get_local_id(1);
  size_t col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (uint t = 0; t < N / TILE; ++t) {
    As[ly][lx] = A[row * N + t * TILE + lx];
    Bs[ly][lx] = B[(t * TILE + ly) * N + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < TILE; ++k) acc += As[ly][k] * Bs[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * N + col] = acc;
}
