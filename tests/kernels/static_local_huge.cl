// 64 MiB of static __local memory, more than any device's maxSharedLocalMemory (at most 4 MiB):
// zeModuleCreate / clBuildProgram refuse the module with a build-log line naming the kernel. Its
// neighbour takes none, and alone would build.
__kernel void huge_static_local(__global int* out) {
  __local int big[16 * 1024 * 1024];
  size_t lid = get_local_id(0);
  big[lid * 4096] = (int)lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = big[(get_local_size(0) - 1 - lid) * 4096];
}

__kernel void no_static_local(__global int* out) { out[get_global_id(0)] = 7; }
