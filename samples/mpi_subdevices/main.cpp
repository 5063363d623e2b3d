// MPI across sub-devices: each rank of an MPI job takes one sub-device of its node, computes its
// share of y = A x (a slice of A's columns) there into USM host memory, and the ranks add their
// shares with MPI_Allreduce over that memory. Every rank then checks the sum against the host's
// y, and checks where it ran: its device's PUs are no other rank's on the node, its work-groups
// and Tessera's threads (queue executor, workers) stayed on them.
//
// Usage: mpirun -np N mpi_subdevices [mask|binding] [rows columns]
//   mask     (default) the sub-device the affinity mask leaves: ZE_AFFINITY_MASK as the launcher
//            set it, else "0.<the rank's index on its node>", set here before zeInit reads it.
//   binding  no mask: the device whose PUs are the CPUs the launcher bound the rank to
//            (mpirun --bind-to core|numa|socket), found by walking the device tree.
// With TESSERA_TOPOLOGY the node is simulated: its PUs are not this machine's CPUs and Tessera
// does not pin threads to them, so the sample checks instead that the rank's threads stayed within
// the CPUs the launcher bound the rank to. Run through the loader (ZE_ENABLE_ALT_DRIVERS).
#include <level_zero/ze_api.h>
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "pus.h"
#include "tessera/ze_tessera.h"

#define CHECK(call)                                                                \
  do {                                                                             \
    ze_result_t r_ = (call);                                                       \
    if (r_ != ZE_RESULT_SUCCESS) {                                                 \
      std::fprintf(stderr, "%s failed: 0x%x\n", #call, static_cast<unsigned>(r_)); \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                \
    }                                                                              \
  } while (0)

using sample::PuSet;

namespace {

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "mpi_subdevices: %s\n", message.c_str());
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);
}

// The host's reference, the same formulas as partial_matvec.cl.
int64_t aEntry(uint32_t row, uint32_t column) {
  return int64_t((row * 7u + column * 13u) % 17u) - 8;
}
int64_t xEntry(uint32_t column) {
  return int64_t(column % 11u) + 1;
}

ze_pfnTesseraDeviceGetPus_t getPus = nullptr;

PuSet devicePus(ze_device_handle_t device) {
  uint32_t n = 0;
  CHECK(getPus(device, &n, nullptr));
  std::vector<uint32_t> pus(n);
  CHECK(getPus(device, &n, pus.data()));
  return PuSet(pus.begin(), pus.end());
}

// Binding mode: the device whose PUs are the rank's binding, else the largest device within it.
void findBound(ze_device_handle_t device, const PuSet& bound, ze_device_handle_t& best,
               size_t& bestScore) {
  PuSet pus = devicePus(device);
  size_t score = pus == bound ? SIZE_MAX : pus.size();
  if (sample::within(pus, bound) && score > bestScore) best = device, bestScore = score;
  uint32_t n = 0;
  CHECK(zeDeviceGetSubDevices(device, &n, nullptr));
  std::vector<ze_device_handle_t> subs(n);
  CHECK(zeDeviceGetSubDevices(device, &n, subs.data()));
  for (ze_device_handle_t s : subs) findBound(s, bound, best, bestScore);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1, localRank = 0, localRanks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  // The ranks of this node (those that can share memory): the rank's local index picks its
  // sub-device, and PUs are compared among them.
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &localRank);
  MPI_Comm_size(node, &localRanks);

  int arg = 1;
  bool byBinding = false;
  if (arg < argc && (!std::strcmp(argv[arg], "mask") || !std::strcmp(argv[arg], "binding")))
    byBinding = !std::strcmp(argv[arg++], "binding");
  const uint32_t rows = arg < argc ? uint32_t(std::atoi(argv[arg++])) : 1024;
  const uint32_t columns = arg < argc ? uint32_t(std::atoi(argv[arg++])) : 8192;
  const char* topology = std::getenv("TESSERA_TOPOLOGY");
  const bool simulated = topology && *topology;
  const PuSet bound = sample::affinityOf(0);  // the launcher's binding (all CPUs when unbound)

  // The affinity mask is read once, by the first zeInit: set it before.
  std::string how;
  if (!byBinding) {
    const char* mask = std::getenv("ZE_AFFINITY_MASK");
    if (!mask || !*mask) setenv("ZE_AFFINITY_MASK", ("0." + std::to_string(localRank)).c_str(), 1);
    how = std::string("ZE_AFFINITY_MASK=") + std::getenv("ZE_AFFINITY_MASK");
  } else {
    if (simulated) fail("binding mode needs the machine's topology, not TESSERA_TOPOLOGY");
    how = "bound to CPUs " + sample::text(bound);
  }

  CHECK(zeInit(0));
  uint32_t count = 1;
  ze_driver_handle_t driver;
  CHECK(zeDriverGet(&count, &driver));
  void* fn = nullptr;
  CHECK(zeDriverGetExtensionFunctionAddress(driver, "zeTesseraDeviceGetPus", &fn));
  getPus = reinterpret_cast<ze_pfnTesseraDeviceGetPus_t>(fn);
  count = 0;
  CHECK(zeDeviceGet(driver, &count, nullptr));
  std::vector<ze_device_handle_t> roots(count);
  CHECK(zeDeviceGet(driver, &count, roots.data()));
  ze_device_handle_t device = nullptr;
  if (byBinding) {
    size_t size = 0;
    for (ze_device_handle_t r : roots) findBound(r, bound, device, size);
    if (!device)
      fail("no device within the CPUs the rank is bound to (" + sample::text(bound) + ")");
  } else {
    device = roots[0];  // a mask that leaves one sub-device makes it the only device
  }
  // Which part of the node the device is (ZE_tessera_device_topology): the whole machine is what a
  // mask naming no sub-device of this node leaves (the driver warns and ignores it).
  CHECK(zeDriverGetExtensionFunctionAddress(driver, "zeTesseraDeviceGetTopologyProperties", &fn));
  ze_tessera_device_topology_properties_t where{
      ZE_STRUCTURE_TYPE_TESSERA_DEVICE_TOPOLOGY_PROPERTIES};
  CHECK(reinterpret_cast<ze_pfnTesseraDeviceGetTopologyProperties_t>(fn)(device, &where));
  if (!byBinding && (count != 1 || where.level == ZE_TESSERA_DEVICE_LEVEL_MACHINE))
    fail(how + " left " + std::to_string(count) +
         " device(s) and no single sub-device: does the node have a sub-device per rank?");
  static const char* const kLevels[] = {"machine", "package", "NUMA node", "L3", "L2", "L4", "L1"};
  const std::string part =
      std::string(where.level <= ZE_TESSERA_DEVICE_LEVEL_L1 ? kLevels[where.level] : "part") +
      " #" + std::to_string(where.objectIndex);
  const PuSet pus = devicePus(device);

  // No PU of this node belongs to two ranks.
  int maxPu = pus.empty() ? 0 : int(*pus.rbegin()), nodeMaxPu = 0;
  MPI_Allreduce(&maxPu, &nodeMaxPu, 1, MPI_INT, MPI_MAX, node);
  std::vector<int> owners(size_t(nodeMaxPu) + 1, 0);
  for (uint32_t p : pus) owners[p] = 1;
  MPI_Allreduce(MPI_IN_PLACE, owners.data(), int(owners.size()), MPI_INT, MPI_SUM, node);
  bool disjoint = true;
  for (int o : owners) disjoint = disjoint && o <= 1;

  ze_context_desc_t contextDesc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ze_context_handle_t context;
  CHECK(zeContextCreate(driver, &contextDesc, &context));
  std::ifstream in(TESSERA_SAMPLE_SPV, std::ios::binary);
  std::vector<uint8_t> spirv{std::istreambuf_iterator<char>(in), {}};
  ze_module_desc_t moduleDesc{ZE_STRUCTURE_TYPE_MODULE_DESC,
                              nullptr,
                              ZE_MODULE_FORMAT_IL_SPIRV,
                              spirv.size(),
                              spirv.data(),
                              "",
                              nullptr};
  ze_module_handle_t module;
  CHECK(zeModuleCreate(context, device, &moduleDesc, &module, nullptr));
  ze_kernel_desc_t kernelDesc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "partial_matvec"};
  ze_kernel_handle_t kernel;
  CHECK(zeKernelCreate(module, &kernelDesc, &kernel));
  uint32_t gx = 1, gy = 1, gz = 1;
  CHECK(zeKernelSuggestGroupSize(kernel, rows, 1, 1, &gx, &gy, &gz));
  CHECK(zeKernelSetGroupSize(kernel, gx, 1, 1));
  const uint32_t groups = rows / gx;

  // USM host memory: the kernel writes the rank's share into it, MPI reads and writes it.
  ze_host_mem_alloc_desc_t hostDesc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
  int64_t* y = nullptr;
  uint32_t* ranOn = nullptr;
  CHECK(
      zeMemAllocHost(context, &hostDesc, rows * sizeof(int64_t), 64, reinterpret_cast<void**>(&y)));
  CHECK(zeMemAllocHost(context, &hostDesc, groups * sizeof(uint32_t), 64,
                       reinterpret_cast<void**>(&ranOn)));
  const uint32_t first = uint32_t(uint64_t(columns) * rank / ranks);
  const uint32_t share = uint32_t(uint64_t(columns) * (rank + 1) / ranks) - first;
  CHECK(zeKernelSetArgumentValue(kernel, 0, sizeof y, &y));
  CHECK(zeKernelSetArgumentValue(kernel, 1, sizeof first, &first));
  CHECK(zeKernelSetArgumentValue(kernel, 2, sizeof share, &share));
  CHECK(zeKernelSetArgumentValue(kernel, 3, sizeof ranOn, &ranOn));

  ze_command_queue_desc_t queueDesc{
      ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0, 0, ZE_COMMAND_QUEUE_MODE_DEFAULT,
      ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
  ze_command_queue_handle_t queue;
  CHECK(zeCommandQueueCreate(context, device, &queueDesc, &queue));
  ze_command_list_desc_t listDesc{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, 0, 0};
  ze_command_list_handle_t list;
  CHECK(zeCommandListCreate(context, device, &listDesc, &list));
  ze_group_count_t launch{groups, 1, 1};
  CHECK(zeCommandListAppendLaunchKernel(list, kernel, &launch, nullptr, 0, nullptr));
  CHECK(zeCommandListClose(list));
  CHECK(zeCommandQueueExecuteCommandLists(queue, 1, &list, nullptr));
  CHECK(zeCommandQueueSynchronize(queue, UINT64_MAX));

  // Where the work ran, while the queue's executor and the workers still exist. On the machine's
  // topology they are pinned to the device's PUs; on a simulated one they keep the rank's binding.
  const PuSet& home = simulated ? bound : pus;
  PuSet groupPus(ranOn, ranOn + groups), threadPus;
  bool stayed = sample::within(groupPus, home);
  std::vector<sample::ThreadPlace> threads = sample::threadsNamed("tessera-");
  for (const sample::ThreadPlace& t : threads) {
    threadPus.insert(t.affinity.begin(), t.affinity.end());
    stayed = stayed && sample::within(t.affinity, home) && t.lastCpu >= 0 &&
             home.count(uint32_t(t.lastCpu));
  }

  // The ranks' shares added in place, in the USM host allocation.
  MPI_Allreduce(MPI_IN_PLACE, y, int(rows), MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  uint32_t wrong = 0;
  for (uint32_t r = 0; r < rows; ++r) {
    int64_t expected = 0;
    for (uint32_t c = 0; c < columns; ++c) expected += aEntry(r, c) * xEntry(c);
    wrong += y[r] != expected;
  }

  char line[512];
  std::snprintf(
      line, sizeof line,
      "rank %d/%d (node index %d/%d), %s: %s, PUs %s%s; columns %u-%u; "
      "work-groups ran on PUs %s; %zu Tessera threads may run on PUs %s: %s",
      rank, ranks, localRank, localRanks, how.c_str(), part.c_str(), sample::text(pus).c_str(),
      disjoint ? "" : " (SHARED WITH ANOTHER RANK)", first, first + share - 1,
      sample::text(groupPus).c_str(), threads.size(), sample::text(threadPus).c_str(),
      stayed
          ? (simulated ? "within the rank's binding (simulated topology)" : "on the device's PUs")
          : "OUTSIDE");
  std::vector<char> lines(rank == 0 ? sizeof line * size_t(ranks) : 0);
  MPI_Gather(line, sizeof line, MPI_CHAR, lines.data(), sizeof line, MPI_CHAR, 0, MPI_COMM_WORLD);
  int ok = disjoint && stayed && wrong == 0, allOk = 0;
  MPI_Allreduce(&ok, &allOk, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (rank == 0) {
    for (int r = 0; r < ranks; ++r) std::printf("%s\n", &lines[sizeof line * size_t(r)]);
    std::printf(
        "y = A x (%u x %u) summed over %d ranks with MPI_Allreduce on USM host memory: %s\n", rows,
        columns, ranks,
        !allOk      ? "WRONG"
        : simulated ? "correct on every rank, each rank on its own simulated sub-device"
                      " and within its binding"
                    : "correct on every rank, each rank on its own PUs");
  }

  zeCommandListDestroy(list);
  zeCommandQueueDestroy(queue);
  zeMemFree(context, y);
  zeMemFree(context, ranOn);
  zeKernelDestroy(kernel);
  zeModuleDestroy(module);
  zeContextDestroy(context);
  MPI_Comm_free(&node);
  MPI_Finalize();
  return allOk ? 0 : 1;
}
