// Kernels that write their by-value struct argument: each work-item owns its copy.
typedef struct {
  float scale;
  int bias;
  float4 weights;
} Params;

__kernel void struct_written(Params p, __global float* out) {
  size_t i = get_global_id(0);
  p.scale += (float)i;
  p.weights.y = p.weights.y * 2.0f + (float)i;
  out[i] = p.scale * 10.0f + p.bias + p.weights.y;
}

__kernel void struct_across_barrier(Params p, __global float* out, __local float* tmp) {
  size_t l = get_local_id(0);
  p.scale = p.scale * (float)(l + 1);
  tmp[l] = p.scale;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = p.scale + tmp[(l + 1) % get_local_size(0)];
}

typedef struct {
  int v[8];
} Array8;

// Writes at indices only known at run time (no store-to-load forwarding can hide a shared copy).
__kernel void struct_array_written(Array8 a, __global const int* idx, __global int* out) {
  size_t i = get_global_id(0);
  for (int j = 0; j < 8; ++j) a.v[(j + idx[i]) & 7] += (int)i * j;
  out[i] = a.v[idx[i] & 7] + a.v[(idx[i] + 3) & 7];
}

// Written before a barrier at a run-time index, read after it.
__kernel void struct_array_barrier(Array8 a, __global const int* idx, __global int* out) {
  size_t i = get_global_id(0);
  a.v[idx[i] & 7] += (int)i;
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[i] = a.v[idx[i] & 7] + a.v[(idx[i] + 1) & 7];
}
