// Memory object entry points: buffers, sub-buffers, their queries, references and destructor
// callbacks, for buffers and images. The objects are in memory.h; images are created in
// api_image.cpp, pipes refused in api_unsupported_interop.cpp.
#include "cl_shim/api.h"
#include "cl_shim/api_support.h"
#include "cl_shim/memory.h"

namespace tessera::cl::api {
namespace {

cl_mem createBuffer(cl_context context, const cl_mem_properties* properties, cl_mem_flags flags,
                    size_t size, void* host_ptr, cl_int& err) {
  Context* c = Context::from(context);
  if (!c) { err = CL_INVALID_CONTEXT; return nullptr; }
  std::vector<cl_mem_properties> props;
  if (properties) {
    // OpenCL 3.0 core defines no buffer property: "CL_INVALID_PROPERTY if a property name in
    // properties is not a supported property name".
    if (properties[0] != 0) { err = CL_INVALID_PROPERTY; return nullptr; }
    // CL_MEM_PROPERTIES: "If the properties argument specified in clCreateBufferWithProperties ...
    // used to create memobj was not NULL, the implementation must return the values specified in
    // the properties argument in the same order and without including additional properties."
    props.push_back(0);
  }
  Memory* m = Memory::createBuffer(*c, flags, size, host_ptr, std::move(props), err);
  return m ? m->handle() : nullptr;
}

}  // namespace

cl_mem clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr,
                      cl_int* errcode_ret) {
  return guardedCreate(errcode_ret, [&](cl_int& err) {
    return createBuffer(context, nullptr, flags, size, host_ptr, err);
  });
}

cl_mem clCreateBufferWithProperties(cl_context context, const cl_mem_properties* properties,
                                    cl_mem_flags flags, size_t size, void* host_ptr,
                                    cl_int* errcode_ret) {
  return guardedCreate(errcode_ret, [&](cl_int& err) {
    return createBuffer(context, properties, flags, size, host_ptr, err);
  });
}

cl_mem clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type buffer_create_type,
                         const void* buffer_create_info, cl_int* errcode_ret) {
  return guardedCreate(errcode_ret, [&](cl_int& err) -> cl_mem {
    // "CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object" (an image is not one).
    Memory* parent = Memory::buffer(buffer);
    if (!parent) { err = CL_INVALID_MEM_OBJECT; return nullptr; }
    // "CL_INVALID_VALUE if the value specified in buffer_create_type is not valid" and "if value(s)
    // specified in buffer_create_info (for a given buffer_create_type) is not valid or if
    // buffer_create_info is NULL".
    if (buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION || !buffer_create_info) {
      err = CL_INVALID_VALUE;
      return nullptr;
    }
    auto* region = static_cast<const cl_buffer_region*>(buffer_create_info);
    Memory* m = Memory::createSubBuffer(*parent, flags, region->origin, region->size, err);
    return m ? m->handle() : nullptr;
  });
}

cl_int clRetainMemObject(cl_mem memobj) {
  Memory* m = Memory::from(memobj);
  if (!m) return CL_INVALID_MEM_OBJECT;
  m->retainApi();
  return CL_SUCCESS;
}

cl_int clReleaseMemObject(cl_mem memobj) {
  Memory* m = Memory::from(memobj);
  if (!m) return CL_INVALID_MEM_OBJECT;
  // "After the memobj reference count becomes zero and commands queued for execution on a
  // command-queue(s) that use memobj have finished, the memory object is deleted": the commands
  // hold internal references (Queue::enqueue's holds).
  return guarded([&] {
    m->releaseApi();
    return CL_SUCCESS;
  });
}

cl_int clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name, size_t param_value_size,
                          void* param_value, size_t* param_value_size_ret) {
  return guarded([&] {
    Memory* m = Memory::from(memobj);
    if (!m) return CL_INVALID_MEM_OBJECT;
    return m->info(param_name, param_value_size, param_value, param_value_size_ret);
  });
}

cl_int clSetMemObjectDestructorCallback(cl_mem memobj, MemDestructorNotify pfn_notify,
                                        void* user_data) {
  Memory* m = Memory::from(memobj);
  if (!m) return CL_INVALID_MEM_OBJECT;
  // "CL_INVALID_VALUE if pfn_notify is NULL."
  if (!pfn_notify) return CL_INVALID_VALUE;
  return guarded([&] {
    m->addDestructorCallback(pfn_notify, user_data);
    return CL_SUCCESS;
  });
}

}  // namespace tessera::cl::api
