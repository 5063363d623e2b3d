// fuzz_widen meta: {"name": "k11_34", "type": "ushort", "size": 2, "n": 4, "off": 5, "shape": "components", "in_elems": 293, "out_elems": 293, "nval": 35, "sval": 2}
// fuzz_widen: type ushort4 shape components offset 5
__kernel void k11_34(__global const ushort* in, __global ushort* out, uint n, uint s) {
  uint lid = get_local_id(0);
  uint gid = get_global_id(0);
  ushort4 w = (ushort4)((ushort)(gid * 7u + 3u));
  uint b = 5 + 3u * gid;
  ushort c0 = in[b + 0];
  ushort c1 = in[b + 1];
  ushort c2 = in[b + 2];
  ushort acc = (ushort)s;
  acc = (ushort)(acc * 3u + out[b + 1]);
  out[b + 1] = (ushort)(acc + c1 + 1u);
  acc = (ushort)(acc * 3u + out[b + 0]);
  acc = (ushort)(acc * 3u + out[b + 2]);
  acc = (ushort)(acc * 3u + in[b + 0]);
  acc = (ushort)(acc * 3u + out[b + 0]);
  out[b + 1] = (ushort)(acc + c1 + 1u);
  acc = (ushort)(acc * 3u + out[b + 0]);
  acc = (ushort)(acc * 3u + in[b + 0]);
  acc = (ushort)(acc * 3u + out[b + 1]);
  out[b + 1] = (ushort)(acc + c1 + 1u);
  out[b + 1] = (ushort)(acc + c1 + 1u);
  ushort4 v = (ushort4)(acc) ^ (ushort4)((ushort)(c2 << 1));
  ushort4 q = ((ushort4)(w >> ((ushort4)(v * ((ushort4)(((ushort4)(290u)) * w))))));
  out[b + 0] = (ushort)(out[b + 1] * 3u + c0);
  out[b + 2] = (ushort)(out[b + 2] * 3u + c2);
  if (gid % 3u != s % 3u) {
    out[b + 0] = (ushort)(out[b + 0] ^ (ushort)(q.s0 + 0u));
    out[b + 1] = (ushort)(out[b + 1] ^ (ushort)(q.s1 + 1u));
    out[b + 2] = (ushort)(out[b + 2] ^ (ushort)(q.s0 + 2u));
  }
}
