// Does nothing: the launch and mutable-update overheads of ze_exec_bench.
__kernel void empty(__global int* out, int value) {}
