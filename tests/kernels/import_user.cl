// Imports a function defined in another module (LinkageAttributes Import).
extern int tessera_scale(int x);

__kernel void import_user(__global int* data) {
  size_t i = get_global_id(0);
  data[i] = tessera_scale(data[i]);
}
