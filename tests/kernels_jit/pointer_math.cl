// Builtins with a second result through a pointer (private, global and vector forms).
__kernel void pointer_math(__global const float* x, __global float* out, __global int* iout) {
  size_t i = get_global_id(0);
  float v = x[i];
  __global float* o = out + 8 * i;
  __global int* io = iout + 4 * i;
  float c;
  o[0] = sincos(v, &c);
  o[1] = c;
  int e;
  o[2] = frexp(v, &e);
  io[0] = e;
  o[3] = modf(v, o + 4);
  float whole;
  o[5] = fract(v, &whole);
  o[6] = whole;
  o[7] = remquo(v, 1.25f, io + 1);
  int sign;
  float lg = lgamma_r(v, &sign);
  io[2] = sign;
  io[3] = (int)(lg * 1000.0f);
}

__kernel void pointer_math_vec(__global const float4* x, __global float4* s, __global float4* c,
                               __global int4* e, __global double* d) {
  size_t i = get_global_id(0);
  float4 cs;
  s[i] = sincos(x[i], &cs) + frexp(x[i], e + i);
  c[i] = cs;
  double ip;
  d[2 * i] = modf((double)x[i].x, &ip);
  d[2 * i + 1] = ip;
}
