// Imports a function whose module's variable it changes (global_export.cl's next_ticket): linked,
// the function works on that module's storage, not on a copy.
extern int next_ticket(void);

__kernel void take_ticket(__global int* out) {
  out[get_global_id(0)] = next_ticket();
}
