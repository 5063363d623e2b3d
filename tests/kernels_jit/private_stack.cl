// A kernel with 4 MiB of private memory (tests/unit/backends/test_jit_kernel_stack.cpp): the array
// is read at indices the host gives, so it cannot be optimized away.
#define BIG (1024 * 1024)
kernel void private_big(global const uint* idx, uint n, global int* out) {
  int a[BIG];
  uint gid = get_global_id(0);
  for (uint i = 0; i < BIG; ++i) a[i] = (int)(i ^ gid);
  int s = 0;
  // (At most 8 indices: a loop of n made clang-15 -O2 emit blocks spirv-val refuses.)
  for (uint k = 0; k < 8; ++k) s += k < n ? a[idx[k] % BIG] : 0;
  out[gid] = s;
}
