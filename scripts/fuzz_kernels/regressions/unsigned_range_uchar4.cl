// fuzz_widen meta: {"name": "k1_9", "type": "uchar", "size": 1, "n": 4, "off": 3, "shape": "range", "in_elems": 387, "out_elems": 387, "nval": 21, "sval": 1}
// fuzz_widen: type uchar4 shape range offset 3
__kernel void k1_9(__global const uchar* in, __global uchar* out, uint n, uint s) {
  uint lid = get_local_id(0);
  uint gid = get_global_id(0);
  uchar4 w = (uchar4)((uchar)(gid * 7u + 3u));
  uchar4 v = vload4(gid, in + 3);
  uchar4 acc = (uchar4)(0);
  if (lid - s < (n & 15u)) {
    for (uint k = 0; k <= lid % 9u; ++k) {
      uchar4 r = rotate(min(select(w, ((uchar4)((uchar)gid)), (char4)(w > w)), ((uchar4)(((uchar4)(202u)) | ((uchar4)((uchar)gid))))), ((uchar4)(add_sat((v).s0021, w) * ((uchar4)(v | v)))));
      acc = (uchar4)(acc + (r ^ (uchar)k));
    }
  }
  vstore4(acc, gid, out + 3);
}
