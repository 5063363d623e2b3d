// Element-wise sum of two global buffers: the simplest kernel in the corpus.
__kernel void vector_add(__global const float* a, __global const float* b, __global float* c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
