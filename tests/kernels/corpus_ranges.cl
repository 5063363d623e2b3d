// 1D, 2D and 3D ranges: each work-item inside the guarded size writes a value naming its global id;
// launches use global offsets and group counts that leave the last groups partly outside.
__kernel void range1d(__global int* out, uint n) {
  size_t x = get_global_id(0);
  if (x < n) out[x] = (int)x * 2 + 1;
}

__kernel void range2d(__global int* out, uint w, uint h) {
  size_t x = get_global_id(0), y = get_global_id(1);
  if (x < w && y < h) out[y * w + x] = (int)(y * 1000 + x);
}

__kernel void range3d(__global int* out, uint w, uint h, uint d) {
  size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x < w && y < h && z < d) out[(z * h + y) * w + x] = (int)(z * 10000 + y * 100 + x);
}

// The work-item functions of one launch, written by the first work-item of the grid:
// work dim, then per dimension global size, local size, group count and global offset.
__kernel void range_info(__global uint* info) {
  if (get_global_id(0) == get_global_offset(0) && get_global_id(1) == get_global_offset(1) &&
      get_global_id(2) == get_global_offset(2)) {
    info[0] = get_work_dim();
    for (uint d = 0; d < 3; ++d) {
      info[1 + 4 * d] = (uint)get_global_size(d);
      info[2 + 4 * d] = (uint)get_local_size(d);
      info[3 + 4 * d] = (uint)get_num_groups(d);
      info[4 + 4 * d] = (uint)get_global_offset(d);
    }
  }
}

// Writes a group count for a later indirect launch (one work-item).
__kernel void write_group_count(__global uint* counts, uint x, uint y, uint z) {
  counts[0] = x;
  counts[1] = y;
  counts[2] = z;
}

// Adds `v` to every element it covers (for launches that must not overlap).
__kernel void add_value(__global int* data, int v) {
  data[get_global_id(0)] += v;
}
