// Device fission in its three dialects (OpenCL 1.2 clCreateSubDevices, cl_ext_device_fission,
// cl_intel_device_partition_by_names) and the context/queue ancestor rules.
//
// Tests tagged [synthetic] need the synthetic machine the ctest entry api.cl.fission.synthetic
// gives them: TESSERA_TOPOLOGY="pack:2 numa:2 l3:2 core:2 pu:1", i.e. one root device of 16 compute
// units in 2 packages, 4 NUMA nodes and 8 L3 caches, no L2 or L1 caches. The others run on any
// machine with at least two PUs.
#include <algorithm>

#include "cl_test_support.h"

using namespace tessera::cltest;

namespace {

using Props = std::vector<cl_device_partition_property>;
using PropsExt = std::vector<cl_device_partition_property_ext>;

// The sub-devices a partition makes, or the error; the count query is checked against the result.
struct Split {
  cl_int err = CL_SUCCESS;
  std::vector<cl_device_id> devices;
  ~Split() {
    for (cl_device_id d : devices) clReleaseDevice(d);
  }
};

void split(cl_device_id in, const Props& props, Split& out) {
  cl_uint n = 0;
  out.err = clCreateSubDevices(in, props.data(), 0, nullptr, &n);
  if (out.err != CL_SUCCESS) return;
  out.devices.resize(n);
  out.err = clCreateSubDevices(in, props.data(), n, out.devices.data(), nullptr);
  if (out.err != CL_SUCCESS) out.devices.clear();
}

cl_uint units(cl_device_id d) { return deviceInfo<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS); }

template <typename T>
std::vector<T> listInfo(cl_device_id d, cl_device_info what) {
  size_t bytes = 0;
  REQUIRE(clGetDeviceInfo(d, what, 0, nullptr, &bytes) == CL_SUCCESS);
  std::vector<T> v(bytes / sizeof(T));
  REQUIRE(clGetDeviceInfo(d, what, bytes, v.data(), nullptr) == CL_SUCCESS);
  return v;
}

struct ExtFunctions {
  clCreateSubDevicesEXT_fn create = nullptr;
  clRetainDeviceEXT_fn retain = nullptr;
  clReleaseDeviceEXT_fn release = nullptr;
  ExtFunctions() {
    cl_platform_id p = platform();
    create = reinterpret_cast<clCreateSubDevicesEXT_fn>(
        clGetExtensionFunctionAddressForPlatform(p, "clCreateSubDevicesEXT"));
    retain = reinterpret_cast<clRetainDeviceEXT_fn>(
        clGetExtensionFunctionAddressForPlatform(p, "clRetainDeviceEXT"));
    release = reinterpret_cast<clReleaseDeviceEXT_fn>(
        clGetExtensionFunctionAddressForPlatform(p, "clReleaseDeviceEXT"));
    REQUIRE(create);
    REQUIRE(retain);
    REQUIRE(release);
  }
};

bool synthetic16() {
  if (units(device()) == 16) return true;
  WARN("not the synthetic 16-unit machine (run through ctest's api.cl.fission.synthetic)");
  return false;
}

}  // namespace

TEST_CASE("Given the root device, then it offers every partition scheme and its domains",
          "[cl][fission]") {
  cl_device_id root = device();
  if (units(root) < 2) return;
  auto props = listInfo<cl_device_partition_property>(root, CL_DEVICE_PARTITION_PROPERTIES);
  for (auto p : {CL_DEVICE_PARTITION_EQUALLY, CL_DEVICE_PARTITION_BY_COUNTS,
                 CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_PARTITION_BY_NAMES_INTEL})
    CHECK(std::count(props.begin(), props.end(), cl_device_partition_property(p)) == 1);
  // The domains reported are those the device splits along, each into two or more (here the two
  // cores' L2 and L1 caches; the one NUMA node and the L3 hold the whole device), as the CTS's
  // buffer_migrate expects of every reported domain; NEXT_PARTITIONABLE is there when one is.
  auto domains = deviceInfo<cl_device_affinity_domain>(root, CL_DEVICE_PARTITION_AFFINITY_DOMAIN);
  CHECK((domains & CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE));
  for (cl_device_affinity_domain d :
       {CL_DEVICE_AFFINITY_DOMAIN_NUMA, CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE,
        CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE,
        CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE, CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE}) {
    Split parts;
    split(root, {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, cl_device_partition_property(d), 0}, parts);
    INFO("domain " << d);
    if (domains & d) {
      CHECK(parts.err == CL_SUCCESS);
      CHECK(parts.devices.size() >= 2);
    } else {
      CHECK(parts.err == CL_INVALID_VALUE);  // "valid but not supported by the device"
    }
  }
  CHECK(deviceInfo<cl_uint>(root, CL_DEVICE_PARTITION_MAX_SUB_DEVICES) == units(root));
  // A root device's partition type is empty; its EXT style is the list end alone.
  size_t bytes = 1;
  REQUIRE(clGetDeviceInfo(root, CL_DEVICE_PARTITION_TYPE, 0, nullptr, &bytes) == CL_SUCCESS);
  CHECK(bytes == 0);
  auto style = listInfo<cl_device_partition_property_ext>(root, CL_DEVICE_PARTITION_STYLE_EXT);
  CHECK(style == PropsExt{CL_PROPERTIES_LIST_END_EXT});
}

TEST_CASE("Given PARTITION_EQUALLY of one unit, then each PU is a sub-device of one unit",
          "[cl][fission]") {
  cl_device_id root = device();
  cl_uint n = units(root);
  if (n < 2) return;
  Split s;
  split(root, {CL_DEVICE_PARTITION_EQUALLY, 1, 0}, s);
  REQUIRE(s.err == CL_SUCCESS);
  REQUIRE(s.devices.size() == n);
  for (cl_device_id d : s.devices) {
    CHECK(units(d) == 1);
    CHECK(deviceInfo<cl_device_id>(d, CL_DEVICE_PARENT_DEVICE) == root);
    CHECK(deviceInfo<cl_uint>(d, CL_DEVICE_REFERENCE_COUNT) == 1);
    CHECK(listInfo<cl_device_partition_property>(d, CL_DEVICE_PARTITION_TYPE) ==
          Props{CL_DEVICE_PARTITION_EQUALLY, 1, 0});
    // A one-unit device cannot be partitioned further.
    CHECK(listInfo<cl_device_partition_property>(d, CL_DEVICE_PARTITION_PROPERTIES) == Props{0});
  }
  // Reference counts are the application's.
  CHECK(clRetainDevice(s.devices[0]) == CL_SUCCESS);
  CHECK(deviceInfo<cl_uint>(s.devices[0], CL_DEVICE_REFERENCE_COUNT) == 2);
  CHECK(clReleaseDevice(s.devices[0]) == CL_SUCCESS);
}

TEST_CASE("Given partition requests the spec refuses, then each gets its error code",
          "[cl][fission][errors]") {
  cl_device_id root = device();
  cl_uint n = units(root);
  if (n < 2) return;
  cl_device_id out[64];
  cl_uint got = 0;
  auto create = [&](Props p, cl_uint entries, cl_device_id* o, cl_uint* num) {
    return clCreateSubDevices(root, p.data(), entries, o, num);
  };
  CHECK(clCreateSubDevices(root, nullptr, 1, out, &got) == CL_INVALID_VALUE);
  CHECK(clCreateSubDevices(nullptr, Props{CL_DEVICE_PARTITION_EQUALLY, 1, 0}.data(), 1, out, &got) ==
        CL_INVALID_DEVICE);
  CHECK(create({0x7777, 1, 0}, 64, out, &got) == CL_INVALID_VALUE);
  CHECK(create({CL_DEVICE_PARTITION_EQUALLY, 0, 0}, 64, out, &got) == CL_INVALID_VALUE);
  CHECK(create({CL_DEVICE_PARTITION_BY_COUNTS, cl_device_partition_property(n + 1),
                CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0},
               64, out, &got) == CL_INVALID_DEVICE_PARTITION_COUNT);
  CHECK(create({CL_DEVICE_PARTITION_BY_COUNTS, cl_device_partition_property(n), 1,
                CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0},
               64, out, &got) == CL_INVALID_DEVICE_PARTITION_COUNT);
  CHECK(create({CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, 0x4000, 0}, 64, out, &got) ==
        CL_INVALID_VALUE);
  // Two schemes in one list.
  CHECK(create({CL_DEVICE_PARTITION_EQUALLY, 1, CL_DEVICE_PARTITION_EQUALLY, 1, 0}, 64, out, &got) ==
        CL_INVALID_VALUE);
  // Fewer entries than sub-devices (OpenCL 1.2).
  CHECK(create({CL_DEVICE_PARTITION_EQUALLY, 1, 0}, 1, out, &got) == CL_INVALID_VALUE);
  // A machine with several NUMA nodes splits along them; with one, NUMA is not a domain the
  // device reports, which 1.2 answers with CL_INVALID_VALUE.
  Split numa;
  split(root, {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_NUMA, 0}, numa);
  CHECK((numa.err == CL_SUCCESS || numa.err == CL_INVALID_VALUE));
}

TEST_CASE("Given a sub-device, then queues follow the context's ancestor rule", "[cl][fission]") {
  cl_device_id root = device();
  if (units(root) < 2) return;
  Split s;
  split(root, {CL_DEVICE_PARTITION_EQUALLY, 1, 0}, s);
  REQUIRE(s.err == CL_SUCCESS);
  cl_int err = 0;
  // A context of the root: its sub-devices may have queues.
  cl_context rootCtx = clCreateContext(nullptr, 1, &root, nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_command_queue q = clCreateCommandQueue(rootCtx, s.devices[0], 0, &err);
  CHECK(err == CL_SUCCESS);
  cl_device_id qd = nullptr;
  clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof qd, &qd, nullptr);
  CHECK(qd == s.devices[0]);  // "the sub-device is returned for the CL_QUEUE_DEVICE selector"
  clReleaseCommandQueue(q);
  // A context of sub-device 0: neither its sibling nor the root may have queues in it.
  cl_context subCtx = clCreateContext(nullptr, 1, &s.devices[0], nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(clCreateCommandQueue(subCtx, s.devices[1], 0, &err) == nullptr);
  CHECK(err == CL_INVALID_DEVICE);
  CHECK(clCreateCommandQueue(subCtx, root, 0, &err) == nullptr);
  CHECK(err == CL_INVALID_DEVICE);
  // The context holds its devices: released by the application, the sub-device lives on.
  cl_uint ctxDevices = 0;
  clGetContextInfo(subCtx, CL_CONTEXT_NUM_DEVICES, sizeof ctxDevices, &ctxDevices, nullptr);
  CHECK(ctxDevices == 1);
  clReleaseContext(subCtx);
  clReleaseContext(rootCtx);
}

TEST_CASE("Given cl_ext_device_fission, then EXT tokens partition and report their style",
          "[cl][fission][ext]") {
  cl_device_id root = device();
  cl_uint n = units(root);
  if (n < 2) return;
  ExtFunctions ext;
  // The five selectors on the root.
  CHECK(deviceInfo<cl_device_id>(root, CL_DEVICE_PARENT_DEVICE_EXT) == nullptr);
  CHECK(deviceInfo<cl_uint>(root, CL_DEVICE_REFERENCE_COUNT_EXT) == 1);
  auto types = listInfo<cl_device_partition_property_ext>(root, CL_DEVICE_PARTITION_TYPES_EXT);
  CHECK(types.size() == 4);
  auto domains = listInfo<cl_device_partition_property_ext>(root, CL_DEVICE_AFFINITY_DOMAINS_EXT);
  CHECK_FALSE(domains.empty());  // the domains the root splits along (here L2 and L1)

  // BY_NAMES: one sub-device of the named units.
  PropsExt names{CL_DEVICE_PARTITION_BY_NAMES_EXT, 1, CL_PARTITION_BY_NAMES_LIST_END_EXT,
                 CL_PROPERTIES_LIST_END_EXT};
  cl_device_id sub = nullptr;
  cl_uint got = 0;
  REQUIRE(ext.create(root, names.data(), 1, &sub, &got) == CL_SUCCESS);
  CHECK(got == 1);
  CHECK(units(sub) == 1);
  CHECK(listInfo<cl_device_partition_property_ext>(sub, CL_DEVICE_PARTITION_STYLE_EXT) == names);
  CHECK(ext.retain(sub) == CL_SUCCESS);
  CHECK(deviceInfo<cl_uint>(sub, CL_DEVICE_REFERENCE_COUNT_EXT) == 2);
  CHECK(ext.release(sub) == CL_SUCCESS);
  CHECK(ext.release(sub) == CL_SUCCESS);

  // "The number of cl_device_ids returned is the minimum of <num_entries> and the number of
  // devices created".
  PropsExt equally{CL_DEVICE_PARTITION_EQUALLY_EXT, 1, CL_PROPERTIES_LIST_END_EXT};
  cl_device_id one = nullptr;
  REQUIRE(ext.create(root, equally.data(), 1, &one, &got) == CL_SUCCESS);
  CHECK(got == n);
  ext.release(one);

  // Errors the extension names.
  PropsExt badName{CL_DEVICE_PARTITION_BY_NAMES_EXT, n, CL_PARTITION_BY_NAMES_LIST_END_EXT,
                   CL_PROPERTIES_LIST_END_EXT};
  CHECK(ext.create(root, badName.data(), 1, &sub, &got) == CL_INVALID_PARTITION_NAME_EXT);
  PropsExt twice{CL_DEVICE_PARTITION_BY_NAMES_EXT, 0, 0, CL_PARTITION_BY_NAMES_LIST_END_EXT,
                 CL_PROPERTIES_LIST_END_EXT};
  CHECK(ext.create(root, twice.data(), 1, &sub, &got) == CL_INVALID_PARTITION_NAME_EXT);
  PropsExt tooMany{CL_DEVICE_PARTITION_BY_COUNTS_EXT, n, 1, CL_PARTITION_BY_COUNTS_LIST_END_EXT,
                   CL_PROPERTIES_LIST_END_EXT};
  CHECK(ext.create(root, tooMany.data(), 4, &sub, &got) == CL_INVALID_PARTITION_COUNT_EXT);
  PropsExt zero{CL_DEVICE_PARTITION_EQUALLY_EXT, 0, CL_PROPERTIES_LIST_END_EXT};
  CHECK(ext.create(root, zero.data(), 4, &sub, &got) == CL_INVALID_PARTITION_COUNT_EXT);
  CHECK(ext.create(root, equally.data(), 0, &sub, &got) == CL_INVALID_VALUE);
  CHECK(ext.create(root, equally.data(), 1, nullptr, nullptr) == CL_INVALID_VALUE);
  PropsExt unknown{0x9999, 1, CL_PROPERTIES_LIST_END_EXT};
  CHECK(ext.create(root, unknown.data(), 1, &sub, &got) == CL_INVALID_VALUE);
  CHECK(ext.create(nullptr, equally.data(), 1, &sub, &got) == CL_INVALID_DEVICE);
}

TEST_CASE("Given cl_intel_device_partition_by_names, then named sub-devices follow its rules",
          "[cl][fission][intel]") {
  cl_device_id root = device();
  if (units(root) < 2) return;
  Props names0{CL_DEVICE_PARTITION_BY_NAMES_INTEL, 0, CL_PARTITION_BY_NAMES_LIST_END_INTEL, 0};
  Props names01{CL_DEVICE_PARTITION_BY_NAMES_INTEL, 0, 1, CL_PARTITION_BY_NAMES_LIST_END_INTEL, 0};
  Props names1{CL_DEVICE_PARTITION_BY_NAMES_INTEL, 1, CL_PARTITION_BY_NAMES_LIST_END_INTEL, 0};
  Split a, b, c;
  split(root, names0, a);
  split(root, names01, b);
  split(root, names1, c);
  REQUIRE(a.err == CL_SUCCESS);
  REQUIRE(b.err == CL_SUCCESS);
  REQUIRE(c.err == CL_SUCCESS);
  CHECK(units(a.devices[0]) == 1);
  CHECK(units(b.devices[0]) == 2);
  CHECK(listInfo<cl_device_partition_property>(b.devices[0], CL_DEVICE_PARTITION_TYPE) == names01);
  // "A sub-device created with CL_DEVICE_PARTITION_BY_NAMES_INTEL cannot be further sub-divided."
  CHECK(listInfo<cl_device_partition_property>(b.devices[0], CL_DEVICE_PARTITION_PROPERTIES) ==
        Props{0});
  Split nested;
  split(b.devices[0], {CL_DEVICE_PARTITION_EQUALLY, 1, 0}, nested);
  CHECK(nested.err == CL_INVALID_VALUE);
  // "A sub-device created with another partitioning mode cannot be further sub-divided by
  // CL_DEVICE_PARTITION_BY_NAMES_INTEL."
  Split eq, eqNamed;
  split(root, {CL_DEVICE_PARTITION_BY_COUNTS, 2, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0}, eq);
  REQUIRE(eq.err == CL_SUCCESS);
  split(eq.devices[0], names0, eqNamed);
  CHECK(eqNamed.err == CL_INVALID_VALUE);

  // The overlap rule: a queue on {0} forbids queues on {0,1}, not on {1}.
  cl_int err = 0;
  cl_context ctx = clCreateContext(nullptr, 1, &root, nullptr, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_command_queue qa = clCreateCommandQueue(ctx, a.devices[0], 0, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(clCreateCommandQueue(ctx, b.devices[0], 0, &err) == nullptr);
  CHECK(err == CL_OUT_OF_RESOURCES);
  cl_command_queue qc = clCreateCommandQueue(ctx, c.devices[0], 0, &err);
  CHECK(err == CL_SUCCESS);
  // A second queue on the same sub-device is no overlap with another sub-device.
  cl_command_queue qa2 = clCreateCommandQueue(ctx, a.devices[0], 0, &err);
  CHECK(err == CL_SUCCESS);
  clReleaseCommandQueue(qa);
  clReleaseCommandQueue(qa2);
  clReleaseCommandQueue(qc);
  // With the overlapping queues gone, {0,1} may have one.
  cl_command_queue qb = clCreateCommandQueue(ctx, b.devices[0], 0, &err);
  CHECK(err == CL_SUCCESS);
  clReleaseCommandQueue(qb);
  clReleaseContext(ctx);
}

TEST_CASE("Given the synthetic machine, then every affinity domain cuts where the topology says",
          "[.synthetic][cl][fission]") {
  cl_device_id root = device();
  if (!synthetic16()) return;
  auto sizes = [](const Split& s) {
    std::vector<cl_uint> v;
    for (cl_device_id d : s.devices) v.push_back(units(d));
    return v;
  };
  Split numa, l3, l2, next, counts, eq;
  split(root, {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_NUMA, 0}, numa);
  REQUIRE(numa.err == CL_SUCCESS);
  CHECK(sizes(numa) == std::vector<cl_uint>(4, 4));
  split(root, {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, 0}, l3);
  REQUIRE(l3.err == CL_SUCCESS);
  CHECK(sizes(l3) == std::vector<cl_uint>(8, 2));
  // No L2 in this topology, so CL_DEVICE_PARTITION_AFFINITY_DOMAIN does not report it:
  // "CL_INVALID_VALUE if ... values specified in properties are valid but not supported by the
  // device".
  split(root, {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, 0}, l2);
  CHECK(l2.err == CL_INVALID_VALUE);
  // NEXT_PARTITIONABLE takes NUMA first and reports it.
  split(root,
        {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, 0},
        next);
  REQUIRE(next.err == CL_SUCCESS);
  CHECK(sizes(next) == std::vector<cl_uint>(4, 4));
  CHECK(listInfo<cl_device_partition_property>(next.devices[0], CL_DEVICE_PARTITION_TYPE) ==
        Props{CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_NUMA, 0});
  // Nested: a NUMA node's next level is its L3 caches.
  Split inner;
  split(next.devices[1],
        {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, 0},
        inner);
  REQUIRE(inner.err == CL_SUCCESS);
  CHECK(sizes(inner) == std::vector<cl_uint>(2, 2));
  CHECK(deviceInfo<cl_device_id>(inner.devices[0], CL_DEVICE_PARENT_DEVICE) == next.devices[1]);
  CHECK(listInfo<cl_device_partition_property>(inner.devices[0], CL_DEVICE_PARTITION_TYPE) ==
        Props{CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, 0});
  split(root, {CL_DEVICE_PARTITION_BY_COUNTS, 3, 5, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0},
        counts);
  REQUIRE(counts.err == CL_SUCCESS);
  CHECK(sizes(counts) == std::vector<cl_uint>{3, 5});
  // EQUALLY leaves the remainder unused.
  split(root, {CL_DEVICE_PARTITION_EQUALLY, 5, 0}, eq);
  REQUIRE(eq.err == CL_SUCCESS);
  CHECK(sizes(eq) == std::vector<cl_uint>(3, 5));

  // EXT: NEXT_FISSIONABLE reported as the domain used.
  ExtFunctions ext;
  PropsExt nextExt{CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN_EXT, CL_AFFINITY_DOMAIN_NEXT_FISSIONABLE_EXT,
                   CL_PROPERTIES_LIST_END_EXT};
  cl_device_id d[4];
  cl_uint got = 0;
  REQUIRE(ext.create(root, nextExt.data(), 4, d, &got) == CL_SUCCESS);
  CHECK(got == 4);
  CHECK(listInfo<cl_device_partition_property_ext>(d[0], CL_DEVICE_PARTITION_STYLE_EXT) ==
        PropsExt{CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN_EXT, CL_AFFINITY_DOMAIN_NUMA_EXT,
                 CL_PROPERTIES_LIST_END_EXT});
  PropsExt l1Ext{CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN_EXT, CL_AFFINITY_DOMAIN_L1_CACHE_EXT,
                 CL_PROPERTIES_LIST_END_EXT};
  cl_device_id none = nullptr;
  CHECK(ext.create(root, l1Ext.data(), 1, &none, &got) == CL_DEVICE_PARTITION_FAILED_EXT);
  for (cl_device_id x : d) ext.release(x);
}
