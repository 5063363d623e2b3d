// Vector conversions (default rounding), reinterpretation and integer builtins.
__kernel void convert_vectors(__global const float4* f, __global const int4* n,
                              __global int4* toInt, __global float4* toFloat, __global int4* misc) {
  size_t i = get_global_id(0);
  toInt[i] = convert_int4(f[i]);
  toFloat[i] = convert_float4(n[i]);
  int4 c = clamp(n[i], (int4)(-100), (int4)(100));
  misc[i] = select(c, as_int4(abs(n[i])), n[i] < (int4)(0)) + (as_int4(f[i]) & (int4)(1));
}
