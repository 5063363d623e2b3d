// Program-scope global variables (OpenCL C 2.0): zeModuleGetGlobalPointer finds them by name.
__global int counter = 5;
__global float table[4] = {1.0f, 2.0f, 3.0f, 4.0f};

__kernel void bump_counter(__global int* out) {
  if (get_global_id(0) == 0) {
    out[0] = counter;
    counter += 1;
  }
}
