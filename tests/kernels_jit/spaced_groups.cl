// Kernels whose work-items read and write vectors component by component: the widening's spaced
// accesses, joined after O3 where together they cover whole vectors (spaced_groups.cpp).

// Pixels of three bytes, red and blue swapped (OpenCV's BGR to RGB), a row of pixels a group; the
// barrier makes the regions the widening takes.
__kernel void swap_rb(__global const uchar* in, __global uchar* out, int width) {
  int i = 3 * (get_global_id(1) * width + get_global_id(0));
  uchar b = in[i], g = in[i + 1], red = in[i + 2];
  out[i] = red;
  out[i + 1] = g;
  out[i + 2] = b;
  barrier(CLK_GLOBAL_MEM_FENCE);
}

// The same with unsigned indices, which wrap in OpenCL C: zero-extended, not sign-extended.
__kernel void swap_rb_uint(__global const uchar* in, __global uchar* out, uint width) {
  uint i = 3u * ((uint)get_global_id(1) * width + (uint)get_global_id(0));
  uchar b = in[i], g = in[i + 1], red = in[i + 2];
  out[i] = red;
  out[i + 1] = g;
  out[i + 2] = b;
  barrier(CLK_GLOBAL_MEM_FENCE);
}

// A float2 a work-item copied into a __local tile component by component (CLBlast's XgemmDirect),
// read back after the barrier by another work-item.
__kernel __attribute__((reqd_work_group_size(8, 8, 1)))
void tile_pairs(__global const float2* in, __global float* out, int width) {
  __local float tile[8 * 17];
  int lx = get_local_id(0), ly = get_local_id(1);
  int gx = get_global_id(0), gy = get_global_id(1);
  float2 v = in[gy * width + gx];
  tile[ly * 17 + 2 * lx] = v.x;
  tile[ly * 17 + 2 * lx + 1] = v.y;
  barrier(CLK_LOCAL_MEM_FENCE);
  int i = 2 * (gy * width + gx);
  out[i] = tile[(7 - ly) * 17 + 2 * lx + 1];
  out[i + 1] = tile[ly * 17 + 2 * (7 - lx)];
}

// The second component read back after the work-item wrote it, and the first written after,
// through two pointers the host may pass the same buffer as (nothing tells the compiler they
// differ): the loads must not be joined across that store, nor the stores across that load.
__kernel void pair_through(__global const float* from, __global float* to, int width) {
  int i = 2 * (get_global_id(1) * width + get_global_id(0));
  float a = from[i];
  to[i + 1] = a * 2.0f;
  float b = from[i + 1];
  to[i] = b + 1.0f;
  barrier(CLK_GLOBAL_MEM_FENCE);
}
