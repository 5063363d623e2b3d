// Kernels of the exact-footprint tests (test_jit_widen_exact.cpp): each runs on buffers whose last
// byte lies flush against an inaccessible page, widened at several widths and scalar; a widened
// access that touches a byte none of its active work-items touches faults there.

// OpenCV's RGB2HSV shape (color_hsv.cl): a 3-byte pixel read with vload4 of which only x, y, z are
// used, three byte stores, a varying guard `x < cols` and rows of `step` bytes.
__kernel void rgb_vload4(__global const uchar* src, int src_step, __global uchar* dst, int dst_step,
                         int rows, int cols) {
  int x = get_global_id(0);
  int y = get_global_id(1);
  if (x < cols && y < rows) {
    uchar4 p = vload4(0, src + mad24(y, src_step, x * 3));
    int b = p.x, g = p.y, r = p.z;
    int v = max(max(b, g), r);
    int m = min(min(b, g), r);
    int d = mad24(y, dst_step, x * 3);
    dst[d] = (uchar)(v - m);
    dst[d + 1] = (uchar)(b + 2 * g);
    dst[d + 2] = (uchar)(r ^ v);
  }
}

// The same with floats (color_hsv.cl, depth 5): vload4 of 12-byte pixels, x, y, z used.
__kernel void rgbf_vload4(__global const uchar* srcptr, int src_step, __global uchar* dstptr,
                          int dst_step, int rows, int cols) {
  int x = get_global_id(0);
  int y = get_global_id(1);
  if (x < cols && y < rows) {
    __global const float* src = (__global const float*)(srcptr + mad24(y, src_step, x * 12));
    __global float* dst = (__global float*)(dstptr + mad24(y, dst_step, x * 12));
    float4 p = vload4(0, src);
    dst[0] = fmax(p.x, p.y) - p.z;
    dst[1] = p.x * 2.0f + p.y;
    dst[2] = p.z;
  }
}

// vload3 / vstore3 of 3-byte pixels, every work-item inside (no guard): the last pixel's three
// bytes end the buffer.
__kernel void rgb_vload3(__global const uchar* src, __global uchar* dst) {
  size_t i = get_global_id(0);
  uchar3 p = vload3(i, src);
  vstore3((uchar3)(p.z, p.x + p.y, p.y ^ (uchar)i), i, dst);
}

// The same guarded by a count that is not a multiple of any width (the last chunk is partial).
__kernel void rgb_vload3_guarded(__global const uchar* src, __global uchar* dst, uint n) {
  uint i = get_global_id(0);
  if (i < n) {
    uchar3 p = vload3(i, src);
    vstore3(p.zyx + (uchar3)(1, 2, 3), i, dst);
  }
}

// float3 through vload3 / vstore3 at 12-byte steps, odd rows: row r of `cols` pixels starts at
// r * step floats.
__kernel void float3_rows(__global const float* src, __global float* dst, int step, int cols) {
  int x = get_global_id(0);
  int y = get_global_id(1);
  if (x < cols) {
    float3 p = vload3(0, src + y * step + 3 * x);
    vstore3(p.zxy * 0.5f + (float3)(1.0f, 2.0f, 3.0f), 0, dst + y * step + 3 * x);
  }
}

// uchar3 pointers: 4-byte elements (OpenCL C's uchar3 has the size of a uchar4), read and written
// whole.
__kernel void uchar3_ptr(__global const uchar3* src, __global uchar3* dst) {
  size_t i = get_global_id(0);
  uchar3 p = src[i];
  dst[i] = p.yzx + (uchar3)((uchar)i);
}

// boxFilter's shape (OpenCV's boxFilter.cl): lanes below `skip` skip the block; inside, the index
// `lid - skip` is known not negative, so the optimizer may zero-extend it, and lane 0's address
// (which it never uses) lies 16 GiB past the buffer. The block's loads must not start from it.
__kernel void guarded_low_lanes(__global const float* in, __global float* out, uint skip) {
  uint lid = get_local_id(0);
  int j = (int)lid - (int)skip;
  size_t base = get_group_id(0) * get_local_size(0);
  if (j >= 0) {
    float4 v = vload4(0, in + 4 * (base + (size_t)j));
    out[base + lid] = in[base + (size_t)j] + v.w;
  }
}

// The same with 3-element vectors and a store, from an unsigned difference (zero-extended where
// the lanes below `skip` wrap around).
__kernel void guarded_low_lanes3(__global const uchar* in, __global uchar* out, uint skip) {
  uint lid = get_local_id(0);
  uint j = lid - skip;
  size_t base = get_group_id(0) * get_local_size(0);
  if (lid >= skip) {
    uchar3 p = vload3(base + j, in);
    vstore3(p + (uchar3)(1), base + j, out);
  }
}

// OpenCV's filter2D (filter2D.cl, also cv::Laplacian): after a barrier each work-item but the
// first reads its left neighbour's slot of local memory. With a constant offset InstCombine writes
// the index (int)lid - k, which the guard proves not negative, as (lid + 2^32 - k) & 0xffffffff:
// not negative as 64 bits, but 2^32 - k for the lanes below k, 16 GiB past the array.
__kernel void guarded_left_neighbour(__global float* out) {
  __local float l[128];
  int lid = get_local_id(0);
  float total = 0;
  l[lid] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid >= 1) total += l[lid - 1];
  out[get_global_id(1) * get_local_size(0) + lid] = total;
}

// The same three lanes back, in a block of its own after the barrier.
__kernel void guarded_left_neighbour3(__global float* out) {
  __local float l[128];
  int lid = get_local_id(0);
  float total = 0;
  l[lid] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid >= 3) total += l[lid - 3];
  out[get_global_id(1) * get_local_size(0) + lid] = total;
}

// An unsigned range check, `(uint)(lid - lo) < len`, around a loop whose trip count varies (so
// the branch is checked at run time, not masked): the lanes below lo wrap around, so the first and
// the last lane may agree while the lanes between do not.
__kernel void unsigned_range(__global int* out, uint lo, uint len) {
  uint lid = get_local_id(0);
  size_t gid = get_global_id(0);
  int acc = 0;
  if (lid - lo < len) {
    for (uint k = 0; k <= lid; ++k) acc = (acc << 1) ^ (acc >> 3) ^ (int)k;
  }
  out[gid] = acc;
}

// Clamped neighbours (widen_memory.cpp, Widener::unclampedCheck): a 3x3 median of 8-bit pixels
// read at max(x - 1, 0) and min(x + 1, w - 1) (smax, smin), as bench/kernels/patterns.cl's. The
// six loads of clamped columns are vector loads in the chunks where no lane is clamped and gathers
// in the others; the image fills its buffer, so a vector load taken where the last lane is
// clamped reads a byte past the last row.
#define SWAP(a, b) { uchar t_ = min(a, b); b = max(a, b); a = t_; }
__kernel void median3_clamped(__global const uchar* in, __global uchar* out, int width, int height) {
  int x = get_global_id(0), y = get_global_id(1);
  int xm = max(x - 1, 0), xp = min(x + 1, width - 1), ym = max(y - 1, 0), yp = min(y + 1, height - 1);
  uchar p0 = in[ym * width + xm], p1 = in[ym * width + x], p2 = in[ym * width + xp];
  uchar p3 = in[y * width + xm], p4 = in[y * width + x], p5 = in[y * width + xp];
  uchar p6 = in[yp * width + xm], p7 = in[yp * width + x], p8 = in[yp * width + xp];
  SWAP(p1, p2); SWAP(p4, p5); SWAP(p7, p8); SWAP(p0, p1); SWAP(p3, p4); SWAP(p6, p7);
  SWAP(p1, p2); SWAP(p4, p5); SWAP(p7, p8); SWAP(p0, p3); SWAP(p5, p8); SWAP(p4, p7);
  SWAP(p3, p6); SWAP(p1, p4); SWAP(p2, p5); SWAP(p4, p7); SWAP(p4, p2); SWAP(p6, p4);
  SWAP(p4, p2);
  out[y * width + x] = p4;
}

// Unsigned clamps on one row of floats: clamp(x, lo, n - 1) (a umin of a umax: both checked),
// min(x + 3, n - 1), a umax under a guard (a masked load, whose inactive lanes the check also
// covers), and an index a loop clamps again each step (j = min(j + 1, n - 1)): its clamp is one of
// the previous iteration behind the loop's phi, which no check covers, so it stays a gather.
__kernel void clamped_row(__global const float* in, __global float* out, uint n, uint lo,
                          uint steps) {
  uint x = get_global_id(0);
  float acc = in[clamp(x, lo, n - 1)] + 2.0f * in[min(x + 3, n - 1)];
  if (x + 2 < n) acc += 4.0f * in[max(x + 2, lo)];
  uint j = x;
  for (uint k = 0; k < steps; ++k) {
    j = min(j + 1, n - 1);
    acc += 8.0f * in[j];
  }
  out[x] = acc;
}

// Lanes two, three and four elements apart whose accesses interleave (each work-item its own run
// of neighbouring elements, as CLBlast's XgemmDirect stages its tiles): strided loads and
// scatters. The elements no store of a kernel writes (the middle of a triple, three longs of four)
// keep their bytes; the guard leaves lanes out.
__kernel void interleaved_pairs(__global const float* in, __global float* out) {
  size_t i = get_global_id(0);
  float a = in[2 * i], b = in[2 * i + 1];
  out[2 * i] = a + b;
  out[2 * i + 1] = a - b;
}

__kernel void interleaved_triples(__global const float* in, __global float* out, uint skip) {
  size_t i = get_global_id(0);
  if (i % 5 != skip) {
    float a = in[3 * i], c = in[3 * i + 2];
    out[3 * i] = c * 2.0f;
    out[3 * i + 2] = a;
  }
}

__kernel void interleaved_quads(__global const long* in, __global long* out) {
  size_t i = get_global_id(0);
  out[4 * i + 1] = in[4 * i + 3] - in[4 * i];
}
