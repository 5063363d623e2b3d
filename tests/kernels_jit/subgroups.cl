#pragma OPENCL EXTENSION cl_khr_subgroups : enable
// Sub-groups have one work-item: every sub-group function is about that work-item alone.
__kernel void subgroup_ops(__global const int* x, __global const float* f, __global int* out,
                           __global float* fout) {
  size_t i = get_global_id(0);
  int v = x[i];
  __global int* o = out + 12 * i;
  o[0] = get_sub_group_size();
  o[1] = get_max_sub_group_size();
  o[2] = get_num_sub_groups();
  o[3] = get_sub_group_id();
  o[4] = get_sub_group_local_id();
  o[5] = sub_group_reduce_add(v);
  o[6] = sub_group_scan_exclusive_add(v);
  o[7] = sub_group_scan_inclusive_max(v);
  o[8] = sub_group_broadcast(v, 0);
  o[9] = sub_group_all(v > 0) + 2 * sub_group_any(v > 0);
  o[10] = sub_group_scan_exclusive_min(v);
  o[11] = (int)sub_group_scan_exclusive_max((uint)v);
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  fout[2 * i] = sub_group_reduce_max(f[i]) + sub_group_scan_exclusive_add(f[i]);
  fout[2 * i + 1] = sub_group_scan_exclusive_min(f[i]);
}
