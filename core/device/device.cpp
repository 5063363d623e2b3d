#include "core/device/device.h"

#include <time.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <thread>

#include "host/affinity.h"
#include "backends/device_kind.h"
#include "core/common/hash.h"
#include "core/device/host_cpu.h"
#include "core/sync/wait.h"
#include "core/device/limits.h"

namespace tessera::core {
namespace {

// Every byte of a property struct zero, padding included: `T v{}` leaves the padding unspecified,
// and whole structs are copied into the application's (level-zero-tests compares two queries'
// results with memcmp).
template <typename T>
void clear(T& v) {
  std::memset(&v, 0, sizeof v);
}

// Copies `value` into `out`, every byte, but keeps the caller's stype and pNext.
template <typename T>
void assignKeepingHeader(T& out, const T& value) {
  auto stype = out.stype;
  auto pNext = out.pNext;
  std::memcpy(&out, &value, sizeof out);
  out.stype = stype;
  out.pNext = pNext;
}

uint32_t pciVendor(const std::string& cpuVendor) {
  if (cpuVendor == "GenuineIntel") return 0x8086;
  if (cpuVendor == "AuthenticAMD") return 0x1022;
  return 0;
}

}  // namespace

uint64_t deviceTimestampNow() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

Device::Device(Driver& driver, const Topology& topology, const ExposedNode& node, Device* parent,
               uint32_t subdeviceId, bool streamStores)
    : driver_(driver),
      streamStores_(streamStores),
      parent_(parent),
      subdeviceId_(subdeviceId),
      level_(node.level),
      objectIndex_(node.objectIndex),
      pus_(node.pus),
      resources_(topology.describe(node.pus)),
      // Every device is of the host CPU kind: the one place a second kind would choose.
      kind_(&backends::cpuKind()) {
  name_ = topology.cpuModel();
  if (name_.empty() && topology.source().kind == TopologySource::Kind::Machine)
    name_ = host_cpu::modelName();
  if (name_.empty()) name_ = "Tessera CPU (" + topology.source().describe() + ")";
  vendorId_ = pciVendor(topology.cpuVendor());
  deviceId_ = (topology.cpuFamily() << 8) | (topology.cpuModelNumber() & 0xff);
  clockMhz_ = host_cpu::maxClockMhz();
  simdWidth_ = host_cpu::simdWidth32();
  // The same part of the same machine gets the same uuid in every run: it is named by the CPU,
  // where the topology comes from, and the PUs.
  std::string identity = "tessera-device|" + name_ + "|" + topology.source().describe() + "|" +
                         pus_.toString();
  stableUuid(identity, uuid_.id);
  if (topology.source().kind == TopologySource::Kind::Machine) pinCpus_ = pus_.members();
  pinsEveryCpu_ = !pinCpus_.empty() && host::coversEveryCpu(pinCpus_);
}

Device::~Device() = default;

backends::Executor& Device::workers() const {
  std::call_once(workersOnce_, [this] {
    uint32_t threads = std::min(resources_.pus, std::max(1u, std::thread::hardware_concurrency()));
    // The outermost cache level hwloc found for the device's PUs, all its instances (0: stores
    // never stream, TESSERA_STREAM_STORES=0).
    uint64_t cacheBytes = 0;
    if (!resources_.caches.empty() && streamStores_)
      cacheBytes = resources_.caches.back().bytesPerCache * resources_.caches.back().instances;
    workers_ = kind_->createExecutor(pinCpus_, threads, sync::spinNs(), cacheBytes);
  });
  return *workers_;
}

Device* Device::rootDevice() const {
  Device* d = parent_;
  while (d && d->parent_) d = d->parent_;
  return d;
}

void Device::properties(ze_device_properties_t& p) const {
  ze_device_properties_t v;
  clear(v);
  v.type = ZE_DEVICE_TYPE_CPU;
  v.vendorId = vendorId_;
  v.deviceId = deviceId_;
  // A CPU device shares the host's memory and takes page faults like any host code.
  v.flags = ZE_DEVICE_PROPERTY_FLAG_INTEGRATED | ZE_DEVICE_PROPERTY_FLAG_ONDEMANDPAGING;
  if (isSubDevice()) v.flags |= ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE;
  v.subdeviceId = isSubDevice() ? subdeviceId_ : 0;
  v.coreClockRate = clockMhz_;
  v.maxMemAllocSize = limits::maxMemAllocSize(resources_);
  v.maxHardwareContexts = limits::kMaxHardwareContexts;
  v.maxCommandQueuePriority = 0;
  ThreadShape shape = limits::threadShape(resources_);
  v.numThreadsPerEU = shape.threadsPerEu;
  v.physicalEUSimdWidth = simdWidth_;
  v.numEUsPerSubslice = shape.eusPerSubslice;
  v.numSubslicesPerSlice = shape.subslicesPerSlice;
  v.numSlices = shape.slices;
  // "When stype==ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES the units are in nanoseconds. When
  // stype==ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2 units are in cycles/sec."
  v.timerResolution = p.stype == ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2
                          ? 1000000000ull / kTimerResolutionNs
                          : kTimerResolutionNs;
  v.timestampValidBits = kTimestampValidBits;
  v.kernelTimestampValidBits = kTimestampValidBits;
  v.uuid = uuid_;
  snprintf(v.name, sizeof v.name, "%s", name_.c_str());
  assignKeepingHeader(p, v);
}

void Device::computeProperties(ze_device_compute_properties_t& p) const {
  ze_device_compute_properties_t v;
  clear(v);
  v.maxTotalGroupSize = limits::kMaxGroupSize;
  v.maxGroupSizeX = v.maxGroupSizeY = v.maxGroupSizeZ = limits::kMaxGroupSize;
  v.maxGroupCountX = v.maxGroupCountY = v.maxGroupCountZ = UINT32_MAX;
  v.maxSharedLocalMemory = limits::maxSharedLocalMemory(resources_);
  // The sub-group sizes a kernel may run with (the kind's traits; the CPU kind's are the lanes of
  // one widened chunk); a kernel requiring another fails to build.
  const backends::DeviceTraits& traits = kind_->traits();
  static_assert(std::tuple_size_v<decltype(traits.subgroupSizes)> <= ZE_SUBGROUPSIZE_COUNT);
  v.numSubGroupSizes = traits.subgroupSizeCount;
  std::copy_n(traits.subgroupSizes.begin(), traits.subgroupSizeCount, v.subGroupSizes);
  assignKeepingHeader(p, v);
}

// ZE_extension_float_atomics: the JIT lowers OpAtomicFAddEXT, OpAtomicFMinEXT, OpAtomicFMaxEXT and
// atomic loads and stores to LLVM atomics of any float type, and local memory is host memory like
// global memory (backends/cpu/jit/builtin_atomics.cpp). Half add is left out: Debian's
// SPIRV-LLVM-Translator 15, which reads the modules, has no half OpAtomicFAddEXT. Each flag is
// exercised by test_float_atomics.
void Device::floatAtomicProperties(ze_float_atomic_ext_properties_t& p) const {
  const ze_device_fp_atomic_ext_flags_t loadStore =
      ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_LOAD_STORE | ZE_DEVICE_FP_ATOMIC_EXT_FLAG_LOCAL_LOAD_STORE;
  const ze_device_fp_atomic_ext_flags_t add =
      ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_ADD | ZE_DEVICE_FP_ATOMIC_EXT_FLAG_LOCAL_ADD;
  const ze_device_fp_atomic_ext_flags_t minMax =
      ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_MIN_MAX | ZE_DEVICE_FP_ATOMIC_EXT_FLAG_LOCAL_MIN_MAX;
  p.fp16Flags = loadStore | minMax;
  p.fp32Flags = loadStore | add | minMax;
  p.fp64Flags = loadStore | add | minMax;
}

void Device::moduleProperties(ze_device_module_properties_t& p) const {
  ze_device_module_properties_t v;
  clear(v);
  v.spirvVersionSupported = ZE_MAKE_VERSION(1, 2);
  v.flags =
      ZE_DEVICE_MODULE_FLAG_FP16 | ZE_DEVICE_MODULE_FLAG_FP64 | ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS;
  // IEEE 754 arithmetic of the host FPU: denormals, inf/nan, every rounding mode, fused multiply-add.
  ze_device_fp_flags_t ieee = ZE_DEVICE_FP_FLAG_DENORM | ZE_DEVICE_FP_FLAG_INF_NAN |
                              ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST | ZE_DEVICE_FP_FLAG_ROUND_TO_ZERO |
                              ZE_DEVICE_FP_FLAG_ROUND_TO_INF | ZE_DEVICE_FP_FLAG_FMA;
  v.fp32flags = ieee | ZE_DEVICE_FP_FLAG_ROUNDED_DIVIDE_SQRT;
  v.fp64flags = ieee;
  // Half arithmetic is computed in float (F16C or software conversions), each operation rounded
  // to half: denormal halves are normal floats, so nothing flushes them; fma is computed in double
  // (backends/cpu/jit/builtin_half.cpp), which makes it correctly rounded.
  v.fp16flags = ieee;
  v.maxArgumentsSize = limits::kMaxArgumentsSize;
  v.printfBufferSize = limits::kPrintfBufferSize;
  stableUuid("tessera-native|" + host_cpu::featureString(), v.nativeKernelSupported.id);
  assignKeepingHeader(p, v);
}

std::vector<ze_command_queue_group_properties_t> Device::queueGroups() const {
  ze_command_queue_group_properties_t compute;
  clear(compute);
  compute.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES;
  compute.flags = ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE |
                  ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY |
                  ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COOPERATIVE_KERNELS;
  compute.maxMemoryFillPatternSize = limits::maxFillPatternSize(0);
  compute.numQueues = limits::kComputeQueues;
  ze_command_queue_group_properties_t copy;
  std::memcpy(&copy, &compute, sizeof copy);
  copy.flags = ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY;
  copy.maxMemoryFillPatternSize = limits::maxFillPatternSize(1);
  copy.numQueues = limits::kCopyQueues;
  return {compute, copy};
}

std::vector<ze_device_memory_properties_t> Device::memoryProperties() const {
  static const uint32_t memoryBusWidth = host_cpu::memoryBusWidthBits();
  std::vector<ze_device_memory_properties_t> out;
  for (const NumaNodeInfo& n : resources_.numaNodes) {
    ze_device_memory_properties_t m;
    clear(m);
    m.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES;
    m.totalSize = n.bytes;
    // "Maximum bus width between device and memory": the PUs reach the node's memory over its
    // channels, each as wide as host_cpu::memoryBusWidthBits() (the channel count is unknown).
    m.maxBusWidth = memoryBusWidth;
    snprintf(m.name, sizeof m.name, "NUMA node %u", n.osIndex);
    out.push_back(m);
  }
  return out;
}

void Device::memoryAccessProperties(ze_device_memory_access_properties_t& p) const {
  // Every kind of allocation is ordinary host memory that all PUs reach coherently.
  ze_memory_access_cap_flags_t all = ZE_MEMORY_ACCESS_CAP_FLAG_RW | ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC |
                                     ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT |
                                     ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT_ATOMIC;
  ze_device_memory_access_properties_t v;
  clear(v);
  v.hostAllocCapabilities = v.deviceAllocCapabilities = all;
  v.sharedSingleDeviceAllocCapabilities = v.sharedCrossDeviceAllocCapabilities = all;
  v.sharedSystemAllocCapabilities = all;
  assignKeepingHeader(p, v);
}

std::vector<ze_device_cache_properties_t> Device::cacheProperties() const {
  std::vector<ze_device_cache_properties_t> out;
  for (const CacheLevelInfo& c : resources_.caches) {
    ze_device_cache_properties_t v;
    clear(v);
    v.stype = ZE_STRUCTURE_TYPE_DEVICE_CACHE_PROPERTIES;
    v.cacheSize = c.bytesPerCache;  // "Per-cache size, in bytes"
    out.push_back(v);
  }
  return out;
}

void Device::imageProperties(ze_device_image_properties_t& p) const {
  ze_device_image_properties_t v;
  clear(v);
  v.maxImageDims1D = limits::kMaxImageDims1D;
  v.maxImageDims2D = limits::kMaxImageDims2D;
  v.maxImageDims3D = limits::kMaxImageDims3D;
  v.maxImageBufferSize = limits::kMaxImageBufferSize;  // pixels (limits.h)
  v.maxImageArraySlices = limits::kMaxImageArraySlices;
  v.maxSamplers = limits::kMaxSamplers;
  v.maxReadImageArgs = limits::kMaxReadImageArgs;
  v.maxWriteImageArgs = limits::kMaxWriteImageArgs;
  assignKeepingHeader(p, v);
}

void Device::externalMemoryProperties(ze_device_external_memory_properties_t& p) const {
  // Device and host allocations are memfd pages: they export and import as opaque fds (the memfd).
  // There is no dma_buf exporter behind them; images neither import nor export (imageImportTypes and
  // imageExportTypes 0: an image over other memory is ZE_tessera_image_memory's).
  ze_device_external_memory_properties_t v;
  clear(v);
  v.memoryAllocationImportTypes = ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD;
  v.memoryAllocationExportTypes = ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD;
  assignKeepingHeader(p, v);
}

bool Device::canAccessPeer(const Device& peer) const {
  // Every device of the machine reaches every other's memory: it is all host memory.
  return &peer.driver_ == &driver_;
}

void Device::p2pProperties(const Device& peer, ze_device_p2p_properties_t& p) const {
  ze_device_p2p_properties_t v{};
  if (canAccessPeer(peer)) v.flags = ZE_DEVICE_P2P_PROPERTY_FLAG_ACCESS | ZE_DEVICE_P2P_PROPERTY_FLAG_ATOMICS;
  assignKeepingHeader(p, v);
}

void Device::globalTimestamps(uint64_t& host, uint64_t& device) const {
  host = device = deviceTimestampNow();
}

}  // namespace tessera::core
