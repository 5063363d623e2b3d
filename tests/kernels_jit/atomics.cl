__kernel void count(__global int* counters, __global const int* values) {
  int v = values[get_global_id(0)];
  atomic_add(&counters[0], 1);
  atomic_inc(&counters[1]);
  atomic_add(&counters[2], v);
  atomic_max(&counters[3], v);
  atomic_min(&counters[4], v);
  atomic_xchg(&counters[5], 7);
  atomic_cmpxchg(&counters[6], 0, 1);
  atomic_fetch_add((volatile __global atomic_int*)&counters[7], 2);
  atomic_or(&counters[8], 1 << (v & 15));
}

// Local atomics + barrier: a per-group histogram merged into the global one.
__kernel void histogram(__global const uint* in, __global int* bins, __local int* local_bins) {
  size_t l = get_local_id(0);
  if (l < 16) local_bins[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&local_bins[in[get_global_id(0)] % 16]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 16) atomic_add(&bins[l], local_bins[l]);
}
