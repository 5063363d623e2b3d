// What the device does not have: pipes (CL_DEVICE_PIPE_SUPPORT is CL_FALSE) and OpenGL / EGL
// sharing (no cl_khr_gl_sharing, cl_khr_gl_event, cl_khr_egl_image or cl_khr_egl_event). Every
// entry point still checks its handles first, then answers with the error the spec names for a
// context whose devices lack the feature; functions returning a handle return null with
// *errcode_ret set.
#include "cl_shim/api.h"
#include "cl_shim/api_support.h"
#include "cl_shim/memory.h"
#include "cl_shim/queue.h"

namespace tessera::cl::api {
namespace {

template <typename T>
T* refuse(cl_int* errcode_ret, cl_int err) {
  if (errcode_ret) *errcode_ret = err;
  return nullptr;
}

// Interop acquire/release: the queue, then "CL_INVALID_VALUE if num_objects is zero and
// mem_objects is not a NULL value or if num_objects > 0 and mem_objects is NULL", then the objects.
cl_int checkInteropObjects(cl_command_queue queue, cl_uint n, const cl_mem* mems, cl_uint nw,
                           const cl_event* waits) {
  Queue* q = Queue::from(queue);
  if (!q) return CL_INVALID_COMMAND_QUEUE;
  if ((n == 0) != (mems == nullptr)) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < n; ++i)
    if (!Memory::from(mems[i])) return CL_INVALID_MEM_OBJECT;
  if (!waitListShapeOk(nw, waits)) return CL_INVALID_EVENT_WAIT_LIST;
  return CL_SUCCESS;
}

// GL objects: "CL_INVALID_CONTEXT if context is not a valid context or was not created from a GL
// context" — no context here is.
cl_mem refuseGl(cl_context, cl_int* errcode_ret) {
  return refuse<_cl_mem>(errcode_ret, CL_INVALID_CONTEXT);
}

}  // namespace

// --- Pipes ----------------------------------------------------------------------------------------

cl_mem clCreatePipe(cl_context context, cl_mem_flags, cl_uint, cl_uint, const cl_pipe_properties*,
                    cl_int* errcode_ret) {
  // "CL_INVALID_OPERATION if no devices in context support pipes."
  return refuse<_cl_mem>(errcode_ret,
                         Context::from(context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT);
}

cl_int clGetPipeInfo(cl_mem pipe, cl_pipe_info, size_t, void*, size_t*) {
  // The 3.0 backwards-compatibility table, for devices without pipes: "clGetPipeInfo: Returns
  // CL_INVALID_MEM_OBJECT since pipe cannot be a valid pipe object" (also what the function's
  // own list says: "CL_INVALID_MEM_OBJECT if pipe is a not a valid pipe object").
  (void)pipe;
  return CL_INVALID_MEM_OBJECT;
}

// --- OpenGL sharing (cl_khr_gl_sharing, cl_khr_gl_event) -----------------------------------------

cl_mem clCreateFromGLBuffer(cl_context context, cl_mem_flags, cl_GLuint, cl_int* errcode_ret) {
  return refuseGl(context, errcode_ret);
}

cl_mem clCreateFromGLTexture(cl_context context, cl_mem_flags, cl_GLenum, cl_GLint, cl_GLuint,
                             cl_int* errcode_ret) {
  return refuseGl(context, errcode_ret);
}

cl_mem clCreateFromGLTexture2D(cl_context context, cl_mem_flags, cl_GLenum, cl_GLint, cl_GLuint,
                               cl_int* errcode_ret) {
  return refuseGl(context, errcode_ret);
}

cl_mem clCreateFromGLTexture3D(cl_context context, cl_mem_flags, cl_GLenum, cl_GLint, cl_GLuint,
                               cl_int* errcode_ret) {
  return refuseGl(context, errcode_ret);
}

cl_mem clCreateFromGLRenderbuffer(cl_context context, cl_mem_flags, cl_GLuint,
                                  cl_int* errcode_ret) {
  return refuseGl(context, errcode_ret);
}

cl_int clGetGLObjectInfo(cl_mem memobj, cl_gl_object_type*, cl_GLuint*) {
  // "CL_INVALID_MEM_OBJECT if memobj is not a valid OpenCL memory object"; "CL_INVALID_GL_OBJECT
  // if there is no GL object associated with memobj".
  return Memory::from(memobj) ? CL_INVALID_GL_OBJECT : CL_INVALID_MEM_OBJECT;
}

cl_int clGetGLTextureInfo(cl_mem memobj, cl_gl_texture_info, size_t, void*, size_t*) {
  // "CL_INVALID_GL_OBJECT if there is no GL texture object associated with memobj".
  return Memory::from(memobj) ? CL_INVALID_GL_OBJECT : CL_INVALID_MEM_OBJECT;
}

cl_int clEnqueueAcquireGLObjects(cl_command_queue command_queue, cl_uint num_objects,
                                 const cl_mem* mem_objects, cl_uint num_events_in_wait_list,
                                 const cl_event* event_wait_list, cl_event*) {
  cl_int err = checkInteropObjects(command_queue, num_objects, mem_objects,
                                   num_events_in_wait_list, event_wait_list);
  // "CL_INVALID_CONTEXT if context associated with command_queue was not created from an OpenGL
  // context".
  return err != CL_SUCCESS ? err : CL_INVALID_CONTEXT;
}

cl_int clEnqueueReleaseGLObjects(cl_command_queue command_queue, cl_uint num_objects,
                                 const cl_mem* mem_objects, cl_uint num_events_in_wait_list,
                                 const cl_event* event_wait_list, cl_event*) {
  cl_int err = checkInteropObjects(command_queue, num_objects, mem_objects,
                                   num_events_in_wait_list, event_wait_list);
  return err != CL_SUCCESS ? err : CL_INVALID_CONTEXT;
}

cl_int clGetGLContextInfoKHR(const cl_context_properties* properties,
                             cl_gl_context_info param_name, size_t, void*, size_t*) {
  // "CL_INVALID_VALUE if param_name is not one of the values listed"; with no GL context to share
  // with, "CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR if a context was specified ... and does not
  // identify a valid OpenGL or OpenGL ES context", and nothing here identifies one.
  if (param_name != CL_CURRENT_DEVICE_FOR_GL_CONTEXT_KHR && param_name != CL_DEVICES_FOR_GL_CONTEXT_KHR)
    return CL_INVALID_VALUE;
  (void)properties;
  return CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR;
}

cl_event clCreateEventFromGLsyncKHR(cl_context context, cl_GLsync, cl_int* errcode_ret) {
  // "CL_INVALID_CONTEXT if context is not a valid context, or was not created from a GL context."
  (void)context;
  return refuse<_cl_event>(errcode_ret, CL_INVALID_CONTEXT);
}

// --- EGL (cl_khr_egl_image, cl_khr_egl_event) -----------------------------------------------------

cl_mem clCreateFromEGLImageKHR(cl_context context, CLeglDisplayKHR, CLeglImageKHR, cl_mem_flags,
                               const cl_egl_image_properties_khr*, cl_int* errcode_ret) {
  // "CL_INVALID_CONTEXT if context is not a valid OpenCL context"; cl_khr_egl_image is not
  // reported, so no EGL image can become an image: CL_INVALID_OPERATION, as for a feature the
  // context's devices lack.
  return refuse<_cl_mem>(errcode_ret,
                         Context::from(context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT);
}

cl_int clEnqueueAcquireEGLObjectsKHR(cl_command_queue command_queue, cl_uint num_objects,
                                     const cl_mem* mem_objects, cl_uint num_events_in_wait_list,
                                     const cl_event* event_wait_list, cl_event*) {
  cl_int err = checkInteropObjects(command_queue, num_objects, mem_objects,
                                   num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS) return err;
  // "CL_INVALID_MEM_OBJECT if memory objects in mem_objects ... have not been created from EGL
  // resources": none is. With no objects there is still no EGL to acquire from.
  return num_objects ? CL_INVALID_MEM_OBJECT : CL_INVALID_OPERATION;
}

cl_int clEnqueueReleaseEGLObjectsKHR(cl_command_queue command_queue, cl_uint num_objects,
                                     const cl_mem* mem_objects, cl_uint num_events_in_wait_list,
                                     const cl_event* event_wait_list, cl_event*) {
  cl_int err = checkInteropObjects(command_queue, num_objects, mem_objects,
                                   num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS) return err;
  return num_objects ? CL_INVALID_MEM_OBJECT : CL_INVALID_OPERATION;
}

cl_event clCreateEventFromEGLSyncKHR(cl_context context, CLeglSyncKHR, CLeglDisplayKHR,
                                     cl_int* errcode_ret) {
  // "CL_INVALID_CONTEXT if context is not a valid OpenCL context"; the device has no EGL sync
  // support.
  return refuse<_cl_event>(errcode_ret,
                           Context::from(context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT);
}

}  // namespace tessera::cl::api
