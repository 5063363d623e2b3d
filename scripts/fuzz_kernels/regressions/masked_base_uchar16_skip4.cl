// fuzz_widen meta: {"name": "k1_0", "type": "uchar", "size": 1, "n": 16, "off": 2, "shape": "skip", "in_elems": 1474, "out_elems": 1538, "nval": 16, "sval": 4}
// fuzz_widen: type uchar16 shape skip offset 2
__kernel void k1_0(__global const uchar* in, __global uchar* out, uint n, uint s) {
  uint lid = get_local_id(0);
  uint gid = get_global_id(0);
  uchar16 w = (uchar16)((uchar)(gid * 7u + 3u));
  int j = (int)lid - (int)s;
  if (j >= 0) {
    size_t e = get_group_id(0) * 32 + (size_t)j;
    uchar16 v = vload16(e, in + 2);
    uchar16 r = abs_diff(((uchar16)(abs_diff(w, w) >> min(((uchar16)((uchar)lid)), ((uchar16)((uchar)lid))))), ((uchar16)(v << ((uchar16)(195u)))));
    vstore16(r, e, out + 2);
  }
}
