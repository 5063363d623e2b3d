// Work-group collectives: reductions, scans, broadcasts, all/any, also inside a loop.
__kernel void wg_int(__global const int* x, __global int* out) {
  size_t i = get_global_id(0);
  int v = x[i];
  __global int* o = out + 8 * i;
  o[0] = work_group_reduce_add(v);
  o[1] = work_group_reduce_min(v);
  o[2] = work_group_reduce_max(v);
  o[3] = work_group_scan_inclusive_add(v);
  o[4] = work_group_scan_exclusive_add(v);
  o[5] = work_group_scan_exclusive_max(v);
  o[6] = work_group_broadcast(v, get_local_size(0) - 1);
  o[7] = work_group_all(v > -50) + 2 * work_group_any(v > 40);
}

__kernel void wg_float(__global const float* x, __global float* out) {
  size_t i = get_global_id(0);
  float v = x[i];
  out[4 * i] = work_group_reduce_add(v);
  out[4 * i + 1] = work_group_reduce_max(v);
  out[4 * i + 2] = work_group_scan_inclusive_min(v);
  out[4 * i + 3] = (float)work_group_reduce_add((ulong)i);
}

// Runs the same collectives several times in a loop (each round must see its own values).
__kernel void wg_loop(__global const int* x, __global int* out, int rounds) {
  size_t i = get_global_id(0);
  int acc = 0;
  for (int r = 0; r < rounds; ++r) {
    acc += work_group_reduce_add(x[i] * (r + 1)) + work_group_scan_exclusive_add(r);
  }
  out[i] = acc;
}

__kernel void wg_broadcast2d(__global const float* x, __global float* out) {
  size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
  out[i] = work_group_broadcast(x[i], 1, 2);
}
