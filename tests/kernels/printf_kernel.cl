// Formatted output from a kernel.
__kernel void printf_kernel(__global const int* in) {
  size_t i = get_global_id(0);
  printf("item %d: %d\n", (int)i, in[i]);
}
