#include "core/module/kernel.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>

#include "backends/device_kind.h"
#include "core/common/hash.h"
#include "core/device/device.h"
#include "core/device/limits.h"
#include "core/image/image.h"
#include "core/image/sampler.h"
#include "support/checked_math.h"

namespace tessera::core {

using backends::ArgKind;
using backends::KernelArgInfo;

namespace {

std::string sizeAttribute(const char* name, const spirv::WorkGroupSize& s) {
  return std::string(name) + "(" + std::to_string(s.size[0]) + "," + std::to_string(s.size[1]) +
         "," + std::to_string(s.size[2]) + ")";
}

// VecTypeHint's operand: the component type in the low 16 bits (0 char, 1 short, 2 int, 3 long,
// 4 half, 5 float, 6 double), the number of components in the high 16 bits.
std::string vecTypeHint(uint32_t hint) {
  static const char* const kTypes[] = {"char", "short", "int", "long", "half", "float", "double"};
  uint32_t type = hint & 0xffff, count = hint >> 16;
  std::string name = type < 7 ? kTypes[type] : "int";
  if (count > 1) name += std::to_string(count);
  return "vec_type_hint(" + name + ")";
}

// The kernel's attributes as OpenCL C spells them; a required sub-group size (SPIR-V's SubgroupSize
// execution mode) is cl_intel_required_subgroup_size's intel_reqd_sub_group_size(S).
std::string attributeText(const spirv::KernelInfo& info, uint32_t requiredSubgroupSize) {
  std::vector<std::string> parts;
  if (info.requiredSize) parts.push_back(sizeAttribute("reqd_work_group_size", *info.requiredSize));
  if (info.sizeHint) parts.push_back(sizeAttribute("work_group_size_hint", *info.sizeHint));
  if (info.vecTypeHint) parts.push_back(vecTypeHint(*info.vecTypeHint));
  if (requiredSubgroupSize)
    parts.push_back("intel_reqd_sub_group_size(" + std::to_string(requiredSubgroupSize) + ")");
  std::string text;
  for (const std::string& p : parts) text += (text.empty() ? "" : " ") + p;
  return text;
}

// The argument table `kind` lays out for `info` before any code exists (DeviceTraits::
// maxArgumentAlignment); nullopt when reflection cannot tell (an argument of unknown size or an
// unsupported kind, 32-bit pointers).
std::optional<std::vector<KernelArgInfo>> tableFromReflection(const spirv::KernelInfo& info,
                                                              const spirv::ModuleInfo& module,
                                                              const backends::DeviceKind& kind,
                                                              uint32_t& bufferSize) {
  const uint64_t maxAlign = kind.traits().maxArgumentAlignment;
  if (maxAlign == 0 || module.pointerSize != 8) return std::nullopt;
  std::vector<KernelArgInfo> table;
  uint64_t offset = 0;
  for (const spirv::KernelArg& a : info.args) {
    ArgKind k;
    uint64_t size = 8, align = 8;
    switch (a.kind) {
      case spirv::ArgKind::GlobalPointer:
      case spirv::ArgKind::GenericPointer: k = ArgKind::GlobalPointer; break;
      case spirv::ArgKind::ConstantPointer: k = ArgKind::ConstantPointer; break;
      case spirv::ArgKind::LocalPointer: k = ArgKind::LocalPointer; break;
      case spirv::ArgKind::Image: k = ArgKind::Image; break;
      case spirv::ArgKind::Sampler: k = ArgKind::Sampler; break;
      case spirv::ArgKind::ByValue:
        k = ArgKind::ByValue;
        size = a.size;
        align = std::min<uint64_t>(std::max<uint32_t>(a.alignment, 1), maxAlign);
        if (size == 0 || (align & (align - 1)) != 0) return std::nullopt;
        break;
      default:
        return std::nullopt;
    }
    offset = (offset + align - 1) / align * align;
    if (offset + size > UINT32_MAX) return std::nullopt;
    table.push_back({k, static_cast<uint32_t>(size), static_cast<uint32_t>(offset)});
    offset += size;
  }
  bufferSize = static_cast<uint32_t>((offset + 7) / 8 * 8);
  return table;
}

}  // namespace

ze_result_t Kernel::create(Module& module, const char* name, bool deferred, Kernel*& out) {
  const spirv::KernelInfo* info = module.reflected(name);
  if (!info) return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
  if (module.unlinked()) return ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED;
  uint32_t bufferSize = 0;
  std::optional<std::vector<KernelArgInfo>> table;
  if (deferred && module.compilesByKernel())
    table = tableFromReflection(*info, module.info(), module.device().kind(), bufferSize);
  if (table) {
    out = new Kernel(module, *info, std::move(*table), bufferSize);
    return ZE_RESULT_SUCCESS;
  }
  const compiler::KernelCode* compiled = nullptr;
  if (ze_result_t r = module.compiled(name, compiled); r != ZE_RESULT_SUCCESS) return r;
  out = new Kernel(module, *info, compiled->args, compiled->argBufferSize);
  out->adopt(*compiled);
  return ZE_RESULT_SUCCESS;
}

Kernel::Kernel(Module& module, const spirv::KernelInfo& info, std::vector<KernelArgInfo> table,
               uint32_t argBufferSize)
    : module_(&module),
      info_(&info),
      table_(std::move(table)),
      args_(argBufferSize, 0),
      set_(table_.size(), false),
      maxSharedLocal_(limits::maxSharedLocalMemory(module.device().resources())) {
  if (info.requiredSize)
    groupSize_ = {info.requiredSize->size[0], info.requiredSize->size[1],
                  info.requiredSize->size[2]};
}

ze_result_t Kernel::ensureCode() {
  if (code_.load(std::memory_order_acquire)) return ZE_RESULT_SUCCESS;
  std::lock_guard lock(codeMutex_);
  if (code_.load(std::memory_order_relaxed)) return ZE_RESULT_SUCCESS;
  const compiler::KernelCode* code = nullptr;
  if (ze_result_t r = module_->compiled(info_->name, code); r != ZE_RESULT_SUCCESS) return r;
  return adopt(*code) ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
}

bool Kernel::adopt(const compiler::KernelCode& code) {
  const std::vector<KernelArgInfo>& next = code.args;
  // Reflection and the code disagree: what setArgument accepted may not fit the code. A bug of
  // Tessera's, said where a user can see it rather than launched with wrong arguments.
  auto disagree = [&](const std::string& what) {
    std::fprintf(stderr, "tessera: kernel %s: %s in its reflection and its code; not launched\n",
                 info_->name.c_str(), what.c_str());
    return false;
  };
  if (next.size() != table_.size()) return disagree("a different number of arguments");
  for (size_t i = 0; i < next.size(); ++i)
    if (next[i].kind != table_[i].kind || next[i].size != table_[i].size)
      return disagree("argument " + std::to_string(i) + " of another kind or size");
  if (args_.size() != code.argBufferSize ||
      !std::equal(next.begin(), next.end(), table_.begin(), [](const auto& a, const auto& b) {
        return a.offset == b.offset;
      })) {
    std::vector<uint8_t> moved(code.argBufferSize, 0);
    for (size_t i = 0; i < next.size(); ++i)
      std::memcpy(moved.data() + next[i].offset, args_.data() + table_[i].offset, next[i].size);
    args_ = std::move(moved);
  }
  table_ = next;
  sourceAttributes_ = attributeText(*info_, code.requiredSubgroupSize);
  code_.store(&code, std::memory_order_release);
  return true;
}

Kernel::~Kernel() = default;

void Kernel::destroy() {
  retireHandle();
  release();
}

ze_result_t Kernel::setArgument(uint32_t index, size_t size, const void* value) {
  ze_result_t r = encodeArgument(index, size, value, args_.data());
  if (r == ZE_RESULT_SUCCESS) set_[index] = true;
  return r;
}

ze_result_t Kernel::encodeArgument(uint32_t index, size_t size, const void* value,
                                   uint8_t* buffer) const {
  if (index >= table_.size()) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX;
  const KernelArgInfo& a = table_[index];
  uint8_t* slot = buffer ? buffer + a.offset : nullptr;
  switch (a.kind) {
    case ArgKind::LocalPointer: {
      // "If argument is a local memory pointer, then pArgValue must be null and argSize is the
      // size of the local memory."
      if (value) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
      if (size == 0) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
      // A size no work-group of the device can have (more than maxSharedLocalMemory) is refused
      // here, with the one size error the header lists for this call
      // ("ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE"); the sum of all of a launch's local memory
      // is checked when it is appended (checkLocalMemory).
      if (size > maxSharedLocal_) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
      uint64_t bytes = size;
      if (slot) std::memcpy(slot, &bytes, sizeof bytes);
      break;
    }
    case ArgKind::GlobalPointer:
    case ArgKind::ConstantPointer: {
      if (size != sizeof(void*)) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
      // A null value is a null pointer.
      void* p = nullptr;
      if (value) std::memcpy(&p, value, sizeof p);
      if (slot) std::memcpy(slot, &p, sizeof p);
      break;
    }
    case ArgKind::ByValue:
      // Leniency (docs/api-coverage.head.md): fewer bytes than the argument's size are its first
      // bytes, the rest zero. The header asks only "argSize: [in] size of argument type" and lists
      // INVALID_KERNEL_ARGUMENT_SIZE without a condition; Intel's driver copies the bytes given
      // into a zeroed argument area, and level-zero-tests passes sizeof(uint32_t) for size_t
      // arguments (module_add_constant_3). On this little-endian host that is the value
      // zero-extended. More bytes than the argument has are taken when the bytes past it are
      // all zero: the argument's bytes then hold the whole value (intel/compute-benchmarks'
      // atomic_benchmark passes an 8-byte buffer for an int or float), and nothing given is
      // dropped. Extra bytes that are not zero, or no bytes, stay refused.
      if (size == 0) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
      if (size > a.size) {
        const auto* extra = static_cast<const uint8_t*>(value);
        if (!extra || std::any_of(extra + a.size, extra + size, [](uint8_t c) { return c != 0; }))
          return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
        size = a.size;
      }
      // "pArgValue [in][optional] ... If null then argument value is considered null": zeros.
      // (AdaptiveCpp passes null for a pointer it wraps in a by-value structure.)
      if (slot) {
        if (value) std::memcpy(slot, value, size);
        std::memset(slot + (value ? size : 0), 0, a.size - (value ? size : 0));
      }
      break;
    case ArgKind::Image: {
      // The guide's "zeKernelSetArgumentValue(hKernel, 0, sizeof(ze_image_handle_t), &src_image)":
      // the slot gets the address of the image's ImageView (image_abi.h). A value that is not a
      // live image has no argument to become.
      if (size != sizeof(ze_image_handle_t)) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
      ze_image_handle_t h = nullptr;
      if (value) std::memcpy(&h, value, sizeof h);
      const Image* image = Image::fromHandle(h);
      if (!image) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
      // An image created without ZE_IMAGE_FLAG_KERNEL_WRITE ("kernels will write contents") for
      // an argument the kernel writes (write_only or read_write): the application said no kernel
      // writes it. The header lists no error for this case under zeKernelSetArgumentValue; it gets
      // the one Tessera gives every value that cannot be the argument, ZE_RESULT_ERROR_INVALID_
      // ARGUMENT ("generic error code for invalid arguments"), as OpenCL's clSetKernelArg gives
      // CL_INVALID_ARG_VALUE for a CL_MEM_READ_ONLY image there.
      if (index < info_->args.size() && info_->args[index].writesImage() && !image->kernelWrites())
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
      const backends::ImageView* view = &image->view();
      if (slot) std::memcpy(slot, &view, sizeof view);
      break;
    }
    case ArgKind::Sampler: {
      // "zeKernelSetArgumentValue(hKernel, 0, sizeof(ze_sampler_handle_t), &sampler)": the slot
      // gets the sampler's value (image_abi.h, sampler_bits).
      if (size != sizeof(ze_sampler_handle_t)) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
      ze_sampler_handle_t h = nullptr;
      if (value) std::memcpy(&h, value, sizeof h);
      const Sampler* sampler = Sampler::fromHandle(h);
      if (!sampler) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
      uint64_t bits = sampler->value();
      if (slot) std::memcpy(slot, &bits, sizeof bits);
      break;
    }
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t Kernel::checkArgumentValues(void* const* values) const {
  const auto& args = table_;
  if (!args.empty() && !values) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  for (size_t i = 0; i < args.size(); ++i)
    if (!values[i] && args[i].kind == ArgKind::LocalPointer)
      return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return ZE_RESULT_SUCCESS;
}

ze_result_t Kernel::setArguments(void* const* values) {
  if (ze_result_t r = checkArgumentValues(values); r != ZE_RESULT_SUCCESS) return r;
  const auto& args = table_;
  for (uint32_t i = 0; i < args.size(); ++i) {
    const KernelArgInfo& a = args[i];
    size_t size = sizeof(void*);  // global and constant pointers
    const void* value = values[i];
    switch (a.kind) {
      case ArgKind::LocalPointer: {
        // The local memory size, read as 32 bits: ze_api.h says only "pointer to an array of
        // pointers", and intel/compute-benchmarks' torch KernelSubmitSlmSize points at an `int`
        // where others point at a size_t. On this little-endian host both give the size (local
        // memory is far below 4 GiB), and nothing past a 4-byte value is read
        // (docs/api-coverage.md, "Leniency").
        uint32_t low = 0;
        std::memcpy(&low, value, sizeof low);
        size = low;
        value = nullptr;
        break;
      }
      case ArgKind::ByValue:
        size = a.size;
        break;
      case ArgKind::Image:
        size = sizeof(ze_image_handle_t);
        break;
      case ArgKind::Sampler:
        size = sizeof(ze_sampler_handle_t);
        break;
      default:
        break;
    }
    if (ze_result_t r = setArgument(i, size, value); r != ZE_RESULT_SUCCESS) return r;
  }
  return ZE_RESULT_SUCCESS;
}

// Leniency (docs/api-coverage.md): ze_api.h lists no error for a launch whose arguments were not
// all set (zeCommandListAppendLaunchKernel's @returns name none; OpenCL's
// CL_INVALID_KERNEL_ARGS has no Level Zero counterpart), and the guide says only "Use
// zeKernelSetArgumentValue to setup arguments for a kernel launch". Intel's driver launches from
// its zeroed argument area, and intel/compute-benchmarks relies on it (KernelSwitchPriority
// appends eat_time before setting its int argument). args_ starts zeroed, so an unset by-value or
// pointer argument is 0 or null; the kinds for which zero is no value stay refused.
bool Kernel::argumentsLaunchable() const {
  const auto& args = table_;
  for (size_t i = 0; i < set_.size(); ++i) {
    if (set_[i]) continue;
    switch (args[i].kind) {
      case ArgKind::ByValue:
      case ArgKind::GlobalPointer:
      case ArgKind::ConstantPointer:
        break;
      case ArgKind::LocalPointer:
      case ArgKind::Image:
      case ArgKind::Sampler:
        return false;
    }
  }
  return true;
}

ze_result_t Kernel::setGroupSize(uint32_t x, uint32_t y, uint32_t z) {
  ze_result_t r = checkGroupSize(x, y, z);
  if (r == ZE_RESULT_SUCCESS) groupSize_ = {x, y, z};
  return r;
}

ze_result_t Kernel::checkGroupSize(uint32_t x, uint32_t y, uint32_t z) const {
  // "groupSizeX * groupSizeY * groupSizeZ must be <= maxTotalGroupSize": a product that does not
  // fit in 64 bits (2^31 * 2^31 * 4 wrapped to 0) is past it too.
  uint64_t total = 0;
  if (x == 0 || y == 0 || z == 0 || !support::checkedProduct({x, y, z}, total) ||
      total > limits::kMaxGroupSize)
    return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
  if (info_->requiredSize) {
    const auto& r = info_->requiredSize->size;
    if (r[0] != x || r[1] != y || r[2] != z) return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t Kernel::checkLocalMemory(const std::vector<uint8_t>& args, const Device& device) const {
  uint64_t bytes = 0;
  const uint32_t max = &device == &module_->device()
                           ? maxSharedLocal_
                           : limits::maxSharedLocalMemory(device.resources());
  if (device.kind().localMemoryBytes(compiled(), args.data(), bytes) && bytes <= max)
    return ZE_RESULT_SUCCESS;
  // The header names no error of zeCommandListAppendLaunchKernel for this; the reference driver
  // (Intel's compute-runtime) answers ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY ("insufficient device
  // memory to satisfy call") when a launch's shared local memory is larger than the device's.
  return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
}

uint32_t Kernel::subgroupSize() const {
  return std::max<uint32_t>(compiled().subgroupSize, 1);
}

uint64_t Kernel::maxGroupSize() const {
  if (!info_->requiredSize) return limits::kMaxGroupSize;
  const auto& r = info_->requiredSize->size;
  return uint64_t{r[0]} * r[1] * r[2];
}

uint32_t Kernel::maxCooperativeGroupCount() const {
  return module_->device().workers().size();
}

uint64_t Kernel::privateMemSize() const {
  return uint64_t{compiled().stackBytes} + compiled().scratchBytesPerWorkItem;
}

ze_result_t Kernel::checkPrivateMemory() const {
  // ze_api.h: "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY: [Core] insufficient device memory to satisfy
  // call" (every append may return it). The most a work-item may have is the kind's
  // (DeviceTraits::maxPrivateMemory; the CPU kind's kernel stacks are sized for it).
  return privateMemSize() > module_->device().kind().traits().maxPrivateMemory
             ? ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY
             : ZE_RESULT_SUCCESS;
}

void Kernel::properties(ze_kernel_properties_t& p) const {
  auto stype = p.stype;
  auto pNext = p.pNext;
  p = {};
  p.stype = stype;
  p.pNext = pNext;
  p.numKernelArgs = static_cast<uint32_t>(compiled().args.size());
  if (info_->requiredSize) {
    p.requiredGroupSizeX = info_->requiredSize->size[0];
    p.requiredGroupSizeY = info_->requiredSize->size[1];
    p.requiredGroupSizeZ = info_->requiredSize->size[2];
  }
  // Sub-groups (the CPU kind's runtime/kernel_abi.h, "Sub-groups"): the kernel runs with one size
  // S, the one it requires (else 0 here) or the kind's default; a work-group of n work-items has
  // ceil(n / S) of them, so the most a work-group can have is that of the largest group the
  // kernel may run with (its required size, else the device's maxTotalGroupSize). No source
  // form requires a number of sub-groups (SPIR-V's SubgroupsPerWorkgroup needs the
  // SubgroupDispatch capability of device-side enqueue, which the device does not have).
  p.requiredSubgroupSize = compiled().requiredSubgroupSize;
  p.requiredNumSubGroups = 0;
  p.maxSubgroupSize = subgroupSize();
  p.maxNumSubgroups = static_cast<uint32_t>((maxGroupSize() + subgroupSize() - 1) / subgroupSize());
  p.localMemSize = compiled().staticLocalBytes;
  p.privateMemSize = static_cast<uint32_t>(std::min<uint64_t>(privateMemSize(), UINT32_MAX));
  p.spillMemSize = 0;
  stableUuid("tessera-kernel|" + compiled().name, p.uuid.kid);
  std::memcpy(p.uuid.mid, p.uuid.kid, sizeof p.uuid.mid);
}

}  // namespace tessera::core
