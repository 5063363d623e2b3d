// Record and replay graphs (tessera/ze_tessera_current.h; core/cmdlist/graph.h): Level Zero 1.17's
// ZE_extension_record_replay_graph, exported, and Intel's ZE_experimental_record_replay_graph, the
// same operations under Exp names, reached through zeDriverGetExtensionFunctionAddress (the Exp
// functions are Intel's library's symbols, so not exported).
#include <level_zero/ze_api.h>

#include "core/cmdlist/command_list.h"
#include "core/cmdlist/graph.h"
#include "core/context/context.h"
#include "level_zero/api_support.h"
#include "tessera/ze_tessera.h"

using namespace tessera::core;
using tessera::ze::guarded;
using tessera::ze::valueQuery;

namespace {

// Intel's zex_graph.h gives its queries' answers other values than the specification's.
ze_result_t intelQueryAnswer(ze_result_t r) {
  if (r == kResultQueryTrue) return static_cast<ze_result_t>(0x7fff0000);
  if (r == kResultQueryFalse) return static_cast<ze_result_t>(0x7fff0001);
  return r;
}

// "pNext [in][optional] must be null or a pointer to an extension-specific structure": Tessera
// knows none for these functions.
ze_result_t noExtensions(const void* pNext) {
  return pNext ? ZE_RESULT_ERROR_UNSUPPORTED_FEATURE : ZE_RESULT_SUCCESS;
}

// Capture starts on an asynchronous immediate list: "The application must call this function only
// with an immediate command list", "must not call this function with a synchronous immediate
// command list"; one already capturing cannot start another capture.
ze_result_t beginOn(CommandList* list, Graph* graph) {
  if (!list->isImmediate() || list->immediateQueue()->synchronous() || list->capture())
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  return graph->begin(*list);
}

}  // namespace

ZE_APIEXPORT ze_result_t ZE_APICALL zeGraphCreateExt(ze_context_handle_t hContext,
                                                     const void* pNext, ze_graph_handle_t* phGraph) {
  Context* context = Context::fromHandle(hContext);
  if (!context) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!phGraph) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ze_result_t r = noExtensions(pNext); r != ZE_RESULT_SUCCESS) return r;
  return guarded([&] {
    *phGraph = Graph::create(*context)->toHandle();
    return ZE_RESULT_SUCCESS;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListBeginCaptureIntoGraphExt(
    ze_command_list_handle_t hCommandList, ze_graph_handle_t hGraph, const void* pNext) {
  CommandList* list = CommandList::fromHandle(hCommandList);
  Graph* graph = Graph::fromHandle(hGraph);
  if (!list || !graph) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (ze_result_t r = noExtensions(pNext); r != ZE_RESULT_SUCCESS) return r;
  return guarded([&] { return beginOn(list, graph); });
}

// A graph of its own, which zeCommandListEndGraphCaptureExt hands to the application.
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListBeginGraphCaptureExt(
    ze_command_list_handle_t hCommandList, const void* pNext) {
  CommandList* list = CommandList::fromHandle(hCommandList);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (ze_result_t r = noExtensions(pNext); r != ZE_RESULT_SUCCESS) return r;
  return guarded([&] {
    Graph* graph = Graph::create(list->context());
    graph->ownByCapture();
    ze_result_t r = beginOn(list, graph);
    if (r != ZE_RESULT_SUCCESS) graph->destroy();
    return r;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListIsGraphCaptureEnabledExt(
    ze_command_list_handle_t hCommandList) {
  CommandList* list = CommandList::fromHandle(hCommandList);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return list->capture() ? kResultQueryTrue : kResultQueryFalse;
}

// "This function may only be called on the primary command list"; "If capture mode is not active
// on the command list, an error is returned."
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListEndGraphCaptureExt(
    ze_command_list_handle_t hCommandList, const void* pNext, ze_graph_handle_t* phGraph) {
  CommandList* list = CommandList::fromHandle(hCommandList);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!phGraph) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ze_result_t r = noExtensions(pNext); r != ZE_RESULT_SUCCESS) return r;
  Graph* graph = list->capture();
  if (!graph) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  return guarded([&] {
    ze_result_t r = graph->end(*list);
    if (r == ZE_RESULT_SUCCESS) *phGraph = graph->toHandle();
    return r;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListGetGraphExt(ze_command_list_handle_t hCommandList,
                                                             ze_graph_handle_t* phGraph) {
  CommandList* list = CommandList::fromHandle(hCommandList);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!phGraph) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Graph* graph = list->capture();
  if (!graph) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  *phGraph = graph->toHandle();
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeGraphGetPrimaryCommandListExt(
    ze_graph_handle_t hGraph, ze_command_list_handle_t* phCommandList) {
  return valueQuery<Graph>(hGraph, phCommandList, [](Graph& g) -> ze_command_list_handle_t {
    CommandList* primary = g.primary();
    return primary ? primary->toHandle() : nullptr;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeGraphSetDestructionCallbackExt(
    ze_graph_handle_t hGraph, zex_mem_graph_free_callback_fn_t pfnCallback, void* pUserData,
    const void* pNext) {
  Graph* graph = Graph::fromHandle(hGraph);
  if (!graph) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (ze_result_t r = noExtensions(pNext); r != ZE_RESULT_SUCCESS) return r;
  graph->setDestructionCallback(pfnCallback, pUserData);
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeGraphInstantiateExt(
    ze_graph_handle_t hGraph, const void* pNext, ze_executable_graph_handle_t* phExecutableGraph) {
  Graph* graph = Graph::fromHandle(hGraph);
  if (!graph) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!phExecutableGraph) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ze_result_t r = noExtensions(pNext); r != ZE_RESULT_SUCCESS) return r;
  return guarded([&] {
    ExecutableGraph* out = nullptr;
    ze_result_t r = ExecutableGraph::create(*graph, out);
    if (r == ZE_RESULT_SUCCESS) *phExecutableGraph = out->toHandle();
    return r;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendGraphExt(
    ze_command_list_handle_t hCommandList, ze_executable_graph_handle_t hGraph, const void* pNext,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  CommandList* list = CommandList::fromHandle(hCommandList);
  ExecutableGraph* graph = ExecutableGraph::fromHandle(hGraph);
  if (!list || !graph) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!phWaitEvents && numWaitEvents > 0) return ZE_RESULT_ERROR_INVALID_SIZE;
  if (ze_result_t r = noExtensions(pNext); r != ZE_RESULT_SUCCESS) return r;
  return guarded(
      [&] { return list->appendGraph(*graph, {hSignalEvent, numWaitEvents, phWaitEvents}); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeExecutableGraphGetSourceGraphExt(
    ze_executable_graph_handle_t hGraph, ze_graph_handle_t* phSourceGraph) {
  return valueQuery<ExecutableGraph>(hGraph, phSourceGraph, [](ExecutableGraph& g) {
    return static_cast<ze_graph_handle_t>(g.source().toHandle());
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeGraphIsEmptyExt(ze_graph_handle_t hGraph) {
  Graph* graph = Graph::fromHandle(hGraph);
  if (!graph) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return graph->empty() ? kResultQueryTrue : kResultQueryFalse;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeGraphDumpContentsExt(ze_graph_handle_t hGraph,
                                                           const char* filePath,
                                                           const void* pNext) {
  Graph* graph = Graph::fromHandle(hGraph);
  if (!graph) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!filePath) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ze_result_t r = noExtensions(pNext); r != ZE_RESULT_SUCCESS) return r;
  return guarded([&] { return graph->dumpDot(filePath); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeExecutableGraphDestroyExt(ze_executable_graph_handle_t hGraph) {
  ExecutableGraph* graph = ExecutableGraph::fromHandle(hGraph);
  if (!graph) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  graph->destroy();
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeGraphDestroyExt(ze_graph_handle_t hGraph) {
  Graph* graph = Graph::fromHandle(hGraph);
  if (!graph) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return graph->destroy();
}

// Intel's names (zex_graph.h): the output and pNext in the other order in three of them, and its
// own values for the queries' answers.
ze_result_t ZE_APICALL zeGraphCreateExp(ze_context_handle_t hContext, ze_graph_handle_t* phGraph,
                                        void* pNext) {
  return zeGraphCreateExt(hContext, pNext, phGraph);
}
ze_result_t ZE_APICALL zeCommandListBeginGraphCaptureExp(ze_command_list_handle_t hCommandList,
                                                         void* pNext) {
  return zeCommandListBeginGraphCaptureExt(hCommandList, pNext);
}
ze_result_t ZE_APICALL zeCommandListBeginCaptureIntoGraphExp(ze_command_list_handle_t hCommandList,
                                                             ze_graph_handle_t hGraph,
                                                             void* pNext) {
  return zeCommandListBeginCaptureIntoGraphExt(hCommandList, hGraph, pNext);
}
// A null phGraph is taken (Intel's driver takes it, and compute-benchmarks' RecordGraph passes it
// after capturing into a graph of its own): the graph is the application's already. A graph of
// the capture's own (zeCommandListBeginGraphCaptureExp) that nobody receives is destroyed.
ze_result_t ZE_APICALL zeCommandListEndGraphCaptureExp(ze_command_list_handle_t hCommandList,
                                                       ze_graph_handle_t* phGraph, void* pNext) {
  if (phGraph) return zeCommandListEndGraphCaptureExt(hCommandList, pNext, phGraph);
  CommandList* list = CommandList::fromHandle(hCommandList);
  Graph* graph = list ? list->capture() : nullptr;
  const bool unclaimed = graph && graph->ownedByCapture();
  ze_graph_handle_t ended = nullptr;
  ze_result_t r = zeCommandListEndGraphCaptureExt(hCommandList, pNext, &ended);
  if (r == ZE_RESULT_SUCCESS && unclaimed) zeGraphDestroyExt(ended);
  return r;
}
ze_result_t ZE_APICALL zeCommandListInstantiateGraphExp(
    ze_graph_handle_t hGraph, ze_executable_graph_handle_t* phExecutableGraph, void* pNext) {
  return zeGraphInstantiateExt(hGraph, pNext, phExecutableGraph);
}
ze_result_t ZE_APICALL zeCommandListAppendGraphExp(ze_command_list_handle_t hCommandList,
                                                   ze_executable_graph_handle_t hGraph,
                                                   void* pNext, ze_event_handle_t hSignalEvent,
                                                   uint32_t numWaitEvents,
                                                   ze_event_handle_t* phWaitEvents) {
  return zeCommandListAppendGraphExt(hCommandList, hGraph, pNext, hSignalEvent, numWaitEvents,
                                     phWaitEvents);
}
ze_result_t ZE_APICALL zeGraphDestroyExp(ze_graph_handle_t hGraph) {
  return zeGraphDestroyExt(hGraph);
}
ze_result_t ZE_APICALL zeExecutableGraphDestroyExp(ze_executable_graph_handle_t hGraph) {
  return zeExecutableGraphDestroyExt(hGraph);
}
ze_result_t ZE_APICALL zeCommandListIsGraphCaptureEnabledExp(ze_command_list_handle_t hCommandList) {
  return intelQueryAnswer(zeCommandListIsGraphCaptureEnabledExt(hCommandList));
}
ze_result_t ZE_APICALL zeGraphIsEmptyExp(ze_graph_handle_t hGraph) {
  return intelQueryAnswer(zeGraphIsEmptyExt(hGraph));
}
ze_result_t ZE_APICALL zeGraphDumpContentsExp(ze_graph_handle_t hGraph, const char* filePath,
                                              void* pNext) {
  return zeGraphDumpContentsExt(hGraph, filePath, pNext);
}
ze_result_t ZE_APICALL zeCommandListGetGraphExp(ze_command_list_handle_t hCommandList,
                                                ze_graph_handle_t* phGraph) {
  return zeCommandListGetGraphExt(hCommandList, phGraph);
}
ze_result_t ZE_APICALL zeGraphSetDestructionCallbackExp(ze_graph_handle_t hGraph,
                                                        zex_mem_graph_free_callback_fn_t pfnCallback,
                                                        void* pUserData, void* pNext) {
  return zeGraphSetDestructionCallbackExt(hGraph, pfnCallback, pUserData, pNext);
}
