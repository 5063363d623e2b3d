// Reflection of a SPIR-V module: what a driver needs to know about its kernels without translating
// it. A small word-stream parser of our own (no SPIRV-Tools, no LLVM), bounds-checked everywhere,
// so it may run on untrusted input before validation; a malformed module gives ok == false and an
// error, never an out-of-range read.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tessera::spirv {

inline constexpr uint32_t kMagic = 0x07230203;

enum class ArgKind {
  GlobalPointer,    // CrossWorkgroup storage class (__global)
  ConstantPointer,  // UniformConstant storage class (__constant)
  LocalPointer,     // Workgroup storage class (__local): the launch gives only a size
  GenericPointer,   // Generic storage class (OpenCL 2.0 generic address space)
  ByValue,          // a scalar, vector, array or struct (structs arrive as ByVal Function pointers)
  Sampler,
  Image,
  Unsupported,  // pipes, queues, events, private pointers: kinds a kernel argument cannot take
};

const char* argKindName(ArgKind kind);

struct KernelArg {
  ArgKind kind = ArgKind::Unsupported;
  // Bytes the launch passes: the value's size (OpenCL layout: 3-element vectors take 4 elements,
  // structs padded to their alignment unless CPacked) or the pointer size; 0 when unknown.
  uint32_t size = 0;
  uint32_t alignment = 0;
  std::string name;     // from OpName; empty when the module does not name it
  uint32_t typeId = 0;  // the OpFunctionParameter's type (the pointee for ByVal)
  // Tessera IR only (ir_reflect.h): the OpenCL C type and qualifiers as the source spells them
  // (clang's kernel_arg_type and kernel_arg_type_qual: "float4*", "const volatile"). SPIR-V's
  // are rebuilt from its types by the OpenCL layer.
  std::string typeName;
  std::string typeQualifier;
  // Images: the access qualifier (0 read, 1 write, 2 read-write) or -1 when not given.
  int imageAccess = -1;
  // Whether the kernel may read / write the image argument (its access qualifier says so).
  bool readsImage() const { return imageAccess == 0 || imageAccess == 2; }
  bool writesImage() const { return imageAccess == 1 || imageAccess == 2; }
};

struct WorkGroupSize {
  std::array<uint32_t, 3> size{};
  // LocalSizeId only: the SpecId that feeds each dimension, or -1 for a plain constant.
  std::array<int64_t, 3> specIds{-1, -1, -1};
};

struct KernelInfo {
  std::string name;
  uint32_t functionId = 0;
  std::vector<KernelArg> args;
  std::optional<WorkGroupSize> requiredSize;  // LocalSize or LocalSizeId
  std::optional<WorkGroupSize> sizeHint;      // LocalSizeHint
  std::optional<uint32_t> vecTypeHint;        // the raw VecTypeHint operand
  std::vector<uint32_t> interfaceIds;
};

enum class SpecKind { Bool, Int, Float };

struct SpecConstant {
  uint32_t specId = 0;
  uint32_t resultId = 0;
  SpecKind kind = SpecKind::Int;
  uint32_t size = 0;                  // bytes: 1 for bool, else the type's width / 8
  std::vector<uint8_t> defaultValue;  // little-endian, `size` bytes
};

enum class LinkageKind { Export, Import, LinkOnceODR, Unknown };

struct LinkageEntry {
  std::string name;
  LinkageKind kind = LinkageKind::Unknown;
  uint32_t targetId = 0;
  bool isFunction = false;  // else a variable
  // A variable decorated BuiltIn: the translator imports work-item builtins
  // (__spirv_BuiltInGlobalInvocationId), which are the consumer's to provide, not another module's.
  bool builtIn = false;
};

// A module-scope Workgroup variable (a static __local array), or in globalVariables a
// CrossWorkgroup one (an OpenCL C program-scope __global variable).
struct WorkgroupVariable {
  uint32_t id = 0;
  std::string name;
  uint64_t size = 0;
  uint32_t alignment = 0;
};

struct ModuleInfo {
  uint32_t version = 0;  // 0x00MMmm00
  uint32_t generator = 0;
  uint32_t bound = 0;
  uint32_t addressingModel = 0;  // spv::AddressingModel
  uint32_t memoryModel = 0;
  uint32_t pointerSize = 8;  // from the addressing model (Physical32: 4)
  std::vector<uint32_t> capabilities;
  std::vector<std::string> extensions;
  std::vector<std::string> extInstImports;
  // Every opcode present, also those that OpSpecConstantOp names; sorted, unique.
  std::vector<uint32_t> opcodesUsed;
  bool usesPrintf = false;
  std::vector<KernelInfo> kernels;
  std::vector<SpecConstant> specConstants;  // sorted by specId
  std::vector<LinkageEntry> linkage;
  std::vector<WorkgroupVariable> workgroupVariables;
  // Program-scope __global variables the module defines (those with Import linkage are another
  // module's and not listed).
  std::vector<WorkgroupVariable> globalVariables;

  uint32_t versionMajor() const { return (version >> 16) & 0xff; }
  uint32_t versionMinor() const { return (version >> 8) & 0xff; }
  bool hasCapability(uint32_t capability) const;
  const KernelInfo* findKernel(std::string_view name) const;
  const SpecConstant* findSpecConstant(uint32_t specId) const;
};

struct ReflectResult {
  bool ok = false;
  std::string error;  // set when !ok: what is wrong and at which word
  ModuleInfo module;
};

// Reads a binary given as bytes (either endianness, length a multiple of 4).
ReflectResult reflect(std::span<const uint8_t> binary);

// The binary as host-order words; empty if its size is not a multiple of 4 or the magic is wrong
// in both byte orders.
std::vector<uint32_t> toWords(std::span<const uint8_t> binary);

}  // namespace tessera::spirv
