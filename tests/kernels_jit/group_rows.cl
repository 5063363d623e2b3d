// The order the work-items of a launch run in (backends/cpu/runtime/kernel_abi.h,
// rowsAcrossGroups): each records a ticket from a global counter.
__kernel void rows_ticket(__global uint* counter, __global uint* ticket) {
  size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
  ticket[i] = atomic_inc(counter);
}

// The same with __local memory: the groups of a call would share it, so they run one by one.
__kernel void rows_ticket_local(__global uint* counter, __global uint* ticket,
                                __local uint* mine) {
  size_t l = get_local_id(1) * get_local_size(0) + get_local_id(0);
  mine[l] = atomic_inc(counter);
  size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
  ticket[i] = mine[l];
}

// A 5-point stencil with a boundary branch, as bench/kernels/patterns.cl's: the values of
// neighbouring groups' rows, whatever order the groups run in.
__kernel void rows_stencil(__global const float* in, __global float* out, int width, int height) {
  int x = get_global_id(0), y = get_global_id(1);
  int i = y * width + x;
  // (The distance to the nearest edge rather than four comparisons, which clang -O2 vectorizes
  // into a <4 x i1> the SPIR-V translator refuses.)
  if (min(min(x, y), min(width - 1 - x, height - 1 - y)) == 0)
    out[i] = in[i];
  else
    out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
}
