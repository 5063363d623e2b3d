// A static __local array next to two __local arguments (each must get its own memory), and the
// linear ids of a 3D launch with offsets.
__kernel void three_locals(__global int* out, __local int* a, __local short* b) {
  __local int fixed[16];
  size_t lid = get_local_id(0);
  size_t size = get_local_size(0);
  if (lid < 16) fixed[lid] = 1000 + (int)lid;
  a[lid] = (int)lid;
  b[lid] = (short)(2 * lid);
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t other = size - 1 - lid;
  out[get_global_id(0)] = a[other] + b[other] + fixed[lid % 16];
}

// out[linear id] = the linear ids and the group's linear id, written per work-item.
__kernel void linear_ids(__global uint* out) {
  size_t g = get_global_linear_id();
  out[3 * g] = (uint)g;
  out[3 * g + 1] = (uint)get_local_linear_id();
  out[3 * g + 2] =
      (uint)(get_group_id(0) +
             get_num_groups(0) * (get_group_id(1) + get_num_groups(1) * get_group_id(2)));
}
