// float4 and int4 arithmetic, swizzles, vector literals and comparisons.
__kernel void vec_float4(__global const float4* a, __global const float4* b, float4 k,
                         __global float4* out) {
  size_t i = get_global_id(0);
  float4 x = a[i], y = b[i];
  float4 r = (x * k + y).wzyx - (float4)(1.0f, 2.0f, 3.0f, 4.0f);
  r.x += dot(x, y);
  r.yz = r.zy * 2.0f;
  out[i] = r / (float4)(1.0f, 2.0f, 4.0f, 8.0f);
}

__kernel void vec_int4(__global const int4* a, __global const int4* b, __global int4* out,
                       __global int4* cmp) {
  size_t i = get_global_id(0);
  int4 x = a[i], y = b[i];
  int4 r = x * y - (x >> 1) + ((y & 7) ^ (int4)(1, 2, 3, 4));
  r.xy = r.yx;
  out[i] = r;
  cmp[i] = x > y;  // -1 where true, 0 where false
}
