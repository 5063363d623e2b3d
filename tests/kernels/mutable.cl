// For mutable command lists: each work-item writes a value naming the launch's tag and group size,
// so updated arguments, group counts, group sizes and offsets show in what is written where.
__kernel void tag_items(__global int* out, int tag) {
  size_t g = get_global_id(0);
  out[g] = tag * 1000 + (int)get_local_size(0);
}


// A second kernel for kernel mutation (version 1.1): another signature, another value.
__kernel void negate_items(int tag, __global int* out) {
  out[get_global_id(0)] = -tag;
}
