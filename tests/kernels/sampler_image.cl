// Image and sampler arguments.
__kernel void sampler_image(__read_only image2d_t src, sampler_t s, __write_only image2d_t dst) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(dst, p, read_imagef(src, s, p));
}
