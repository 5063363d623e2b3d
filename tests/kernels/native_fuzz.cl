// The module test_native_binary_fuzz.cpp corrupts the native binary of: a pointer of each address
// space, a scalar and a struct by value, a __local argument and a program-scope variable, so that
// every kind of table entry is there to corrupt.
typedef struct {
  int a;
  float b;
  long c;
} FuzzTriple;

__global int fuzz_counter = 3;

__kernel void fuzz_args(__global int* out, int add, FuzzTriple t, __constant int* in,
                        __local int* scratch) {
  size_t lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)] + add + t.a + (int)t.c;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[(lid + 1) % get_local_size(0)] + fuzz_counter;
}
