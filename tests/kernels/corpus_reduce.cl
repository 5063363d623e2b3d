// Local-memory reductions and scans with barriers inside loops and (work-group uniform)
// conditionals.

// Sum of `in[0, n)` per group; the last group may be partial (zeros pad it). The barrier loop sits
// inside a branch on a kernel argument, and a second pass (max) runs only when `withMax` is set.
__kernel void reduce_guarded(__global const int* in, __global int* sums, __global int* maxes,
                             uint n, int withMax, __local int* scratch) {
  size_t lid = get_local_id(0);
  size_t size = get_local_size(0);
  size_t gid = get_global_id(0);
  int v = gid < n ? in[gid] : 0;
  scratch[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (n > 0) {
    for (size_t s = size / 2; s > 0; s >>= 1) {
      if (lid < s) scratch[lid] += scratch[lid + s];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  if (lid == 0) sums[get_group_id(0)] = scratch[0];
  if (withMax) {
    barrier(CLK_LOCAL_MEM_FENCE);
    scratch[lid] = gid < n ? v : INT_MIN;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = size / 2; s > 0; s >>= 1) {
      if (lid < s) scratch[lid] = max(scratch[lid], scratch[lid + s]);
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) maxes[get_group_id(0)] = scratch[0];
  }
}

// Inclusive prefix sum per group (Hillis-Steele) in a static __local array of 256 ints: two
// barriers per step of a loop whose body branches per work-item.
__kernel void scan_local(__global const int* in, __global int* out) {
  __local int a[256];
  size_t lid = get_local_id(0);
  size_t size = get_local_size(0);
  a[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t offset = 1; offset < size; offset <<= 1) {
    int v = a[lid];
    if (lid >= offset) v += a[lid - offset];
    barrier(CLK_LOCAL_MEM_FENCE);
    a[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = a[lid];
}

// A loop with a trip count from an argument, a barrier in it, and a nested uniform loop with its
// own barrier: each round every work-item adds its right neighbour's value (rotating).
__kernel void rounds(__global int* data, uint rounds, uint inner, __local int* tmp) {
  size_t lid = get_local_id(0);
  size_t size = get_local_size(0);
  int v = data[get_global_id(0)];
  for (uint r = 0; r < rounds; ++r) {
    tmp[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v += tmp[(lid + 1) % size];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = 0; i < inner; ++i) {
      if (lid == 0) tmp[0] = (int)i;
      barrier(CLK_LOCAL_MEM_FENCE);
      v += tmp[0];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  data[get_global_id(0)] = v;
}

// Values loops carry across a barrier, read after the loop: the loop's last value and the value
// at the start of its last iteration (which a phi's slot no longer holds once the latch stored the
// next one), then the same for a loop of one block followed by a barrier; n = 0 skips the first.
// (The second runs n + 1 times: with n, clang -O2 and Debian's llvm-spirv 15 write a block before
// its dominator, which spirv-val refuses.)
__kernel void carried_values(__global int* out, int n) {
  int lid = (int)get_local_id(0);
  int acc = lid, prev = -1;
  for (int t = 0; t < n; ++t) {
    prev = acc;
    acc = acc * 3 + t;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  int a = lid + 1, b = -2;
  for (int i = 0; i < n + 1; ++i) {
    b = a;
    a = a * 5 - i;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int gid = (int)get_global_id(0);
  out[4 * gid] = acc;
  out[4 * gid + 1] = prev;
  out[4 * gid + 2] = a;
  out[4 * gid + 3] = b;
}
