// cl_khr_command_buffer_mutable_dispatch (0.9.0): updates of arguments (buffers, scalars, __local
// sizes, SVM pointers), exec info, global offset, global and local size, persisting across
// enqueues; clGetMutableCommandInfoKHR; every error code of both functions.
#include "command_buffer_support.h"

using namespace tessera::cltest;

namespace {

cl_mutable_dispatch_config_khr dispatchConfig(cl_mutable_command_khr c) {
  cl_mutable_dispatch_config_khr d{};
  d.type = CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR;
  d.command = c;
  return d;
}

cl_mutable_base_config_khr baseConfig(const cl_mutable_dispatch_config_khr* list, cl_uint n = 1) {
  return {CL_STRUCTURE_TYPE_MUTABLE_BASE_CONFIG_KHR, nullptr, n, list};
}

template <typename T>
std::vector<T> commandArray(CbFixture& fx, cl_mutable_command_khr c,
                            cl_mutable_command_info_khr p) {
  size_t size = 0;
  REQUIRE(fx.cb.commandInfo(c, p, 0, nullptr, &size) == CL_SUCCESS);
  std::vector<T> v(size / sizeof(T));
  REQUIRE(fx.cb.commandInfo(c, p, size, v.data(), nullptr) == CL_SUCCESS);
  return v;
}

// A mutable buffer with one `add` launch (out = in + v over n items) and its handle.
struct AddBuffer {
  CbFixture& fx;
  cl_command_buffer_khr b = nullptr;
  cl_mutable_command_khr cmd = nullptr;
  cl_kernel k;
  AddBuffer(CbFixture& f, cl_mem out, cl_mem in, cl_int v, size_t n,
            const cl_ndrange_kernel_command_properties_khr* props = nullptr,
            const size_t* local = nullptr)
      : fx(f) {
    k = fx.kernel("add");
    setKernelArgs(k, {{sizeof(cl_mem), &out}, {sizeof(cl_mem), &in}, {sizeof v, &v}});
    b = fx.newBuffer(CL_COMMAND_BUFFER_MUTABLE_KHR);
    REQUIRE(fx.cb.ndrange(b, nullptr, props, k, 1, nullptr, &n, local, 0, nullptr, nullptr, &cmd) ==
            CL_SUCCESS);
    REQUIRE(cmd != nullptr);
    REQUIRE(fx.cb.finalize(b) == CL_SUCCESS);
  }
  ~AddBuffer() { fx.cb.release(b); }
};

}  // namespace

TEST_CASE(
    "Given a mutable ND-range, when its arguments are updated, then later enqueues use the "
    "new values until the next update and the kernel object is unchanged",
    "[cl][command_buffer][mutable]") {
  CbFixture fx;
  const size_t n = 16;
  cl_mem in1 = fx.buffer(n, iota(n)), in2 = fx.buffer(n, iota(n, 500)), out1 = fx.buffer(n),
         out2 = fx.buffer(n);
  AddBuffer ab(fx, out1, in1, 1, n);
  fx.run(ab.b);
  CHECK(fx.read(out1, n) == iota(n, 1));
  cl_int seven = 7;
  cl_mutable_dispatch_arg_khr args[2] = {{1, sizeof(cl_mem), &in2}, {2, sizeof seven, &seven}};
  cl_mutable_dispatch_config_khr d = dispatchConfig(ab.cmd);
  d.num_args = 2, d.arg_list = args;
  cl_mutable_base_config_khr base = baseConfig(&d);
  REQUIRE(fx.cb.update(ab.b, &base) == CL_SUCCESS);
  for (int i = 0; i < 2; ++i) {
    fx.write(out1, std::vector<cl_int>(n, 0));
    fx.run(ab.b);  // persists across enqueues
    CHECK(fx.read(out1, n) == iota(n, 507));
  }
  // A replay reads the buffer as it is when it runs.
  fx.write(in2, iota(n, 40));
  fx.run(ab.b);
  CHECK(fx.read(out1, n) == iota(n, 47));
  // The output argument alone: the value 7 stays.
  cl_mutable_dispatch_arg_khr outArg{0, sizeof(cl_mem), &out2};
  d.num_args = 1, d.arg_list = &outArg;
  REQUIRE(fx.cb.update(ab.b, &base) == CL_SUCCESS);
  fx.run(ab.b);
  CHECK(fx.read(out2, n) == iota(n, 47));
  // The kernel still has its own arguments: a direct launch writes out1 = in1 + 1.
  fx.write(out1, std::vector<cl_int>(n, 0));
  runKernel(fx.queue, ab.k, 1, &n);
  CHECK(fx.read(out1, n) == iota(n, 1));
}

TEST_CASE(
    "Given a mutable ND-range, when offset, global and local sizes are updated, then the "
    "launch runs with them and the queries return them",
    "[cl][command_buffer][mutable]") {
  CbFixture fx;
  cl_mem out = fx.buffer(64);
  cl_kernel k = fx.kernel("ids");
  REQUIRE(clSetKernelArg(k, 0, sizeof out, &out) == CL_SUCCESS);
  cl_command_buffer_khr b = fx.newBuffer(CL_COMMAND_BUFFER_MUTABLE_KHR);
  cl_mutable_command_khr c = nullptr;
  size_t g = 32, l = 8;
  REQUIRE(fx.cb.ndrange(b, nullptr, nullptr, k, 1, nullptr, &g, &l, 0, nullptr, nullptr, &c) ==
          CL_SUCCESS);
  REQUIRE(fx.cb.finalize(b) == CL_SUCCESS);
  CHECK(commandArray<size_t>(fx, c, CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR) ==
        std::vector<size_t>{32});
  CHECK(commandArray<size_t>(fx, c, CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR) ==
        std::vector<size_t>{8});
  CHECK(commandArray<size_t>(fx, c, CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR) ==
        std::vector<size_t>{0});
  // Fewer work-groups (16 / 4 = 4 of 4) and an offset.
  size_t g2 = 16, l2 = 4, off = 100;
  cl_mutable_dispatch_config_khr d = dispatchConfig(c);
  d.work_dim = 1;
  d.global_work_size = &g2, d.local_work_size = &l2, d.global_work_offset = &off;
  cl_mutable_base_config_khr base = baseConfig(&d);
  REQUIRE(fx.cb.update(b, &base) == CL_SUCCESS);
  fx.run(b);
  std::vector<cl_int> got = fx.read(out, 64);
  for (size_t i = 0; i < 16; ++i) CHECK(got[i] == cl_int((100 + i) * 1000 + 4));
  for (size_t i = 16; i < 32; ++i) CHECK(got[i] == 0);
  CHECK(commandArray<size_t>(fx, c, CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR) ==
        std::vector<size_t>{16});
  CHECK(commandArray<size_t>(fx, c, CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR) ==
        std::vector<size_t>{4});
  CHECK(commandArray<size_t>(fx, c, CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR) ==
        std::vector<size_t>{100});

  // "CL_INVALID_OPERATION if values of local_work_size and/or global_work_size result in an
  // increase to the number of work-groups in the ND-range" (4 groups recorded). A size
  // clEnqueueNDRangeKernel refuses gets its code: a global size the local size does not divide
  // (so "a change to work-group uniformity" never gets that far), a local size past the limits.
  size_t more = 64, l1 = 1, odd = 15, l3 = 3;
  d = dispatchConfig(c);
  d.global_work_size = &more;
  CHECK(fx.cb.update(b, &base) == CL_INVALID_OPERATION);
  d.global_work_size = nullptr, d.local_work_size = &l1;
  CHECK(fx.cb.update(b, &base) == CL_INVALID_OPERATION);
  d.global_work_size = &odd, d.local_work_size = &l2;
  CHECK(fx.cb.update(b, &base) == CL_INVALID_WORK_GROUP_SIZE);
  d.global_work_size = &g2, d.local_work_size = &l3;
  CHECK(fx.cb.update(b, &base) == CL_INVALID_WORK_GROUP_SIZE);
  size_t huge = 1 << 20;
  d.global_work_size = nullptr, d.local_work_size = &huge;
  CHECK(fx.cb.update(b, &base) == CL_INVALID_WORK_ITEM_SIZE);
  // "CL_INVALID_OPERATION if the work_dim is different from the work_dim set on command recording."
  d = dispatchConfig(c);
  d.work_dim = 2;
  CHECK(fx.cb.update(b, &base) == CL_INVALID_OPERATION);
  // None of those failed updates was kept.
  CHECK(commandArray<size_t>(fx, c, CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR) ==
        std::vector<size_t>{16});
  CHECK(commandArray<size_t>(fx, c, CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR) ==
        std::vector<size_t>{4});
  fx.cb.release(b);
}

TEST_CASE(
    "Given clUpdateMutableCommandsKHR, then every error code of the extension is answered "
    "and a failed update changes nothing",
    "[cl][command_buffer][mutable]") {
  CbFixture fx;
  const size_t n = 8;
  cl_mem in = fx.buffer(n, iota(n)), out = fx.buffer(n);
  cl_kernel k = fx.kernel("add");
  cl_int v = 3;
  setKernelArgs(k, {{sizeof(cl_mem), &out}, {sizeof(cl_mem), &in}, {sizeof v, &v}});
  // Recording: "CL_INVALID_OPERATION if command_buffer has not been finalized."
  cl_command_buffer_khr b = fx.newBuffer(CL_COMMAND_BUFFER_MUTABLE_KHR);
  cl_mutable_command_khr c = nullptr;
  REQUIRE(fx.cb.ndrange(b, nullptr, nullptr, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr, &c) ==
          CL_SUCCESS);
  cl_int nine = 9;
  cl_mutable_dispatch_arg_khr arg{2, sizeof nine, &nine};
  cl_mutable_dispatch_config_khr d = dispatchConfig(c);
  d.num_args = 1, d.arg_list = &arg;
  cl_mutable_base_config_khr base = baseConfig(&d);
  CHECK(fx.cb.update(b, &base) == CL_INVALID_OPERATION);
  REQUIRE(fx.cb.finalize(b) == CL_SUCCESS);

  // "CL_INVALID_OPERATION if command_buffer was not created with the CL_COMMAND_BUFFER_MUTABLE_KHR
  // flag."
  cl_command_buffer_khr fixed = fx.newBuffer();
  cl_mutable_command_khr fc = nullptr;
  REQUIRE(fx.cb.ndrange(fixed, nullptr, nullptr, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr,
                        &fc) == CL_SUCCESS);
  REQUIRE(fx.cb.finalize(fixed) == CL_SUCCESS);
  cl_mutable_dispatch_config_khr fd = dispatchConfig(fc);
  cl_mutable_base_config_khr fbase = baseConfig(&fd);
  CHECK(fx.cb.update(fixed, &fbase) == CL_INVALID_OPERATION);

  // "CL_INVALID_VALUE if mutable_config is NULL, or if both next and mutable_dispatch_list members
  // of mutable_config are NULL."
  CHECK(fx.cb.update(b, nullptr) == CL_INVALID_VALUE);
  cl_mutable_base_config_khr empty = baseConfig(nullptr, 0);
  CHECK(fx.cb.update(b, &empty) == CL_INVALID_VALUE);
  // "CL_INVALID_VALUE if the type member of mutable_config is not
  // CL_STRUCTURE_TYPE_MUTABLE_BASE_CONFIG_KHR."
  cl_mutable_base_config_khr wrongType = base;
  wrongType.type = CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR;
  CHECK(fx.cb.update(b, &wrongType) == CL_INVALID_VALUE);
  // "... mutable_dispatch_list is NULL and num_mutable_dispatch > 0, or ... not NULL and ... 0."
  cl_mutable_base_config_khr mismatch = baseConfig(nullptr, 1);
  CHECK(fx.cb.update(b, &mismatch) == CL_INVALID_VALUE);
  mismatch = baseConfig(&d, 0);
  CHECK(fx.cb.update(b, &mismatch) == CL_INVALID_VALUE);
  // "CL_INVALID_VALUE if the next member of mutable_config is not NULL and any iteration of the
  // structure pointer chain does not contain valid type and next members."
  cl_mutable_dispatch_config_khr notBase = dispatchConfig(c);
  cl_mutable_base_config_khr chained = base;
  chained.next = &notBase;
  CHECK(fx.cb.update(b, &chained) == CL_INVALID_VALUE);
  // Per dispatch: "CL_INVALID_VALUE if type is not CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR".
  cl_mutable_dispatch_config_khr bad = d;
  cl_mutable_base_config_khr badBase = baseConfig(&bad);
  bad.type = CL_STRUCTURE_TYPE_MUTABLE_BASE_CONFIG_KHR;
  CHECK(fx.cb.update(b, &badBase) == CL_INVALID_VALUE);
  // "CL_INVALID_MUTABLE_COMMAND_KHR if command is not a valid mutable command object, or created
  // from command_buffer."
  bad = d, bad.command = nullptr;
  CHECK(fx.cb.update(b, &badBase) == CL_INVALID_MUTABLE_COMMAND_KHR);
  bad.command = reinterpret_cast<cl_mutable_command_khr>(k);
  CHECK(fx.cb.update(b, &badBase) == CL_INVALID_MUTABLE_COMMAND_KHR);
  bad.command = fc;
  CHECK(fx.cb.update(b, &badBase) == CL_INVALID_MUTABLE_COMMAND_KHR);
  // "CL_INVALID_VALUE if arg_list is NULL and num_args > 0, or arg_list is not NULL and num_args is
  // 0" (and the SVM and exec-info lists).
  bad = d, bad.arg_list = nullptr;
  CHECK(fx.cb.update(b, &badBase) == CL_INVALID_VALUE);
  bad = d, bad.num_args = 0;
  CHECK(fx.cb.update(b, &badBase) == CL_INVALID_VALUE);
  bad = d, bad.num_svm_args = 1;
  CHECK(fx.cb.update(b, &badBase) == CL_INVALID_VALUE);
  bad = d, bad.num_exec_infos = 1;
  CHECK(fx.cb.update(b, &badBase) == CL_INVALID_VALUE);
  // clSetKernelArg's codes.
  cl_mutable_dispatch_arg_khr badArg{7, sizeof nine, &nine};
  bad = d, bad.arg_list = &badArg;
  CHECK(fx.cb.update(b, &badBase) == CL_INVALID_ARG_INDEX);
  badArg = {2, 2, &nine};
  CHECK(fx.cb.update(b, &badBase) == CL_INVALID_ARG_SIZE);
  cl_mem notMem = reinterpret_cast<cl_mem>(k);
  badArg = {1, sizeof(cl_mem), &notMem};
  CHECK(fx.cb.update(b, &badBase) == CL_INVALID_MEM_OBJECT);
  // clSetKernelExecInfo's.
  cl_mutable_dispatch_exec_info_khr info{0x4242, sizeof(cl_bool), &nine};
  bad = dispatchConfig(c);
  bad.num_exec_infos = 1, bad.exec_info_list = &info;
  CHECK(fx.cb.update(b, &badBase) == CL_INVALID_VALUE);
  cl_bool yes = CL_TRUE;
  info = {CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof yes, &yes};
  CHECK(fx.cb.update(b, &badBase) == CL_SUCCESS);
  // An update whose second dispatch fails keeps nothing of the first.
  cl_mutable_dispatch_config_khr two[2] = {d, d};
  two[1].arg_list = &badArg;
  badArg = {9, sizeof nine, &nine};
  cl_mutable_base_config_khr twoBase = baseConfig(two, 2);
  CHECK(fx.cb.update(b, &twoBase) == CL_INVALID_ARG_INDEX);
  fx.run(b);
  CHECK(fx.read(out, n) == iota(n, 3));
  REQUIRE(fx.cb.update(b, &base) == CL_SUCCESS);
  fx.run(b);
  CHECK(fx.read(out, n) == iota(n, 9));
  fx.cb.release(fixed);
  fx.cb.release(b);
}

TEST_CASE(
    "Given CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR, then only the fields named may be "
    "updated, and unsupported or malformed properties are refused",
    "[cl][command_buffer][mutable]") {
  CbFixture fx;
  const size_t n = 8;
  cl_mem in = fx.buffer(n, iota(n)), out = fx.buffer(n);
  cl_ndrange_kernel_command_properties_khr props[] = {CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
                                                      CL_MUTABLE_DISPATCH_ARGUMENTS_KHR, 0};
  AddBuffer ab(fx, out, in, 0, n, props);
  CHECK(commandArray<cl_ndrange_kernel_command_properties_khr>(
            fx, ab.cmd, CL_MUTABLE_DISPATCH_PROPERTIES_ARRAY_KHR) ==
        std::vector<cl_ndrange_kernel_command_properties_khr>(props, props + 3));
  size_t g = 4, off = 1;
  cl_mutable_dispatch_config_khr d = dispatchConfig(ab.cmd);
  cl_mutable_base_config_khr base = baseConfig(&d);
  // "CL_INVALID_OPERATION if the CL_MUTABLE_DISPATCH_<field> property was not set on command
  // recording and <field> is not NULL."
  d.global_work_size = &g;
  CHECK(fx.cb.update(ab.b, &base) == CL_INVALID_OPERATION);
  d = dispatchConfig(ab.cmd), d.local_work_size = &g;
  CHECK(fx.cb.update(ab.b, &base) == CL_INVALID_OPERATION);
  d = dispatchConfig(ab.cmd), d.global_work_offset = &off;
  CHECK(fx.cb.update(ab.b, &base) == CL_INVALID_OPERATION);
  cl_bool yes = CL_TRUE;
  cl_mutable_dispatch_exec_info_khr info{CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof yes,
                                         &yes};
  d = dispatchConfig(ab.cmd), d.num_exec_infos = 1, d.exec_info_list = &info;
  CHECK(fx.cb.update(ab.b, &base) == CL_INVALID_OPERATION);
  cl_int two = 2;
  cl_mutable_dispatch_arg_khr arg{2, sizeof two, &two};
  d = dispatchConfig(ab.cmd), d.num_args = 1, d.arg_list = &arg;
  REQUIRE(fx.cb.update(ab.b, &base) == CL_SUCCESS);
  fx.run(ab.b);
  CHECK(fx.read(out, n) == iota(n, 2));

  // Arguments not updatable.
  cl_ndrange_kernel_command_properties_khr sizeOnly[] = {CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
                                                         CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR, 0};
  AddBuffer sized(fx, out, in, 0, n, sizeOnly);
  d = dispatchConfig(sized.cmd), d.num_args = 1, d.arg_list = &arg;
  cl_mutable_base_config_khr sbase = baseConfig(&d);
  CHECK(fx.cb.update(sized.b, &sbase) == CL_INVALID_OPERATION);

  // Recording: "CL_INVALID_OPERATION if the requested CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR
  // properties are not reported by CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR"; an unknown or
  // repeated property name is "not valid" (CL_INVALID_VALUE).
  cl_command_buffer_khr b = fx.newBuffer(CL_COMMAND_BUFFER_MUTABLE_KHR);
  cl_mutable_command_khr c = nullptr;
  cl_ndrange_kernel_command_properties_khr unsupported[] = {
      CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR, 1 << 9, 0};
  CHECK(fx.cb.ndrange(b, nullptr, unsupported, ab.k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr,
                      &c) == CL_INVALID_OPERATION);
  cl_ndrange_kernel_command_properties_khr repeated[] = {
      CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR, 0, CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR, 0, 0};
  CHECK(fx.cb.ndrange(b, nullptr, repeated, ab.k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr,
                      &c) == CL_INVALID_VALUE);
  CHECK(c == nullptr);
  fx.cb.release(b);
}

TEST_CASE(
    "Given clGetMutableCommandInfoKHR, then every query answers and invalid or freed "
    "handles and names are refused",
    "[cl][command_buffer][mutable]") {
  CbFixture fx;
  const size_t n = 8;
  cl_mem in = fx.buffer(n), out = fx.buffer(n);
  cl_mutable_command_khr cmd = nullptr;
  {
    AddBuffer ab(fx, out, in, 0, n);
    cmd = ab.cmd;
    auto q = commandArray<cl_command_queue>(fx, cmd, CL_MUTABLE_COMMAND_COMMAND_QUEUE_KHR);
    CHECK(q == std::vector<cl_command_queue>{fx.queue});
    auto cb = commandArray<cl_command_buffer_khr>(fx, cmd, CL_MUTABLE_COMMAND_COMMAND_BUFFER_KHR);
    CHECK(cb == std::vector<cl_command_buffer_khr>{ab.b});
    CHECK(commandArray<cl_command_type>(fx, cmd, CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR) ==
          std::vector<cl_command_type>{CL_COMMAND_NDRANGE_KERNEL});
    // Recorded with NULL properties: "param_value_size_ret equal to 0".
    CHECK(commandArray<cl_ndrange_kernel_command_properties_khr>(
              fx, cmd, CL_MUTABLE_DISPATCH_PROPERTIES_ARRAY_KHR)
              .empty());
    CHECK(commandArray<cl_kernel>(fx, cmd, CL_MUTABLE_DISPATCH_KERNEL_KHR) ==
          std::vector<cl_kernel>{ab.k});
    CHECK(commandArray<cl_uint>(fx, cmd, CL_MUTABLE_DISPATCH_DIMENSIONS_KHR) ==
          std::vector<cl_uint>{1});
    // No local size given: "zero is returned for each element in the array".
    CHECK(commandArray<size_t>(fx, cmd, CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR) ==
          std::vector<size_t>{0});
    CHECK(commandArray<size_t>(fx, cmd, CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR) ==
          std::vector<size_t>{n});
    // "CL_INVALID_VALUE if param_name is not valid, or if size in bytes specified by
    // param_value_size is < size of return type ... and param_value is not NULL."
    cl_uint dims = 0;
    CHECK(fx.cb.commandInfo(cmd, 0x4242, sizeof dims, &dims, nullptr) == CL_INVALID_VALUE);
    CHECK(fx.cb.commandInfo(cmd, CL_MUTABLE_DISPATCH_DIMENSIONS_KHR, 1, &dims, nullptr) ==
          CL_INVALID_VALUE);
    // "CL_INVALID_MUTABLE_COMMAND_KHR if command is not a valid mutable command object."
    CHECK(fx.cb.commandInfo(nullptr, CL_MUTABLE_DISPATCH_DIMENSIONS_KHR, sizeof dims, &dims,
                            nullptr) == CL_INVALID_MUTABLE_COMMAND_KHR);
    CHECK(fx.cb.commandInfo(reinterpret_cast<cl_mutable_command_khr>(ab.b),
                            CL_MUTABLE_DISPATCH_DIMENSIONS_KHR, sizeof dims, &dims,
                            nullptr) == CL_INVALID_MUTABLE_COMMAND_KHR);
    // A 3D empty range still has a handle (its updates can add no work-group).
    cl_command_buffer_khr b3 = fx.newBuffer(CL_COMMAND_BUFFER_MUTABLE_KHR);
    cl_mutable_command_khr c3 = nullptr;
    size_t g3[3] = {4, 0, 2};
    REQUIRE(fx.cb.ndrange(b3, nullptr, nullptr, ab.k, 3, nullptr, g3, nullptr, 0, nullptr, nullptr,
                          &c3) == CL_SUCCESS);
    CHECK(commandArray<cl_uint>(fx, c3, CL_MUTABLE_DISPATCH_DIMENSIONS_KHR) ==
          std::vector<cl_uint>{3});
    CHECK(commandArray<size_t>(fx, c3, CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR) ==
          std::vector<size_t>{4, 0, 2});
    REQUIRE(fx.cb.finalize(b3) == CL_SUCCESS);
    size_t grow[3] = {4, 1, 2};
    cl_mutable_dispatch_config_khr d = dispatchConfig(c3);
    d.global_work_size = grow;
    cl_mutable_base_config_khr base = baseConfig(&d);
    CHECK(fx.cb.update(b3, &base) == CL_INVALID_OPERATION);
    fx.run(b3);
    fx.cb.release(b3);
  }
  // "The lifetime of this handle is tied to the parent command-buffer, such that freeing the
  // command-buffer will also free this handle."
  cl_uint dims = 0;
  CHECK(fx.cb.commandInfo(cmd, CL_MUTABLE_DISPATCH_DIMENSIONS_KHR, sizeof dims, &dims, nullptr) ==
        CL_INVALID_MUTABLE_COMMAND_KHR);
}

TEST_CASE(
    "Given a mutable launch with __local and SVM arguments, when they are updated, then the "
    "launch uses the new size and pointer",
    "[cl][command_buffer][mutable]") {
  CbFixture fx;
  cl_mem out = fx.buffer(16);
  cl_kernel k = fx.kernel("local_sum");
  REQUIRE(clSetKernelArg(k, 0, sizeof out, &out) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, 8 * sizeof(cl_int), nullptr) == CL_SUCCESS);
  cl_command_buffer_khr b = fx.newBuffer(CL_COMMAND_BUFFER_MUTABLE_KHR);
  cl_mutable_command_khr c = nullptr;
  size_t g = 16, l = 8;
  REQUIRE(fx.cb.ndrange(b, nullptr, nullptr, k, 1, nullptr, &g, &l, 0, nullptr, nullptr, &c) ==
          CL_SUCCESS);
  REQUIRE(fx.cb.finalize(b) == CL_SUCCESS);
  fx.run(b);
  CHECK(fx.read(out, 2) == std::vector<cl_int>{8, 8});
  // A __local argument's size is an argument like any other.
  size_t big = 1u << 30;
  cl_mutable_dispatch_arg_khr local{1, big, nullptr};
  cl_mutable_dispatch_config_khr d = dispatchConfig(c);
  d.num_args = 1, d.arg_list = &local;
  cl_mutable_base_config_khr base = baseConfig(&d);
  // clEnqueueNDRangeKernel: "CL_OUT_OF_RESOURCES if ... insufficient resources such as ... local
  // memory".
  CHECK(fx.cb.update(b, &base) == CL_OUT_OF_RESOURCES);
  local.arg_size = 16 * sizeof(cl_int);
  REQUIRE(fx.cb.update(b, &base) == CL_SUCCESS);
  fx.run(b);
  CHECK(fx.read(out, 2) == std::vector<cl_int>{8, 8});

  cl_device_svm_capabilities svm =
      deviceInfo<cl_device_svm_capabilities>(fx.dev, CL_DEVICE_SVM_CAPABILITIES);
  if (!(svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) return;
  cl_kernel twice = fx.kernel("twice");
  auto* p1 = static_cast<cl_int*>(clSVMAlloc(fx.ctx, CL_MEM_READ_WRITE, 4 * sizeof(cl_int), 0));
  auto* p2 = static_cast<cl_int*>(clSVMAlloc(fx.ctx, CL_MEM_READ_WRITE, 4 * sizeof(cl_int), 0));
  REQUIRE((p1 && p2));
  REQUIRE(clEnqueueSVMMap(fx.queue, CL_TRUE, CL_MAP_WRITE, p1, 16, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  REQUIRE(clEnqueueSVMMap(fx.queue, CL_TRUE, CL_MAP_WRITE, p2, 16, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  for (int i = 0; i < 4; ++i) p1[i] = i, p2[i] = 10 + i;
  REQUIRE(clEnqueueSVMUnmap(fx.queue, p1, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueSVMUnmap(fx.queue, p2, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clSetKernelArgSVMPointer(twice, 0, p1) == CL_SUCCESS);
  cl_command_buffer_khr sb = fx.newBuffer(CL_COMMAND_BUFFER_MUTABLE_KHR);
  cl_mutable_command_khr sc = nullptr;
  size_t four = 4;
  REQUIRE(fx.cb.ndrange(sb, nullptr, nullptr, twice, 1, nullptr, &four, nullptr, 0, nullptr,
                        nullptr, &sc) == CL_SUCCESS);
  REQUIRE(fx.cb.finalize(sb) == CL_SUCCESS);
  cl_mutable_dispatch_arg_khr svmArg{0, 0, p2};
  cl_mutable_dispatch_config_khr sd = dispatchConfig(sc);
  sd.num_svm_args = 1, sd.arg_svm_list = &svmArg;
  void* ptrs[1] = {p2};
  cl_mutable_dispatch_exec_info_khr info{CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, ptrs};
  sd.num_exec_infos = 1, sd.exec_info_list = &info;
  cl_mutable_base_config_khr sbase = baseConfig(&sd);
  REQUIRE(fx.cb.update(sb, &sbase) == CL_SUCCESS);
  fx.run(sb);
  REQUIRE(clEnqueueSVMMap(fx.queue, CL_TRUE, CL_MAP_READ, p1, 16, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  REQUIRE(clEnqueueSVMMap(fx.queue, CL_TRUE, CL_MAP_READ, p2, 16, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  for (int i = 0; i < 4; ++i) {
    CHECK(p1[i] == i);
    CHECK(p2[i] == 2 * (10 + i));
  }
  REQUIRE(clEnqueueSVMUnmap(fx.queue, p1, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueSVMUnmap(fx.queue, p2, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
  fx.cb.release(sb);
  clSVMFree(fx.ctx, p1);
  clSVMFree(fx.ctx, p2);
  fx.cb.release(b);
}
