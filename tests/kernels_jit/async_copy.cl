// async_work_group_copy into __local and back out (strided), around barriers.
__kernel void async_roundtrip(__global const float* in, __global float* out, __local float* tile) {
  size_t n = get_local_size(0), g = get_group_id(0), l = get_local_id(0);
  event_t e = async_work_group_copy(tile, in + g * n, n, 0);
  wait_group_events(1, &e);
  prefetch(in, n);
  float mine = tile[(l + 1) % n] * 2.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  tile[l] = mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  // out is laid out [element][group]: stride = number of groups.
  e = async_work_group_strided_copy(out + g, tile, n, get_num_groups(0), 0);
  wait_group_events(1, &e);
}

// Strided gather global -> local of float2 elements, then each work-item reads its element.
__kernel void async_strided_gather(__global const float2* in, __global float2* out,
                                   __local float2* tile) {
  size_t n = get_local_size(0), g = get_group_id(0), l = get_local_id(0);
  event_t e = async_work_group_strided_copy(tile, in + g, n, 3, 0);
  wait_group_events(1, &e);
  out[g * n + l] = tile[n - 1 - l];
}
