// Sub-devices: one module built for the root device runs a kernel on each of its sub-devices, and
// each work-group records the PU it ran on. A sub-device's queue runs only on the sub-device's PUs;
// the sample checks it and exits non-zero if a work-group ran elsewhere.
// Usage: ze_subdevices   (run through the loader: ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1)
#include <level_zero/ze_api.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "tessera/ze_tessera.h"

#define CHECK(call)                                                                  \
  do {                                                                               \
    ze_result_t r_ = (call);                                                         \
    if (r_ != ZE_RESULT_SUCCESS) {                                                   \
      std::fprintf(stderr, "%s failed: 0x%x\n", #call, static_cast<unsigned>(r_)); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

namespace {

std::string puText(const std::set<uint32_t>& pus) {
  std::string s;
  for (uint32_t p : pus) s += (s.empty() ? "" : ",") + std::to_string(p);
  return s;
}

}  // namespace

int main() {
  CHECK(zeInit(0));
  uint32_t count = 1;
  ze_driver_handle_t driver;
  CHECK(zeDriverGet(&count, &driver));
  count = 1;
  ze_device_handle_t root;
  CHECK(zeDeviceGet(driver, &count, &root));
  void* fn = nullptr;
  CHECK(zeDriverGetExtensionFunctionAddress(driver, "zeTesseraDeviceGetPus", &fn));
  auto getPus = reinterpret_cast<ze_pfnTesseraDeviceGetPus_t>(fn);

  uint32_t subCount = 0;
  CHECK(zeDeviceGetSubDevices(root, &subCount, nullptr));
  // The root device first, for contrast, then each sub-device.
  std::vector<ze_device_handle_t> devices(subCount + 1, root);
  CHECK(zeDeviceGetSubDevices(root, &subCount, devices.data() + 1));

  ze_context_desc_t contextDesc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ze_context_handle_t context;
  CHECK(zeContextCreate(driver, &contextDesc, &context));
  std::ifstream in(TESSERA_SAMPLE_SPV, std::ios::binary);
  std::vector<uint8_t> spirv{std::istreambuf_iterator<char>(in), {}};
  ze_module_desc_t moduleDesc{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV,
                              spirv.size(), spirv.data(), "", nullptr};
  ze_module_handle_t module;  // built for the root device, usable on its sub-devices
  CHECK(zeModuleCreate(context, root, &moduleDesc, &module, nullptr));
  ze_kernel_desc_t kernelDesc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "where"};
  ze_kernel_handle_t kernel;
  CHECK(zeKernelCreate(module, &kernelDesc, &kernel));
  CHECK(zeKernelSetGroupSize(kernel, 1, 1, 1));

  const uint32_t groups = 256;
  bool ok = true;
  for (size_t d = 0; d < devices.size(); ++d) {
    uint32_t n = 0;
    CHECK(getPus(devices[d], &n, nullptr));
    std::vector<uint32_t> own(n);
    CHECK(getPus(devices[d], &n, own.data()));
    std::set<uint32_t> allowed(own.begin(), own.end());

    std::vector<uint32_t> ran(groups, UINT32_MAX);
    uint32_t* out = ran.data();
    CHECK(zeKernelSetArgumentValue(kernel, 0, sizeof out, &out));
    ze_command_queue_desc_t queueDesc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    queueDesc.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
    ze_command_list_handle_t list;
    CHECK(zeCommandListCreateImmediate(context, devices[d], &queueDesc, &list));
    ze_group_count_t count3{groups, 1, 1};
    CHECK(zeCommandListAppendLaunchKernel(list, kernel, &count3, nullptr, 0, nullptr));
    CHECK(zeCommandListDestroy(list));

    std::set<uint32_t> seen(ran.begin(), ran.end());
    bool inside = true;
    for (uint32_t pu : seen) inside = inside && allowed.count(pu);
    ok = ok && inside;
    std::printf("device %s: PUs %s; %u work-groups ran on PUs %s: %s\n",
                d == 0 ? "0" : ("0." + std::to_string(d - 1)).c_str(),
                puText(allowed).c_str(), groups, puText(seen).c_str(),
                inside ? "inside the device" : "OUTSIDE THE DEVICE");
  }
  zeKernelDestroy(kernel);
  zeModuleDestroy(module);
  zeContextDestroy(context);
  return ok ? 0 : 1;
}
