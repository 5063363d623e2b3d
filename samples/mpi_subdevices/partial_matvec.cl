// One rank's share of y = A x: the columns [first, first + count) of A times the same entries of x.
// A and x are formulas, so every rank can compute its share and the whole reference on its own.
// Each work-group also records the PU it ran on (Tessera's builtin, see ze_subdevices/where.cl).
uint tessera_current_pu(void);

long a_entry(uint row, uint column) { return (long)((row * 7u + column * 13u) % 17u) - 8; }
long x_entry(uint column) { return (long)(column % 11u) + 1; }

__kernel void partial_matvec(__global long* y, uint first, uint count, __global uint* pu) {
  uint row = get_global_id(0);
  long sum = 0;
  for (uint c = first; c < first + count; ++c) sum += a_entry(row, c) * x_entry(c);
  y[row] = sum;
  if (get_local_id(0) == 0) pu[get_group_id(0)] = tessera_current_pu();
}
