// A kernel calling one of Intel's LSC builtins that Tessera does not provide (a block load, whose
// meaning depends on a GPU's sub-group layout): the module imports it and needs linking.
uint __builtin_IB_lsc_load_block_global_uint(const __global uint* base, int immElemOff,
                                             int cacheOpt);
__kernel void block_load(__global uint* out, const __global uint* in) {
  out[get_global_id(0)] = __builtin_IB_lsc_load_block_global_uint(in, 0, 0);
}
