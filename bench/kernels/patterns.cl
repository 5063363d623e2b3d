// The kernel-pattern bench's kernels (issue 29; bench/cl_pattern_bench.cpp builds this file together
// with suite.cl, whose sgemm_tiled it times, from source on every OpenCL platform). Each is the
// shape an application kernel has, written plainly as applications write them: scalar code, one
// work-item per output, no vector types. Build options are empty.

// The bandwidth reference: a copy, 16 bytes per work-item.
__kernel void copy4(__global const float4* in, __global float4* out) {
  size_t i = get_global_id(0);
  out[i] = in[i];
}

// Black-Scholes call and put for one option (log, exp, erfc, sqrt).
__kernel void black_scholes(__global const float* S, __global const float* X,
                            __global const float* T, __global float* call, __global float* put,
                            float r, float v) {
  size_t i = get_global_id(0);
  float s = S[i], x = X[i], t = T[i];
  float sq = sqrt(t);
  float d1 = (log(s / x) + (r + 0.5f * v * v) * t) / (v * sq);
  float d2 = d1 - v * sq;
  float n1 = 0.5f * erfc(-d1 * M_SQRT1_2_F), n2 = 0.5f * erfc(-d2 * M_SQRT1_2_F);
  float e = x * exp(-r * t);
  call[i] = s * n1 - e * n2;
  put[i] = e * (1.0f - n2) - s * (1.0f - n1);
}

// A transcendental mix.
__kernel void math_mix(__global const float* in, __global float* out) {
  size_t i = get_global_id(0);
  float x = in[i];
  out[i] = sin(x) * cos(x) + tanh(x) + pow(fabs(x) + 1.0f, 1.5f);
}

// Escape-time iterations over a 2-D grid (lanes of a group leave the loop at different counts).
__kernel void mandelbrot(__global int* out, int width, int height, int maxIter) {
  int px = get_global_id(0), py = get_global_id(1);
  float cx = -2.0f + 3.0f * px / width, cy = -1.5f + 3.0f * py / height;
  float x = 0.0f, y = 0.0f;
  int n = 0;
  while (n < maxIter && x * x + y * y <= 4.0f) {
    float t = x * x - y * y + cx;
    y = 2.0f * x * y + cy;
    x = t;
    ++n;
  }
  out[py * width + px] = n;
}

// 256 bins in local memory with atomic_inc, then added to the global bins; each work-item takes
// `per` values, strided by the group's size.
__kernel void histogram256(__global const uint* data, __global uint* bins, int per) {
  __local uint local_bins[256];
  int lid = get_local_id(0), lsize = get_local_size(0);
  for (int b = lid; b < 256; b += lsize) local_bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t base = get_group_id(0) * (size_t)lsize * per;
  for (int k = 0; k < per; ++k) atomic_inc(&local_bins[data[base + (size_t)k * lsize + lid] & 255]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int b = lid; b < 256; b += lsize) atomic_add(&bins[b], local_bins[b]);
}

// A 5-point stencil with the boundary copied through a branch.
__kernel void stencil5(__global const float* in, __global float* out, int width, int height) {
  int x = get_global_id(0), y = get_global_id(1);
  int i = y * width + x;
  if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
    out[i] = in[i];
  } else {
    out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
  }
}

// Softmax of one row per work-item (three loops over the row, of the same trip count in every lane,
// each lane at its own row: a stride of a whole row between lanes).
__kernel void softmax_rows(__global const float* in, __global float* out, int cols) {
  size_t row = get_global_id(0);
  __global const float* r = in + row * cols;
  __global float* o = out + row * cols;
  float m = r[0];
  for (int c = 1; c < cols; ++c) m = fmax(m, r[c]);
  float sum = 0.0f;
  for (int c = 0; c < cols; ++c) sum += exp(r[c] - m);
  float inv = 1.0f / sum;
  for (int c = 0; c < cols; ++c) o[c] = exp(r[c] - m) * inv;
}

// Erosion by a 7x7 disc (OpenCV's morphology shape): a 22x22 tile of 8-bit pixels in local memory
// (edges clamped), a barrier, then the minimum over the disc. Groups of 16x16.
#define MR 3
#define MT (16 + 2 * MR)
__kernel void erode7(__global const uchar* in, __global uchar* out, int width, int height) {
  __local uchar tile[MT][MT];
  int lx = get_local_id(0), ly = get_local_id(1);
  int gx0 = get_group_id(0) * 16 - MR, gy0 = get_group_id(1) * 16 - MR;
  for (int ty = ly; ty < MT; ty += 16)
    for (int tx = lx; tx < MT; tx += 16) {
      int sx = clamp(gx0 + tx, 0, width - 1), sy = clamp(gy0 + ty, 0, height - 1);
      tile[ty][tx] = in[sy * width + sx];
    }
  barrier(CLK_LOCAL_MEM_FENCE);
  uchar m = 255;
  for (int dy = -MR; dy <= MR; ++dy)
    for (int dx = -MR; dx <= MR; ++dx)
      if (dx * dx + dy * dy <= MR * MR + 1) m = min(m, tile[ly + MR + dy][lx + MR + dx]);
  out[(get_group_id(1) * 16 + ly) * width + get_group_id(0) * 16 + lx] = m;
}

// The median of a 3x3 neighbourhood of 8-bit pixels (edges clamped) by a sorting network of
// min/max exchanges.
#define SWAP(a, b) { uchar t_ = min(a, b); b = max(a, b); a = t_; }
__kernel void median3(__global const uchar* in, __global uchar* out, int width, int height) {
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

// A 7x7 Gaussian as one 2-D pass over floats (edges clamped), weights from a constant table.
__constant float kGauss7[7] = {0.0702f, 0.1311f, 0.1907f, 0.2160f, 0.1907f, 0.1311f, 0.0702f};
__kernel void gauss7(__global const float* in, __global float* out, int width, int height) {
  int x = get_global_id(0), y = get_global_id(1);
  float acc = 0.0f;
  for (int dy = -3; dy <= 3; ++dy) {
    int sy = clamp(y + dy, 0, height - 1);
    float row = 0.0f;
    for (int dx = -3; dx <= 3; ++dx) row += kGauss7[dx + 3] * in[sy * width + clamp(x + dx, 0, width - 1)];
    acc += kGauss7[dy + 3] * row;
  }
  out[y * width + x] = acc;
}
