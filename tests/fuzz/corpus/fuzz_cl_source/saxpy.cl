// y = alpha * x + y, with alpha passed by value and x in constant memory.
__kernel void saxpy(float alpha, __constant float* x, __global float* y) {
  size_t i = get_global_id(0);
  y[i] = alpha * x[i] + y[i];
}
