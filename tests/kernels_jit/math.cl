// Each work-item evaluates the same builtins on its input; the test compares with the host.
__kernel void math_float(__global const float* x, __global float* out) {
  size_t i = get_global_id(0);
  float v = x[i];
  __global float* o = out + 16 * i;
  o[0] = sqrt(fabs(v));
  o[1] = sin(v);
  o[2] = cos(v);
  o[3] = exp(v * 0.1f);
  o[4] = log(fabs(v) + 1.0f);
  o[5] = pow(fabs(v), 1.5f);
  o[6] = tan(v * 0.1f);
  o[7] = atan2(v, 2.0f);
  o[8] = floor(v) + ceil(v * 0.5f);
  o[9] = fma(v, 2.0f, 1.0f);
  o[10] = fmin(v, 1.0f) + fmax(v, -1.0f);
  o[11] = clamp(v, -0.5f, 0.5f);
  o[12] = tanh(v);
  o[13] = (float)isnan(v) + (float)isinf(v) * 2.0f + (float)signbit(v) * 4.0f;
  o[14] = mix(v, 2.0f * v, 0.25f) + step(0.0f, v);
  o[15] = rsqrt(fabs(v) + 1.0f);
}

__kernel void math_int(__global const int* x, __global int* out) {
  size_t i = get_global_id(0);
  int v = x[i];
  __global int* o = out + 8 * i;
  o[0] = abs(v);
  o[1] = max(v, 3) + min(v, -3);
  o[2] = clz(v);
  o[3] = popcount(v);
  o[4] = clamp(v, -100, 100);
  o[5] = mul_hi(v, 0x12345678);
  o[6] = rotate(v, 5);
  o[7] = add_sat(v, 0x7ffffff0);
}

__kernel void vector_math(__global const float4* x, __global float4* out, __global float* lens) {
  size_t i = get_global_id(0);
  float4 v = x[i];
  out[i] = sqrt(fabs(v)) + sin(v);
  lens[i] = length(v) + dot(v, (float4)(1, 2, 3, 4));
}
