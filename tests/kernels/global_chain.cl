// A module that defines a variable and imports a function (export_lib.cl's tessera_scale): linked
// in the same call as a module importing the variable (chain_user.cl), it is compiled first.
extern int tessera_scale(int x);
__global int chained = 1;

__kernel void scale_chained(__global int* out) {
  out[0] = tessera_scale(chained);
}
