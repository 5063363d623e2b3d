// Non-uniform work-groups (OpenCL 2.0+): launches whose last group in a dimension is partial
// (LaunchDims::lastGroupSize). Each work-item writes what it sees of its place in the range.

// 16 values per work-item, at its global linear id.
__kernel void nu_ids(__global ulong* out) {
  __global ulong* o = out + 16 * get_global_linear_id();
  for (uint d = 0; d < 3; ++d) {
    o[d] = get_global_id(d);
    o[3 + d] = get_local_size(d);
    o[6 + d] = get_enqueued_local_size(d);
    o[9 + d] = get_num_groups(d);
  }
  o[12] = get_global_size(0) * 1000000 + get_global_size(1) * 1000 + get_global_size(2);
  o[13] = get_local_linear_id();
  o[14] = get_group_id(0) + 100 * get_group_id(1) + 10000 * get_group_id(2);
  o[15] = get_local_id(0) + 100 * get_local_id(1) + 10000 * get_local_id(2);
}

// A barrier and __local memory in a partial group: each work-item reads its mirror's value
// (local linear id n - 1 - l of the group's n work-items).
__kernel void nu_mirror(__global const int* x, __global int* out, __local int* tmp) {
  size_t l = get_local_linear_id();
  size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);
  size_t i = get_global_linear_id();
  tmp[l] = x[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = tmp[n - 1 - l];
}

// Collectives in a partial group: 8 values per work-item (1-D).
__kernel void nu_collectives(__global const int* x, __global int* out) {
  size_t i = get_global_id(0);
  int v = x[i];
  __global int* o = out + 8 * i;
  o[0] = work_group_reduce_add(v);
  o[1] = work_group_reduce_min(v);
  o[2] = work_group_scan_inclusive_add(v);
  o[3] = work_group_scan_exclusive_max(v);
  o[4] = work_group_broadcast(v, get_local_size(0) - 1);
  o[5] = work_group_all(v > -50) + 2 * work_group_any(v > 40);
  o[6] = work_group_reduce_max(v);
  o[7] = work_group_scan_exclusive_add(v);
}

// Sub-groups in a partial group: the last sub-group is smaller (kernel_abi.h's mapping).
// sub_group_ballot_bit_count and find_msb count the first maximum-sub-group-size bits, also in
// the partial last sub-group (OpenCL C 3.0.9).
__kernel void nu_subgroups(__global uint* out) {
  __global uint* o = out + 8 * get_global_linear_id();
  o[0] = get_sub_group_size();
  o[1] = get_num_sub_groups();
  o[2] = get_enqueued_num_sub_groups();
  o[3] = get_sub_group_id();
  o[4] = get_sub_group_local_id();
  o[5] = sub_group_reduce_add(1u);
  o[6] = sub_group_ballot_bit_count((uint4)(0xffffffffu));
  o[7] = sub_group_ballot_find_msb((uint4)(0xffffffffu));
}
