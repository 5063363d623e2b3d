// A kernel-scope __local array becomes a module-scope Workgroup variable (64 ints = 256 bytes,
// 16 float4 = 256 bytes).
__kernel void static_local(__global int* out, __global float4* out4) {
  __local int tile[64];
  __local float4 tile4[16];
  size_t lid = get_local_id(0);
  tile[lid % 64] = (int)lid;
  tile4[lid % 16] = (float4)((float)lid);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[63 - lid % 64];
  out4[get_global_id(0)] = tile4[15 - lid % 16];
}
