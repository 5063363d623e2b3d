// Scalar and small-vector arguments of every size next to each other, so that each lands at its own
// alignment in the argument buffer; the kernel writes them all back widened to long.
__kernel void scalar_args(char a, long b, short c, float d, uchar e, ulong f, int2 g, ushort i,
                          int4 j, __global long* out) {
  out[0] = a;
  out[1] = b;
  out[2] = c;
  out[3] = (long)(d * 4.0f);
  out[4] = e;
  out[5] = (long)f;
  out[6] = g.x;
  out[7] = g.y;
  out[8] = i;
  out[9] = j.x + j.y + j.z + j.w;
}

// Three-component vectors by value: in OpenCL C they have the size and alignment of four.
__kernel void vec3_args(float3 h, char c, int3 k, __global long* out) {
  out[0] = (long)h.x;
  out[1] = (long)h.y;
  out[2] = (long)h.z;
  out[3] = c;
  out[4] = k.x;
  out[5] = k.y;
  out[6] = k.z;
}
