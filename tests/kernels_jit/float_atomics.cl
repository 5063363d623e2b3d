// Float atomics besides add/min/max: exchange (1.x and 2.0), atomic load and store.
__kernel void float_atomics(__global float* f, __global const float* v) {
  size_t i = get_global_id(0);
  float x = v[i];
  atomic_xchg(&f[0], 5.0f);
  atomic_store((volatile __global atomic_float*)&f[1], 2.5f);
  f[2 + i] = atomic_load((volatile __global atomic_float*)&f[1]) +
             atomic_exchange((volatile __global atomic_float*)&f[34 + i], x);
}
