// Required and hinted work-group sizes, and a vector type hint.
__kernel __attribute__((reqd_work_group_size(8, 4, 2))) void reqd_size(__global int* out) {
  out[get_global_linear_id()] = (int)get_local_linear_id();
}

__kernel __attribute__((work_group_size_hint(16, 1, 1))) __attribute__((vec_type_hint(float4)))
void hinted(__global int* out) {
  out[get_global_id(0)] = 1;
}
