// Reflection of Tessera IR. Every rule here is the one the translator's writer applies when it
// turns the same module into SPIR-V, so that reflectIR(ir) and reflect(spirv) agree (the unit test
// tests/unit/spirv/test_ir_reflect.cpp compares them over the kernel corpus):
//  - a pointer's address space becomes the storage class (1 CrossWorkgroup, 2 UniformConstant,
//    3 Workgroup, 4 Generic, 0 Function), clang's opaque handle structs (%opencl.image2d_ro_t,
//    %opencl.sampler_t, ...) or their reader-side names (%spirv.Image.*, %spirv.Sampler) become
//    OpTypeImage / OpTypeSampler, and a `byval` pointer a Function pointer decorated ByVal;
//  - sizes follow reflect.cpp's layout rules rather than LLVM's DataLayout: the two agree on the
//    types OpenCL C makes, but the SPIR-V side is the reference, so its rules are repeated here
//    (giving up where it gives up);
//  - linkage follows the writer's transLinkageType: internal and private have none, declarations
//    are Import, every other definition Export (linkonce_odr too: Tessera does not enable
//    SPV_KHR_linkonce_odr). Declarations the writer turns into instructions are no imports.
#include "spirv/ir_reflect.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/ADT/Triple.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/CallingConv.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <map>
#include <spirv/unified1/spirv.hpp>
#include <string>

namespace tessera::spirv {
namespace {

// reflect.cpp's bounds on type nesting and sizes, so that both give up on the same types.
constexpr uint32_t kMaxTypeDepth = 32;
constexpr uint64_t kMaxLayoutSize = uint64_t{1} << 40;
// The translator's regularization renames a kernel's body and wraps it (friendly_ir.cpp).
constexpr llvm::StringLiteral kEntryPrefix = "__spirv_entry_";

class IRError {
 public:
  explicit IRError(std::string message) : message(std::move(message)) {}
  std::string message;
};

struct Layout {
  uint64_t size = 0;
  uint64_t alignment = 1;
};

uint64_t alignUp(uint64_t value, uint64_t alignment) {
  return alignment <= 1 ? value : (value + alignment - 1) / alignment * alignment;
}

// What an opaque handle type stands for.
enum class Handle { None, Image, Sampler, Other };

// -1 when the name does not say.
int accessFromTypeName(llvm::StringRef name) {
  if (name.consume_front("spirv.Image.")) {
    // "_<sampled type>_<dim>_<depth>_<arrayed>_<MS>_<sampled>_<format>_<access>" (the last field
    // is the access qualifier), maybe with LLVM's ".N" suffix for a repeated name.
    name = name.take_until([](char c) { return c == '.'; });
    llvm::StringRef last = name.rsplit('_').second;
    unsigned access = 0;
    if (!last.getAsInteger(10, access) && access <= 2) return static_cast<int>(access);
    return -1;
  }
  if (name.contains("_ro_t")) return 0;
  if (name.contains("_wo_t")) return 1;
  if (name.contains("_rw_t")) return 2;
  return -1;
}

// A handle by its struct's name (typed pointers). Pipes, queues, events and reserve ids are
// OpTypePipe, OpTypeQueue, ... in SPIR-V, which reflect leaves Unsupported.
Handle handleOfType(llvm::Type* pointee) {
  auto* s = llvm::dyn_cast<llvm::StructType>(pointee);
  if (s == nullptr || !s->hasName()) return Handle::None;
  llvm::StringRef name = s->getName();
  if (name.startswith("opencl.image") || name.startswith("spirv.Image.")) return Handle::Image;
  if (name.startswith("opencl.sampler_t") || name.startswith("spirv.Sampler")) {
    return Handle::Sampler;
  }
  if (name.startswith("opencl.") || name.startswith("spirv.")) return Handle::Other;
  return Handle::None;
}

// A handle by clang's metadata, for a module with opaque pointers, whose parameter types say
// nothing of what they point to.
Handle handleOfMetadata(llvm::StringRef baseType, llvm::StringRef typeQual) {
  if (typeQual.contains("pipe")) return Handle::Other;
  if (baseType.startswith("image") && baseType.endswith("_t")) return Handle::Image;
  if (baseType == "sampler_t") return Handle::Sampler;
  if (baseType == "queue_t" || baseType == "clk_event_t" || baseType == "event_t" ||
      baseType == "reserve_id_t") {
    return Handle::Other;
  }
  return Handle::None;
}

// The i-th string of a kernel_arg_* list; empty when the list or the entry is missing.
llvm::StringRef argMetadata(const llvm::Function& f, llvm::StringRef kind, unsigned i) {
  const llvm::MDNode* node = f.getMetadata(kind);
  if (node == nullptr || i >= node->getNumOperands()) return {};
  const auto* text = llvm::dyn_cast_or_null<llvm::MDString>(node->getOperand(i).get());
  return text != nullptr ? text->getString() : llvm::StringRef();
}

// Declarations the writer translates into instructions rather than imported functions: LLVM's
// intrinsics, the SPIR-V friendly builtins (`_Z33__spirv_BuiltInGlobalInvocationIdi`,
// `_Z18__spirv_ocl_printfPU3AS2cii`, unmangled `__spirv_*`), and the two clang builtins its
// passes leave for it (printf when OCLToSPIRV has not run, inline samplers). OCLToSPIRV rewrites
// clang's OpenCL builtins (`_Z13get_global_idj`) into the `__spirv_` form; a declaration it leaves
// alone (a vendor builtin such as `__builtin_IB_lsc_*`, tessera_current_pu, an `extern` function)
// is an Import in the SPIR-V too, and the consumer decides which of those its code provides.
bool isBuiltinDeclaration(llvm::StringRef name) {
  return name.startswith("llvm.") || name.contains("__spirv_") || name == "printf" ||
         name == "__translate_sampler_initializer";
}

// The VecTypeHint operand the writer makes of vec_type_hint's type (its encodeVecTypeHint): the
// component type in the low 16 bits (char 0, short 1, int 2, long 3, half 4, float 5, double 6),
// the component count in the high 16 (0 for a scalar). Signedness (the metadata's second operand)
// has no place in it, in SPIR-V either.
std::optional<uint32_t> encodeVecTypeHint(llvm::Type* t) {
  if (t->isHalfTy()) return 4;
  if (t->isFloatTy()) return 5;
  if (t->isDoubleTy()) return 6;
  if (auto* i = llvm::dyn_cast<llvm::IntegerType>(t)) {
    switch (i->getBitWidth()) {
      case 8:
        return 0;
      case 16:
        return 1;
      case 32:
        return 2;
      case 64:
        return 3;
      default:
        return std::nullopt;
    }
  }
  if (auto* v = llvm::dyn_cast<llvm::FixedVectorType>(t)) {
    if (v->getElementType()->isVectorTy()) return std::nullopt;
    std::optional<uint32_t> element = encodeVecTypeHint(v->getElementType());
    if (!element) return std::nullopt;
    return v->getNumElements() << 16 | *element;
  }
  return std::nullopt;
}

class IRReflector {
 public:
  explicit IRReflector(const llvm::Module& module) : module_(module) {
    pointerSize_ = llvm::Triple(module.getTargetTriple()).isArch32Bit() ? 4 : 8;
  }

  ModuleInfo run() {
    info_.pointerSize = pointerSize_;
    info_.addressingModel =
        pointerSize_ == 4 ? spv::AddressingModelPhysical32 : spv::AddressingModelPhysical64;
    info_.memoryModel = spv::MemoryModelOpenCL;
    for (const llvm::Function& f : module_) {
      if (f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL && !f.isDeclaration()) {
        info_.kernels.push_back(describeKernel(f));
      }
    }
    functionsAndPrintf();
    variables();
    capabilities();
    return std::move(info_);
  }

 private:
  std::optional<Layout> layout(llvm::Type* t, uint32_t depth = 0) const {
    if (depth > kMaxTypeDepth) return std::nullopt;
    if (auto it = layoutCache_.find(t); it != layoutCache_.end()) return it->second;
    std::optional<Layout> result = computeLayout(t, depth);
    layoutCache_[t] = result;
    return result;
  }

  // reflect.cpp's computeLayout, type for type (the translator maps i1 to OpTypeBool).
  std::optional<Layout> computeLayout(llvm::Type* t, uint32_t depth) const {
    if (auto* i = llvm::dyn_cast<llvm::IntegerType>(t)) {
      unsigned width = i->getBitWidth();
      if (width > 64) return std::nullopt;
      uint64_t bytes = width <= 8 ? 1 : width <= 16 ? 2 : width <= 32 ? 4 : 8;
      return Layout{bytes, bytes};
    }
    if (t->isHalfTy()) return Layout{2, 2};
    if (t->isFloatTy()) return Layout{4, 4};
    if (t->isDoubleTy()) return Layout{8, 8};
    if (t->isPointerTy()) return Layout{pointerSize_, pointerSize_};
    if (auto* v = llvm::dyn_cast<llvm::FixedVectorType>(t)) {
      uint64_t n = v->getNumElements();
      auto element = layout(v->getElementType(), depth + 1);
      if (!element || (n != 2 && n != 3 && n != 4 && n != 8 && n != 16)) return std::nullopt;
      uint64_t size = element->size * (n == 3 ? 4 : n);  // OpenCL: a 3-vector is sized as 4
      return Layout{size, size};
    }
    if (auto* a = llvm::dyn_cast<llvm::ArrayType>(t)) {
      auto element = layout(a->getElementType(), depth + 1);
      uint64_t length = a->getNumElements();
      if (!element || length > kMaxLayoutSize) return std::nullopt;
      uint64_t stride = alignUp(element->size, element->alignment);
      if (stride != 0 && length > kMaxLayoutSize / stride) return std::nullopt;
      return Layout{stride * length, element->alignment};
    }
    if (auto* s = llvm::dyn_cast<llvm::StructType>(t)) {
      if (s->isOpaque()) return std::nullopt;
      Layout result{0, 1};
      for (llvm::Type* member : s->elements()) {
        auto m = layout(member, depth + 1);
        if (!m) return std::nullopt;
        uint64_t alignment = s->isPacked() ? 1 : m->alignment;  // CPacked
        result.size = alignUp(result.size, alignment) + m->size;
        result.alignment = std::max(result.alignment, alignment);
        if (result.size > kMaxLayoutSize) return std::nullopt;
      }
      result.size = alignUp(result.size, result.alignment);
      return result;
    }
    return std::nullopt;
  }

  void setLayout(KernelArg& arg, llvm::Type* t) const {
    if (auto l = layout(t)) {
      arg.kind = ArgKind::ByValue;
      arg.size = static_cast<uint32_t>(l->size);
      arg.alignment = static_cast<uint32_t>(l->alignment);
    }
  }

  KernelArg describeArg(const llvm::Function& f, const llvm::Argument& a) const {
    KernelArg arg;
    const unsigned i = a.getArgNo();
    // The translator names parameters from kernel_arg_name when clang discarded value names.
    arg.name = argMetadata(f, "kernel_arg_name", i).str();
    if (arg.name.empty()) arg.name = a.getName().str();
    arg.typeName = argMetadata(f, "kernel_arg_type", i).str();
    arg.typeQualifier = argMetadata(f, "kernel_arg_type_qual", i).str();
    llvm::Type* t = a.getType();
    llvm::StringRef baseType = argMetadata(f, "kernel_arg_base_type", i);
    auto* pointer = llvm::dyn_cast<llvm::PointerType>(t);
    if (pointer == nullptr) {
      // Before OpenCL 2.0's types clang passed samplers as i32.
      if (t->isIntegerTy(32) && baseType == "sampler_t") {
        arg.kind = ArgKind::Sampler;
        arg.size = arg.alignment = pointerSize_;
      } else {
        setLayout(arg, t);  // else Unsupported, size 0, as reflect leaves a type it cannot lay out
      }
      return arg;
    }
    if (a.hasByValAttr()) {  // a struct by value: the launch passes the pointee's bytes
      setLayout(arg, a.getParamByValType());
      arg.kind = ArgKind::ByValue;  // also when it has no layout (size 0), as in reflect
      return arg;
    }
    // Images are addrspace(1) and samplers addrspace(2) pointers: the type decides first.
    Handle handle = pointer->isOpaque()
                        ? handleOfMetadata(baseType, argMetadata(f, "kernel_arg_type_qual", i))
                        : handleOfType(pointer->getNonOpaquePointerElementType());
    switch (handle) {
      case Handle::Image: {
        arg.kind = ArgKind::Image;
        arg.size = arg.alignment = pointerSize_;
        llvm::StringRef access = argMetadata(f, "kernel_arg_access_qual", i);
        arg.imageAccess = access == "read_only"    ? 0
                          : access == "write_only" ? 1
                          : access == "read_write" ? 2
                                                   : -1;
        if (arg.imageAccess < 0 && !pointer->isOpaque()) {
          auto* s = llvm::cast<llvm::StructType>(pointer->getNonOpaquePointerElementType());
          arg.imageAccess = accessFromTypeName(s->getName());
        }
        return arg;
      }
      case Handle::Sampler:
        arg.kind = ArgKind::Sampler;
        arg.size = arg.alignment = pointerSize_;
        return arg;
      case Handle::Other:
        return arg;  // Unsupported, size 0
      case Handle::None:
        break;
    }
    switch (pointer->getAddressSpace()) {
      case 1:
        arg.kind = ArgKind::GlobalPointer;
        break;
      case 2:
        arg.kind = ArgKind::ConstantPointer;
        break;
      case 3:
        arg.kind = ArgKind::LocalPointer;
        break;
      case 4:
        arg.kind = ArgKind::GenericPointer;
        break;
      default:
        return arg;  // a private pointer: Function storage, Unsupported with size 0
    }
    arg.size = arg.alignment = pointerSize_;
    return arg;
  }

  // reqd_work_group_size / work_group_size_hint: three i32 (reflect refuses fewer, so do we).
  std::optional<WorkGroupSize> sizeOf(const llvm::Function& f, llvm::StringRef kind) const {
    const llvm::MDNode* node = f.getMetadata(kind);
    if (node == nullptr) return std::nullopt;
    WorkGroupSize size;
    for (unsigned d = 0; d < 3; ++d) {
      const llvm::ConstantInt* c = nullptr;
      if (d < node->getNumOperands()) {
        c = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(node->getOperand(d));
      }
      if (c == nullptr || c->getValue().getActiveBits() > 32) {
        throw IRError("kernel " + f.getName().str() + ": " + kind.str() +
                      " does not have three 32-bit integers");
      }
      size.size[d] = static_cast<uint32_t>(c->getZExtValue());
    }
    return size;
  }

  KernelInfo describeKernel(const llvm::Function& f) const {
    KernelInfo kernel;
    llvm::StringRef name = f.getName();
    name.consume_front(kEntryPrefix);
    kernel.name = name.str();
    for (const llvm::Argument& a : f.args()) kernel.args.push_back(describeArg(f, a));
    kernel.requiredSize = sizeOf(f, "reqd_work_group_size");
    kernel.sizeHint = sizeOf(f, "work_group_size_hint");
    if (const llvm::MDNode* hint = f.getMetadata("vec_type_hint");
        hint != nullptr && hint->getNumOperands() > 0) {
      if (auto* v = llvm::dyn_cast_or_null<llvm::ValueAsMetadata>(hint->getOperand(0).get())) {
        kernel.vecTypeHint = encodeVecTypeHint(v->getType());
      }
    }
    return kernel;
  }

  // Function linkage and printf. Kernels with external linkage are exported too, as the writer
  // exports them (before adaptation the body carries the kernel's name and external linkage,
  // after it the wrapper: either way the SPIR-V and this say "Export <kernel>"); consumers skip
  // kernel names among exports (compiler::Program::functionExports).
  void functionsAndPrintf() {
    for (const llvm::Function& f : module_) {
      llvm::StringRef name = f.getName();
      if (f.isDeclaration() && !f.use_empty() &&
          (name == "printf" || name.contains("__spirv_ocl_printf"))) {
        info_.usesPrintf = true;
      }
      if (f.isIntrinsic() || f.hasLocalLinkage()) continue;
      LinkageEntry entry;
      entry.name = name.str();
      entry.isFunction = true;
      if (f.isDeclarationForLinker()) {
        if (isBuiltinDeclaration(name)) continue;
        entry.kind = LinkageKind::Import;
      } else {
        entry.kind = LinkageKind::Export;
      }
      info_.linkage.push_back(std::move(entry));
    }
  }

  WorkgroupVariable describeVariable(const llvm::GlobalVariable& g) const {
    WorkgroupVariable var;
    var.name = g.getName().str();
    if (auto l = layout(g.getValueType())) {
      var.size = l->size;
      var.alignment = static_cast<uint32_t>(l->alignment);
    }
    // The writer's Alignment decoration; reflect keeps the larger of it and the type's.
    if (llvm::MaybeAlign align = g.getAlign()) {
      var.alignment = std::max<uint64_t>(var.alignment, align->value());
    }
    return var;
  }

  // Program-scope variables: addrspace(1) definitions are __global ones (declarations are
  // another module's), addrspace(3) ones static __local arrays. Linkage for every externally
  // visible variable, whatever its address space (a program-scope __constant is exported too).
  void variables() {
    for (const llvm::GlobalVariable& g : module_.globals()) {
      llvm::StringRef name = g.getName();
      if (name.startswith("llvm.")) continue;  // llvm.used and the like: not program variables
      unsigned space = g.getAddressSpace();
      if (space == 1 && !g.isDeclarationForLinker())
        info_.globalVariables.push_back(describeVariable(g));
      if (space == 3) info_.workgroupVariables.push_back(describeVariable(g));
      if (g.hasLocalLinkage()) continue;
      LinkageEntry entry;
      entry.name = name.str();
      entry.kind = g.isDeclarationForLinker() ? LinkageKind::Import : LinkageKind::Export;
      // Builtins as variables (the translator's other representation) are the code's to provide.
      entry.builtIn = name.startswith("__spirv_BuiltIn");
      info_.linkage.push_back(std::move(entry));
    }
  }

  void noteType(llvm::Type* t, llvm::SmallPtrSetImpl<llvm::Type*>& seen) const {
    if (t == nullptr || !seen.insert(t).second) return;
    for (llvm::Type* sub : t->subtypes()) noteType(sub, seen);
  }

  // The capabilities the writer declares for the types the module uses, so far as types decide
  // them. Nothing outside reflect's own tests reads ModuleInfo::capabilities today; these are the
  // ones the kernel corpus shows the writer declaring the same way (test_ir_reflect.cpp).
  void capabilities() {
    llvm::SmallPtrSet<llvm::Type*, 32> seen;
    for (const llvm::GlobalVariable& g : module_.globals()) noteType(g.getValueType(), seen);
    for (const llvm::Function& f : module_) {
      if (f.isIntrinsic()) continue;
      noteType(f.getFunctionType(), seen);
      for (const llvm::Instruction& inst : llvm::instructions(f)) {
        noteType(inst.getType(), seen);
        for (const llvm::Value* operand : inst.operand_values()) noteType(operand->getType(), seen);
      }
    }
    bool float64 = false, int64 = false, image = false;
    for (llvm::Type* t : seen) {
      float64 |= t->isDoubleTy();
      int64 |= t->isIntegerTy(64);
      if (auto* s = llvm::dyn_cast<llvm::StructType>(t); s != nullptr && s->hasName()) {
        image |= s->getName().startswith("opencl.image") || s->getName().startswith("spirv.Image.");
      }
    }
    info_.capabilities = {spv::CapabilityAddresses, spv::CapabilityLinkage, spv::CapabilityKernel};
    if (float64) info_.capabilities.push_back(spv::CapabilityFloat64);
    if (int64) info_.capabilities.push_back(spv::CapabilityInt64);
    if (image) info_.capabilities.push_back(spv::CapabilityImageBasic);
  }

  const llvm::Module& module_;
  uint32_t pointerSize_ = 8;
  ModuleInfo info_;
  mutable std::map<llvm::Type*, std::optional<Layout>> layoutCache_;
};

}  // namespace

ReflectResult reflectIR(const llvm::Module& module) {
  ReflectResult result;
  try {
    result.module = IRReflector(module).run();
    result.ok = true;
  } catch (const IRError& e) {
    result.error = e.message;
  }
  return result;
}

ReflectResult reflectIR(std::span<const uint8_t> bitcode) {
  ReflectResult result;
  if (bitcode.empty()) {
    result.error = "empty bitcode";
    return result;
  }
  llvm::LLVMContext context;
  context.setOpaquePointers(false);  // Tessera IR has typed pointers
  // A copy: the reader wants its buffer aligned, a span need not be.
  std::unique_ptr<llvm::MemoryBuffer> buffer = llvm::MemoryBuffer::getMemBufferCopy(
      llvm::StringRef(reinterpret_cast<const char*>(bitcode.data()), bitcode.size()), "bitcode");
  llvm::Expected<std::unique_ptr<llvm::Module>> module =
      llvm::parseBitcodeFile(buffer->getMemBufferRef(), context);
  if (!module) {
    result.error = "not LLVM bitcode the reader accepts: " + llvm::toString(module.takeError());
    return result;
  }
  return reflectIR(**module);
}

bool isTesseraIR(std::span<const uint8_t> bytes) {
  return bytes.size() >= 4 && bytes[0] == 'B' && bytes[1] == 'C' && bytes[2] == 0xc0 &&
         bytes[3] == 0xde;
}

}  // namespace tessera::spirv
