// fuzz_widen meta: {"name": "k11_24", "type": "uchar", "size": 1, "n": 3, "off": 2, "shape": "components", "in_elems": 578, "out_elems": 578, "nval": 91, "sval": 2, "local": [16, 6], "global": [16, 18]}
// fuzz_widen: type uchar3 shape components offset 2
__kernel void k11_24(__global const uchar* in, __global uchar* out, uint n, uint s) {
  uint lid = get_local_id(1) * get_local_size(0) + get_local_id(0);
  uint gid = get_global_id(1) * get_global_size(0) + get_global_id(0);
  uchar3 w = (uchar3)((uchar)(gid * 7u + 3u));
  uint b = 2 + 2u * gid;
  uchar c0 = in[b + 0];
  out[b + 0] = (uchar)(c0 * 1u + s);
  uchar c1 = in[b + 1];
  out[b + 1] = (uchar)(c1 * 3u + s);
  uchar3 v = (uchar3)(c0) ^ (uchar3)((uchar)(c1 << 1));
  uchar3 q = ((uchar3)(((uchar3)(((uchar3)((v).s021 * ((uchar3)((uchar)gid)))) - popcount(((uchar3)(83u))))) & abs_diff(min(((uchar3)((uchar)lid)), ((uchar3)((uchar)lid))), ((uchar3)(w & v)))));
  out[b + 0] = (uchar)(out[b + 1] * 3u + c0);
  out[b + 1] = (uchar)(out[b + 0] * 3u + c0);
  out[b + 1] = (uchar)(out[b + 1] * 3u + c1);
  if (gid % 3u != s % 3u) {
    out[b + 0] = (uchar)(out[b + 0] ^ (uchar)(q.s0 + 0u));
    out[b + 1] = (uchar)(out[b + 1] ^ (uchar)(q.s1 + 1u));
  }
}
