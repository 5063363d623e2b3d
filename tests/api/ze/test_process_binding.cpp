// The process's binding is the device's limit (core/driver/driver.cpp, devicePus): a process
// started under `taskset -c 0`, numactl or an MPI launcher's --bind-to gets a root device of the
// PUs it is bound to, and none of Tessera's threads runs elsewhere; under ZE_AFFINITY_MASK the
// devices are the whole node's, whose indices the mask names. Checked in a child copy of this
// binary that binds itself to one CPU before zeInit (the driver reads the binding once, when it
// loads the topology).
#include <sched.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "kernel_test_support.h"
#include "thread_states.h"

using namespace tessera::test;

namespace {

constexpr const char* kChildVar = "TESSERA_TEST_BINDING_CHILD";

// The lowest CPU of the calling thread's mask, and how many it has.
int lowestCpu(int* count) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
  *count = CPU_COUNT(&set);
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) return c;
  return -1;
}

std::vector<int> cpusOf(long tid) {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> out;
  if (sched_getaffinity(static_cast<pid_t>(tid), sizeof set, &set) != 0) return out;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) out.push_back(c);
  return out;
}

}  // namespace

TEST_CASE("binding child: bound to one CPU before zeInit", "[.binding_child]") {
  if (!std::getenv(kChildVar)) return;
  int count = 0;
  const int cpu = lowestCpu(&count);
  REQUIRE(cpu >= 0);
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  REQUIRE(sched_setaffinity(0, sizeof one, &one) == 0);

  KernelFixture fx;
  auto getPus = extensionFunction<ze_pfnTesseraDeviceGetPus_t>(fx.driver, "zeTesseraDeviceGetPus");
  REQUIRE(getPus != nullptr);
  uint32_t n = 0;
  REQUIRE(getPus(fx.device, &n, nullptr) == ZE_RESULT_SUCCESS);
  if (std::getenv("ZE_AFFINITY_MASK")) {
    // The mask's device 0 is the node's root device, all of it.
    CHECK(n == uint32_t(count));
    return;
  }
  std::vector<uint32_t> pus(n);
  REQUIRE(getPus(fx.device, &n, pus.data()) == ZE_RESULT_SUCCESS);
  CHECK(pus == std::vector<uint32_t>{uint32_t(cpu)});
  ze_device_properties_t props{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
  REQUIRE(zeDeviceGetProperties(fx.device, &props) == ZE_RESULT_SUCCESS);
  CHECK(props.numSlices * props.numSubslicesPerSlice * props.numEUsPerSubslice == 1);

  // A launch of many groups through a queue's executor runs, and every thread of Tessera it made
  // (the executor, the device's workers) keeps to the bound CPU.
  constexpr uint32_t kItems = 4096;
  std::vector<int> data(kItems);
  for (uint32_t i = 0; i < kItems; ++i) data[i] = int(i);
  ze_kernel_handle_t k = fx.kernel("corpus_calls", "square");
  setGroupSize(k, 64);
  int* p = data.data();
  setArgs(k, p);
  fx.runOnce([&](ze_command_list_handle_t l) { KernelFixture::launch(l, k, {kItems / 64, 1, 1}); });
  for (uint32_t i = 0; i < kItems; ++i) REQUIRE(data[i] == int(i * i));
  int tessera = 0;
  for (const ThreadState& t : threadStates()) {
    if (t.name.rfind("tessera-", 0) != 0) continue;
    ++tessera;
    INFO("thread " << t.name << " (" << t.tid << ")");
    CHECK(cpusOf(t.tid) == std::vector<int>{cpu});
  }
  CHECK(tessera >= 1);  // the queue's executor at least
}

TEST_CASE("Process binding: a process bound to one CPU gets a device of that PU", "[binding]") {
  int count = 0;
  if (lowestCpu(&count) < 0 || count < 2) {
    WARN("the test process may run on one CPU only: nothing to restrict");
    return;
  }
  std::map<std::string, std::string> env{{kChildVar, "1"}};
  SECTION("without ZE_AFFINITY_MASK: the bound PU") {}
  SECTION("with ZE_AFFINITY_MASK: the node's devices") { env["ZE_AFFINITY_MASK"] = "0"; }
  auto r = runProgram({"/proc/self/exe", "binding child: bound to one CPU before zeInit"}, env);
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  CHECK(r.exitCode == 0);
  CHECK(r.out.find("All tests passed") != std::string::npos);
}
