// Kernels that fault on purpose (tests/api/ze/test_faults.cpp, docs/reliability.md "Faults").

// Every work-item writes out[i]; work-item `bad` also stores through the address `addr`.
kernel void fault_store(global int* out, ulong addr, uint bad) {
  size_t i = get_global_id(0);
  out[i] = 1;
  if (i == bad) *((global volatile int*)addr) = 42;
}

// Integer division: a divisor of zero would trap (SIGFPE) on x86; the JIT makes it divide by 1
// (backends/cpu/jit/trap_free_arithmetic.cpp), so this kernel no longer faults.
kernel void fault_divide(global int* out, int a, int b) {
  size_t i = get_global_id(0);
  out[i] = a / b;
}

// Runs until the host writes a non-zero value to *flag: a kernel that "never ends".
kernel void spin_until(global volatile int* flag, global int* out) {
  while (*flag == 0) {
  }
  out[get_global_id(0)] = 7;
}

// spin_until, counting the work-groups that started in *started: a test knows the launch runs on
// all its workers once *started reaches their number (tests/api/ze/test_runnable_threads.cpp).
kernel void spin_until_started(global volatile int* flag, global int* out, global int* started) {
  atomic_inc(started);
  while (*flag == 0) {
  }
  out[get_global_id(0)] = 7;
}

// Reads *flag `rounds` times (each work-item at least milliseconds for rounds of 10^7), then waits
// like spin_until: a small launch that is not a short one (tests/api/ze/test_launch_modes.cpp).
kernel void read_then_spin(global volatile int* flag, global int* out, uint rounds) {
  int seen = 0;
  for (uint r = 0; r < rounds; ++r) seen += *flag;
  while (*flag == 0) {
  }
  out[get_global_id(0)] = seen > 0 ? 7 : 5;
}

// Copies in[index] to out[0]: with TESSERA_GUARD_PAGES=1, an index one past the end of `in` (or
// before the page it starts in) faults (tests/api/ze/test_guard_pages.cpp).
kernel void read_byte(global const uchar* in, global uchar* out, long index) {
  out[get_global_id(0)] = in[index];
}
