// The ICD entry points (cl_khr_icd) and the dispatch table. Only clIcdGetPlatformIDsKHR and
// clGetExtensionFunctionAddress are exported: ocl-icd finds the first through the second, then calls
// everything else through the table. The table holds cl_shim's own functions, never exported cl*
// names, which the ICD loader would interpose with its own.
#include <cstring>
#include <tuple>
#include <type_traits>

#include "cl_shim/api.h"
#include "cl_shim/api_log.h"
#include "cl_shim/extension_functions.h"
#include "cl_shim/platform.h"
#include "config/settings.h"

namespace tessera::cl {
namespace {

// Fills the Direct3D and DX9 slots.
cl_int CL_API_CALL refuseWindowsOnly() { return CL_INVALID_OPERATION; }

template <typename Slot, typename F>
void set(Slot& slot, F f) {
  slot = reinterpret_cast<Slot>(reinterpret_cast<void*>(f));
}

cl_icd_dispatch makeTable() {
  cl_icd_dispatch t;
  std::memset(&t, 0, sizeof t);
#define TESSERA_CL_FILL(name) set(t.name, entryPoint<#name, &api::name>());
  TESSERA_CL_DISPATCH(TESSERA_CL_FILL)
#undef TESSERA_CL_FILL
  // Direct3D and DX9 media sharing: Windows only, never reachable here; filled anyway.
  auto* refuse = &refuseWindowsOnly;
  set(t.clGetDeviceIDsFromD3D10KHR, refuse);
  set(t.clCreateFromD3D10BufferKHR, refuse);
  set(t.clCreateFromD3D10Texture2DKHR, refuse);
  set(t.clCreateFromD3D10Texture3DKHR, refuse);
  set(t.clEnqueueAcquireD3D10ObjectsKHR, refuse);
  set(t.clEnqueueReleaseD3D10ObjectsKHR, refuse);
  set(t.clGetDeviceIDsFromD3D11KHR, refuse);
  set(t.clCreateFromD3D11BufferKHR, refuse);
  set(t.clCreateFromD3D11Texture2DKHR, refuse);
  set(t.clCreateFromD3D11Texture3DKHR, refuse);
  set(t.clCreateFromDX9MediaSurfaceKHR, refuse);
  set(t.clEnqueueAcquireD3D11ObjectsKHR, refuse);
  set(t.clEnqueueReleaseD3D11ObjectsKHR, refuse);
  set(t.clGetDeviceIDsFromDX9MediaAdapterKHR, refuse);
  set(t.clEnqueueAcquireDX9MediaSurfacesKHR, refuse);
  set(t.clEnqueueReleaseDX9MediaSurfacesKHR, refuse);
  return t;
}

}  // namespace

bool apiLogOn() {
  static const bool on = [] {
    std::vector<std::string> warnings;  // the driver library reports them (trace/trace.cpp)
    return config::TraceSettings::fromEnvironment(warnings).apiLog;
  }();
  return on;
}

cl_icd_dispatch* dispatchTable() {
  static cl_icd_dispatch table = makeTable();
  return &table;
}

}  // namespace tessera::cl

using namespace tessera::cl;

extern "C" {

__attribute__((visibility("default"))) CL_API_ENTRY cl_int CL_API_CALL
clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id* platforms, cl_uint* num_platforms) {
  return api::clGetPlatformIDs(num_entries, platforms, num_platforms);
}

__attribute__((visibility("default"))) CL_API_ENTRY void* CL_API_CALL
clGetExtensionFunctionAddress(const char* func_name) {
  return extensionFunction(func_name);
}

}  // extern "C"
