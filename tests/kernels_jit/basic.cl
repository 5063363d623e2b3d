// Kernels without barriers: ranges, offsets, private arrays, structs by value.
__kernel void vadd(__global const float* a, __global const float* b, __global float* c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}

__kernel void saxpy(float alpha, __global const float* x, __global float* y, uint n) {
  size_t i = get_global_id(0);
  if (i < n) y[i] = alpha * x[i] + y[i];
}

// Writes every work-item's ids, so the test can check each of them against the launch shape.
__kernel void ids3d(__global uint* out, uint width, uint height, uint depth) {
  size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  size_t ox = get_global_offset(0), oy = get_global_offset(1), oz = get_global_offset(2);
  if (x - ox >= width || y - oy >= height || z - oz >= depth) return;
  size_t i = ((z - oz) * height + (y - oy)) * width + (x - ox);
  out[4 * i + 0] = (uint)(x + 1000 * y + 1000000 * z);
  out[4 * i + 1] = (uint)(get_local_id(0) + 100 * get_local_id(1) + 10000 * get_local_id(2));
  out[4 * i + 2] = (uint)(get_group_id(0) + 100 * get_group_id(1) + 10000 * get_group_id(2));
  out[4 * i + 3] = (uint)(get_global_size(0) * get_num_groups(1) + get_local_size(2) + get_work_dim());
}

// (Loops that read the private array back trip an llvm-spirv-15 block-order bug; this shape does
// not.)
__kernel void private_array(__global const int* in, __global int* out) {
  int a[16];
  size_t g = get_global_id(0);
  for (int i = 0; i < 16; ++i) a[i] = in[(g + i) & 63] * i;
  out[g] = a[in[g] & 15] + a[(in[g] >> 4) & 15];
}

typedef struct {
  float scale;
  int bias;
  float4 weights;
  char tag;
} Params;

__kernel void struct_by_value(Params p, __global const float* in, __global float* out) {
  size_t i = get_global_id(0);
  out[i] = in[i] * p.scale + p.bias + p.weights.x + p.weights.y * 2 + p.weights.z * 3 +
           p.weights.w * 4 + p.tag;
}
