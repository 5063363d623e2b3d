// Private arrays indexed dynamically, and structs passed by value.
typedef struct {
  int bias;
  float scale;
  int weights[3];
  short pad;
  char tag;
} Mix;  // 4 + 4 + 12 + 2 + 1 = 23, padded to 24

typedef struct {
  float x, y;
} Pair;

typedef struct {
  Pair p;
  uint count;
  long big;
} Nested;  // 8 + 4 (+4) + 8 = 24

__kernel void private_array(__global const int* in, __global int* out, Mix m) {
  size_t i = get_global_id(0);
  int tmp[8];
  for (int j = 0; j < 8; ++j) tmp[j] = in[i * 8 + j] * m.weights[j % 3];
  int acc = 0;
  for (int j = 0; j < 8; ++j) acc += tmp[(j * 3 + (int)i) % 8] * (j + 1);
  out[i] = acc + m.bias + (int)m.scale + m.pad + m.tag;
}

// A private array of structs, filled and then read in an order that depends on the data.
__kernel void private_structs(__global const int* order, __global float* out, Nested n) {
  size_t i = get_global_id(0);
  Pair local_pairs[4];
  for (int j = 0; j < 4; ++j) {
    local_pairs[j].x = n.p.x * (float)(j + 1);
    local_pairs[j].y = n.p.y + (float)j;
  }
  int k = order[i] & 3;
  out[i] = local_pairs[k].x + local_pairs[k].y + (float)n.count + (float)(n.big >> 32);
}
