// Barriers inside a static helper function (called from a loop), and a kernel that calls another
// kernel as an ordinary function.

// Tree sum of scratch[0, size) into scratch[0]; every work-item of the group must call it.
static int group_sum(__local int* scratch, int v) {
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

// out[g * rounds + r] = sum over the group of (in + r).
__kernel void sums_by_round(__global const int* in, __global int* out, uint rounds,
                            __local int* scratch) {
  int v = in[get_global_id(0)];
  for (uint r = 0; r < rounds; ++r) {
    int total = group_sum(scratch, v + (int)r);
    if (get_local_id(0) == 0) out[get_group_id(0) * rounds + r] = total;
  }
}

__kernel void square(__global int* data) {
  size_t i = get_global_id(0);
  data[i] = data[i] * data[i];
}

__kernel void square_then_add(__global int* data, int add) {
  square(data);
  data[get_global_id(0)] += add;
}
