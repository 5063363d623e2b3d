// What the device does not support, through ocl-icd: pipes, OpenGL and EGL sharing. Each entry
// point checks its handles, then refuses with the spec's code; creators return null with
// errcode_ret set.
#include <CL/cl_egl.h>
#include <CL/cl_gl.h>

#include "cl_test_support.h"

using namespace tessera::cltest;

namespace {
constexpr cl_int kUntouched = 12345;
}

TEST_CASE("Given pipes, then creation is refused and no memory object is a pipe", "[cl][pipe]") {
  ClFixture fx;
  cl_int err = CL_SUCCESS;
  cl_mem buf = clCreateBuffer(fx.ctx, 0, 1024, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  err = kUntouched;
  CHECK(clCreatePipe(fx.ctx, 0, 4, 16, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_OPERATION);
  err = kUntouched;
  CHECK(clCreatePipe(reinterpret_cast<cl_context>(fx.queue), 0, 4, 16, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_CONTEXT);
  cl_uint packet = 0;
  // The 3.0 backwards-compatibility table: "Returns CL_INVALID_MEM_OBJECT since pipe cannot be a
  // valid pipe object" (the CTS's api consistency test passes a buffer).
  CHECK(clGetPipeInfo(buf, CL_PIPE_PACKET_SIZE, sizeof packet, &packet, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  CHECK(clGetPipeInfo(reinterpret_cast<cl_mem>(fx.ctx), CL_PIPE_PACKET_SIZE, sizeof packet, &packet,
                      nullptr) == CL_INVALID_MEM_OBJECT);
  // Nothing was enqueued: the queue still finishes at once.
  CHECK(clFinish(fx.queue) == CL_SUCCESS);
  clReleaseMemObject(buf);
}

TEST_CASE("Given OpenGL and EGL sharing entry points, then they refuse without a GL or EGL "
          "context",
          "[cl][interop]") {
  ClFixture fx;
  cl_int err = CL_SUCCESS;
  cl_mem buf = clCreateBuffer(fx.ctx, 0, 64, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  err = kUntouched;
  CHECK(clCreateFromGLBuffer(fx.ctx, 0, 1, &err) == nullptr);
  CHECK(err == CL_INVALID_CONTEXT);
  err = kUntouched;
  CHECK(clCreateFromGLTexture(fx.ctx, 0, 0x0DE1, 0, 1, &err) == nullptr);
  CHECK(err == CL_INVALID_CONTEXT);
  err = kUntouched;
  CHECK(clCreateFromGLTexture2D(fx.ctx, 0, 0x0DE1, 0, 1, &err) == nullptr);
  CHECK(err == CL_INVALID_CONTEXT);
  err = kUntouched;
  CHECK(clCreateFromGLTexture3D(fx.ctx, 0, 0x806F, 0, 1, &err) == nullptr);
  CHECK(err == CL_INVALID_CONTEXT);
  err = kUntouched;
  CHECK(clCreateFromGLRenderbuffer(fx.ctx, 0, 1, &err) == nullptr);
  CHECK(err == CL_INVALID_CONTEXT);
  cl_gl_object_type type = 0;
  cl_GLuint name = 0;
  CHECK(clGetGLObjectInfo(buf, &type, &name) == CL_INVALID_GL_OBJECT);
  CHECK(clGetGLTextureInfo(buf, CL_GL_TEXTURE_TARGET, 0, nullptr, nullptr) == CL_INVALID_GL_OBJECT);
  CHECK(clEnqueueAcquireGLObjects(fx.queue, 1, &buf, 0, nullptr, nullptr) == CL_INVALID_CONTEXT);
  CHECK(clEnqueueReleaseGLObjects(fx.queue, 1, &buf, 0, nullptr, nullptr) == CL_INVALID_CONTEXT);
  CHECK(clEnqueueAcquireGLObjects(fx.queue, 1, nullptr, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueAcquireGLObjects(fx.queue, 0, &buf, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  cl_mem bad = reinterpret_cast<cl_mem>(fx.ctx);
  CHECK(clEnqueueReleaseGLObjects(fx.queue, 1, &bad, 0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
  // No GL context can be named: ocl-icd passes the call on by the platform in the properties.
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                   reinterpret_cast<cl_context_properties>(platform()),
                                   CL_GL_CONTEXT_KHR, 0, 0};
  cl_device_id dev = nullptr;
  CHECK(clGetGLContextInfoKHR(props, CL_CURRENT_DEVICE_FOR_GL_CONTEXT_KHR, sizeof dev, &dev,
                              nullptr) == CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR);
  CHECK(clGetGLContextInfoKHR(props, 0x4242, sizeof dev, &dev, nullptr) == CL_INVALID_VALUE);
  err = kUntouched;
  CHECK(clCreateEventFromGLsyncKHR(fx.ctx, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_CONTEXT);
  // EGL.
  err = kUntouched;
  CHECK(clCreateFromEGLImageKHR(fx.ctx, nullptr, nullptr, 0, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_OPERATION);
  CHECK(clEnqueueAcquireEGLObjectsKHR(fx.queue, 1, &buf, 0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clEnqueueReleaseEGLObjectsKHR(fx.queue, 1, &buf, 0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clEnqueueReleaseEGLObjectsKHR(fx.queue, 1, nullptr, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  err = kUntouched;
  CHECK(clCreateEventFromEGLSyncKHR(fx.ctx, nullptr, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_OPERATION);
  clReleaseMemObject(buf);
}
