// fuzz_widen meta: {"name": "clamped_neighbours", "type": "uchar", "size": 1, "n": 4, "off": 3, "shape": "clamp", "in_elems": 387, "out_elems": 387, "nval": 90, "sval": 2}
// Written by hand for the widening's clamped indices (widen_memory.cpp, unclampedCheck): vload4s
// and a scalar load at max(gid - s, 0) and min(gid + s, n), clamped in the first and the last
// chunks only, vector loads in the others; n = 90 puts the upper clamp inside a chunk.
__kernel void clamped_neighbours(__global const uchar* in, __global uchar* out, uint n, uint s) {
  uint gid = get_global_id(0);
  int a = max((int)gid - (int)s, 0);
  uint b = min(gid + s, n);
  uchar4 v = vload4((size_t)a, in + 3);
  uchar4 w = vload4(b, in + 3);
  uchar c = in[3 + min(gid + 1, n)];
  vstore4(v ^ (w + (uchar4)(c)), gid, out + 3);
}
