// Half and float vector adds for jit_half_bench (issue 19: half at the float version's speed per
// element or better).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void vadd_half(__global const half* a, __global const half* b, __global half* c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}

__kernel void vadd_float(__global const float* a, __global const float* b, __global float* c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
