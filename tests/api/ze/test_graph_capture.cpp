// Record and replay graphs (Level Zero 1.17's ZE_extension_record_replay_graph and Intel's
// ZE_experimental_record_replay_graph; core/cmdlist/graph.h): appends to a capturing immediate
// list are recorded, not run; a replay runs them, each time; forks join the capture; the errors
// the specification names.
#include <level_zero/ze_api.h>

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "kernel_test_support.h"
#include "tessera/ze_tessera.h"
#include "ze_exec_support.h"

using namespace tessera::test;

namespace {

constexpr ze_result_t kQueryTrue = static_cast<ze_result_t>(0x78000022);
constexpr ze_result_t kQueryFalse = static_cast<ze_result_t>(0x78000023);
constexpr ze_result_t kCaptureUnsupported = static_cast<ze_result_t>(0x78000025);
constexpr ze_result_t kMergeAttempt = static_cast<ze_result_t>(0x78000027);

// Intel's names, as intel/compute-benchmarks looks them up.
struct IntelGraphs {
  decltype(&zeGraphCreateExp) create;
  decltype(&zeCommandListBeginCaptureIntoGraphExp) beginInto;
  decltype(&zeCommandListBeginGraphCaptureExp) beginOwn;
  decltype(&zeCommandListEndGraphCaptureExp) end;
  decltype(&zeCommandListInstantiateGraphExp) instantiate;
  decltype(&zeCommandListAppendGraphExp) append;
  decltype(&zeGraphDestroyExp) destroy;
  decltype(&zeExecutableGraphDestroyExp) destroyExecutable;
  decltype(&zeCommandListIsGraphCaptureEnabledExp) capturing;
  explicit IntelGraphs(ze_driver_handle_t d)
      : create(extensionFunction<decltype(create)>(d, "zeGraphCreateExp")),
        beginInto(extensionFunction<decltype(beginInto)>(d, "zeCommandListBeginCaptureIntoGraphExp")),
        beginOwn(extensionFunction<decltype(beginOwn)>(d, "zeCommandListBeginGraphCaptureExp")),
        end(extensionFunction<decltype(end)>(d, "zeCommandListEndGraphCaptureExp")),
        instantiate(extensionFunction<decltype(instantiate)>(d, "zeCommandListInstantiateGraphExp")),
        append(extensionFunction<decltype(append)>(d, "zeCommandListAppendGraphExp")),
        destroy(extensionFunction<decltype(destroy)>(d, "zeGraphDestroyExp")),
        destroyExecutable(
            extensionFunction<decltype(destroyExecutable)>(d, "zeExecutableGraphDestroyExp")),
        capturing(
            extensionFunction<decltype(capturing)>(d, "zeCommandListIsGraphCaptureEnabledExp")) {
    REQUIRE(create);
    REQUIRE(beginInto);
    REQUIRE(beginOwn);
    REQUIRE(end);
    REQUIRE(instantiate);
    REQUIRE(append);
    REQUIRE(destroy);
    REQUIRE(destroyExecutable);
    REQUIRE(capturing);
  }
};

// The specification's names, looked up as a program linked with a loader that lacks them would.
struct Graphs {
  ze_pfnCommandListHostSynchronize_t hostSynchronize;
  ze_pfnCommandListImmediateAppendCommandListsExp_t appendLists;
  decltype(&zeGraphCreateExt) GraphCreateExt;
  decltype(&zeCommandListBeginGraphCaptureExt) CommandListBeginGraphCaptureExt;
  decltype(&zeCommandListBeginCaptureIntoGraphExt) CommandListBeginCaptureIntoGraphExt;
  decltype(&zeCommandListIsGraphCaptureEnabledExt) CommandListIsGraphCaptureEnabledExt;
  decltype(&zeCommandListEndGraphCaptureExt) CommandListEndGraphCaptureExt;
  decltype(&zeCommandListGetGraphExt) CommandListGetGraphExt;
  decltype(&zeGraphGetPrimaryCommandListExt) GraphGetPrimaryCommandListExt;
  decltype(&zeGraphSetDestructionCallbackExt) GraphSetDestructionCallbackExt;
  decltype(&zeGraphInstantiateExt) GraphInstantiateExt;
  decltype(&zeCommandListAppendGraphExt) CommandListAppendGraphExt;
  decltype(&zeExecutableGraphGetSourceGraphExt) ExecutableGraphGetSourceGraphExt;
  decltype(&zeGraphIsEmptyExt) GraphIsEmptyExt;
  decltype(&zeGraphDumpContentsExt) GraphDumpContentsExt;
  decltype(&zeExecutableGraphDestroyExt) ExecutableGraphDestroyExt;
  decltype(&zeGraphDestroyExt) GraphDestroyExt;
  explicit Graphs(ze_driver_handle_t d)
      : hostSynchronize(extensionFunction<ze_pfnCommandListHostSynchronize_t>(
            d, "zeCommandListHostSynchronize")),
        appendLists(extensionFunction<ze_pfnCommandListImmediateAppendCommandListsExp_t>(
            d, "zeCommandListImmediateAppendCommandListsExp")),
        GraphCreateExt(extensionFunction<decltype(&zeGraphCreateExt)>(d, "zeGraphCreateExt")),
        CommandListBeginGraphCaptureExt(extensionFunction<decltype(&zeCommandListBeginGraphCaptureExt)>(d, "zeCommandListBeginGraphCaptureExt")),
        CommandListBeginCaptureIntoGraphExt(extensionFunction<decltype(&zeCommandListBeginCaptureIntoGraphExt)>(d, "zeCommandListBeginCaptureIntoGraphExt")),
        CommandListIsGraphCaptureEnabledExt(extensionFunction<decltype(&zeCommandListIsGraphCaptureEnabledExt)>(d, "zeCommandListIsGraphCaptureEnabledExt")),
        CommandListEndGraphCaptureExt(extensionFunction<decltype(&zeCommandListEndGraphCaptureExt)>(d, "zeCommandListEndGraphCaptureExt")),
        CommandListGetGraphExt(extensionFunction<decltype(&zeCommandListGetGraphExt)>(d, "zeCommandListGetGraphExt")),
        GraphGetPrimaryCommandListExt(extensionFunction<decltype(&zeGraphGetPrimaryCommandListExt)>(d, "zeGraphGetPrimaryCommandListExt")),
        GraphSetDestructionCallbackExt(extensionFunction<decltype(&zeGraphSetDestructionCallbackExt)>(d, "zeGraphSetDestructionCallbackExt")),
        GraphInstantiateExt(extensionFunction<decltype(&zeGraphInstantiateExt)>(d, "zeGraphInstantiateExt")),
        CommandListAppendGraphExt(extensionFunction<decltype(&zeCommandListAppendGraphExt)>(d, "zeCommandListAppendGraphExt")),
        ExecutableGraphGetSourceGraphExt(extensionFunction<decltype(&zeExecutableGraphGetSourceGraphExt)>(d, "zeExecutableGraphGetSourceGraphExt")),
        GraphIsEmptyExt(extensionFunction<decltype(&zeGraphIsEmptyExt)>(d, "zeGraphIsEmptyExt")),
        GraphDumpContentsExt(extensionFunction<decltype(&zeGraphDumpContentsExt)>(d, "zeGraphDumpContentsExt")),
        ExecutableGraphDestroyExt(extensionFunction<decltype(&zeExecutableGraphDestroyExt)>(d, "zeExecutableGraphDestroyExt")),
        GraphDestroyExt(extensionFunction<decltype(&zeGraphDestroyExt)>(d, "zeGraphDestroyExt")) {
    REQUIRE(hostSynchronize);
    REQUIRE(appendLists);
    REQUIRE(GraphCreateExt);
    REQUIRE(CommandListBeginGraphCaptureExt);
    REQUIRE(CommandListBeginCaptureIntoGraphExt);
    REQUIRE(CommandListIsGraphCaptureEnabledExt);
    REQUIRE(CommandListEndGraphCaptureExt);
    REQUIRE(CommandListGetGraphExt);
    REQUIRE(GraphGetPrimaryCommandListExt);
    REQUIRE(GraphSetDestructionCallbackExt);
    REQUIRE(GraphInstantiateExt);
    REQUIRE(CommandListAppendGraphExt);
    REQUIRE(ExecutableGraphGetSourceGraphExt);
    REQUIRE(GraphIsEmptyExt);
    REQUIRE(GraphDumpContentsExt);
    REQUIRE(ExecutableGraphDestroyExt);
    REQUIRE(GraphDestroyExt);
  }
};

}  // namespace

TEST_CASE("Given appends captured into a graph on an immediate list, then nothing runs until the "
          "graph is replayed, and each replay runs them again",
          "[current_api][graph]") {
  KernelFixture fx;
  Graphs x(fx.driver);
  IntelGraphs g(fx.driver);
  auto count = fx.kernel("corpus_atomics", "atomic_count");
  std::vector<int> counter(1, 0), copy(1, -1);
  int* pc = counter.data();
  setArgs(count, pc);
  REQUIRE(zeKernelSetGroupSize(count, 16, 1, 1) == ZE_RESULT_SUCCESS);
  auto capturing = fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  auto runner = fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);

  ze_graph_handle_t graph = nullptr;
  REQUIRE(g.create(fx.context, &graph, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(x.GraphIsEmptyExt(graph) == kQueryTrue);
  CHECK(g.capturing(capturing) == static_cast<ze_result_t>(0x7fff0001));  // Intel's "false"
  REQUIRE(g.beginInto(capturing, graph, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(x.CommandListIsGraphCaptureEnabledExt(capturing) == kQueryTrue);
  CHECK(g.capturing(capturing) == static_cast<ze_result_t>(0x7fff0000));
  ze_group_count_t groups{4, 1, 1};
  REQUIRE(zeCommandListAppendLaunchKernel(capturing, count, &groups, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendBarrier(capturing, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendMemoryCopy(capturing, copy.data(), counter.data(), sizeof(int),
                                        nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  // "host-side synchronization operations on recorded work ... return
  // ZE_RESULT_ERROR_GRAPH_CAPTURE_UNSUPPORTED".
  CHECK(x.hostSynchronize(capturing, 0) == kCaptureUnsupported);
  CHECK(counter[0] == 0);
  CHECK(copy[0] == -1);
  // Intel's name takes a null output (the graph is the application's already): the capture ends.
  REQUIRE(g.end(capturing, nullptr, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(g.end(capturing, nullptr, nullptr) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(x.CommandListIsGraphCaptureEnabledExt(capturing) == kQueryFalse);
  CHECK(x.GraphIsEmptyExt(graph) == kQueryFalse);
  REQUIRE(x.hostSynchronize(capturing, kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(counter[0] == 0);

  ze_executable_graph_handle_t exec = nullptr;
  REQUIRE(g.instantiate(graph, &exec, nullptr) == ZE_RESULT_SUCCESS);
  auto done = fx.events(1)[0];
  for (int replay = 1; replay <= 3; ++replay) {
    REQUIRE(zeEventHostReset(done) == ZE_RESULT_SUCCESS);
    REQUIRE(g.append(runner, exec, nullptr, done, 0, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeEventHostSynchronize(done, kPatienceNs) == ZE_RESULT_SUCCESS);
    CHECK(counter[0] == 64 * replay);
    CHECK(copy[0] == 64 * replay);
  }
  // After the capture, appends to the list run again.
  REQUIRE(zeCommandListAppendLaunchKernel(capturing, count, &groups, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(x.hostSynchronize(capturing, kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(counter[0] == 64 * 4);
  // The source graph of an executable graph; executables keep their graph.
  ze_graph_handle_t source = nullptr;
  CHECK(x.ExecutableGraphGetSourceGraphExt(exec, &source) == ZE_RESULT_SUCCESS);
  CHECK(source == graph);
  CHECK(g.destroy(graph) == ZE_RESULT_SUCCESS);
  REQUIRE(g.append(runner, exec, nullptr, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(x.hostSynchronize(runner, kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(counter[0] == 64 * 5);
  CHECK(g.destroyExecutable(exec) == ZE_RESULT_SUCCESS);
  CHECK(x.ExecutableGraphDestroyExt(exec) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
}

// The fork of compute-benchmarks' KernelSubmitGraphMultiQueue: a second list waits for an event a
// captured command signals (it joins the capture), the primary waits for the second's event (the
// join). Nothing runs while capturing; a replay runs all three in a right order.
TEST_CASE("Given a second immediate list that waits for an event a captured command signals, then "
          "it joins the capture until the primary list ends it",
          "[current_api][graph]") {
  KernelFixture fx;
  Graphs x(fx.driver);
  auto primary = fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  auto child = fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  auto runner = fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  auto ev = fx.events(3);
  int a = 0, b = 0, c = 0;
  const int one = 1;
  REQUIRE(x.CommandListBeginGraphCaptureExt(primary, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(x.CommandListIsGraphCaptureEnabledExt(child) == kQueryFalse);
  REQUIRE(zeCommandListAppendMemoryFill(primary, &a, &one, sizeof one, sizeof a, ev[0], 0,
                                        nullptr) == ZE_RESULT_SUCCESS);
  CHECK(zeEventHostSynchronize(ev[0], 0) == kCaptureUnsupported);
  // The fork.
  REQUIRE(zeCommandListAppendMemoryCopy(child, &b, &a, sizeof a, ev[1], 1, &ev[0]) ==
          ZE_RESULT_SUCCESS);
  CHECK(x.CommandListIsGraphCaptureEnabledExt(child) == kQueryTrue);
  ze_graph_handle_t childGraph = nullptr, primaryGraph = nullptr;
  REQUIRE(x.CommandListGetGraphExt(child, &childGraph) == ZE_RESULT_SUCCESS);
  REQUIRE(x.CommandListGetGraphExt(primary, &primaryGraph) == ZE_RESULT_SUCCESS);
  CHECK(childGraph == primaryGraph);
  // The join.
  REQUIRE(zeCommandListAppendMemoryCopy(primary, &c, &b, sizeof b, nullptr, 1, &ev[1]) ==
          ZE_RESULT_SUCCESS);
  CHECK((a == 0 && b == 0 && c == 0));
  // Only the primary list ends the capture, and it ends it for the child too.
  ze_graph_handle_t graph = nullptr;
  CHECK(x.CommandListEndGraphCaptureExt(child, nullptr, &graph) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  REQUIRE(x.CommandListEndGraphCaptureExt(primary, nullptr, &graph) == ZE_RESULT_SUCCESS);
  CHECK(graph == primaryGraph);
  CHECK(x.CommandListIsGraphCaptureEnabledExt(child) == kQueryFalse);
  ze_command_list_handle_t first = nullptr;
  CHECK(x.GraphGetPrimaryCommandListExt(graph, &first) == ZE_RESULT_SUCCESS);
  CHECK(first == primary);
  // The child's appends run again, and the event no longer forks.
  const int seven = 7;
  int d = 0;
  REQUIRE(zeCommandListAppendMemoryFill(child, &d, &seven, sizeof seven, sizeof d, nullptr, 0,
                                        nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(x.hostSynchronize(child, kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(d == 7);

  ze_executable_graph_handle_t exec = nullptr;
  REQUIRE(x.GraphInstantiateExt(graph, nullptr, &exec) == ZE_RESULT_SUCCESS);
  REQUIRE(x.CommandListAppendGraphExt(runner, exec, nullptr, ev[2], 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeEventHostSynchronize(ev[2], kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(a == 1);
  CHECK(b == 1);
  CHECK(c == 1);
  CHECK(x.ExecutableGraphDestroyExt(exec) == ZE_RESULT_SUCCESS);
  CHECK(x.GraphDestroyExt(graph) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given graph capture, then the errors the specification names are given",
          "[current_api][graph][errors]") {
  KernelFixture fx;
  Graphs x(fx.driver);
  auto async = fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  auto other = fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  auto sync = fx.immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  auto regular = fx.list();
  ze_graph_handle_t graph = nullptr, second = nullptr, out = nullptr;
  REQUIRE(x.GraphCreateExt(fx.context, nullptr, &graph) == ZE_RESULT_SUCCESS);
  REQUIRE(x.GraphCreateExt(fx.context, nullptr, &second) == ZE_RESULT_SUCCESS);
  CHECK(x.GraphCreateExt(nullptr, nullptr, &out) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(x.GraphCreateExt(fx.context, nullptr, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  ze_base_desc_t unknown{static_cast<ze_structure_type_t>(0x7ff0), nullptr};
  CHECK(x.GraphCreateExt(fx.context, &unknown, &out) == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
  // Only an asynchronous immediate list captures.
  CHECK(x.CommandListBeginCaptureIntoGraphExt(regular, graph, nullptr) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(x.CommandListBeginCaptureIntoGraphExt(sync, graph, nullptr) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(x.CommandListEndGraphCaptureExt(async, nullptr, &out) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  // Nothing captured yet: no executable graph.
  ze_executable_graph_handle_t exec = nullptr;
  CHECK(x.GraphInstantiateExt(graph, nullptr, &exec) == ZE_RESULT_ERROR_INVALID_ARGUMENT);

  REQUIRE(x.CommandListBeginCaptureIntoGraphExt(async, graph, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(x.CommandListBeginCaptureIntoGraphExt(async, second, nullptr) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(x.GraphDestroyExt(graph) == ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
  // The specification's name wants the output ("nullptr == phGraph"); the capture goes on.
  CHECK(x.CommandListEndGraphCaptureExt(async, nullptr, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(x.CommandListIsGraphCaptureEnabledExt(async) == kQueryTrue);
  CHECK(x.GraphInstantiateExt(graph, nullptr, &exec) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  // A list that is not closed is refused while capturing as otherwise.
  CHECK(x.appendLists(async, 1, &regular, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  REQUIRE(zeCommandListClose(regular) == ZE_RESULT_SUCCESS);
  // Two captures may not merge: a list capturing into `second` waits for an event of `graph`'s.
  auto ev = fx.events(1);
  REQUIRE(zeCommandListAppendSignalEvent(async, ev[0]) == ZE_RESULT_SUCCESS);
  REQUIRE(x.CommandListBeginCaptureIntoGraphExt(other, second, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandListAppendWaitOnEvents(other, 1, &ev[0]) == kMergeAttempt);
  // The same through appended lists (a wait of the append, a wait inside a list): refused before
  // anything of them is recorded.
  auto waiter = fx.list();
  REQUIRE(zeCommandListAppendWaitOnEvents(waiter, 1, &ev[0]) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendBarrier(waiter, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(waiter) == ZE_RESULT_SUCCESS);
  CHECK(x.appendLists(other, 1, &regular, nullptr, 1, &ev[0]) == kMergeAttempt);
  CHECK(x.appendLists(other, 1, &waiter, nullptr, 0, nullptr) == kMergeAttempt);
  REQUIRE(x.CommandListEndGraphCaptureExt(other, nullptr, &out) == ZE_RESULT_SUCCESS);
  CHECK(out == second);
  CHECK(x.GraphIsEmptyExt(second) == kQueryTrue);
  REQUIRE(x.CommandListEndGraphCaptureExt(async, nullptr, &out) == ZE_RESULT_SUCCESS);
  CHECK(out == graph);
  // A graph captures once: "The graph must be empty when capture begins."
  CHECK(x.CommandListBeginCaptureIntoGraphExt(async, graph, nullptr) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  REQUIRE(x.GraphInstantiateExt(graph, nullptr, &exec) == ZE_RESULT_SUCCESS);
  // A capture that appends nothing leaves its graph empty.
  REQUIRE(x.CommandListBeginGraphCaptureExt(other, nullptr) == ZE_RESULT_SUCCESS);
  ze_graph_handle_t third = nullptr;
  REQUIRE(x.CommandListEndGraphCaptureExt(other, nullptr, &third) == ZE_RESULT_SUCCESS);
  CHECK(x.GraphIsEmptyExt(third) == kQueryTrue);
  CHECK(x.CommandListAppendGraphExt(regular, exec, nullptr, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(x.GraphDumpContentsExt(graph, "/dev/null", nullptr) == ZE_RESULT_SUCCESS);
  CHECK(x.GraphDumpContentsExt(graph, "/nonexistent-folder/graph.dot", nullptr) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(x.GraphDumpContentsExt(graph, nullptr, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  // The executable graph runs the signal the capture recorded.
  REQUIRE(x.CommandListAppendGraphExt(other, exec, nullptr, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  CHECK(zeEventHostSynchronize(ev[0], kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(x.ExecutableGraphDestroyExt(exec) == ZE_RESULT_SUCCESS);
  for (ze_graph_handle_t g : {graph, second, third}) CHECK(x.GraphDestroyExt(g) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given a command list and a sub-graph appended while capturing, then their commands "
          "are recorded in place and run with every replay, not at the append",
          "[current_api][graph]") {
  KernelFixture fx;
  Graphs x(fx.driver);
  auto count = fx.kernel("corpus_atomics", "atomic_count");
  std::vector<int> counter(1, 0), copies(2, -1);
  int* pc = counter.data();
  setArgs(count, pc);
  REQUIRE(zeKernelSetGroupSize(count, 16, 1, 1) == ZE_RESULT_SUCCESS);
  ze_group_count_t groups{1, 1, 1};  // 16 a launch
  auto capturing = fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  auto runner = fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);

  // A regular list: two launches with a barrier between them.
  auto regular = fx.list();
  REQUIRE(zeCommandListAppendLaunchKernel(regular, count, &groups, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendBarrier(regular, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendLaunchKernel(regular, count, &groups, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(regular) == ZE_RESULT_SUCCESS);
  // A sub-graph: one launch.
  REQUIRE(x.CommandListBeginGraphCaptureExt(capturing, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendLaunchKernel(capturing, count, &groups, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  ze_graph_handle_t inner = nullptr;
  REQUIRE(x.CommandListEndGraphCaptureExt(capturing, nullptr, &inner) == ZE_RESULT_SUCCESS);
  ze_executable_graph_handle_t innerExec = nullptr;
  REQUIRE(x.GraphInstantiateExt(inner, nullptr, &innerExec) == ZE_RESULT_SUCCESS);

  // The outer capture: the list (after an event's wait), a copy of the counter, the sub-graph
  // (signalling an event), another copy, each in order.
  auto ev = fx.events(3);
  REQUIRE(x.CommandListBeginGraphCaptureExt(capturing, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendSignalEvent(capturing, ev[0]) == ZE_RESULT_SUCCESS);
  REQUIRE(x.appendLists(capturing, 1, &regular, nullptr, 1, &ev[0]) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendBarrier(capturing, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendMemoryCopy(capturing, &copies[0], pc, sizeof(int), nullptr, 0,
                                        nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(x.CommandListAppendGraphExt(capturing, innerExec, nullptr, ev[1], 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendMemoryCopy(capturing, &copies[1], pc, sizeof(int), nullptr, 1,
                                        &ev[1]) == ZE_RESULT_SUCCESS);
  CHECK(counter[0] == 0);  // recorded, not run
  ze_graph_handle_t outer = nullptr;
  REQUIRE(x.CommandListGetGraphExt(capturing, &outer) == ZE_RESULT_SUCCESS);
  CHECK(x.GraphDumpContentsExt(outer, "/dev/null", nullptr) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  REQUIRE(x.CommandListEndGraphCaptureExt(capturing, nullptr, &outer) == ZE_RESULT_SUCCESS);
  // Its DOT: one node per recorded command (the signal, the list's wait, launch, barrier and
  // launch, the barrier, the copy, the sub-graph's launch and signal, the second copy's wait and
  // copy), in order, the kernels with their arguments, and the event edges dashed.
  std::string path = "/tmp/tessera_graph_" + std::to_string(getpid()) + ".dot";
  REQUIRE(x.GraphDumpContentsExt(outer, path.c_str(), nullptr) == ZE_RESULT_SUCCESS);
  std::stringstream read;
  read << std::ifstream(path).rdbuf();
  std::remove(path.c_str());
  std::string dot = read.str();
  INFO(dot);
  CHECK(dot.rfind("digraph tessera_graph {", 0) == 0);
  CHECK(dot.find("kernel atomic_count") != std::string::npos);
  CHECK(dot.find("arg 0") != std::string::npos);
  CHECK(dot.find("global pointer, 8 bytes = 0x") != std::string::npos);
  CHECK(dot.find("style=dashed") != std::string::npos);
  CHECK(dot.find("copy") != std::string::npos);
  size_t nodes = 0;
  for (size_t at = dot.find("[label="); at != std::string::npos; at = dot.find("[label=", at + 1))
    ++nodes;
  CHECK(nodes >= 8);
  ze_executable_graph_handle_t outerExec = nullptr;
  REQUIRE(x.GraphInstantiateExt(outer, nullptr, &outerExec) == ZE_RESULT_SUCCESS);
  CHECK(counter[0] == 0);
  for (int replay = 1; replay <= 2; ++replay) {
    REQUIRE(zeEventHostReset(ev[2]) == ZE_RESULT_SUCCESS);
    REQUIRE(x.CommandListAppendGraphExt(runner, outerExec, nullptr, ev[2], 0, nullptr) ==
            ZE_RESULT_SUCCESS);
    REQUIRE(zeEventHostSynchronize(ev[2], kPatienceNs) == ZE_RESULT_SUCCESS);
    CHECK(counter[0] == 48 * replay);
    CHECK(copies[0] == 48 * replay - 16);  // the list's two launches ran before the first copy
    CHECK(copies[1] == 48 * replay);       // the sub-graph's before the second
    CHECK(zeEventQueryStatus(ev[1]) == ZE_RESULT_SUCCESS);
    REQUIRE(zeEventHostReset(ev[0]) == ZE_RESULT_SUCCESS);
    REQUIRE(zeEventHostReset(ev[1]) == ZE_RESULT_SUCCESS);
  }
  CHECK(x.ExecutableGraphDestroyExt(outerExec) == ZE_RESULT_SUCCESS);
  CHECK(x.ExecutableGraphDestroyExt(innerExec) == ZE_RESULT_SUCCESS);
  CHECK(x.GraphDestroyExt(outer) == ZE_RESULT_SUCCESS);
  CHECK(x.GraphDestroyExt(inner) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given a destruction callback, then it runs when the graph is gone",
          "[current_api][graph]") {
  KernelFixture fx;
  Graphs x(fx.driver);
  ze_graph_handle_t graph = nullptr;
  REQUIRE(x.GraphCreateExt(fx.context, nullptr, &graph) == ZE_RESULT_SUCCESS);
  int calls = 0;
  REQUIRE(x.GraphSetDestructionCallbackExt(
              graph, [](void* p) { ++*static_cast<int*>(p); }, &calls, nullptr) ==
          ZE_RESULT_SUCCESS);
  CHECK(calls == 0);
  REQUIRE(x.GraphDestroyExt(graph) == ZE_RESULT_SUCCESS);
  CHECK(calls == 1);
}

TEST_CASE("Given a primary list destroyed while it captures, then a graph of the capture's own "
          "goes with it and an application's graph stays with what was recorded",
          "[current_api][graph]") {
  KernelFixture fx;
  Graphs x(fx.driver);
  auto callback = [](void* p) { ++*static_cast<int*>(p); };
  auto makeList = [&] {
    auto d = queueDesc(0, 0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
    ze_command_list_handle_t l = nullptr;
    REQUIRE(zeCommandListCreateImmediate(fx.context, fx.device, &d, &l) == ZE_RESULT_SUCCESS);
    return l;
  };

  // zeCommandListBeginGraphCaptureExt's graph: nobody else holds it until the end hands it out.
  ze_command_list_handle_t primary = makeList();
  REQUIRE(x.CommandListBeginGraphCaptureExt(primary, nullptr) == ZE_RESULT_SUCCESS);
  ze_graph_handle_t own = nullptr;
  REQUIRE(x.CommandListGetGraphExt(primary, &own) == ZE_RESULT_SUCCESS);
  int ownCalls = 0;
  REQUIRE(x.GraphSetDestructionCallbackExt(own, callback, &ownCalls, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendBarrier(primary, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListDestroy(primary) == ZE_RESULT_SUCCESS);
  CHECK(ownCalls == 1);
  CHECK(x.GraphIsEmptyExt(own) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);  // stale, refused

  // The application's graph: closed with what was recorded, destroyed by the application.
  ze_graph_handle_t graph = nullptr;
  REQUIRE(x.GraphCreateExt(fx.context, nullptr, &graph) == ZE_RESULT_SUCCESS);
  int calls = 0;
  REQUIRE(x.GraphSetDestructionCallbackExt(graph, callback, &calls, nullptr) == ZE_RESULT_SUCCESS);
  primary = makeList();
  REQUIRE(x.CommandListBeginCaptureIntoGraphExt(primary, graph, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendBarrier(primary, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListDestroy(primary) == ZE_RESULT_SUCCESS);
  CHECK(calls == 0);
  CHECK(x.GraphIsEmptyExt(graph) == kQueryFalse);
  REQUIRE(x.GraphDestroyExt(graph) == ZE_RESULT_SUCCESS);
  CHECK(calls == 1);

  // Intel's end with a null output for a graph of the capture's own: nobody receives it, so it goes.
  IntelGraphs g(fx.driver);
  primary = makeList();
  REQUIRE(g.beginOwn(primary, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(x.CommandListGetGraphExt(primary, &own) == ZE_RESULT_SUCCESS);
  ownCalls = 0;
  REQUIRE(x.GraphSetDestructionCallbackExt(own, callback, &ownCalls, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(g.end(primary, nullptr, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(ownCalls == 1);
  CHECK(x.CommandListIsGraphCaptureEnabledExt(primary) == kQueryFalse);
  REQUIRE(zeCommandListDestroy(primary) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given the driver's extensions, then both record and replay graph names are listed",
          "[current_api][graph]") {
  ze_driver_handle_t driver = initDriver();
  uint32_t n = 0;
  REQUIRE(zeDriverGetExtensionProperties(driver, &n, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<ze_driver_extension_properties_t> props(n);
  REQUIRE(zeDriverGetExtensionProperties(driver, &n, props.data()) == ZE_RESULT_SUCCESS);
  int found = 0;
  for (const auto& p : props)
    if (std::string(p.name) == "ZE_extension_record_replay_graph" ||
        std::string(p.name) == "ZE_experimental_record_replay_graph")
      ++found;
  CHECK(found == 2);
  // "Supported Record and Replay Graph properties", chained to ze_device_properties_t: immutable
  // graphs only.
  ze_record_replay_graph_ext_properties_t graphs{ZE_STRUCTURE_TYPE_RECORD_REPLAY_GRAPH_EXT_PROPERTIES,
                                                 nullptr, 0xffffffffu};
  ze_device_properties_t dp{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES, &graphs};
  REQUIRE(zeDeviceGetProperties(devices(driver).at(0), &dp) == ZE_RESULT_SUCCESS);
  CHECK(graphs.graphFlags == (ZE_RECORD_REPLAY_GRAPH_EXT_FLAG_IMMUTABLE_GRAPH |
                              ZE_RECORD_REPLAY_GRAPH_EXT_FLAG_SUBGRAPHS |
                              ZE_RECORD_REPLAY_GRAPH_EXT_FLAG_APPEND_COMMANDLIST));
}
