// Integer atomics on global memory from many work-groups, and a float add built on compare-and-
// swap (OpenCL 1.x atomics and the OpenCL 2.0 C11-style ones).
__kernel void atomic_count(__global int* counter) {
  atomic_add(counter, 1);
}

// c[0] += 1, c[1] = max id, c[2] = min id, c[3] -= 2, c[4] |= bit, c[5] ^= id, c[6] counts
// successful compare-exchange increments, c[7] = and of ~bit.
__kernel void atomic_mix(__global int* c) {
  int id = (int)get_global_id(0);
  atomic_inc(&c[0]);
  atomic_max(&c[1], id);
  atomic_min(&c[2], id);
  atomic_sub(&c[3], 2);
  atomic_or(&c[4], 1 << (id % 31));
  atomic_xor(&c[5], id);
  int old = c[6];
  while (true) {
    int seen = atomic_cmpxchg(&c[6], old, old + 1);
    if (seen == old) break;
    old = seen;
  }
  atomic_and(&c[7], ~(1 << (id % 31)));
}

// The C11-style atomics of OpenCL 2.0, device scope.
__kernel void atomic_c11(__global atomic_int* counter, __global atomic_uint* maxId) {
  atomic_fetch_add_explicit(counter, 3, memory_order_relaxed, memory_scope_device);
  atomic_fetch_max_explicit(maxId, (uint)get_global_id(0), memory_order_relaxed,
                            memory_scope_device);
}

// sum += x[i] in float through a compare-and-swap loop on the bits.
__kernel void atomic_float_cas(__global float* sum, __global const float* x) {
  __global int* bits = (__global int*)sum;
  float add = x[get_global_id(0)];
  int old = *bits;
  while (true) {
    int next = as_int(as_float(old) + add);
    int seen = atomic_cmpxchg(bits, old, next);
    if (seen == old) break;
    old = seen;
  }
}
