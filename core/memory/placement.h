// Where an allocation's pages go (issue 20, item 4; docs/architecture.md, "Memory"): the policy as
// one decision, apart from the mapping that applies it (backing.h), so that it can be checked on
// synthetic multi-NUMA topologies, where nothing is bound (their nodes do not exist here).
//  - device allocations (and shared ones made with a device under ZE_SHARED_FORCE_DEVICE_ALLOC=1):
//    bound to the device's NUMA node, interleaved across its nodes when it spans several (a root
//    device on a multi-socket machine);
//  - host allocations, which every device of the context uses (OpenCL's buffers are host
//    allocations): interleaved across the nodes of the context's devices when they span several,
//    so that a buffer one thread initialized is not served from that thread's node alone; first
//    touch on one node;
//  - shared allocations otherwise: first touch, which on a CPU is what migration means.
// Large dedicated allocations are also mapped for transparent huge pages (backing.h,
// kHugePageBytes).
#pragma once

#include <cstddef>
#include <vector>

#include "core/memory/allocation.h"
#include "core/memory/backing.h"

namespace tessera::core {

class Device;
class Topology;

// The NUMA nodes (OS indices) of `devices` together, in increasing order.
std::vector<uint32_t> numaNodesOf(const std::vector<Device*>& devices);

// The placement of an allocation of `kind` made with `device` (may be null) in a context whose
// devices' nodes are `contextNodes`.
Placement placementFor(MemoryKind kind, const Device* device,
                       const std::vector<uint32_t>& contextNodes, bool sharedForceDeviceAlloc,
                       const Topology& topology);

}  // namespace tessera::core
