// Defines program-scope variables another module imports (LinkageAttributes Export on OpVariable),
// and a function that updates one of them, exported too (global_import.cl, ticket_user.cl).
__global int shared_counter = 7;
__global int shared_table[4] = {10, 20, 30, 40};

int next_ticket(void) {
  return atomic_inc(&shared_counter);
}

__kernel void read_shared(__global int* out) {
  out[0] = shared_counter;
  out[1] = shared_table[3];
}
