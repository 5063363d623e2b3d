// Context entry points.
#include "cl_shim/api.h"
#include "cl_shim/api_support.h"
#include "cl_shim/context.h"
#include "cl_shim/platform.h"

namespace tessera::cl::api {

cl_context clCreateContext(const cl_context_properties* properties, cl_uint num_devices,
                           const cl_device_id* devices, ContextNotify pfn_notify, void* user_data,
                           cl_int* errcode_ret) {
  return guardedCreate(errcode_ret, [&](cl_int& err) -> cl_context {
    // "CL_INVALID_VALUE if devices is NULL; if num_devices is equal to zero; or if pfn_notify is
    // NULL but user_data is not NULL."
    if (!devices || num_devices == 0 || (!pfn_notify && user_data)) {
      err = CL_INVALID_VALUE;
      return nullptr;
    }
    std::vector<Device*> list;
    for (cl_uint i = 0; i < num_devices; ++i) {
      Device* d = Device::from(devices[i]);
      if (!d) { err = CL_INVALID_DEVICE; return nullptr; }
      list.push_back(d);
    }
    Context* c = Context::create(properties, std::move(list), pfn_notify, user_data, err);
    return c ? c->handle() : nullptr;
  });
}

cl_context clCreateContextFromType(const cl_context_properties* properties,
                                   cl_device_type device_type, ContextNotify pfn_notify,
                                   void* user_data, cl_int* errcode_ret) {
  return guardedCreate(errcode_ret, [&](cl_int& err) -> cl_context {
    if (!pfn_notify && user_data) { err = CL_INVALID_VALUE; return nullptr; }
    Platform* p = Platform::get();
    if (!p) { err = CL_INVALID_PLATFORM; return nullptr; }
    cl_uint n = 0;
    err = api::clGetDeviceIDs(p->handle(), device_type, 0, nullptr, &n);
    if (err == CL_INVALID_DEVICE_TYPE) return nullptr;
    if (n == 0) { err = CL_DEVICE_NOT_FOUND; return nullptr; }
    // cl_ext_device_fission: "Only root level devices are used to create the context."
    std::vector<cl_device_id> ids(n);
    err = api::clGetDeviceIDs(p->handle(), device_type, n, ids.data(), nullptr);
    if (err != CL_SUCCESS) return nullptr;
    std::vector<Device*> list;
    for (cl_device_id id : ids) list.push_back(Device::from(id));
    Context* c = Context::create(properties, std::move(list), pfn_notify, user_data, err);
    return c ? c->handle() : nullptr;
  });
}

cl_int clRetainContext(cl_context context) {
  Context* c = Context::from(context);
  if (!c) return CL_INVALID_CONTEXT;
  c->retainApi();
  return CL_SUCCESS;
}

cl_int clReleaseContext(cl_context context) {
  Context* c = Context::from(context);
  if (!c) return CL_INVALID_CONTEXT;
  c->releaseApi();
  return CL_SUCCESS;
}

cl_int clGetContextInfo(cl_context context, cl_context_info param_name, size_t param_value_size,
                        void* param_value, size_t* param_value_size_ret) {
  return guarded([&] {
    Context* c = Context::from(context);
    if (!c) return CL_INVALID_CONTEXT;
    return c->info(param_name, param_value_size, param_value, param_value_size_ret);
  });
}

cl_int clSetContextDestructorCallback(cl_context context, ContextDestructorNotify pfn_notify,
                                      void* user_data) {
  return guarded([&] {
    Context* c = Context::from(context);
    if (!c) return CL_INVALID_CONTEXT;
    if (!pfn_notify) return CL_INVALID_VALUE;
    c->addDestructorCallback(pfn_notify, user_data);
    return CL_SUCCESS;
  });
}

}  // namespace tessera::cl::api
