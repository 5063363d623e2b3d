// printf: scalars, vectors, literal strings; one line per work-item.
__kernel void print_values(__global const float* x) {
  size_t i = get_global_id(0);
  float4 v = (float4)(x[i], 1.5f, -2.0f, 0.25f);
  int2 p = (int2)((int)i, -(int)i);
  printf("wi %d: %.2f %v4hlf %v2d %s %c %5.1e %x %hhd %ld%%\n", (int)i, x[i], v, p, "ok", 'A',
         x[i] * 1000.0f, 255 + (int)i, (char)300, (long)1 << 40);
}

__kernel void print_after_barrier(__local int* tmp) {
  size_t l = get_local_id(0);
  tmp[l] = (int)l * 10;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) printf("group %d sum %d\n", (int)get_group_id(0), tmp[0] + tmp[1] + tmp[2]);
}

// printf's result: 0 when printed, -1 when the format does not match the arguments (on purpose).
#pragma clang diagnostic ignored "-Wformat"
__kernel void print_result(__global int* out) {
  out[0] = printf("%d\n", 42);
  out[1] = printf("%v4hlf\n", (float2)(1.0f, 2.0f));
}
