// A kernel: one of a module's compiled kernels (the compiler's KernelCode, compiler/program.h)
// with the state launches copy at append time (argument values, group size, global offset).
//
// A deferred kernel (ZE_tessera_module_kernels 1.1, what the OpenCL layer creates: PoCL too compiles
// a kernel at its first launch, and darktable creates 289 kernels at start and launches few) has
// no code until its first need: the first launch appended, or a query only code answers
// (properties, source attributes, the suggested group size). Until then its arguments are set in
// the table the kind lays out from reflection (DeviceTraits::maxArgumentAlignment); the code's own
// table replaces it when the code comes (ensureCode), the values set so far moved into it.
//
// Threading: like command lists, a kernel's setters are the application's to serialize; appended
// launches hold their own copy of that state. ensureCode may run on any thread (two appends of
// the kernel into different lists at once).
#pragma once

#include <level_zero/ze_api.h>

#include <array>
#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "compiler/program.h"
#include "core/common/object.h"
#include "core/common/ref_counted.h"
#include "core/module/module.h"

namespace tessera::core {

class Kernel : public Object<_ze_kernel_handle_t, 0x746573734b726e31ull /* "tessKrn1" */>,
               public RefCounted<Kernel> {
 public:
  // The kernel is compiled now when its module compiles by kernel and nothing compiled it yet
  // (compiler/lazy_code.h); MODULE_BUILD_FAILURE when that fails (Module::compiled). With
  // `deferred`, not now but at its first need (ensureCode), when its module compiles by kernel and
  // reflection gives its argument table (else as without).
  // INVALID_KERNEL_NAME when the module has no such kernel, INVALID_MODULE_UNLINKED while the
  // module has unresolved imports.
  static ze_result_t create(Module& module, const char* name, bool deferred, Kernel*& out);
  static Kernel* fromHandle(ze_kernel_handle_t h) { return Object::fromHandle<Kernel>(h); }

  Module& module() const { return *module_; }
  const std::string& name() const { return info_->name; }
  // The kernel's code, compiled now unless it has been: MODULE_BUILD_FAILURE when its code
  // generation fails (the module's log of it says why, zeTesseraModuleBuildKernels; every later
  // call answers the same).
  ze_result_t ensureCode();
  // The code, once ensureCode succeeded (launches appended, the queries after it).
  const compiler::KernelCode& compiled() const { return *code_.load(std::memory_order_acquire); }
  // The argument table setArgument encodes into: the code's, or reflection's before it.
  const std::vector<backends::KernelArgInfo>& argumentTable() const { return table_; }
  const spirv::KernelInfo& info() const { return *info_; }
  // zeKernelGetSourceAttributes: the kernel's attributes as OpenCL C source, space-separated
  // ("reqd_work_group_size(8,4,2) vec_type_hint(float4)"); empty when it declares none. After
  // ensureCode (a required sub-group size is the code's).
  const std::string& sourceAttributes() const { return sourceAttributes_; }

  ze_result_t setArgument(uint32_t index, size_t size, const void* value);
  // zeKernelSetArgumentValue's checks and encoding, into any argument buffer of this kernel's
  // layout (a recorded launch's, for mutable command lists); `buffer` null only checks.
  ze_result_t encodeArgument(uint32_t index, size_t size, const void* value,
                             uint8_t* buffer) const;
  // zeCommandListAppendLaunchKernelWithArguments's pArguments (ze_tessera.h): one pointer per
  // argument to its value, where a __local argument's value is its size (a size_t) and every other
  // value is as large as the argument's slot (pointers, images and samplers: a pointer or handle).
  // checkArgumentValues: INVALID_NULL_POINTER when `values` is null while the kernel has arguments,
  // or a __local argument's pointer is null (its size is read from there). setArguments sets each
  // argument as setArgument does and returns the first error.
  ze_result_t checkArgumentValues(void* const* values) const;
  ze_result_t setArguments(void* const* values);
  // Whether a launch may be appended with the arguments set so far. An argument never set is
  // launched as zeros when zero is a value it can have: a by-value argument's zero bytes, a
  // __global or __constant pointer's null (what setting a null pointer gives). A __local
  // argument's size, an image and a sampler have no such value (zero bytes of local memory, no
  // image, no sampler), and a launch with one of them unset is refused: INVALID_ARGUMENT.
  // (Leniency: docs/api-coverage.md.)
  bool argumentsLaunchable() const;
  const std::vector<uint8_t>& argumentBuffer() const { return args_; }

  // "groupSizeX * groupSizeY * groupSizeZ must be <= maxTotalGroupSize" and equal to a required
  // size when the kernel has one: INVALID_GROUP_SIZE_DIMENSION otherwise.
  ze_result_t setGroupSize(uint32_t x, uint32_t y, uint32_t z);
  // OUT_OF_DEVICE_MEMORY when a work-group's local memory with the argument buffer `args` (static
  // __local variables and __local arguments, laid out as the launcher lays them) is more than
  // `device`'s maxSharedLocalMemory or does not sum in 64 bits.
  ze_result_t checkLocalMemory(const std::vector<uint8_t>& args, const Device& device) const;
  ze_result_t checkGroupSize(uint32_t x, uint32_t y, uint32_t z) const;
  const std::array<uint32_t, 3>& groupSize() const { return groupSize_; }
  void setGlobalOffset(uint32_t x, uint32_t y, uint32_t z) { offset_ = {x, y, z}; }
  const std::array<uint64_t, 3>& globalOffset() const { return offset_; }
  // What get_work_dim() returns in launches appended from now on (ZE_tessera_kernel_work_dim); 0:
  // the highest dimension with more than one work-item.
  void setWorkDim(uint32_t workDim) { workDim_ = workDim; }
  uint32_t workDim() const { return workDim_; }
  // What a work-item of this kernel costs on one thread, as measured by its launches so far
  // (picoseconds; 0 before any measurement). The launch policy reads it to decide whether a small
  // launch is also a short one (command_list.cpp); launches write it
  // (core/queue/kernel_launch.cpp).
  uint64_t costPerItemPs() const { return costPerItemPs_.load(std::memory_order_relaxed); }
  void recordCostPerItemPs(uint64_t ps) const {
    costPerItemPs_.store(ps, std::memory_order_relaxed);
  }
  // How many small launches were judged long so far, this one included (launch_policy.cpp).
  uint64_t countLongVerdict() const {
    return longVerdicts_.fetch_add(1, std::memory_order_relaxed) + 1;
  }
  // The sub-group size the kernel runs with (backends/device_kind.h, KernelCode::subgroupSize).
  // This, privateMemSize, checkPrivateMemory, checkLocalMemory and properties: after ensureCode.
  uint32_t subgroupSize() const;
  // The most work-items a work-group of it may have: its required size, else the device's
  // maxTotalGroupSize.
  uint64_t maxGroupSize() const;
  // Cooperative launches need every group running at once: one per worker of the device.
  uint32_t maxCooperativeGroupCount() const;
  // Private memory of one work-item (ze_kernel_properties_t::privateMemSize, "private memory size
  // allocated by compiler used by each thread"): the work-group function's measured stack, where
  // private variables live, plus the scratch slots of values kept across barriers.
  uint64_t privateMemSize() const;
  // Whether a launch of it can run: "insufficient device memory" (OUT_OF_DEVICE_MEMORY) when its
  // private memory exceeds its device kind's DeviceTraits::maxPrivateMemory.
  ze_result_t checkPrivateMemory() const;

  ze_kernel_indirect_access_flags_t indirectAccess = 0;
  ze_cache_config_flags_t cacheConfig = 0;
  // zeKernelSchedulingHintExp's last hint: kept, and without effect (the device reports no hint).
  ze_scheduling_hint_exp_flags_t schedulingHint = 0;

  void properties(ze_kernel_properties_t& p) const;
  void destroy();

 private:
  Kernel(Module& module, const spirv::KernelInfo& info, std::vector<backends::KernelArgInfo> table,
         uint32_t argBufferSize);
  ~Kernel();
  friend class RefCounted<Kernel>;
  // Takes `code` as the kernel's: its argument table replaces table_ (the values set so far moved
  // to its slots); false when the two tables disagree on an argument's kind or size.
  bool adopt(const compiler::KernelCode& code);

  Ref<Module> module_;
  std::atomic<const compiler::KernelCode*> code_{nullptr};
  std::mutex codeMutex_;  // one ensureCode at a time adopts the code
  const spirv::KernelInfo* info_;
  std::vector<backends::KernelArgInfo> table_;
  std::vector<uint8_t> args_;
  std::vector<bool> set_;
  std::array<uint32_t, 3> groupSize_{1, 1, 1};
  std::array<uint64_t, 3> offset_{0, 0, 0};
  uint32_t workDim_ = 0;
  mutable std::atomic<uint64_t> costPerItemPs_{0};
  mutable std::atomic<uint64_t> longVerdicts_{0};
  std::string sourceAttributes_;
  uint32_t maxSharedLocal_;  // the module's device's maxSharedLocalMemory
};

}  // namespace tessera::core
