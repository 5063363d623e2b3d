// Intel's LSC builtins declared with other types than Intel's (a kernel declares them itself): the
// build refuses such a call with the builtin's name, never lowers it.
uint __builtin_IB_lsc_load_global_uint(const __global uint* base);  // no offset, no hint
void __builtin_IB_lsc_store_global_uint(__global uint* base, int immElemOff, float val, int hint);
__kernel void too_few(__global uint* out, const __global uint* in) {
  out[0] = __builtin_IB_lsc_load_global_uint(in);
}
__kernel void wrong_value(__global uint* out) {
  __builtin_IB_lsc_store_global_uint(out, 0, 1.5f, 0);
}
