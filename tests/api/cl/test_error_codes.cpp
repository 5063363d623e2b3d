// Error codes and callbacks real clients and the CTS check: commands waiting on a failed user
// event, the OpenCL 3.0 answers for on-device queues and pipes, a buffer released while it is a
// kernel argument, kernel argument info without -cl-kernel-arg-info, sampler arguments and affinity
// domains the device does not report.
#include <atomic>
#include <chrono>
#include <thread>

#include "cl_program_support.h"
#include "image_test_support.h"

using namespace tessera::cltest;

namespace {

cl_int eventStatus(cl_event e) {
  cl_int s = 0;
  REQUIRE(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr) ==
          CL_SUCCESS);
  return s;
}

const char* kTouch = "__kernel void touch(__global int* p) { p[get_global_id(0)] += 1; }\n";

}  // namespace

TEST_CASE(
    "Given commands waiting on a user event set to an error, then they end with an error status "
    "and clWaitForEvents says so",
    "[cl][events][errors]") {
  ClFixture fx(nullptr, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_program p = builtProgram(fx, kTouch);
  cl_kernel k = makeKernel(p, "touch");
  cl_int err = CL_SUCCESS;
  cl_mem buf = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, 64 * sizeof(cl_int), nullptr, &err);
  REQUIRE(clSetKernelArg(k, 0, sizeof buf, &buf) == CL_SUCCESS);
  cl_event gate = clCreateUserEvent(fx.ctx, &err);
  REQUIRE(err == CL_SUCCESS);
  size_t n = 64;
  cl_event waiting[4], chained = nullptr, independent = nullptr;
  for (cl_event& e : waiting)
    REQUIRE(clEnqueueNDRangeKernel(fx.queue, k, 1, nullptr, &n, nullptr, 1, &gate, &e) ==
            CL_SUCCESS);
  // A command waiting on one of those, and one waiting on nothing.
  REQUIRE(clEnqueueMarkerWithWaitList(fx.queue, 1, &waiting[0], &chained) == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(fx.queue, k, 1, nullptr, &n, nullptr, 0, nullptr, &independent) ==
          CL_SUCCESS);
  static std::atomic<cl_int> seen{1};
  seen = 1;
  REQUIRE(clSetEventCallback(
              waiting[1], CL_COMPLETE, [](cl_event, cl_int s, void*) { seen = s; }, nullptr) ==
          CL_SUCCESS);
  for (cl_event e : waiting) {
    cl_int s = eventStatus(e);
    CHECK((s == CL_QUEUED || s == CL_SUBMITTED));
  }
  // "A negative integer value causes all enqueued commands that wait on this user event to be
  // terminated."
  REQUIRE(clSetUserEventStatus(gate, -1) == CL_SUCCESS);
  // "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the execution status of any of the events in
  // event_list is a negative integer value."
  CHECK(clWaitForEvents(4, waiting) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(clWaitForEvents(1, &chained) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(clWaitForEvents(1, &gate) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(clWaitForEvents(1, &independent) == CL_SUCCESS);
  for (cl_event e : waiting) CHECK(eventStatus(e) < 0);
  CHECK(eventStatus(chained) < 0);
  CHECK(eventStatus(independent) == CL_COMPLETE);
  CHECK(clFinish(fx.queue) == CL_SUCCESS);
  // The callback may run on another thread after the event is done: wait for it to be called.
  for (int i = 0; i < 30000 && seen.load() == 1; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  CHECK(seen.load() < 0);
  // A later command waiting on the failed event is terminated too.
  cl_event late = nullptr;
  REQUIRE(clEnqueueMarkerWithWaitList(fx.queue, 1, &gate, &late) == CL_SUCCESS);
  CHECK(clWaitForEvents(1, &late) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  // A user event that completes normally leaves its commands complete.
  cl_event ok = clCreateUserEvent(fx.ctx, &err);
  cl_event after = nullptr;
  REQUIRE(clEnqueueNDRangeKernel(fx.queue, k, 1, nullptr, &n, nullptr, 1, &ok, &after) ==
          CL_SUCCESS);
  REQUIRE(clSetUserEventStatus(ok, CL_COMPLETE) == CL_SUCCESS);
  CHECK(clWaitForEvents(1, &after) == CL_SUCCESS);
  CHECK(eventStatus(after) == CL_COMPLETE);
  for (cl_event e : waiting) clReleaseEvent(e);
  for (cl_event e : {chained, independent, gate, late, ok, after}) clReleaseEvent(e);
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

TEST_CASE(
    "Given optional features the device lacks, then the entry points answer as the 3.0 "
    "backwards-compatibility tables say",
    "[cl][errors][consistency]") {
  ClFixture fx;
  // "clSetDefaultDeviceCommandQueue: Returns CL_INVALID_OPERATION if device does not support
  // on-device queues" (the CTS passes a null queue).
  CHECK(clSetDefaultDeviceCommandQueue(fx.ctx, fx.dev, nullptr) == CL_INVALID_OPERATION);
  CHECK(clSetDefaultDeviceCommandQueue(fx.ctx, fx.dev, fx.queue) == CL_INVALID_OPERATION);
  // "clGetPipeInfo: Returns CL_INVALID_MEM_OBJECT since pipe cannot be a valid pipe object."
  cl_int err = CL_SUCCESS;
  cl_mem buf = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, 4, nullptr, &err);
  cl_uint u = 0;
  CHECK(clGetPipeInfo(buf, CL_PIPE_PACKET_SIZE, sizeof u, &u, nullptr) == CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(buf);
}

TEST_CASE(
    "Given a buffer set as a kernel argument, when the application releases it, then its "
    "destructor callback runs and the kernel no longer has that argument",
    "[cl][kernel][memory][errors]") {
  ClFixture fx;
  cl_program p = builtProgram(fx, kTouch);
  cl_kernel k = makeKernel(p, "touch");
  static std::atomic<int> destroyed{0};
  destroyed = 0;
  cl_int err = CL_SUCCESS;
  // The CTS's retain_mem_object_set_kernel_arg: set, release, then spin until the callback ran.
  cl_mem buf = clCreateBuffer(fx.ctx, CL_MEM_READ_ONLY, 32, nullptr, &err);
  REQUIRE(clSetMemObjectDestructorCallback(
              buf, [](cl_mem, void*) { ++destroyed; }, nullptr) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 0, sizeof buf, &buf) == CL_SUCCESS);
  REQUIRE(clReleaseMemObject(buf) == CL_SUCCESS);
  CHECK(destroyed.load() == 1);
  size_t n = 8;
  CHECK(clEnqueueNDRangeKernel(fx.queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) ==
        CL_INVALID_KERNEL_ARGS);

  // A command that uses the buffer keeps it until the command has run: "After the memobj
  // reference count becomes zero and commands queued for execution on a command-queue(s) that use
  // memobj have finished, the memory object is deleted."
  destroyed = 0;
  cl_mem second = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, 8 * sizeof(cl_int), nullptr, &err);
  REQUIRE(clSetMemObjectDestructorCallback(
              second, [](cl_mem, void*) { ++destroyed; }, nullptr) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 0, sizeof second, &second) == CL_SUCCESS);
  cl_event gate = clCreateUserEvent(fx.ctx, &err);
  REQUIRE(clEnqueueNDRangeKernel(fx.queue, k, 1, nullptr, &n, nullptr, 1, &gate, nullptr) ==
          CL_SUCCESS);
  REQUIRE(clReleaseMemObject(second) == CL_SUCCESS);
  CHECK(destroyed.load() == 0);
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
  // The queue lets go of a finished command's objects at its next enqueue or finish.
  REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
  CHECK(destroyed.load() == 1);
  clReleaseEvent(gate);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

TEST_CASE(
    "Given a program built from source without -cl-kernel-arg-info, then clGetKernelArgInfo "
    "returns CL_KERNEL_ARG_INFO_NOT_AVAILABLE",
    "[cl][kernel][arginfo][errors]") {
  ClFixture fx;
  char name[64] = {};
  cl_program plain = builtProgram(fx, kTouch);
  cl_kernel k = makeKernel(plain, "touch");
  CHECK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof name, name, nullptr) ==
        CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  cl_kernel_arg_address_qualifier q = 0;
  CHECK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof q, &q, nullptr) ==
        CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  // An invalid index is still CL_INVALID_ARG_INDEX.
  CHECK(clGetKernelArgInfo(k, 5, CL_KERNEL_ARG_NAME, sizeof name, name, nullptr) ==
        CL_INVALID_ARG_INDEX);
  clReleaseKernel(k);
  clReleaseProgram(plain);

  cl_program withInfo = builtProgram(fx, kTouch, "-cl-kernel-arg-info");
  k = makeKernel(withInfo, "touch");
  REQUIRE(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof name, name, nullptr) == CL_SUCCESS);
  CHECK(std::string(name) == "p");
  clReleaseKernel(k);
  clReleaseProgram(withInfo);

  // Compiled and linked: available only when every compile asked for it.
  for (const char* options : {"", "-cl-kernel-arg-info"}) {
    INFO("'" << options << "'");
    cl_int err = CL_SUCCESS;
    cl_program unit = clCreateProgramWithSource(fx.ctx, 1, &kTouch, nullptr, &err);
    REQUIRE(clCompileProgram(unit, 1, &fx.dev, options, 0, nullptr, nullptr, nullptr, nullptr) ==
            CL_SUCCESS);
    cl_program linked =
        clLinkProgram(fx.ctx, 1, &fx.dev, nullptr, 1, &unit, nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    k = makeKernel(linked, "touch");
    CHECK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof name, name, nullptr) ==
          (*options ? CL_SUCCESS : CL_KERNEL_ARG_INFO_NOT_AVAILABLE));
    clReleaseKernel(k);
    clReleaseProgram(linked);
    clReleaseProgram(unit);
  }
}

TEST_CASE(
    "Given a sampler argument, then a wrong size is CL_INVALID_ARG_SIZE and anything but a "
    "sampler of the kernel's context CL_INVALID_SAMPLER",
    "[cl][kernel][errors][sampler]") {
  ClFixture fx;
  TESSERA_REQUIRE_IMAGES(fx.dev);
  cl_program p =
      builtProgram(fx, "__kernel void k(sampler_t s, __global int* out) { out[0] = 1; }\n");
  cl_kernel k = makeKernel(p, "k");
  cl_int err = CL_SUCCESS;
  cl_sampler s = clCreateSampler(fx.ctx, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, &err);
  REQUIRE(err == CL_SUCCESS);
  ClFixture other;
  cl_sampler foreign =
      clCreateSampler(other.ctx, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_sampler none = nullptr;
  // "CL_INVALID_ARG_SIZE if arg_value points to a sampler object and arg_size is not equal to
  // sizeof(cl_sampler)".
  CHECK(clSetKernelArg(k, 0, sizeof(cl_sampler) + 4, &s) == CL_INVALID_ARG_SIZE);
  CHECK(clSetKernelArg(k, 0, 1, &none) == CL_INVALID_ARG_SIZE);
  // "CL_INVALID_SAMPLER if the kernel argument is a sampler, but arg_value does not point to a
  // valid sampler object".
  CHECK(clSetKernelArg(k, 0, sizeof none, &none) == CL_INVALID_SAMPLER);
  CHECK(clSetKernelArg(k, 0, sizeof none, nullptr) == CL_INVALID_SAMPLER);
  cl_sampler notSampler = reinterpret_cast<cl_sampler>(fx.queue);
  CHECK(clSetKernelArg(k, 0, sizeof notSampler, &notSampler) == CL_INVALID_SAMPLER);
  CHECK(clSetKernelArg(k, 0, sizeof foreign, &foreign) == CL_INVALID_SAMPLER);
  CHECK(clSetKernelArg(k, 0, sizeof s, &s) == CL_SUCCESS);
  // A sampler value on a buffer argument is not a memory object.
  CHECK(clSetKernelArg(k, 1, sizeof s, &s) == CL_INVALID_MEM_OBJECT);
  clReleaseSampler(foreign);
  clReleaseSampler(s);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

TEST_CASE(
    "Given an affinity domain the device does not report, then clCreateSubDevices returns "
    "CL_INVALID_VALUE",
    "[cl][fission][errors][synthetic]") {
  cl_device_id root = device();
  auto reported = deviceInfo<cl_device_affinity_domain>(root, CL_DEVICE_PARTITION_AFFINITY_DOMAIN);
  for (cl_device_affinity_domain d :
       {CL_DEVICE_AFFINITY_DOMAIN_NUMA, CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE,
        CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE,
        CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE, CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE}) {
    INFO("domain " << d << ", reported " << reported);
    cl_device_partition_property props[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                            cl_device_partition_property(d), 0};
    cl_uint n = 0;
    cl_int r = clCreateSubDevices(root, props, 0, nullptr, &n);
    if (reported & d) {
      // Reported: it partitions, or fails for this machine's shape.
      CHECK((r == CL_SUCCESS || r == CL_DEVICE_PARTITION_FAILED));
    } else {
      // "CL_INVALID_VALUE if values specified in properties are not valid or if values specified
      // in properties are valid but not supported by the device."
      CHECK(r == CL_INVALID_VALUE);
    }
  }
}

// OpenCL-CTS test_api's negative_get_device_ids and negative_create_context(_from_type).
TEST_CASE(
    "Given no device type, or CL_CONTEXT_INTEROP_USER_SYNC with a value that is no cl_bool, then "
    "CL_INVALID_DEVICE_TYPE and CL_INVALID_PROPERTY",
    "[cl][errors]") {
  ClFixture fx;
  cl_platform_id platform = nullptr;
  REQUIRE(clGetDeviceInfo(fx.dev, CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr) ==
          CL_SUCCESS);
  cl_device_id d = nullptr;
  CHECK(clGetDeviceIDs(platform, 0, 1, &d, nullptr) == CL_INVALID_DEVICE_TYPE);
  for (cl_context_properties value : {cl_context_properties{-1}, cl_context_properties{2}}) {
    cl_context_properties props[] = {CL_CONTEXT_INTEROP_USER_SYNC, value, 0};
    cl_int err = CL_SUCCESS;
    CHECK(clCreateContext(props, 1, &fx.dev, nullptr, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_PROPERTY);
    cl_context_properties typed[] = {CL_CONTEXT_PLATFORM,
                                     reinterpret_cast<cl_context_properties>(platform),
                                     CL_CONTEXT_INTEROP_USER_SYNC, value, 0};
    CHECK(clCreateContextFromType(typed, CL_DEVICE_TYPE_CPU, nullptr, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_PROPERTY);
  }
  cl_context_properties ok[] = {CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, 0};
  cl_int err = CL_SUCCESS;
  cl_context ctx = clCreateContext(ok, 1, &fx.dev, nullptr, nullptr, &err);
  CHECK(err == CL_SUCCESS);
  if (ctx) clReleaseContext(ctx);
}
