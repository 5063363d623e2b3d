// The sizes a client gives a launch, from arbitrary bytes: group sizes (zeKernelSetGroupSize,
// zeKernelSuggestGroupSize), __local argument sizes (zeKernelSetArgumentValue), group counts
// (zeCommandListAppendLaunchKernel, cooperative and indirect), mutable updates of all three, and
// specialization constants (zeModuleCreate with counts, ids, null arrays and values). Every call
// must answer a result, never crash, wrap or hang. Launches the harness can bound (few work-items,
// __local arguments as large as the kernel indexes) also run, on an immediate list; the others are
// appended to a regular list that is reset without running.
//
// Input: a sequence of operations, each an opcode byte and its operands (little-endian), read until
// the input ends. The modules come from the seed corpus of fuzz_ze_module (TESSERA_FUZZ_SEEDS):
// corpus_locals.spv (three_locals(__global int* out, __local int* a, __local short* b), 64 bytes of
// static __local) and spec_constants.spv (spec ids 1-5).
#include <level_zero/ze_api.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tessera/ze_tessera.h"

namespace {

ze_context_handle_t context = nullptr;
ze_device_handle_t device = nullptr;
ze_module_handle_t localsModule = nullptr;
ze_kernel_handle_t kernel = nullptr;
ze_command_list_handle_t regular = nullptr;
ze_command_list_handle_t mutableList = nullptr;
ze_command_list_handle_t immediate = nullptr;
uint64_t mutableId = 0;
std::vector<uint8_t> specSpirv;
std::vector<int> out(4096);
ze_pfnCommandListGetNextCommandIdExp_t getNextCommandId = nullptr;
ze_pfnCommandListUpdateMutableCommandsExp_t updateMutable = nullptr;

std::vector<uint8_t> readSeed(const char* name) {
  std::ifstream in(std::string(TESSERA_FUZZ_SEEDS) + "/" + name, std::ios::binary);
  if (!in) std::abort();
  return {std::istreambuf_iterator<char>(in), {}};
}

template <typename F>
F extension(ze_driver_handle_t driver, const char* name) {
  void* f = nullptr;
  if (zeDriverGetExtensionFunctionAddress(driver, name, &f) != ZE_RESULT_SUCCESS) std::abort();
  return reinterpret_cast<F>(f);
}

void setUp() {
  if (zeInit(0) != ZE_RESULT_SUCCESS) std::abort();
  uint32_t n = 1;
  ze_driver_handle_t driver = nullptr;
  if (zeDriverGet(&n, &driver) != ZE_RESULT_SUCCESS || n == 0) std::abort();
  n = 1;
  if (zeDeviceGet(driver, &n, &device) != ZE_RESULT_SUCCESS || n == 0) std::abort();
  ze_context_desc_t cd{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  if (zeContextCreate(driver, &cd, &context) != ZE_RESULT_SUCCESS) std::abort();
  std::vector<uint8_t> locals = readSeed("corpus_locals.spv");
  ze_module_desc_t md{ZE_STRUCTURE_TYPE_MODULE_DESC,
                      nullptr,
                      ZE_MODULE_FORMAT_IL_SPIRV,
                      locals.size(),
                      locals.data(),
                      "",
                      nullptr};
  if (zeModuleCreate(context, device, &md, &localsModule, nullptr) != ZE_RESULT_SUCCESS)
    std::abort();
  ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "three_locals"};
  if (zeKernelCreate(localsModule, &kd, &kernel) != ZE_RESULT_SUCCESS) std::abort();
  int* p = out.data();
  if (zeKernelSetArgumentValue(kernel, 0, sizeof p, &p) != ZE_RESULT_SUCCESS) std::abort();
  specSpirv = readSeed("spec_constants.spv");
  ze_command_list_desc_t ld{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, 0, 0};
  if (zeCommandListCreate(context, device, &ld, &regular) != ZE_RESULT_SUCCESS) std::abort();
  ze_command_queue_desc_t qd{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
  qd.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
  if (zeCommandListCreateImmediate(context, device, &qd, &immediate) != ZE_RESULT_SUCCESS)
    std::abort();
  getNextCommandId =
      extension<ze_pfnCommandListGetNextCommandIdExp_t>(driver, "zeCommandListGetNextCommandIdExp");
  updateMutable = extension<ze_pfnCommandListUpdateMutableCommandsExp_t>(
      driver, "zeCommandListUpdateMutableCommandsExp");
  // One recorded launch of three_locals (valid sizes) that updates are tried on; never executed.
  if (zeKernelSetArgumentValue(kernel, 1, 64, nullptr) != ZE_RESULT_SUCCESS ||
      zeKernelSetArgumentValue(kernel, 2, 32, nullptr) != ZE_RESULT_SUCCESS)
    std::abort();
  ze_mutable_command_list_exp_desc_t mm{ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_LIST_EXP_DESC, nullptr,
                                        0};
  ze_command_list_desc_t mld{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, &mm, 0, 0};
  if (zeCommandListCreate(context, device, &mld, &mutableList) != ZE_RESULT_SUCCESS) std::abort();
  ze_mutable_command_id_exp_desc_t idd{ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_ID_EXP_DESC, nullptr, 0};
  ze_group_count_t one{1, 1, 1};
  if (getNextCommandId(mutableList, &idd, &mutableId) != ZE_RESULT_SUCCESS ||
      zeCommandListAppendLaunchKernel(mutableList, kernel, &one, nullptr, 0, nullptr) !=
          ZE_RESULT_SUCCESS ||
      zeCommandListClose(mutableList) != ZE_RESULT_SUCCESS)
    std::abort();
}

struct Reader {
  const uint8_t* data;
  size_t size;
  size_t at = 0;
  bool more() const { return at < size; }
  template <typename T>
  T get() {
    T v{};
    size_t n = std::min(sizeof v, size - at);
    std::memcpy(&v, data + at, n);
    at += n;
    return v;
  }
};

// What the harness knows of the kernel's state (set only when the driver accepted it).
struct State {
  uint32_t group[3] = {1, 1, 1};
  uint64_t localA = 64, localB = 32;
};

// Whether a launch of `counts` can run here quickly and inside what three_locals touches: a[lid]
// and b[lid] for lid < group[0], out[global id 0] < out.size(), few work-items in all.
bool runnable(const State& s, const ze_group_count_t& c) {
  uint64_t items = uint64_t(s.group[0]) * s.group[1] * s.group[2];
  uint64_t groups = uint64_t(c.groupCountX) * c.groupCountY * c.groupCountZ;
  return groups > 0 && groups <= 64 && items <= 4096 && items * groups <= (1u << 16) &&
         uint64_t(c.groupCountX) * s.group[0] <= out.size() && s.localA >= 4ull * s.group[0] &&
         s.localB >= 2ull * s.group[0];
}

void specConstants(Reader& r) {
  uint8_t shape = r.get<uint8_t>();
  uint32_t count = shape & 7;  // up to 7 constants: the arrays below are that long
  uint32_t ids[7];
  uint64_t storage[7];
  const void* values[7];
  for (uint32_t i = 0; i < count; ++i) {
    ids[i] = r.get<uint8_t>() % 8;  // mostly the module's ids 1-5, sometimes unknown ones
    storage[i] = r.get<uint64_t>();
    values[i] = &storage[i];
  }
  if (count && (shape & 0x40)) values[r.get<uint8_t>() % count] = nullptr;
  ze_module_constants_t constants{count, (shape & 0x08) ? nullptr : ids,
                                  (shape & 0x10) ? nullptr : values};
  // (A count larger than the arrays is the client's error and not fuzzed.) Bit 0x20: no constants
  // structure at all.
  ze_module_desc_t md{ZE_STRUCTURE_TYPE_MODULE_DESC,
                      nullptr,
                      ZE_MODULE_FORMAT_IL_SPIRV,
                      specSpirv.size(),
                      specSpirv.data(),
                      "",
                      (shape & 0x20) ? nullptr : &constants};
  ze_module_handle_t m = nullptr;
  ze_module_build_log_handle_t log = nullptr;
  if (zeModuleCreate(context, device, &md, &m, &log) == ZE_RESULT_SUCCESS) zeModuleDestroy(m);
  if (log) zeModuleBuildLogDestroy(log);
}

void mutableUpdate(Reader& r) {
  uint8_t which = r.get<uint8_t>();
  ze_group_count_t counts{r.get<uint32_t>(), r.get<uint32_t>(), r.get<uint32_t>()};
  ze_mutable_group_count_exp_desc_t c{ZE_STRUCTURE_TYPE_MUTABLE_GROUP_COUNT_EXP_DESC, nullptr,
                                      mutableId, &counts};
  ze_mutable_group_size_exp_desc_t g{ZE_STRUCTURE_TYPE_MUTABLE_GROUP_SIZE_EXP_DESC,
                                     nullptr,
                                     mutableId,
                                     r.get<uint32_t>(),
                                     r.get<uint32_t>(),
                                     r.get<uint32_t>()};
  ze_mutable_kernel_argument_exp_desc_t a{ZE_STRUCTURE_TYPE_MUTABLE_KERNEL_ARGUMENT_EXP_DESC,
                                          nullptr,
                                          mutableId,
                                          1u + (which & 1),
                                          size_t(r.get<uint64_t>()),
                                          nullptr};
  ze_mutable_kernel_argument_exp_desc_t b{ZE_STRUCTURE_TYPE_MUTABLE_KERNEL_ARGUMENT_EXP_DESC,
                                          nullptr,
                                          mutableId,
                                          2u - (which & 1),
                                          size_t(r.get<uint64_t>()),
                                          nullptr};
  // A chain of the descriptors `which` selects.
  const void* chain = nullptr;
  if (which & 2) c.pNext = chain, chain = &c;
  if (which & 4) g.pNext = chain, chain = &g;
  if (which & 8) a.pNext = chain, chain = &a;
  if (which & 16) b.pNext = chain, chain = &b;
  ze_mutable_commands_exp_desc_t d{ZE_STRUCTURE_TYPE_MUTABLE_COMMANDS_EXP_DESC, chain, 0};
  if (updateMutable(mutableList, &d) == ZE_RESULT_SUCCESS) zeCommandListClose(mutableList);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setUp();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader r{data, size};
  State s;
  // Each input starts from the same kernel state.
  zeKernelSetGroupSize(kernel, 1, 1, 1);
  zeKernelSetArgumentValue(kernel, 1, s.localA, nullptr);
  zeKernelSetArgumentValue(kernel, 2, s.localB, nullptr);
  for (int op = 0; op < 64 && r.more(); ++op) {
    switch (r.get<uint8_t>() % 8) {
      case 0: {  // group size
        uint32_t x = r.get<uint32_t>(), y = r.get<uint32_t>(), z = r.get<uint32_t>();
        if (zeKernelSetGroupSize(kernel, x, y, z) == ZE_RESULT_SUCCESS)
          s.group[0] = x, s.group[1] = y, s.group[2] = z;
        break;
      }
      case 1: {  // a __local argument's size
        uint32_t index = 1 + r.get<uint8_t>() % 2;
        uint64_t bytes = r.get<uint64_t>();
        if (zeKernelSetArgumentValue(kernel, index, size_t(bytes), nullptr) == ZE_RESULT_SUCCESS)
          (index == 1 ? s.localA : s.localB) = bytes;
        break;
      }
      case 2: {  // appended, never run
        ze_group_count_t c{r.get<uint32_t>(), r.get<uint32_t>(), r.get<uint32_t>()};
        uint8_t how = r.get<uint8_t>() % 3;
        if (how == 0) zeCommandListAppendLaunchKernel(regular, kernel, &c, nullptr, 0, nullptr);
        if (how == 1)
          zeCommandListAppendLaunchCooperativeKernel(regular, kernel, &c, nullptr, 0, nullptr);
        if (how == 2)
          zeCommandListAppendLaunchKernelIndirect(regular, kernel, &c, nullptr, 0, nullptr);
        zeCommandListReset(regular);
        break;
      }
      case 3: {  // run, when the harness can bound it
        ze_group_count_t c{r.get<uint8_t>() % 9u, r.get<uint8_t>() % 9u, r.get<uint8_t>() % 9u};
        if (runnable(s, c))
          zeCommandListAppendLaunchKernel(immediate, kernel, &c, nullptr, 0, nullptr);
        break;
      }
      case 4: {
        uint32_t gx = r.get<uint32_t>(), gy = r.get<uint32_t>(), gz = r.get<uint32_t>();
        uint32_t x = 0, y = 0, z = 0;
        zeKernelSuggestGroupSize(kernel, gx, gy, gz, &x, &y, &z);
        break;
      }
      case 5:
        specConstants(r);
        break;
      case 6:
        mutableUpdate(r);
        break;
      case 7: {  // kernel properties after all this
        ze_kernel_properties_t props{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
        zeKernelGetProperties(kernel, &props);
        break;
      }
    }
  }
  return 0;
}
