// A global barrier: every group (one work-item each) announces itself, then spins until all groups
// have arrived. It completes only if every group of the launch is resident at once. Afterwards each
// group reads the values all groups wrote before the barrier.
__kernel void global_barrier(volatile __global int* arrived, __global int* values,
                             __global int* sums) {
  int g = (int)get_group_id(0);
  int groups = (int)get_num_groups(0);
  values[g] = g + 1;
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  atomic_inc(arrived);
  while (atomic_add(arrived, 0) < groups) {
  }
  int sum = 0;
  for (int j = 0; j < groups; ++j) sum += ((volatile __global int*)values)[j];
  sums[g] = sum;
}
