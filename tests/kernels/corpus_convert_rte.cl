// Float to int conversion with an explicit rounding mode (round to nearest even).
__kernel void convert_rte(__global const float4* f, __global int4* out) {
  size_t i = get_global_id(0);
  out[i] = convert_int4_rte(f[i]);
}
