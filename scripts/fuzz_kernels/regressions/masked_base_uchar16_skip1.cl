// fuzz_widen meta: {"name": "k1_18", "type": "uchar", "size": 1, "n": 16, "off": 12, "shape": "skip", "in_elems": 1532, "out_elems": 1548, "nval": 17, "sval": 1}
// fuzz_widen: type uchar16 shape skip offset 12
__kernel void k1_18(__global const uchar* in, __global uchar* out, uint n, uint s) {
  uint lid = get_local_id(0);
  uint gid = get_global_id(0);
  uchar16 w = (uchar16)((uchar)(gid * 7u + 3u));
  int j = (int)lid - (int)s;
  if (j >= 0) {
    size_t e = get_group_id(0) * 32 + (size_t)j;
    uchar16 v = vload16(e, in + 12);
    uchar16 r = ((uchar16)(popcount(((uchar16)(v - ((uchar16)(66u))))) | ((uchar16)(clz(((uchar16)((uchar)lid))) - ((uchar16)(((uchar16)(133u)) >> ((uchar16)(124u))))))));
    vstore16(r, e, out + 12);
  }
}
