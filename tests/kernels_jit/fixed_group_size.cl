// A copy of the work-group function for one group size (backends/cpu/jit/fixed_group_size.cpp).
// Each kernel steps through a barrier in a loop, as a tiled GEMM does: every step, each work-item
// stores a value into a tile of __local memory, and after the barrier adds the value of the
// work-item mirrored in its group, weighted by the step. The results depend on the group's size,
// the local and global ids and the order of the steps, so a copy that took any of them wrongly
// gives other sums.
#define MIRRORED_SUMS                                                                     \
  size_t lx = get_local_id(0), ly = get_local_id(1);                                      \
  size_t sx = get_local_size(0), sy = get_local_size(1);                                  \
  size_t w = get_global_size(0);                                                          \
  size_t i = get_global_id(1) * w + get_global_id(0);                                     \
  float acc = 0.0f;                                                                       \
  for (int s = 0; s < steps; ++s) {                                                       \
    tile[ly * sx + lx] = in[i * steps + s];                                               \
    barrier(CLK_LOCAL_MEM_FENCE);                                                         \
    acc += tile[(sy - 1 - ly) * sx + (sx - 1 - lx)] * (float)(s + 1);                     \
    barrier(CLK_LOCAL_MEM_FENCE);                                                         \
  }                                                                                       \
  out[i] = acc + (float)(get_group_id(0) * 1000 + get_group_id(1) * 100000);

__kernel void mirrored_sums(__global const float* in, __global float* out, int steps,
                            __local float* tile) {
  MIRRORED_SUMS
}

__kernel __attribute__((reqd_work_group_size(8, 4, 1))) void mirrored_sums_8x4(
    __global const float* in, __global float* out, int steps, __local float* tile) {
  MIRRORED_SUMS
}

// Six rows: a jam of four rows, then two rows one by one.
__kernel __attribute__((reqd_work_group_size(8, 6, 1))) void mirrored_sums_8x6(
    __global const float* in, __global float* out, int steps, __local float* tile) {
  MIRRORED_SUMS
}

// One barrier, not in a loop: no copy.
__kernel void mirrored_once(__global const float* in, __global float* out, __local float* tile) {
  size_t lx = get_local_id(0), ly = get_local_id(1);
  size_t sx = get_local_size(0), sy = get_local_size(1);
  size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
  tile[ly * sx + lx] = in[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = tile[(sy - 1 - ly) * sx + (sx - 1 - lx)];
}
