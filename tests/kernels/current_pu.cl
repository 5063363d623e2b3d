// Records, for each work-group, the PU it ran on (Tessera's builtin, see tessera/ze_tessera.h): the
// partition tests check that a device's work stays on its PUs.
uint tessera_current_pu(void);

__kernel void where(__global uint* pu) { pu[get_group_id(0)] = tessera_current_pu(); }
