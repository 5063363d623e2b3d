// The Level Zero handle types are pointers to structs the headers only declare. Tessera defines them
// as empty bases of its objects, so a handle is the object's address (see object.h).
#pragma once

#include <level_zero/ze_api.h>

struct _ze_driver_handle_t {};
struct _ze_device_handle_t {};
struct _ze_context_handle_t {};
struct _ze_command_queue_handle_t {};
struct _ze_command_list_handle_t {};
struct _ze_fence_handle_t {};
struct _ze_event_pool_handle_t {};
struct _ze_event_handle_t {};
struct _ze_module_handle_t {};
struct _ze_module_build_log_handle_t {};
struct _ze_kernel_handle_t {};
struct _ze_physical_mem_handle_t {};
struct _ze_image_handle_t {};
struct _ze_sampler_handle_t {};
// Level Zero 1.17's record and replay graphs (core/cmdlist/graph.h), which Debian's headers lack.
struct _ze_graph_handle_t {};
struct _ze_executable_graph_handle_t {};
