// What the device does not support, through ocl-icd: images, pipes, OpenGL and EGL sharing. Each
// entry point checks its handles, then refuses with the spec's code; creators return null with
// errcode_ret set.
#include <CL/cl_egl.h>
#include <CL/cl_gl.h>

#include "cl_test_support.h"

using namespace tessera::cltest;

namespace {
constexpr cl_int kUntouched = 12345;
}

TEST_CASE("Given a context without image support, then image creation is refused and no format "
          "is listed",
          "[cl][image]") {
  ClFixture fx;
  cl_image_format format{CL_RGBA, CL_UNORM_INT8};
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = 16;
  desc.image_height = 16;
  cl_int err = kUntouched;
  CHECK(clCreateImage(fx.ctx, CL_MEM_READ_WRITE, &format, &desc, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_OPERATION);
  err = kUntouched;
  CHECK(clCreateImageWithProperties(fx.ctx, nullptr, CL_MEM_READ_WRITE, &format, &desc, nullptr,
                                    &err) == nullptr);
  CHECK(err == CL_INVALID_OPERATION);
  err = kUntouched;
  CHECK(clCreateImage2D(fx.ctx, CL_MEM_READ_WRITE, &format, 16, 16, 0, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_OPERATION);
  err = kUntouched;
  CHECK(clCreateImage3D(fx.ctx, CL_MEM_READ_WRITE, &format, 16, 16, 2, 0, 0, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_OPERATION);
  // Null errcode_ret is fine.
  CHECK(clCreateImage(fx.ctx, CL_MEM_READ_WRITE, &format, &desc, nullptr, nullptr) == nullptr);
  // A context that is not one: ocl-icd refuses a null handle itself; ours refuses a foreign one.
  err = kUntouched;
  CHECK(clCreateImage(reinterpret_cast<cl_context>(fx.queue), 0, &format, &desc, nullptr, &err) ==
        nullptr);
  CHECK(err == CL_INVALID_CONTEXT);

  cl_uint count = 99;
  CHECK(clGetSupportedImageFormats(fx.ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, nullptr,
                                   &count) == CL_SUCCESS);
  CHECK(count == 0);
  cl_image_format formats[4];
  count = 99;
  CHECK(clGetSupportedImageFormats(fx.ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE3D, 4, formats,
                                   &count) == CL_SUCCESS);
  CHECK(count == 0);
  CHECK(clGetSupportedImageFormats(fx.ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_BUFFER, 0, nullptr,
                                   &count) == CL_INVALID_VALUE);
  CHECK(clGetSupportedImageFormats(fx.ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, formats,
                                   &count) == CL_INVALID_VALUE);
  CHECK(clGetSupportedImageFormats(fx.ctx, cl_mem_flags(1) << 40, CL_MEM_OBJECT_IMAGE2D, 0,
                                   nullptr, &count) == CL_INVALID_VALUE);
  CHECK(clGetSupportedImageFormats(reinterpret_cast<cl_context>(fx.queue), 0, CL_MEM_OBJECT_IMAGE2D,
                                   0, nullptr, &count) == CL_INVALID_CONTEXT);
}

TEST_CASE("Given image commands, then handles are checked and the command is refused",
          "[cl][image]") {
  ClFixture fx;
  cl_int err = CL_SUCCESS;
  cl_mem buf = clCreateBuffer(fx.ctx, 0, 1024, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  ClFixture other;
  cl_mem foreign = clCreateBuffer(other.ctx, 0, 64, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  size_t origin[3] = {0, 0, 0}, region[3] = {1, 1, 1};
  unsigned char data[64] = {};
  float color[4] = {};
  CHECK(clGetImageInfo(buf, CL_IMAGE_WIDTH, 0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clEnqueueReadImage(fx.queue, buf, CL_TRUE, origin, region, 0, 0, data, 0, nullptr, nullptr) ==
        CL_INVALID_OPERATION);
  CHECK(clEnqueueReadImage(fx.queue, foreign, CL_TRUE, origin, region, 0, 0, data, 0, nullptr,
                           nullptr) == CL_INVALID_CONTEXT);
  CHECK(clEnqueueReadImage(fx.queue, reinterpret_cast<cl_mem>(fx.ctx), CL_TRUE, origin, region, 0,
                           0, data, 0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clEnqueueReadImage(reinterpret_cast<cl_command_queue>(fx.ctx), buf, CL_TRUE, origin,
                           region, 0, 0, data, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueWriteImage(fx.queue, buf, CL_TRUE, origin, region, 0, 0, data, 0, nullptr,
                            nullptr) == CL_INVALID_OPERATION);
  CHECK(clEnqueueCopyImage(fx.queue, buf, buf, origin, origin, region, 0, nullptr, nullptr) ==
        CL_INVALID_OPERATION);
  CHECK(clEnqueueFillImage(fx.queue, buf, color, origin, region, 0, nullptr, nullptr) ==
        CL_INVALID_OPERATION);
  CHECK(clEnqueueCopyImageToBuffer(fx.queue, buf, buf, origin, region, 0, 0, nullptr, nullptr) ==
        CL_INVALID_OPERATION);
  CHECK(clEnqueueCopyBufferToImage(fx.queue, buf, buf, 0, origin, region, 0, nullptr, nullptr) ==
        CL_INVALID_OPERATION);
  CHECK(clEnqueueCopyBufferToImage(fx.queue, buf, foreign, 0, origin, region, 0, nullptr,
                                   nullptr) == CL_INVALID_CONTEXT);
  size_t pitch = 0;
  err = kUntouched;
  CHECK(clEnqueueMapImage(fx.queue, buf, CL_TRUE, CL_MAP_READ, origin, region, &pitch, nullptr, 0,
                          nullptr, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_OPERATION);
  // Pipes.
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
  clReleaseMemObject(foreign);
  clReleaseMemObject(buf);
}

TEST_CASE("Given OpenGL and EGL sharing entry points, then they refuse without a GL or EGL "
          "context",
          "[cl][image][interop]") {
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
