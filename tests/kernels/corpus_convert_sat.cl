// Saturating conversion to a narrower unsigned type.
__kernel void convert_sat(__global const int4* n, __global uchar4* out) {
  size_t i = get_global_id(0);
  out[i] = convert_uchar4_sat(n[i]);
}
