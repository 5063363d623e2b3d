// The Core Programming Guide's module example: each work-item writes one pixel of the resized
// image, read from the source through a sampler (here an argument: linear filtering, clamped to the
// edge, normalized coordinates). The guide divides the pixel's index by the new size; the pixel's
// centre, (index + 0.5) / size, keeps the picture from shifting by half a pixel.
kernel void image_scaling(read_only image2d_t src_img, write_only image2d_t dest_img,
                          sampler_t sampler, uint WIDTH, uint HEIGHT) {
  int2 coor = (int2)(get_global_id(0), get_global_id(1));
  float2 normCoor = (convert_float2(coor) + 0.5f) / (float2)(WIDTH, HEIGHT);
  float4 color = read_imagef(src_img, sampler, normCoor);
  write_imagef(dest_img, coor, color);
}
