// Barriers inside helper functions that stay defined in the module: one with external linkage
// (clang inlines it but keeps its definition) and one that must not be inlined (DontInline).

// Tree sum of scratch[0, size) into scratch[0]; every work-item of the group must call it.
int group_sum_extern(__local int* scratch, int v) {
  size_t lid = get_local_id(0);
  size_t size = get_local_size(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  scratch[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = size / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return scratch[0];
}

__attribute__((noinline)) int group_sum_noinline(__local int* scratch, int v) {
  return group_sum_extern(scratch, v);
}

// out[g * rounds + r] = sum over the group of (in + r), through either helper.
__kernel void sums_helpers(__global const int* in, __global int* out, uint rounds, int noinline,
                           __local int* scratch) {
  int v = in[get_global_id(0)];
  for (uint r = 0; r < rounds; ++r) {
    int total =
        noinline ? group_sum_noinline(scratch, v + (int)r) : group_sum_extern(scratch, v + (int)r);
    if (get_local_id(0) == 0) out[get_group_id(0) * rounds + r] = total;
  }
}
