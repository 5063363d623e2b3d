// A zero-length array member: SPIRV-LLVM-Translator 15 called exit() on it (the compile runs in
// tessera-clc, so the build failed and the fuzzer went on); now lowered before translation
// (spirv/zero_length_arrays.h) and built.
// tests/kernels/struct_by_value.cl with its char tag[4] made tag[0] by the fuzzer.
typedef struct {
  float scale;
  int offset;
  long big;
  char tag[0];
} Params;  // 4 + 4 + 8 + 4 = 20, padded to 24 (alignment of long)

__kernel void struct_by_value(Params p, float4 v, char c, __global float* out) {
  size_t i = get_global_id(0);
  out[i] = p.scale * (float)i + (float)p.offset + (float)p.big + v.x + v.w + (float)c + p.tag[1];
}
