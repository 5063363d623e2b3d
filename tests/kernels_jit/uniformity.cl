// Kernels for test_jit_uniformity.cpp: values that cross barriers under control flow that differs,
// or seems to differ, between the work-items of a group (backends/cpu/jit/uniformity.h).

#define T 16

// out[idn * m + c] for c = idm, idm + 1 (two columns of every other row) is the sum over k of
// a[k * m + c] * ((k & 15) + (idn & 3)). A group whose 16 columns and rows lie inside the m / 16
// whole tiles stages 16 x 16 tiles of `a` in local memory around barriers, as CLBlast's
// XgemmDirect does, and chooses so by comparing its work-items' own column with (m / 16) * 16:
// the same for the whole group, with the local ids bounded by the required size. The others take
// the checked path without barriers.
__kernel __attribute__((reqd_work_group_size(8, 8, 1)))
void edge_tiles(__global const float* a, __global float* out, int m, int kSize) {
  __local float tile[T][T + 1];
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int idm = get_group_id(0) * T + lx * 2;
  const int idn = get_group_id(1) * T + ly * 2;
  const int shift = idn & 3;
  float acc0 = 0.0f, acc1 = 0.0f;
  if (idm < (m / T) * T && idn < (m / T) * T) {
    int k = 0;
    if (kSize >= T) {
      do {
        const int id = ly * 8 + lx;
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int linear = id + 64 * e, r = linear >> 4, c = linear & 15;
          tile[r][c] = a[(k + r) * m + get_group_id(0) * T + c];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int kk = 0; kk < T; ++kk) {
          acc0 += tile[kk][lx * 2] * (float)(kk + shift);
          acc1 += tile[kk][lx * 2 + 1] * (float)(kk + shift);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        k += T;
      } while (k < (kSize / T) * T);
    }
    for (; k < kSize; ++k) {
      acc0 += a[k * m + idm] * (float)((k & 15) + shift);
      acc1 += a[k * m + idm + 1] * (float)((k & 15) + shift);
    }
    out[idn * m + idm] = acc0;
    out[idn * m + idm + 1] = acc1;
  } else {
    const int k0 = idm < m ? kSize : 0, k1 = idm + 1 < m ? kSize : 0;
    for (int k = 0; k < k0; ++k) acc0 += a[k * m + idm] * (float)((k & 15) + shift);
    for (int k = 0; k < k1; ++k) acc1 += a[k * m + idm + 1] * (float)((k & 15) + shift);
    if (idn < m && idm < m) out[idn * m + idm] = acc0;
    if (idn < m && idm + 1 < m) out[idn * m + idm + 1] = acc1;
  }
}

// Values computed from uniform operands alone that are not the same for every work-item: one
// joined after a branch on the local id (the store keeps the branch a branch), one that a loop
// with a trip count of each work-item's own carries out. Both cross a barrier.
__kernel void joined_values(__global int* out, __global int* marks, int n) {
  const int lid = get_local_id(0);
  const int gid = get_global_id(0);
  int v = n;
  if (lid % 3 == 1) {
    v = n * 3;
    marks[gid] = 1;
  }
  int k = 0;
  do {
    k += n;
  } while (k < n * (lid % 4 + 1));
  barrier(CLK_LOCAL_MEM_FENCE);
  out[2 * gid] = v;
  out[2 * gid + 1] = k;
}
