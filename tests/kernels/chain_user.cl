// Imports global_chain.cl's variable, whose module has imports of its own.
extern __global int chained;

__kernel void set_chained(int v) {
  chained = v;
}
