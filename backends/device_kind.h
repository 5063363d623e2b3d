// The interface between core and a kind of device (issue 31 item 2; docs/architecture.md, "Where a
// second kind of device would sit"). core/ includes nothing else of backends/: what it needs of a
// kind is here, as plain data (launch shapes, argument tables, image and sampler descriptions) or
// behind abstract classes, DeviceKind (the kind's traits and rules, made once per process),
// Executor (what runs a device's work on its PUs) and, for the compiler facade, CodeGenerator
// (backends/code_generator.h). backends/cpu/ implements them (backends/cpu/kind/cpu_kind.cpp);
// no type of it appears here.
//
// Threading: DeviceKind is immutable. An Executor's parallelFor and launch may be called from any
// thread; the executor serializes them (one job at a time on a device's PUs).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "support/checked_math.h"

namespace tessera::backends {

// The shape of a kernel launch: group counts, group size, global offset and get_work_dim(). Counts
// are the ones a client gave: the products below are overflow-checked.
struct LaunchDims {
  std::array<uint32_t, 3> groupCount{1, 1, 1};
  std::array<uint32_t, 3> groupSize{1, 1, 1};  // the enqueued (uniform) size
  // Non-uniform work-groups (ZE_tessera_launch_shape 1.1, OpenCL 2.0+): the last group's size in
  // each dimension, 1 to groupSize; 0 (or groupSize): uniform (Level Zero's own launches always
  // are). The global size is then (groupCount - 1) * groupSize + lastGroupSize.
  std::array<uint32_t, 3> lastGroupSize{0, 0, 0};
  std::array<uint64_t, 3> globalOffset{0, 0, 0};
  // What get_work_dim() returns; 0: decided when the launch runs (core/queue/kernel_launch.cpp:
  // the highest dimension with more than one work-item). A kind is never given 0.
  uint32_t workDim = 1;

  // The work-groups of the launch in all; false when the product does not fit in 64 bits.
  [[nodiscard]] bool groups(uint64_t& out) const {
    return support::checkedProduct({groupCount[0], groupCount[1], groupCount[2]}, out);
  }
  // The work-items of the launch in all (groups times group size); false when the product does
  // not fit in 64 bits (group counts of an indirect launch are the application's to choose).
  [[nodiscard]] bool items(uint64_t& out) const {
    return support::checkedProduct(
        {groupCount[0], groupCount[1], groupCount[2], groupSize[0], groupSize[1], groupSize[2]},
        out);
  }
};

// A kernel's argument table: what each slot of its argument buffer holds.
enum class ArgKind : uint8_t {
  GlobalPointer,    // 8 bytes: the address
  ConstantPointer,  // 8 bytes: the address
  LocalPointer,     // 8 bytes: the caller writes the size in bytes; the kind replaces it by what
                    // its code needs (the CPU kind: the argument's offset in local memory)
  ByValue,          // `size` bytes: scalars, vectors, structs (byval)
  Image,            // 8 bytes: the address of the image's ImageView (below)
  Sampler,          // 8 bytes: the sampler's value (sampler_bits, below)
};

struct KernelArgInfo {
  ArgKind kind;
  uint32_t size;    // bytes the slot holds
  uint32_t offset;  // slot offset in the argument buffer (aligned to the argument's alignment)
};

// What core reads of a compiled kernel, whatever the kind: its name, argument table and the sizes
// its device properties report. A kind's compiled kernel is this plus what only the kind reads
// (the CPU kind's CompiledKernel adds the work-group function); an Executor is only ever given
// the code its own kind compiled.
struct KernelCode {
  std::string name;
  std::vector<KernelArgInfo> args;
  uint32_t argBufferSize = 0;
  uint32_t staticLocalBytes = 0;  // the static __local variables this kernel reaches
  // Private memory per work-item beyond the stack: values kept across barriers (0 without any).
  uint32_t scratchBytesPerWorkItem = 0;
  // Stack the kernel's code needs, where its private variables live (measured when compiled).
  uint32_t stackBytes = 0;
  // Barriers in the kernel (sub-group operations that exchange values count as barriers): the
  // launch policy gives kernels with none larger groups (core/command/launch_policy.cpp).
  uint32_t barrierCount = 0;
  // The sub-group size the kernel runs with (one of DeviceTraits::subgroupSizes), and the one it
  // requires (0 when it does not: zeKernelGetProperties' requiredSubgroupSize).
  uint32_t subgroupSize = 0;
  uint32_t requiredSubgroupSize = 0;
};

// A module-scope symbol of compiled code the host can reach: a program-scope global variable or an
// exported function.
struct CompiledSymbol {
  void* address = nullptr;
  uint64_t size = 0;  // bytes of a variable; 0 for a function
};

// What an image argument's 8-byte slot points to: the image's memory and format (the CPU kind's
// image_abi.h says how its kernels read it). Owned by the image object (core), alive while the
// image is; a kernel only reads it.
struct ImageView {
  uint8_t* data = nullptr;            // pixel (0, 0, 0)
  uint64_t extent[3] = {1, 1, 1};     // valid values of x, y, z as the kernel indexes them
  uint64_t rowPitch = 0;              // bytes between y and y + 1
  uint64_t slicePitch = 0;            // bytes between z and z + 1
  uint32_t pixelBytes = 0;            // bytes of one pixel
  uint32_t imageType = 0;             // ze_image_type_t
  uint32_t layout = 0;                // ze_image_format_layout_t (no media layouts)
  uint32_t type = 0;                  // ze_image_format_type_t
  uint8_t swizzle[4] = {0, 1, 2, 3};  // ze_image_format_swizzle_t of x, y, z, w
  // What get_image_channel_order / get_image_channel_data_type return, in SPIR-V's numbering
  // (ImageChannelOrder, ImageChannelDataType: the OpenCL value minus 0x10B0 / 0x10D0), as the
  // SPIR-V instructions OpImageQueryOrder / OpImageQueryFormat answer. Core derives them from
  // layout, type and swizzle.
  uint32_t channelOrder = 0;
  uint32_t channelDataType = 0;
  uint32_t mipLevels = 1;  // always 1: no mipmaps
  uint32_t reserved = 0;
};

// A sampler argument's 8-byte slot holds its sampler value (not a pointer): the bits OpenCL C's
// sampler_t literals use (CLK_* constants, also what OpConstantSampler and the translator's
// __translate_sampler_initializer carry), so argument samplers and inline samplers are one thing.
namespace sampler_bits {
inline constexpr uint32_t kNormalizedCoords = 0x1;  // CLK_NORMALIZED_COORDS_TRUE
inline constexpr uint32_t kAddressMask = 0xE;
inline constexpr uint32_t kAddressNone = 0x0;            // CLK_ADDRESS_NONE
inline constexpr uint32_t kAddressClampToEdge = 0x2;     // CLK_ADDRESS_CLAMP_TO_EDGE
inline constexpr uint32_t kAddressClamp = 0x4;           // CLK_ADDRESS_CLAMP (to the border colour)
inline constexpr uint32_t kAddressRepeat = 0x6;          // CLK_ADDRESS_REPEAT
inline constexpr uint32_t kAddressMirroredRepeat = 0x8;  // CLK_ADDRESS_MIRRORED_REPEAT
inline constexpr uint32_t kFilterMask = 0x30;
inline constexpr uint32_t kFilterNearest = 0x10;  // CLK_FILTER_NEAREST
inline constexpr uint32_t kFilterLinear = 0x20;   // CLK_FILTER_LINEAR
}  // namespace sampler_bits

// A borrowed callable (the job outlives the call it is passed to): unlike std::function it never
// allocates, which keeps a launch free of heap work.
class JobRef {
 public:
  template <typename F>
  JobRef(F& f)  // NOLINT: implicit, so callers pass lambdas
      : object_(const_cast<void*>(static_cast<const void*>(&f))),
        call_([](void* o, uint64_t i) { (*static_cast<F*>(o))(i); }) {}
  void operator()(uint64_t i) const { call_(object_, i); }

 private:
  void* object_;
  void (*call_)(void*, uint64_t);
};

// How evenly the workers of parallel jobs finished (issue 20), summed over the jobs of every
// executor of a kind since the last reset; zeTesseraDriverGetLaunchBalance. Nanoseconds.
struct BalanceTotals {
  uint64_t jobs = 0, workers = 0, spanNs = 0, tailNs = 0, maxTailNs = 0, lateStartNs = 0,
           busySpreadNs = 0;
};

// What runs one device's work on its PUs.
class Executor {
 public:
  virtual ~Executor() = default;
  // How many threads take part in a job at most: the device's parallelism (cooperative group
  // counts, occupancy and the launch policy's cost read it).
  virtual uint32_t size() const = 0;
  // Calls job(i) for i in [0, count) spread over the workers and returns when all are done (copies
  // and fills). When a call throws, the items not yet started are skipped and the first exception
  // is thrown here once every worker has left the job.
  virtual void parallelFor(uint64_t count, JobRef job) = 0;
  template <typename F>
  void parallelFor(uint64_t count, F&& job) {
    parallelFor(count, JobRef(job));
  }
  // Runs `code` (compiled by this executor's kind) over the work-groups of `dims` with the argument
  // buffer `args` (code.argBufferSize bytes laid out as code.args says; a LocalPointer slot holds
  // the size wanted); returns when every work-group has finished (the caller may then reuse
  // `args`). Group counts and sizes are >= 1, workDim 1 to 3. `tag` (may be null): the launch runs
  // under it (host/fault_guard.h), so interruptGuarded(tag) ends it, throwing KernelFault like a
  // faulting launch. `serialNs` > 0: the calling thread runs work-groups alone for up to that
  // long before the other workers join. Returns true when other workers took part.
  virtual bool launch(const KernelCode& code, const uint8_t* args, const LaunchDims& dims,
                      const void* tag, uint64_t serialNs) = 0;
};

class CodeGenerator;         // backends/code_generator.h
struct GeneratorOptions;

// The facts of a kind that devices report.
struct DeviceTraits {
  // The sub-group sizes a kernel may run with (ze_device_compute_properties_t::subGroupSizes, in
  // this order); a kernel requiring another fails to build.
  std::array<uint32_t, 8> subgroupSizes{};
  uint32_t subgroupSizeCount = 0;
  // The most private memory one work-item may need (its stack and scratch): a kernel needing more
  // is refused at launch.
  uint64_t maxPrivateMemory = 0;
  // The argument buffer's slots (KernelArgInfo::offset) are aligned to their argument's alignment,
  // at most this; pointers, images and samplers take 8 bytes aligned to 8. With it, core knows a
  // kernel's argument table from reflection before the kernel is compiled (core/module/kernel.h).
  uint32_t maxArgumentAlignment = 0;
};

class DeviceKind {
 public:
  virtual ~DeviceKind() = default;
  virtual const DeviceTraits& traits() const = 0;
  // The executor of a device whose PUs are `cpus` (empty: not this machine's, no pinning), with at
  // most `threads` workers; `idleSpinNs`: how long an idle worker spins before it sleeps;
  // `cacheBytes`: what the device's caches of its last level hold together (0: unknown), beyond
  // which a launch's output does not stay in them.
  virtual std::unique_ptr<Executor> createExecutor(std::vector<uint32_t> cpus, uint32_t threads,
                                                   uint64_t idleSpinNs,
                                                   uint64_t cacheBytes) const = 0;
  // The bytes of local memory one work-group of `code` needs with the argument buffer `args` (its
  // static __local variables and each __local argument, as the kind lays them out); false when
  // the sum does not fit in 64 bits.
  virtual bool localMemoryBytes(const KernelCode& code, const uint8_t* args,
                                uint64_t& total) const = 0;
  // The parallel jobs' balance over every executor of the kind (`reset`: start again after).
  virtual BalanceTotals balance(bool reset) const = 0;
  // The kind's code generator (the compiler facade makes one, on first need: it may be costly);
  // null with `error` when the kind cannot generate code here (the CPU: LLVM cannot target it).
  virtual std::unique_ptr<CodeGenerator> createCodeGenerator(const GeneratorOptions& options,
                                                             std::string& error) const = 0;
};

// The host CPU kind (backends/cpu/kind/cpu_kind.cpp), the one kind today.
const DeviceKind& cpuKind();

}  // namespace tessera::backends
