// TESSERA_CL_DUMP_PARTITIONS=path.dot: at exit, a Graphviz picture of every cl_device_id the
// application had (root devices and the sub-devices clCreateSubDevices* made, released or not):
// parent -> child edges labelled with the partition scheme, each device with its PUs.
#pragma once

#include <string>

namespace tessera::cl {

class Device;

// Starts recording for a dump written to `path` at exit (the platform calls it once, with
// TESSERA_CL_DUMP_PARTITIONS; empty: no dump).
void startPartitionDump(const std::string& path);

// Records a device as it is made (nothing when no dump was started).
void recordDeviceForDump(const Device& device);

}  // namespace tessera::cl
