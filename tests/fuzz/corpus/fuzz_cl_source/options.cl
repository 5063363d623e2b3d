//opts: -cl-std=CL3.0 -DN=4 -cl-fast-relaxed-math
__kernel void k(__global int* o) { o[get_global_id(0)] = N; }
