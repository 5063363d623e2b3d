// Sub-group queries: CL_DEVICE_MAX_NUM_SUB_GROUPS, CL_DEVICE_SUB_GROUP_SIZES_INTEL,
// clGetKernelSubGroupInfo and clGetKernelSubGroupInfoKHR for every query and error the spec names.
// The kernel's sub-group size S is read through the API; the expectations are the driver's
// contract (backends/cpu/runtime/kernel_abi.h): a work-group of n work-items has ceil(n / S)
// sub-groups, sub-group k holding local linear ids [k * S, min((k + 1) * S, n)). When the device
// reports no sub-groups, every query answers as the spec says for that case.
#include <algorithm>
#include <numeric>
#include <vector>

#include "cl_program_support.h"

using namespace tessera::cltest;

namespace {

bool subgroupsReported(cl_device_id d) {
  return deviceInfo<cl_uint>(d, CL_DEVICE_MAX_NUM_SUB_GROUPS) > 0;
}

using SubGroupInfoFn = cl_int(CL_API_CALL*)(cl_kernel, cl_device_id, cl_kernel_sub_group_info,
                                            size_t, const void*, size_t, void*, size_t*);

// Both entry points: the core function and the KHR one (as the ICD loader dispatches it).
SubGroupInfoFn entryPoint(bool khr) {
  return khr ? &clGetKernelSubGroupInfoKHR : &clGetKernelSubGroupInfo;
}

size_t query(cl_kernel k, cl_device_id d, cl_kernel_sub_group_info what,
             const std::vector<size_t>& input, bool khr = false) {
  size_t v = 0, ret = 0;
  REQUIRE(entryPoint(khr)(k, d, what, input.size() * sizeof(size_t),
                          input.empty() ? nullptr : input.data(), sizeof v, &v,
                          &ret) == CL_SUCCESS);
  CHECK(ret == sizeof v);
  return v;
}

size_t kernelSubgroupSize(cl_kernel k, cl_device_id d) {
  return query(k, d, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, {1});
}

std::vector<size_t> deviceSizes(cl_device_id d) {
  size_t n = 0;
  REQUIRE(clGetDeviceInfo(d, CL_DEVICE_SUB_GROUP_SIZES_INTEL, 0, nullptr, &n) == CL_SUCCESS);
  std::vector<size_t> sizes(n / sizeof(size_t));
  REQUIRE(clGetDeviceInfo(d, CL_DEVICE_SUB_GROUP_SIZES_INTEL, n, sizes.data(), nullptr) ==
          CL_SUCCESS);
  return sizes;
}

size_t ceilDiv(size_t a, size_t b) {
  return (a + b - 1) / b;
}

}  // namespace

TEST_CASE(
    "Given the device, when its sub-group queries are read, then they agree with each other and "
    "with the spec's rules",
    "[cl][subgroups][device]") {
  ClFixture fx;
  // "Is CL_TRUE if this device supports independent forward progress of sub-groups": the
  // sub-groups of a work-group run one after the other on one thread.
  CHECK(deviceInfo<cl_bool>(fx.dev, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS) == CL_FALSE);
  if (!subgroupsReported(fx.dev)) {
    size_t n = 0;
    CHECK(clGetDeviceInfo(fx.dev, CL_DEVICE_SUB_GROUP_SIZES_INTEL, 0, nullptr, &n) ==
          CL_INVALID_VALUE);
    return;
  }
  std::vector<size_t> sizes = deviceSizes(fx.dev);
  REQUIRE(!sizes.empty());
  CHECK(std::is_sorted(sizes.begin(), sizes.end()));
  for (size_t s : sizes) CHECK((s & (s - 1)) == 0);
  const size_t maxGroup = deviceInfo<size_t>(fx.dev, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  // A work-group of the largest size cut into sub-groups of the smallest.
  CHECK(deviceInfo<cl_uint>(fx.dev, CL_DEVICE_MAX_NUM_SUB_GROUPS) == maxGroup / sizes.front());
  // Too small a buffer for the list.
  size_t one = 0;
  CHECK(clGetDeviceInfo(fx.dev, CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof one, &one, nullptr) ==
        (sizes.size() > 1 ? CL_INVALID_VALUE : CL_SUCCESS));
}

TEST_CASE(
    "Given a kernel, when each sub-group query is made through both entry points, then it "
    "answers from the kernel's sub-group size",
    "[cl][subgroups][kernel]") {
  KernelFixture fx("vector_add", "vector_add");
  if (!subgroupsReported(fx.dev)) {
    for (bool khr : {false, true}) {
      size_t in = 8, out = 0;
      CHECK(entryPoint(khr)(fx.kernel, fx.dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof in,
                            &in, sizeof out, &out, nullptr) == CL_INVALID_OPERATION);
      CHECK(entryPoint(khr)(fx.kernel, fx.dev, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr, sizeof out,
                            &out, nullptr) == CL_INVALID_OPERATION);
    }
    size_t multiple = 0;
    REQUIRE(clGetKernelWorkGroupInfo(fx.kernel, fx.dev,
                                     CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof multiple,
                                     &multiple, nullptr) == CL_SUCCESS);
    CHECK(multiple == 1);
    return;
  }
  const size_t s = kernelSubgroupSize(fx.kernel, fx.dev);
  std::vector<size_t> sizes = deviceSizes(fx.dev);
  INFO("sub-group size " << s);
  CHECK(std::find(sizes.begin(), sizes.end(), s) != sizes.end());

  for (bool khr : {false, true}) {
    INFO((khr ? "clGetKernelSubGroupInfoKHR" : "clGetKernelSubGroupInfo"));
    // "Returns the maximum sub-group size for this kernel": the one size, whatever the local
    // size; and "the number of sub-groups that will be present in each work-group".
    const std::vector<std::vector<size_t>> locals = {
        {1}, {s}, {s + 1}, {3 * s - 1}, {37}, {8, 3}, {5, 7, 3}, {1, 1, 64}, {4096}};
    for (const auto& local : locals) {
      const size_t n = std::accumulate(local.begin(), local.end(), size_t{1}, std::multiplies<>());
      INFO("local size of " << n << " work-items in " << local.size() << " dimensions");
      CHECK(query(fx.kernel, fx.dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, local, khr) == s);
      CHECK(query(fx.kernel, fx.dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, local, khr) ==
            ceilDiv(n, s));
    }
    // cl_intel_required_subgroup_size, in both: "If the sub-group size is not specified using
    // the above attribute qualifier then 0 is returned."
    CHECK(query(fx.kernel, fx.dev, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, {}, khr) == 0);
  }

  // OpenCL 2.1's queries, through clGetKernelSubGroupInfo only.
  const size_t maxGroup = [&] {
    size_t v = 0;
    REQUIRE(clGetKernelWorkGroupInfo(fx.kernel, fx.dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof v, &v,
                                     nullptr) == CL_SUCCESS);
    return v;
  }();
  CHECK(query(fx.kernel, fx.dev, CL_KERNEL_MAX_NUM_SUB_GROUPS, {}) == ceilDiv(maxGroup, s));
  CHECK(query(fx.kernel, fx.dev, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, {}) == 0);
  // "Returns the local size that will generate the requested number of sub-groups ... Any
  // returned work-group will have one dimension. Other dimensions inferred from the value
  // specified for param_value_size will be filled with the value 1 ... If no work-group size can
  // accommodate the requested number of sub-groups, 0 will be returned in each element".
  for (size_t dims = 1; dims <= 3; ++dims) {
    INFO(dims << " dimensions");
    for (size_t count : {size_t{1}, size_t{2}, size_t{5}, maxGroup / s}) {
      std::vector<size_t> local(dims, 99);
      size_t ret = 0;
      REQUIRE(clGetKernelSubGroupInfo(fx.kernel, fx.dev, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                      sizeof count, &count, dims * sizeof(size_t), local.data(),
                                      &ret) == CL_SUCCESS);
      CHECK(ret == dims * sizeof(size_t));
      std::vector<size_t> want(dims, 1);
      want[0] = count * s;
      CHECK(local == want);
      // The local size it gives has exactly that many sub-groups.
      CHECK(query(fx.kernel, fx.dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, local) == count);
    }
    for (size_t count : {size_t{0}, maxGroup / s + 1, SIZE_MAX}) {
      INFO("count " << count);
      std::vector<size_t> local(dims, 99);
      REQUIRE(clGetKernelSubGroupInfo(fx.kernel, fx.dev, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                      sizeof count, &count, dims * sizeof(size_t), local.data(),
                                      nullptr) == CL_SUCCESS);
      CHECK(local == std::vector<size_t>(dims, 0));
    }
  }
  // A performance hint: a multiple of the sub-group size fills every sub-group.
  size_t multiple = 0;
  REQUIRE(clGetKernelWorkGroupInfo(fx.kernel, fx.dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                   sizeof multiple, &multiple, nullptr) == CL_SUCCESS);
  CHECK(multiple == s);
  cl_ulong spill = 1;
  REQUIRE(clGetKernelWorkGroupInfo(fx.kernel, fx.dev, CL_KERNEL_SPILL_MEM_SIZE_INTEL, sizeof spill,
                                   &spill, nullptr) == CL_SUCCESS);
  CHECK(spill == 0);
}

TEST_CASE(
    "Given a kernel with a required work-group size, when the sub-group counts are queried, "
    "then they follow that size",
    "[cl][subgroups][kernel]") {
  KernelFixture fx("reqd_size", "reqd_size");  // reqd_work_group_size(8, 4, 2)
  if (!subgroupsReported(fx.dev)) return;
  const size_t s = kernelSubgroupSize(fx.kernel, fx.dev);
  CHECK(query(fx.kernel, fx.dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, {8, 4, 2}) ==
        ceilDiv(64, s));
  // The kernel's largest work-group is its required one.
  CHECK(query(fx.kernel, fx.dev, CL_KERNEL_MAX_NUM_SUB_GROUPS, {}) == ceilDiv(64, s));
  // Only the required size can run it, and it is not one-dimensional: no local size fits.
  size_t count = 1, local[3] = {9, 9, 9};
  REQUIRE(clGetKernelSubGroupInfo(fx.kernel, fx.dev, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                  sizeof count, &count, sizeof local, local,
                                  nullptr) == CL_SUCCESS);
  CHECK((local[0] == 0 && local[1] == 0 && local[2] == 0));
}

TEST_CASE(
    "Given bad arguments, when clGetKernelSubGroupInfo(KHR) is called, then it returns the "
    "spec's errors",
    "[cl][subgroups][errors]") {
  KernelFixture fx("vector_add", "vector_add");
  size_t in[3] = {16, 1, 1}, out[3] = {};
  for (bool khr : {false, true}) {
    INFO((khr ? "clGetKernelSubGroupInfoKHR" : "clGetKernelSubGroupInfo"));
    SubGroupInfoFn f = entryPoint(khr);
    // "CL_INVALID_KERNEL if kernel is a not a valid kernel object."
    CHECK(f(nullptr, fx.dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(size_t), in,
            sizeof(size_t), out, nullptr) == CL_INVALID_KERNEL);
    // (A foreign kernel handle is the ICD loader's to dispatch: test_stale_handles.cpp.)
    int bogus = 0;
    // "CL_INVALID_DEVICE if device is not in the list of devices associated with kernel".
    CHECK(f(fx.kernel, reinterpret_cast<cl_device_id>(&bogus),
            CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(size_t), in, sizeof(size_t), out,
            nullptr) == CL_INVALID_DEVICE);
    if (!subgroupsReported(fx.dev)) {
      // "CL_INVALID_OPERATION if device does not support sub-groups", with a NULL device too
      // (the kernel's only device).
      CHECK(f(fx.kernel, nullptr, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(size_t), in,
              sizeof(size_t), out, nullptr) == CL_INVALID_OPERATION);
      continue;
    }
    // "If the list of devices associated with kernel is a single device, device can be a NULL
    // value."
    CHECK(f(fx.kernel, nullptr, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(size_t), in,
            sizeof(size_t), out, nullptr) == CL_SUCCESS);
    // "CL_INVALID_VALUE if param_name is not one of the supported values".
    CHECK(f(fx.kernel, fx.dev, 0x7777, sizeof(size_t), in, sizeof(size_t), out, nullptr) ==
          CL_INVALID_VALUE);
    // "... or if the size in bytes specified by param_value_size is less than size of the return
    // type ... and param_value is not NULL"; with a NULL param_value the size is ignored.
    for (cl_kernel_sub_group_info q :
         {CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE}) {
      INFO("query " << q);
      CHECK(f(fx.kernel, fx.dev, q, sizeof(size_t), in, sizeof(size_t) - 1, out, nullptr) ==
            CL_INVALID_VALUE);
      CHECK(f(fx.kernel, fx.dev, q, sizeof(size_t), in, 0, out, nullptr) == CL_INVALID_VALUE);
      size_t ret = 0;
      CHECK(f(fx.kernel, fx.dev, q, sizeof(size_t), in, 0, nullptr, &ret) == CL_SUCCESS);
      CHECK(ret == sizeof(size_t));
      // "CL_INVALID_VALUE if param_name is CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
      // CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE or CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT and the
      // size in bytes specified by input_value_size is not valid or if input_value is NULL."
      for (size_t bad : {size_t{0}, sizeof(size_t) - 1, sizeof(size_t) + 1, 4 * sizeof(size_t)}) {
        INFO("input_value_size " << bad);
        size_t big[4] = {16, 1, 1, 1};
        CHECK(f(fx.kernel, fx.dev, q, bad, big, sizeof(size_t), out, nullptr) == CL_INVALID_VALUE);
      }
      CHECK(f(fx.kernel, fx.dev, q, sizeof(size_t), nullptr, sizeof(size_t), out, nullptr) ==
            CL_INVALID_VALUE);
      // Local sizes whose product does not fit are no dispatch's.
      size_t huge[3] = {SIZE_MAX, SIZE_MAX, 2};
      CHECK(f(fx.kernel, fx.dev, q, sizeof huge, huge, sizeof(size_t), out, nullptr) ==
            CL_INVALID_VALUE);
    }
    // CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL's input is ignored.
    CHECK(f(fx.kernel, fx.dev, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 3, nullptr, sizeof(size_t),
            out, nullptr) == CL_SUCCESS);
    CHECK(f(fx.kernel, fx.dev, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0, nullptr,
            sizeof(size_t) - 1, out, nullptr) == CL_INVALID_VALUE);
  }
  if (!subgroupsReported(fx.dev)) return;
  // cl_khr_subgroups names two queries for the KHR function (and cl_intel_required_subgroup_size
  // a third); OpenCL 2.1's other three are clGetKernelSubGroupInfo's.
  size_t count = 1;
  for (cl_kernel_sub_group_info q :
       {CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, CL_KERNEL_MAX_NUM_SUB_GROUPS,
        CL_KERNEL_COMPILE_NUM_SUB_GROUPS}) {
    INFO("query " << q);
    CHECK(clGetKernelSubGroupInfoKHR(fx.kernel, fx.dev, q, sizeof count, &count, sizeof out, out,
                                     nullptr) == CL_INVALID_VALUE);
  }
  // Queries whose input is ignored take any.
  for (cl_kernel_sub_group_info q :
       {CL_KERNEL_MAX_NUM_SUB_GROUPS, CL_KERNEL_COMPILE_NUM_SUB_GROUPS}) {
    INFO("query " << q);
    CHECK(clGetKernelSubGroupInfo(fx.kernel, fx.dev, q, 5, nullptr, sizeof(size_t), out, nullptr) ==
          CL_SUCCESS);
    CHECK(clGetKernelSubGroupInfo(fx.kernel, fx.dev, q, 0, nullptr, sizeof(size_t) - 1, out,
                                  nullptr) == CL_INVALID_VALUE);
  }
  // CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: its input is one size_t, its output one to three.
  CHECK(clGetKernelSubGroupInfo(fx.kernel, fx.dev, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                2 * sizeof(size_t), in, sizeof out, out,
                                nullptr) == CL_INVALID_VALUE);
  CHECK(clGetKernelSubGroupInfo(fx.kernel, fx.dev, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                sizeof count, nullptr, sizeof out, out,
                                nullptr) == CL_INVALID_VALUE);
  for (size_t bad : {size_t{0}, sizeof(size_t) - 1, 4 * sizeof(size_t)}) {
    INFO("param_value_size " << bad);
    size_t big[4] = {};
    CHECK(clGetKernelSubGroupInfo(fx.kernel, fx.dev, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                  sizeof count, &count, bad, big, nullptr) == CL_INVALID_VALUE);
  }
}

TEST_CASE(
    "Given a program built for one sub-device, when another device is named, then the "
    "sub-group query fails with CL_INVALID_DEVICE",
    "[cl][subgroups][errors]") {
  cl_device_id root = device();
  if (deviceInfo<cl_uint>(root, CL_DEVICE_MAX_COMPUTE_UNITS) < 2) return;  // nothing to split
  cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_uint n = 0;
  REQUIRE(clCreateSubDevices(root, props, 0, nullptr, &n) == CL_SUCCESS);
  REQUIRE(n >= 2);
  std::vector<cl_device_id> subs(n);
  REQUIRE(clCreateSubDevices(root, props, n, subs.data(), nullptr) == CL_SUCCESS);
  {
    cl_int err = CL_SUCCESS;
    cl_context ctx = clCreateContext(nullptr, 2, subs.data(), nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    auto spv = corpusSpirv("vector_add");
    cl_program p = clCreateProgramWithIL(ctx, spv.data(), spv.size(), &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clBuildProgram(p, 1, &subs[0], nullptr, nullptr, nullptr) == CL_SUCCESS);
    cl_kernel k = makeKernel(p, "vector_add");
    size_t in = 16, out = 0;
    CHECK(clGetKernelSubGroupInfo(k, subs[1], CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof in,
                                  &in, sizeof out, &out, nullptr) == CL_INVALID_DEVICE);
    if (subgroupsReported(subs[0]))
      CHECK(clGetKernelSubGroupInfo(k, subs[0], CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof in,
                                    &in, sizeof out, &out, nullptr) == CL_SUCCESS);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseContext(ctx);
  }
  for (cl_device_id d : subs) clReleaseDevice(d);
}

TEST_CASE(
    "Given local sizes in one to three dimensions, when a kernel reports its sub-groups, then "
    "they are what clGetKernelSubGroupInfo says and the contract's mapping of linear ids",
    "[cl][subgroups][kernel]") {
  ClFixture fx;
  if (!subgroupsReported(fx.dev)) return;
  // Under OpenCL C 3.0 the functions come with the feature, without an extension.
  cl_program p = builtProgram(fx, R"(
#ifndef __opencl_c_subgroups
#error no __opencl_c_subgroups
#endif
__kernel void k(__global int* out) {
  size_t l = get_local_linear_id();
  __global int* o = out + 5 * get_global_linear_id();
  o[0] = get_max_sub_group_size();
  o[1] = get_num_sub_groups();
  o[2] = get_sub_group_id();
  o[3] = get_sub_group_local_id();
  o[4] = get_sub_group_size();
})",
                              "-cl-std=CL3.0");
  cl_kernel k = makeKernel(p, "k");
  const std::vector<std::vector<size_t>> locals = {{37}, {64}, {1}, {8, 3}, {5, 2, 3}, {4, 4, 4}};
  for (const auto& local : locals) {
    const size_t n = std::accumulate(local.begin(), local.end(), size_t{1}, std::multiplies<>());
    INFO(n << " work-items in " << local.size() << " dimensions");
    const size_t s = query(k, fx.dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, local);
    const size_t count = query(k, fx.dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, local);
    // Two work-groups, so that the second's ids start past the first's.
    std::vector<size_t> global = local;
    global[0] *= 2;
    std::vector<cl_int> out(5 * 2 * n, -1);
    REQUIRE(clSetKernelArgSVMPointer(k, 0, out.data()) == CL_SUCCESS);
    runKernel(fx.queue, k, cl_uint(local.size()), global.data(), local.data());
    for (size_t i = 0; i < 2 * n; ++i) {
      // The work-item's local linear id, from its global linear id (dimension 0 doubled).
      size_t rest = i, coords[3] = {0, 0, 0};
      for (size_t d = 0; d < local.size(); ++d) {
        coords[d] = rest % global[d];
        rest /= global[d];
      }
      const size_t x = coords[0] % local[0];
      const size_t l = x + (local.size() > 1 ? coords[1] * local[0] : 0) +
                       (local.size() > 2 ? coords[2] * local[0] * local[1] : 0);
      INFO("work-item " << i << ", local linear id " << l);
      const cl_int* o = &out[5 * i];
      CHECK(size_t(o[0]) == s);
      CHECK(size_t(o[1]) == count);
      CHECK(size_t(o[2]) == l / s);
      CHECK(size_t(o[3]) == l % s);
      CHECK(size_t(o[4]) == std::min(s, n - l / s * s));
    }
  }
  clReleaseKernel(k);
  clReleaseProgram(p);
}
