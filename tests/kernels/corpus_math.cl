// A sample of math builtins: nine results per input pair (a > 0, b of either sign).
__kernel void math_sample(__global const float* as, __global const float* bs, __global float* out,
                          uint n) {
  size_t i = get_global_id(0);
  if (i >= n) return;
  float a = as[i], b = bs[i];
  __global float* o = out + i * 9;
  o[0] = sqrt(a);
  o[1] = exp(b);
  o[2] = log(a);
  o[3] = sin(b);
  o[4] = cos(b);
  o[5] = pow(a, b);
  o[6] = fma(a, b, a);
  o[7] = fabs(b);
  o[8] = floor(b);
}
