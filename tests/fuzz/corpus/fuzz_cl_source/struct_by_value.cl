// A struct, a vector and a char passed by value next to a pointer.
typedef struct {
  float scale;
  int offset;
  long big;
  char tag[4];
} Params;  // 4 + 4 + 8 + 4 = 20, padded to 24 (alignment of long)

__kernel void struct_by_value(Params p, float4 v, char c, __global float* out) {
  size_t i = get_global_id(0);
  out[i] = p.scale * (float)i + (float)p.offset + (float)p.big + v.x + v.w + (float)c + p.tag[1];
}
