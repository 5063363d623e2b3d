// Double precision, for devices that report ZE_DEVICE_MODULE_FLAG_FP64.
__kernel void fp64_ops(__global const double* a, __global const double* b, __global double* out) {
  size_t i = get_global_id(0);
  double x = a[i], y = b[i];
  out[3 * i] = x * y + 0.5;
  out[3 * i + 1] = sqrt(x);
  out[3 * i + 2] = (double)(long)(x / y);
}
