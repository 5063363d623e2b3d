// Kernels of the widening tests (jit/widen.cpp): which regions widen, how their accesses widen,
// and that the widened and scalar loops agree.

// A uniform inner loop: A's address is uniform in x (scalar load), B's and C's consecutive.
__kernel void sgemm_naive(__global const float* A, __global const float* B, __global float* C,
                          int N) {
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < N; ++k) acc += A[row * N + k] * B[k * N + col];
  C[row * N + col] = acc;
}

// Strided and indirect accesses: gathers and a scatter; the group's uniform values.
__kernel void strided(__global const float* in, __global const int* perm, __global float* out,
                      __global int* groups) {
  size_t i = get_global_id(0);
  out[perm[i]] = in[3 * i + 1] * 2.0f + (float)get_local_size(0);
  groups[get_group_id(0)] = (int)get_num_groups(0) * 1000 + (int)get_local_size(0);
}

// A varying guard around a store: the store is masked by the lanes inside n (no run-time check,
// no scalar run for the chunk that straddles n).
__kernel void guarded(__global float* out, uint n) {
  uint i = get_global_id(0);
  if (i < n) out[i] = (float)i * 0.5f;
}

// A varying guard, after an atomic, around code with uniform branches of its own (CLBlast's
// StoreResultsChecked: `if (beta == 0) ... else ...` and a store): masked as a whole, the inner
// branch taken alike by every lane (a run-time check could not follow the atomic).
__kernel void guarded_uniform(__global const float* in, __global float* out, __global int* counter,
                              uint n, float beta) {
  uint i = get_global_id(0);
  atomic_inc(counter);
  if (i < n) {
    float r;
    if (beta == 0.0f)
      r = in[i] * 2.0f;
    else
      r = in[i] * 2.0f + beta * out[i];
    out[i] = r;
  }
}

// A varying branch after an atomic, around a block that cannot be masked (an atomic of its own):
// refused (a chunk could not restart), the scalar loop runs it.
__kernel void after_effect(__global float* out, __global int* counter, uint n) {
  uint i = get_global_id(0);
  atomic_inc(counter);
  if (i < n) {
    out[i] = (float)i * 0.5f;
    atomic_inc(counter + 1);
  }
}

// A path for full tiles and a bounds-checked one for the edge, as CLBlast's XgemmDirect has: the
// edge path's loop (a varying trip count) follows a store, which refuses it, so it is cut off
// (work-items going there run scalar) and the full path is widened.
__kernel void edge_path(__global const float* in, __global float* out, uint full) {
  uint i = get_global_id(0);
  if (i < full) {
    out[i] = in[i] * 2.0f;
  } else {
    out[i] = 0.0f;
    for (uint k = full; k <= i; ++k) out[i] += in[k];
  }
}

// A masked block after an atomic: widened; the lanes that skip the block, lane 0 among them,
// never touch their address (4 GiB past the buffer), so the load is masked, not lane 0's scalar.
__kernel void masked_far(__global const float* in, __global float* out, __global int* counter) {
  uint i = get_global_id(0);
  atomic_inc(counter);
  size_t j = (i & 1) ? i : i + ((size_t)1 << 30);
  if (i & 1) out[i] = in[j] * 2.0f;
}

// A grid-stride loop (varying start, uniform step and bound): the lanes of a chunk run the same
// number of iterations when the global size divides n, else that chunk runs scalar.
__kernel void grid_stride(__global const float* in, __global float* out, uint n) {
  float sum = 0.0f;
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) sum += in[i];
  out[get_global_id(0)] = sum;
}

// A loop variable whose lanes drift apart (each step adds the id again): consecutive in the first
// iteration only, so its load gathers (the grid-stride loop's stays a vector load).
__kernel void drifting(__global const float* in, __global float* out, uint steps) {
  uint gid = get_global_id(0);
  float sum = 0.0f;
  uint i = gid;
  for (uint k = 0; k < steps; ++k) {
    sum += in[i];
    i += gid;
  }
  out[gid] = sum;
}

// Lane-by-lane operations (libm, atomics) and intrinsics in vector form, with uniform loops.
__kernel void lanes(__global const float* in, __global float* out, __global int* counter,
                    int iters) {
  size_t i = get_global_id(0);
  float x = in[i];
  float s = 0.0f;
  for (int k = 0; k < iters; ++k) s = mad(s, 0.5f, sqrt(x + (float)k)) + sin(x * (float)k);
  out[i] = s + fabs(x);
  atomic_inc(counter);
}

// 2D: the local linear id and a loop over a private array (promoted to registers).
__kernel void local2d(__global int* out, int m) {
  int acc[4];
  for (int j = 0; j < 4; ++j) acc[j] = (int)get_local_linear_id() * j + m;
  out[get_global_linear_id()] = acc[0] + acc[1] + acc[2] + acc[3] + (int)get_local_id(1);
}

// Barriers: each region widens on its own; values cross the barrier in scratch slots.
__kernel void regions(__global const float* in, __global float* out, __local float* tmp) {
  size_t l = get_local_id(0);
  float v = in[get_global_id(0)] * 3.0f;
  tmp[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[get_local_size(0) - 1 - l] + v;
}

// The same with a required size that every width divides (clFFT's kernels have one).
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void regions_reqd(__global const float* in, __global float* out, __local float* tmp) {
  size_t l = get_local_id(0);
  float v = in[get_global_id(0)] * 3.0f;
  tmp[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[get_local_size(0) - 1 - l] + v;
}

// cl_speed_bench's reduction: a grid-stride region, then a halving with a barrier per step.
__kernel void reduce(__global const float* in, __global float* out, __local float* scratch,
                     uint n) {
  uint lid = get_local_id(0);
  float sum = 0.0f;
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) sum += in[i];
  scratch[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = scratch[0];
}

// A float4 copy (consecutive lanes: one wide load and store), and a compare-and-swap whose result
// is unused (run per lane).
__kernel void copy4(__global const float4* in, __global float4* out) {
  size_t i = get_global_id(0);
  out[i] = in[i];
}

// OpenCL vector values (lane-major: VF float4s are one <4 VF x float>): arithmetic, swizzles
// (shuffles, element extracts and inserts), a vector compare and select, a loop of vector MADs
// (clpeak's float4 kernel), converts, and contiguous vector loads and stores.
__kernel void vec_ops(__global const float4* in, __global float4* out, __global int2* flags,
                      int iters) {
  size_t i = get_global_id(0);
  float4 v = in[i];
  float4 acc = (float4)(0.5f, 1.0f, 1.5f, 2.0f) * (float)(i % 5);
  for (int k = 0; k < iters; ++k) acc = mad(acc, (float4)(0.9f), v.wzyx);
  float4 s = acc;
  s.y = v.x + (float)i;
  float2 lo = s.s10;
  int4 gt = isgreater(acc, v);
  out[i] = select(v, acc, gt) + (float4)(lo, lo.y * 2.0f, (float)(gt.x & 1));
  flags[i] = convert_int2(s.xz) + (int2)((int)i, -1);
}

// Vector values in predicated blocks: a masked vector store, and a float4 phi joining per lane.
__kernel void vec_masked(__global const float4* in, __global float4* out, __global float4* odd,
                         __global float* flip, float k) {
  size_t i = get_global_id(0);
  float4 v = in[i];
  if (i & 1) {  // the store keeps the branch (no select): v joins in a phi
    v = v.wzyx * 2.0f;
    flip[i] = v.x;
  }
  if (i % 3 == 0) odd[i] = v + 1.0f;
  out[i] = (i & 2) ? v : v * k;  // a scalar condition selecting whole vectors
}

// float16 values: 64 work-items of them would be 32 AVX-512 registers a value, so the plan's
// 4 x VF level refuses the loop region and the VF level takes it.
__kernel void vec16_loop(__global const float16* in, __global float16* out, int iters) {
  size_t i = get_global_id(0);
  float16 x = in[i], y = x * 0.5f;
  for (int k = 0; k < iters; ++k) {
    x = mad(y, x, y);
    y = mad(x, y, x) * 0.25f;
  }
  out[i] = x + y;
}

__kernel void cas_unused(__global int* flags) {
  atomic_cmpxchg(&flags[get_global_id(0) % 4], 0, (int)get_global_id(0) + 1);
}

// The classic 16x16 tiled SGEMM (local size 16x16): row, column and the tile addresses are
// computed from the ids, so region formation recomputes them in each region (no scratch slots):
// only acc and the tile loop's t cross the barriers.
__kernel void tiled(__global const float* A, __global const float* B, __global float* C, int n) {
  __local float As[16][16];
  __local float Bs[16][16];
  int lc = get_local_id(0), lr = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < n; t += 16) {
    As[lr][lc] = A[row * n + t + lc];
    Bs[lr][lc] = B[(t + lr) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 16; ++k) acc += As[lr][k] * Bs[k][lc];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}

// Values carried around a loop with barriers: the counter t and the sum s every work-item holds the
// same value of (one group copy, s written under a condition in one region, t in another), and
// per-work-item acc and drift, where acc's old value is still read after its next one is computed
// (its slot cannot be that of the next value). Local size at most 256.
__kernel void carried(__global const float* in, __global float* out, __global int* sums, int n) {
  __local float tile[256];
  int lid = get_local_id(0) + get_local_id(1) * get_local_size(0);
  int items = get_local_size(0) * get_local_size(1);
  int gid = get_global_id(0) + get_global_id(1) * get_global_size(0);
  float acc = 0.0f, drift = 0.0f;
  int s = 0, t = 0;
  do {  // (not a for loop: no path around the loop that stores a value of acc of its own)
    tile[lid] = in[(gid + t) % 97];
    barrier(CLK_LOCAL_MEM_FENCE);
    float prev = acc;
    acc = acc * 0.5f + tile[(lid + t) % items];
    if (t % 2 == 0) s += t;
    barrier(CLK_LOCAL_MEM_FENCE);
    drift += prev - acc;
    t += 3;
  } while (t < n);
  out[2 * gid] = acc;
  out[2 * gid + 1] = drift;
  sums[gid] = s;
}

// OpenCL vectors whose lanes are not consecutive in memory: float4s two and three float4s apart
// (each lane's vector loaded or stored at its own address), float2s three apart (a gather or a
// scatter of 64-bit integers), and a float4 stored at one address per group (lane by lane, in
// lane order: the group's last work-item's is left).
__kernel void vec_strided(__global const float4* in, __global float4* out,
                          __global const float2* in2, __global float2* out2,
                          __global float4* last) {
  size_t i = get_global_id(0);
  float4 a = in[2 * i], b = in[3 * i + 1];
  out[3 * i] = a + b;
  out[3 * i + 2] = a * b.wzyx;
  out2[3 * i + 1] = in2[3 * i] * 2.0f + (float2)((float)i, 1.0f);
  last[get_group_id(0)] = a + (float)i;
}

// The same in predicated blocks: a lane that skips a block touches none of its addresses (the
// even lanes' addresses in the first block are gigabytes past the buffers, at strides the
// analysis does not know; in the second, lane 0 may be one that skips it).
__kernel void vec_strided_masked(__global const float4* in, __global float4* out,
                                 __global const float2* in2, __global float2* out2) {
  uint i = get_global_id(0);
  size_t j = (i & 1) ? i : i + ((size_t)1 << 30);
  if (i & 1) {
    out[2 * j] = in[3 * j] * 2.0f;
    out2[3 * j + 1] = in2[2 * j].yx;
  }
  if (i % 3 != 0) out[2 * i + 1] = in[3 * i + 2] + 1.0f;
}

// The shape of CLBlast's Xgemm, small: tiles of A and B in local memory between barriers, loaded
// at addresses from a volatile tile id (tid % 8, tid / 8), and per work-item two float4
// accumulators updated element by element in the tile loop and kept across the barriers (scratch
// slots). Local size 8 x 4; C (N x M) = B^T A for A (K x M) and B (K x N), all row-major; each
// work-item computes 4 consecutive m of 2 columns n. kt is the tiles' depth, 8 (an argument: a
// constant trip count gets the loop unrolled, or laid out in an order the translator's SPIR-V
// fails validation with).
__kernel void tiles4(__global const float4* A, __global const float2* B, __global float4* C,
                     int M, int N, int K, int kt) {
  __local float4 alm[8 * 8];
  __local float2 blm[8 * 4];
  volatile int tid = get_local_id(0) + 8 * get_local_id(1);
  float4 c0 = (float4)(0.0f), c1 = (float4)(0.0f);
  for (int kw = 0; kw < K; kw += 8) {
    for (int r = 0; r < 2; ++r) {
      int la0 = tid % 8, la1 = tid / 8 * 2 + r;
      alm[la1 * 8 + la0] = A[(kw + la1) * (M / 4) + (int)get_group_id(0) * 8 + la0];
    }
    int lb0 = tid % 4, lb1 = tid / 4;
    blm[lb1 * 4 + lb0] = B[(kw + lb1) * (N / 2) + (int)get_group_id(1) * 4 + lb0];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < kt; ++k) {
      float4 a = alm[k * 8 + get_local_id(0)];
      float2 b = blm[k * 4 + get_local_id(1)];
      c0.x = mad(a.x, b.x, c0.x);
      c0.y = mad(a.y, b.x, c0.y);
      c0.z = mad(a.z, b.x, c0.z);
      c0.w = mad(a.w, b.x, c0.w);
      c1.x = mad(a.x, b.y, c1.x);
      c1.y = mad(a.y, b.y, c1.y);
      c1.z = mad(a.z, b.y, c1.z);
      c1.w = mad(a.w, b.y, c1.w);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  int m4 = (int)get_group_id(0) * 8 + (int)get_local_id(0);
  int n = (int)get_group_id(1) * 8 + (int)get_local_id(1) * 2;
  C[n * (M / 4) + m4] = c0;
  C[(n + 1) * (M / 4) + m4] = c1;
}

// Remainders and quotients of a 2D tile id (local size 8 x 4): in a chunk of 8 lanes, lane 0's
// tid is a multiple of 8, so tid % 8 and tid & 7 step with the lanes and tid / 8 and tid >> 3 are
// the same for all (contiguous accesses); (tid % 8) * 4 steps by 4 float4s (each lane's vector
// on its own); a signed remainder of negative values (-8 .. -1) is not consecutive (a gather).
__kernel void tile_ids(__global const float* in, __global float* out,
                       __global const float4* in4, __global float4* out4) {
  int tid = (int)get_local_id(0) + 8 * (int)get_local_id(1);
  int g = (int)get_group_id(0) * 32;
  // ((tid + 8) / 8 - 1: clang rewrites a remainder next to the quotient of the same value into
  // a freeze, which the translator cannot write.)
  out[g + tid] =
      in[g + ((tid + 8) / 8 - 1) * 9 + tid % 8] + in[g + (tid >> 3) * 10 + (tid & 7)] * 2.0f;
  out4[g + tid] = in4[g + (tid % 8) * 4 + (tid >> 3)];
  int neg = (int)get_local_id(0) - 8;
  out[64 + g + tid] = in[g + 8 + neg % 8 + (tid >> 3) * 8];
}

// The widening's cost model (workgroup_function.cpp, worthWidening): straight-line code on
// consecutive elements is left to LLVM's loop vectorizer; neighbours at clamped indices (not
// consecutive between work-items) are widened.
__kernel void straight(__global const float* in, __global float* out) {
  size_t i = get_global_id(0);
  out[i] = in[i] * 2.0f + 1.0f;
}

__kernel void clamped(__global const float* in, __global float* out, int n) {
  int i = get_global_id(0);
  out[i] = in[clamp(i - 1, 0, n - 1)] + 2.0f * in[i] + in[clamp(i + 1, 0, n - 1)];
}

// One row per work-item (a softmax's shape): every access of its loops is a gather or a scatter
// between work-items, so the region is left to LLVM's loop vectorizer (workgroup_function.cpp,
// onlyScattered), which vectorizes each work-item's loop along its row.
__kernel void row_prefix(__global const float* in, __global float* out, int cols) {
  size_t row = get_global_id(0);
  float s = 0.0f;
  for (int c = 0; c < cols; ++c) {
    s += in[row * cols + c];
    out[row * cols + c] = s;
  }
}

// A local tile read at lx + dx for a loop's dx: InstCombine writes the index as
// ((lx << 32) + (dx << 32)) >> 32, which lane_strides.h must still see as consecutive (an
// OpenCV-like erosion gathered every tap before).
__kernel void tile_row_min(__global const uchar* in, __global uchar* out) {
  __local uchar tile[2][40];
  int lx = get_local_id(0), ly = get_local_id(1);
  int gx = get_global_id(0), gy = get_global_id(1), w = get_global_size(0);
  tile[ly][lx] = in[gy * w + gx];
  if (lx < 7) tile[ly][lx + 32] = in[gy * w + min(gx + 32, w - 1)];
  barrier(CLK_LOCAL_MEM_FENCE);
  uchar m = 255;
  for (int dx = 0; dx < 7; ++dx) m = min(m, tile[ly][lx + dx]);
  out[gy * w + gx] = m;
}

// Rows jammed (backends/cpu/jit/row_jam.cpp): in a 2-D group whose rows are one widened chunk,
// four rows run at once in the regions whose branches are the same for every row (the first, the
// second with its branch on n, the last); the third branches on the row and runs row by row. Each
// work-item's `own` crosses the barriers in its own slot.
void rows_jam_tile(__global const float* in, __global float* out, int n,
                   __local float (*tile)[16]) {
  int lx = get_local_id(0), ly = get_local_id(1), sy = get_local_size(1);
  int gid = get_global_id(1) * get_global_size(0) + get_global_id(0);
  float own = in[gid] * (float)(ly + 1);
  tile[ly][lx] = own;
  barrier(CLK_LOCAL_MEM_FENCE);
  float s = tile[ly][lx] + 2.0f * tile[(ly + 1) % sy][lx] + 3.0f * tile[(ly + 2) % sy][lx];
  if (n > 2) s += own;
  else s -= own;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (ly % 2 == 0) tile[ly][lx] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = tile[(ly + 1) % sy][lx] + s;
}

__kernel void rows_jam(__global const float* in, __global float* out, int n) {
  __local float tile[8][16];
  rows_jam_tile(in, out, n, tile);
}

// The same with a required size of 8 x 8: widened at 16, only the 8-wide level can run (a row has
// 8 work-items), so the 16-wide level is not built; a row is one chunk of the 8-wide level, whose
// rows are jammed.
__kernel __attribute__((reqd_work_group_size(8, 8, 1)))
void rows_jam_reqd8(__global const float* in, __global float* out, int n) {
  __local float tile[8][16];
  rows_jam_tile(in, out, n, tile);
}

// A local histogram: atomic_inc in a loop between barriers, which the widening would run lane by
// lane, VF of them unrolled (workgroup_function.cpp, atomicsInLoop): that region stays scalar,
// the other two are widened.
__kernel void hist_loop(__global const uint* data, __global uint* bins, int per) {
  __local uint lb[64];
  int lid = get_local_id(0), ls = get_local_size(0);
  if (lid < 64) lb[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < per; ++k)
    atomic_inc(&lb[data[((int)get_group_id(0) * per + k) * ls + lid] & 63]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 64) bins[get_group_id(0) * 64 + lid] = lb[lid];
}

// A tile loop whose row index is an `or` of the tile's start and the row within it (what
// InstCombine makes of CLBlast's `kg + kwg`, kg < KWG, kwg a multiple of KWG): its global load
// still gets a prefetch of the next tile's row (jit/prefetch.cpp). Local size 16 x 16.
__kernel void tile_or(__global const float* a, __global float* out, int n, int tiles) {
  __local float t[16][16];
  int lx = get_local_id(0), ly = get_local_id(1) & 15;
  float acc = 0.0f;
  for (int kwg = 0; kwg < tiles * 16; kwg += 16) {
    t[ly][lx] = a[(kwg | ly) * n + (int)get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    acc += t[lx][ly] * (float)(kwg + 1);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = acc;
}

// Rows jammed across a loop with barriers: its counter t crosses them in a group-uniform scratch
// slot, which the jammed rows read once (row_jam.cpp), rowv in a slot per work-item, which each row
// reads for itself; both take part in addresses and values.
__kernel void rows_jam_counter(__global const float* in, __global float* out, int n) {
  __local float tile[8][16];
  int lx = get_local_id(0), ly = get_local_id(1), sx = get_local_size(0), sy = get_local_size(1);
  int gid = get_global_id(1) * get_global_size(0) + get_global_id(0);
  float rowv = in[ly];
  float acc = 0.0f;
  for (int t = 0; t < n; ++t) {
    tile[ly][lx] = in[gid + t * 3] + rowv;
    barrier(CLK_LOCAL_MEM_FENCE);
    acc += tile[(ly + t) % sy][(lx + t) % sx] * (float)(t + 1);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[gid] = acc;
}

// Rows jammed through a loop (row_jam.cpp): its trip count n is the same in every row, so four
// rows run each iteration together, each with its own accumulator chain; in rows_loop_by_row the
// trip count depends on the row and the rows run one by one.
__kernel void rows_jam_loop(__global const float* in, __global float* out, int n) {
  int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) acc = fma(in[(y + k) * w + x], (float)(k + 1), acc);
  out[y * w + x] = acc;
}

__kernel void rows_loop_by_row(__global const float* in, __global float* out, int n) {
  int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  float acc = 0.0f;
  for (int k = 0; k < n - y % 3; ++k) acc = fma(in[(y + k) * w + x], (float)(k + 1), acc);
  out[y * w + x] = acc;
}

// A loop with one access consecutive between work-items (a[k * n + i]) and one gathered
// (b[i * n + k]): widened, but without the 4 x VF loop level, which is for consecutive accesses.
__kernel void loop_gather(__global const float* a, __global const float* b, __global float* out,
                          int n) {
  int i = get_global_id(0);
  float s = 0.0f;
  for (int k = 0; k < n; ++k) s += a[k * n + i] * b[i * n + k];
  out[i] = s;
}

// CLBlast's Xgemm in small (SA = SB = 1, VWM = 4, VWN = 2, MultiplyAddVector without
// USE_VECTOR_MAD): float4 accumulators updated element by element, `c.x = mad(a.x, b, c.x)` and
// so on, from __local tiles across barriers. Built as clBuildProgram builds it
// (TESSERA_TEST_FRONT_END=ir), each four mads reach the JIT as element operations rebuilding the
// float4, and vector_recombine.cpp makes them one vector fmuladd; clang -O2's SPIR-V keeps each
// element of the accumulators in a phi of its own (nothing to recombine). Local size at most 16 x 16, each dimension at least 8 (the tiles' rows). Written
// with a do-while and the k loop unrolled: clang's block order for the for loops is one the
// SPIR-V validator refuses.
#define MAD4(c, a, s)        \
  c.x = mad(a.x, s, c.x);    \
  c.y = mad(a.y, s, c.y);    \
  c.z = mad(a.z, s, c.z);    \
  c.w = mad(a.w, s, c.w)
__kernel void tile_mad(__global const float4* a, __global const float2* b, __global float4* c,
                       int tiles) {
  __local float4 at[8][16];
  __local float2 bt[8][16];
  int lx = get_local_id(0), ly = get_local_id(1);
  int gx = get_global_id(0), gy = get_global_id(1);
  int w = get_global_size(0), h = get_global_size(1);
  float4 c0 = (float4)(0.0f), c1 = (float4)(0.0f);
  int t = 0;
  do {
    if (ly < 8) at[ly][lx] = a[(t * 8 + ly) * w + gx];
    if (lx < 8) bt[lx][ly] = b[(t * 8 + lx) * h + gy];
    barrier(CLK_LOCAL_MEM_FENCE);
    #pragma unroll
    for (int k = 0; k < 8; ++k) {
      float4 av = at[k][lx];
      float2 bv = bt[k][ly];
      MAD4(c0, av, bv.x);
      MAD4(c1, av, bv.y);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  } while (++t < tiles);
  c[2 * (gy * w + gx)] = c0;
  c[2 * (gy * w + gx) + 1] = c1;
}

// CLBlast's GlobalToLocalA (MDIMA 8, KWA 2) in its 8 x 16 work-group: the group's 128 work-items
// reshaped by tid = lx + 8 * ly into 8 columns (tid % 8) of float4s and 16 pairs of tile rows
// (tid / 8 * 2), which InstCombine writes (ly << 3 | lx) & 7 and ((ly << 3 | lx) >> 2) & 30,
// knowing lx < 8 from the required size (shifts and masks here: clang's freeze of a / and %
// pair does not translate to SPIR-V). A row of work-items reads one row of the matrix, its
// float4s consecutive; the tile's rows are written back in reverse order after the barrier.
__kernel __attribute__((reqd_work_group_size(8, 16, 1)))
void reshaped_tile(__global const float4* a, __global float4* out, int ld) {
  __local float4 tile[32][8];
  int tid = get_local_id(0) + 8 * get_local_id(1);
  int la0 = tid & 7, la1 = tid >> 3;
  int row0 = get_group_id(1) * 32, col0 = get_group_id(0) * 8;
  for (int kia = 0; kia < 2; ++kia) {
    int kg = kia + la1 * 2;
    tile[kg][la0] = a[(row0 + kg) * ld + col0 + la0];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int kia = 0; kia < 2; ++kia) {
    int kg = kia + la1 * 2;
    out[(row0 + kg) * ld + col0 + la0] = tile[31 - kg][la0];
  }
}

// A 16 x 16 tiled matrix product: `row * n` indexes A in the loop and C after it, and the loop
// may not run (n < 16), so GVN merges the loop's `row * n` and its copy on the path that skips
// the loop in a phi. Recomputed after the last barrier, C's row of work-items is one store.
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void tiled_product(__global const float* a, __global const float* b, __global float* c, int n) {
  __local float as[16][16], bs[16][16];
  int lc = get_local_id(0), lr = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < n; t += 16) {
    as[lr][lc] = a[row * n + t + lc];
    bs[lr][lc] = b[(t + lr) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 16; ++k) acc += as[lr][k] * bs[k][lc];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + col] = acc;
}

// The tiled product with its groups taken in another order when `order` is given (a table of tile
// origins, as GEMMs walk bands of group rows column by column for cache reuse): the tile's origin
// is a phi of group-uniform values, a load and an id, which cannot be recomputed after a barrier,
// but `row * n + t + lc` can, from it, so A's and B's tile rows and C's row stay consecutive
// (barrier_regions.cpp, Leaves).
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void swizzled_product(__global const float* a, __global const float* b, __global float* c, int n,
                      __constant int2* order, int reorder) {
  __local float as[16][16], bs[16][16];
  int lc = get_local_id(0), lr = get_local_id(1);
  int bx = get_group_id(0), by = get_group_id(1);
  if (reorder) {
    int2 o = order[by * get_num_groups(0) + bx];
    bx = o.x;
    by = o.y;
  }
  int col = bx * 16 + lc, row = by * 16 + lr;
  float acc = 0.0f;
  for (int t = 0; t < n; t += 16) {
    as[lr][lc] = a[row * n + t + lc];
    bs[lr][lc] = b[(t + lr) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 16; ++k) acc += as[lr][k] * bs[k][lc];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + col] = acc;
}

// uchar4 loads and stores under a guard that splits only some chunks: masked byte accesses, which
// run as plain ones in the chunks whose lanes are all on (masked_access.cpp).
__kernel void guarded_bytes(__global const uchar4* in, __global uchar4* out, uint n) {
  __local uchar4 tile[64];
  uint l = get_local_id(0), g = get_global_id(0);
  tile[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (g < n) out[g] = tile[l] + in[g + 1];
}

// A byte gather and a byte scatter under a guard: masked, with a constant mask in the chunks
// whose lanes are all on (masked_access.cpp).
__kernel void guarded_byte_permute(__global const uchar* in, __global const int* perm,
                                   __global uchar* out, uint n) {
  uint g = get_global_id(0);
  if (g < n) out[perm[g]] = in[perm[g]] + 1;
}
