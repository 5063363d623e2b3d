// Records, for each work-group, the PU it ran on, with Tessera's own builtin tessera_current_pu
// (provided by the driver's JIT; see level_zero/include/tessera/ze_tessera.h).
uint tessera_current_pu(void);

__kernel void where(__global uint* pu) { pu[get_group_id(0)] = tessera_current_pu(); }
