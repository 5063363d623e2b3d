// A kernel requiring its sub-group size (cl_intel_required_subgroup_size; SPIR-V's SubgroupSize
// execution mode) and one that does not.
__attribute__((intel_reqd_sub_group_size(8)))
__kernel void reqd_sub8(__global int* out) {
  out[get_global_id(0)] = (int)get_local_id(0);
}

__kernel void any_sub(__global int* out) {
  out[get_global_id(0)] = (int)get_local_id(0);
}
