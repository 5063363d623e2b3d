// Imports another module's program-scope variables (LinkageAttributes Import on OpVariable):
// zeModuleDynamicLink gives it the defining module's storage (global_export.cl).
extern __global int shared_counter;
extern __global int shared_table[4];

__kernel void read_imported(__global int* out) {
  size_t i = get_global_id(0);
  out[i] = shared_table[i % 4] + shared_counter;
}

__kernel void add_shared(int v) {
  if (get_global_id(0) == 0) shared_counter += v;
}
