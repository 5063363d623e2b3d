// OpenCL device fission by affinity domain: the root device is cut with
// CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN / CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE (the first
// of NUMA node, L4, L3, L2, L1 that splits it), one queue per part runs a kernel that records, with
// Tessera's builtin tessera_current_pu(), the PU each work-group ran on; part i+1's launch waits for
// part i's event, so a trace (TESSERA_TRACE) shows the chain as flow arrows.
// Usage: cl_fission   (with OCL_ICD_VENDORS naming a folder that holds tessera.icd)
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#define CHECK(call)                                                        \
  do {                                                                     \
    cl_int e_ = (call);                                                    \
    if (e_ != CL_SUCCESS) {                                                \
      std::fprintf(stderr, "%s failed: %d\n", #call, e_);                  \
      std::exit(1);                                                        \
    }                                                                      \
  } while (0)

static const char* kSource = R"(
uint tessera_current_pu(void);
__kernel void where(__global uint* pu, __global float* out) {
  size_t i = get_global_id(0);
  out[i] = (float)i * 0.5f;
  if (get_local_id(0) == 0) pu[get_group_id(0)] = tessera_current_pu();
}
)";

int main() {
  cl_platform_id platform;
  CHECK(clGetPlatformIDs(1, &platform, nullptr));
  cl_device_id root;
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &root, nullptr));

  // How many parts NEXT_PARTITIONABLE makes, then the parts.
  const cl_device_partition_property props[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                                CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, 0};
  cl_uint parts = 0;
  std::vector<cl_device_id> devices;
  if (clCreateSubDevices(root, props, 0, nullptr, &parts) == CL_SUCCESS && parts > 0) {
    devices.resize(parts);
    CHECK(clCreateSubDevices(root, props, parts, devices.data(), nullptr));
  } else {
    std::printf("the root device does not split by affinity domain: running on it alone\n");
    devices = {root};
  }
  cl_device_affinity_domain cut = 0;
  if (devices[0] != root) {
    std::vector<cl_device_partition_property> type(4);
    size_t size = 0;
    CHECK(clGetDeviceInfo(devices[0], CL_DEVICE_PARTITION_TYPE, type.size() * sizeof type[0],
                          type.data(), &size));
    if (size >= 2 * sizeof type[0]) cut = static_cast<cl_device_affinity_domain>(type[1]);
  }
  const char* domain = cut == CL_DEVICE_AFFINITY_DOMAIN_NUMA       ? "NUMA node"
                       : cut == CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE ? "L4 cache"
                       : cut == CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE ? "L3 cache"
                       : cut == CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE ? "L2 cache"
                       : cut == CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE ? "L1 cache"
                                                                   : "(none)";
  std::printf("root device cut into %zu part%s at the %s level\n", devices.size(),
              devices.size() == 1 ? "" : "s", domain);

  cl_int err;
  cl_context context =
      clCreateContext(nullptr, static_cast<cl_uint>(devices.size()), devices.data(), nullptr, nullptr, &err);
  CHECK(err);
  cl_program program = clCreateProgramWithSource(context, 1, &kSource, nullptr, &err);
  CHECK(err);
  CHECK(clBuildProgram(program, 0, nullptr, "", nullptr, nullptr));

  const size_t groups = 64, local = 64, global = groups * local;
  struct Part {
    cl_command_queue queue;
    cl_kernel kernel;
    cl_mem pu, out;
    cl_event done;
  };
  std::vector<Part> p(devices.size());
  for (size_t i = 0; i < devices.size(); ++i) {
    p[i].queue = clCreateCommandQueueWithProperties(context, devices[i], nullptr, &err);
    CHECK(err);
    p[i].kernel = clCreateKernel(program, "where", &err);
    CHECK(err);
    p[i].pu = clCreateBuffer(context, CL_MEM_READ_WRITE, groups * sizeof(cl_uint), nullptr, &err);
    CHECK(err);
    p[i].out = clCreateBuffer(context, CL_MEM_READ_WRITE, global * sizeof(float), nullptr, &err);
    CHECK(err);
    CHECK(clSetKernelArg(p[i].kernel, 0, sizeof(cl_mem), &p[i].pu));
    CHECK(clSetKernelArg(p[i].kernel, 1, sizeof(cl_mem), &p[i].out));
    // Each part's launch waits for the previous part's: a chain across queues.
    cl_event* wait = i ? &p[i - 1].done : nullptr;
    CHECK(clEnqueueNDRangeKernel(p[i].queue, p[i].kernel, 1, nullptr, &global, &local, i ? 1 : 0,
                                 wait, &p[i].done));
  }

  std::vector<std::set<cl_uint>> ran(devices.size());
  bool correct = true;
  for (size_t i = 0; i < devices.size(); ++i) {
    std::vector<cl_uint> pus(groups);
    std::vector<float> out(global);
    CHECK(clEnqueueReadBuffer(p[i].queue, p[i].pu, CL_TRUE, 0, groups * sizeof(cl_uint), pus.data(), 0,
                              nullptr, nullptr));
    CHECK(clEnqueueReadBuffer(p[i].queue, p[i].out, CL_TRUE, 0, global * sizeof(float), out.data(), 0,
                              nullptr, nullptr));
    for (size_t k = 0; k < global; ++k) correct = correct && out[k] == float(k) * 0.5f;
    ran[i].insert(pus.begin(), pus.end());
    cl_uint units = 0;
    CHECK(clGetDeviceInfo(devices[i], CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, nullptr));
    std::string list;
    for (cl_uint pu : ran[i]) list += (list.empty() ? "" : " ") + std::to_string(pu);
    std::printf("part %zu: %u compute unit%s, its %zu work-groups ran on PU%s %s\n", i, units,
                units == 1 ? "" : "s", groups, ran[i].size() == 1 ? "" : "s", list.c_str());
    // A part runs on its own PUs only, so no more distinct PUs than compute units.
    if (ran[i].size() > units) correct = false;
  }
  // Parts are disjoint, so no PU appears under two parts.
  std::set<cl_uint> all;
  size_t total = 0;
  for (const auto& r : ran) all.insert(r.begin(), r.end()), total += r.size();
  if (all.size() != total) correct = false;
  CHECK(clFinish(p.back().queue));
  std::printf(correct ? "each part ran on its own PUs, results correct\n" : "WRONG\n");

  for (Part& x : p) {
    clReleaseEvent(x.done);
    clReleaseMemObject(x.pu);
    clReleaseMemObject(x.out);
    clReleaseKernel(x.kernel);
    clReleaseCommandQueue(x.queue);
  }
  clReleaseProgram(program);
  clReleaseContext(context);
  for (cl_device_id d : devices)
    if (d != root) clReleaseDevice(d);
  return correct ? 0 : 1;
}
