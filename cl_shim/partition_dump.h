// TESSERA_CL_DUMP_PARTITIONS=path.dot: at exit, a Graphviz picture of every cl_device_id the
// application had (root devices and the sub-devices clCreateSubDevices* made, released or not):
// parent -> child edges labelled with the partition scheme, each device with its PUs.
#pragma once

namespace tessera::cl {

class Device;

// Records a device as it is made (nothing when the variable is unset).
void recordDeviceForDump(const Device& device);

}  // namespace tessera::cl
