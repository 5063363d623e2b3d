// The local size the driver chose for a launch, written by the first work-item: get_local_size(0),
// (1), (2). One kernel without barriers and one with, which the launch policy gives smaller groups
// (core/command/launch_policy.cpp); tests/support/group_size_cases.h lists what both APIs choose.
__kernel void local_size_plain(__global uint* out) {
  if (get_global_id(0) == 0 && get_global_id(1) == 0 && get_global_id(2) == 0)
    for (uint d = 0; d < 3; ++d) out[d] = (uint)get_local_size(d);
}

__kernel void local_size_barrier(__global uint* out) {
  __local uint one;
  if (get_local_id(0) == 0 && get_local_id(1) == 0 && get_local_id(2) == 0) one = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_global_id(0) == 0 && get_global_id(1) == 0 && get_global_id(2) == 0)
    for (uint d = 0; d < 3; ++d) out[d] = (uint)get_local_size(d) * one;
}
