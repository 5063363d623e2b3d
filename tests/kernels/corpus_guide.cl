// The guide's "image_scaling" kernel, on buffers: dst = 2 * src over a width x height image, with
// the sizes passed as uint arguments as in the guide's argument sequence.
__kernel void image_scaling(__global const float* src, __global float* dst, uint width,
                            uint height) {
  size_t x = get_global_id(0), y = get_global_id(1);
  if (x < width && y < height) dst[y * width + x] = 2.0f * src[y * width + x];
}
