// Image and sampler arguments a kernel takes without reading them: their encoding is tested
// (test_image_kernel_args.cpp) apart from the JIT's image builtins.
__kernel void image_args(__read_only image2d_t src, sampler_t s, __write_only image2d_t dst,
                         __global int* out) {
  out[get_global_id(0)] = 7;
}
