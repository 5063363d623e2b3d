// Builtins that call the host (builtin_runtime.h): printf, the work-group async copies and the
// generic address space casts (to_global, to_local, to_private); and
// those that need no code on a CPU (prefetch, waiting for async copies, which are done when they
// start).
#include <llvm/IR/Constants.h>

#include <cstring>

#include "backends/cpu/jit/builtin_lowering.h"
#include "backends/cpu/runtime/builtin_runtime.h"

namespace tessera::backends::cpu::jit::builtins {
namespace {

char printfLetter(llvm::Type* t) {
  namespace pt = printf_type;
  if (t->isHalfTy()) return pt::kHalf;
  if (t->isFloatTy()) return pt::kFloat;
  if (t->isDoubleTy()) return pt::kDouble;
  if (t->isPointerTy()) return pt::kPointer;
  switch (t->getIntegerBitWidth()) {
    case 8:
      return pt::kI8;
    case 16:
      return pt::kI16;
    case 32:
      return pt::kI32;
    default:
      return pt::kI64;
  }
}

// printf(format, args...): the arguments go to a stack buffer (16-byte aligned slots) described by
// a type string (builtin_runtime.h), then printfRuntime formats them.
llvm::Value* lowerPrintf(Builder& b, llvm::CallInst* call, const Args& a) {
  llvm::Function* f = call->getFunction();
  std::string types;
  uint64_t bytes = 0;
  std::vector<uint64_t> offsets;
  const llvm::DataLayout& dl = call->getModule()->getDataLayout();
  for (size_t i = 1; i < a.size(); ++i) {
    llvm::Type* t = a[i]->getType();
    if (auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(t)) {
      types += printf_type::kVector;
      types += static_cast<char>('a' + vt->getNumElements());
    }
    types += printfLetter(t->getScalarType());
    offsets.push_back(bytes);
    uint64_t size = t->isPointerTy() ? 8 : dl.getTypeStoreSize(t).getFixedSize();
    bytes += (size + 15) & ~uint64_t{15};
  }
  llvm::Value* buffer = llvm::ConstantPointerNull::get(b.getInt8PtrTy());
  if (bytes > 0) {
    Builder entry(&f->getEntryBlock(), f->getEntryBlock().begin());
    llvm::AllocaInst* slot = entry.CreateAlloca(llvm::ArrayType::get(b.getInt8Ty(), bytes));
    slot->setAlignment(llvm::Align(16));
    buffer = b.CreatePointerCast(slot, b.getInt8PtrTy());
  }
  for (size_t i = 1; i < a.size(); ++i) {
    llvm::Value* v = a[i];
    if (v->getType()->isPointerTy()) v = b.CreatePtrToInt(v, b.getInt64Ty());
    llvm::Value* at = b.CreateConstGEP1_64(b.getInt8Ty(), buffer, offsets[i - 1]);
    b.CreateAlignedStore(v, pointerTo(b, at, v->getType()), llvm::Align(16));
  }
  llvm::Constant* typeString = b.CreateGlobalStringPtr(types, "printf.types", 0, f->getParent());
  return callHost(b, kPrintfSymbol, b.getInt32Ty(), {bytePointer(b, a[0]), typeString, buffer});
}

// The element type of a GroupAsyncCopy, which opaque pointers do not carry: the Itanium mangling
// of its destination pointer ("_Z22__spirv_GroupAsyncCopyiPU3AS3Dv2_f...": scope, then pointer to
// address space 3 of float2). Null when the name does not say.
llvm::Type* asyncCopyElement(llvm::CallInst* call) {
  llvm::LLVMContext& ctx = call->getContext();
  llvm::StringRef name = call->getCalledFunction()->getName();
  size_t at = name.find("__spirv_GroupAsyncCopy");
  if (at == llvm::StringRef::npos) return nullptr;
  llvm::StringRef rest = name.drop_front(at + std::strlen("__spirv_GroupAsyncCopy"));
  if (!rest.consume_front("i") || !rest.consume_front("P")) return nullptr;
  if (rest.consume_front("U3AS")) rest = rest.drop_front(1);
  while (rest.consume_front("K") || rest.consume_front("V")) {
  }
  unsigned n = 1;
  if (rest.consume_front("Dv")) {
    if (rest.consumeInteger(10, n) || !rest.consume_front("_")) return nullptr;
  }
  llvm::Type* scalar = nullptr;
  if (rest.startswith("Dh")) {
    scalar = llvm::Type::getHalfTy(ctx);
  } else if (!rest.empty()) {
    switch (rest.front()) {
      case 'c':
      case 'a':
      case 'h':
        scalar = llvm::Type::getInt8Ty(ctx);
        break;
      case 's':
      case 't':
        scalar = llvm::Type::getInt16Ty(ctx);
        break;
      case 'i':
      case 'j':
        scalar = llvm::Type::getInt32Ty(ctx);
        break;
      case 'l':
      case 'm':
        scalar = llvm::Type::getInt64Ty(ctx);
        break;
      case 'f':
        scalar = llvm::Type::getFloatTy(ctx);
        break;
      case 'd':
        scalar = llvm::Type::getDoubleTy(ctx);
        break;
      default:
        break;
    }
  }
  return scalar == nullptr ? nullptr : withLanes(scalar, n);
}

// GroupAsyncCopy(scope, dst, src, count, stride, event): the work-item with local linear id 0 does
// the whole copy when it gets there, before any work-item can reach its wait (work-items run in
// order between barriers); the others skip it. The stride applies to the global side.
llvm::Value* lowerAsyncCopy(Builder& b, llvm::CallInst* call, const Args& a) {
  llvm::Type* element = asyncCopyElement(call);
  uint64_t size = call->getModule()->getDataLayout().getTypeAllocSize(element).getFixedSize();
  bool toLocal = a[1]->getType()->getPointerAddressSpace() == 3;
  llvm::Value* one = b.getInt64(1);
  llvm::Value* stride = b.CreateZExtOrTrunc(a[4], b.getInt64Ty());
  llvm::FunctionCallee lid = call->getModule()->getOrInsertFunction(
      "__spirv_BuiltInLocalInvocationIndex", llvm::FunctionType::get(b.getInt64Ty(), false));
  llvm::Value* active =
      b.CreateZExt(b.CreateICmpEQ(b.CreateCall(lid), b.getInt64(0)), b.getInt64Ty());
  callHost(b, kAsyncCopySymbol, b.getVoidTy(),
           {bytePointer(b, a[1]), bytePointer(b, a[2]), b.CreateZExtOrTrunc(a[3], b.getInt64Ty()),
            b.getInt64(size), toLocal ? one : stride, toLocal ? stride : one, active});
  return llvm::Constant::getNullValue(call->getType());
}

// OpenCL C 2.0 to_global / to_local / to_private (OpGenericCastToPtrExplicit): the pointer when
// it points into that address space, else NULL ("to_global ... returns NULL if ptr does not point
// to an object in the global address space"); the runtime tells which (builtin_runtime.h).
Lowering castToSpace(AddressSpace space) {
  return [space](Builder& b, llvm::CallInst* call, const Args& a) -> llvm::Value* {
    llvm::Value* found = callHost(b, kAddressSpaceSymbol, b.getInt32Ty(), {bytePointer(b, a[0])});
    llvm::Value* cast = b.CreatePointerBitCastOrAddrSpaceCast(a[0], call->getType());
    return b.CreateSelect(b.CreateICmpEQ(found, b.getInt32(space)), cast,
                          llvm::Constant::getNullValue(call->getType()));
  };
}

// get_fence (OpGenericPtrMemSemantics): the memory semantics of the space a generic pointer points
// into: WorkgroupMemory (0x100) for local memory, CrossWorkgroupMemory (0x200) for global, none
// for private (SPIR-V 3.25 "Memory Semantics").
llvm::Value* lowerPtrMemSemantics(Builder& b, llvm::CallInst* call, const Args& a) {
  llvm::Value* found = callHost(b, kAddressSpaceSymbol, b.getInt32Ty(), {bytePointer(b, a[0])});
  llvm::Value* semantics = b.CreateSelect(
      b.CreateICmpEQ(found, b.getInt32(kLocalSpace)), b.getInt32(0x100),
      b.CreateSelect(b.CreateICmpEQ(found, b.getInt32(kGlobalSpace)), b.getInt32(0x200),
                     b.getInt32(0)));
  return b.CreateZExtOrTrunc(semantics, call->getType());
}

}  // namespace

std::string refusal(llvm::StringRef base, llvm::CallInst* call) {
  if (std::string why = imageRefusal(base, call); !why.empty()) return why;
  if (std::string why = intelLscRefusal(base, call); !why.empty()) return why;
  if (base == "__spirv_GroupAsyncCopy") {
    if (asyncCopyElement(call) == nullptr) {
      return "async_work_group_copy: element type not found in " +
             call->getCalledFunction()->getName().str();
    }
    return "";
  }
  if (base.startswith("__spirv_Group") && base != "__spirv_GroupWaitEvents") {
    if (constantArg(call->getArgOperand(0)) != 3) {
      return "work-group collective (" + base.str() + ") is not supported at this scope";
    }
  }
  return "";
}

void addHostCallBuiltins(Table& m) {
  m["__spirv_ocl_printf"] = lowerPrintf;
  m["__spirv_GroupAsyncCopy"] = lowerAsyncCopy;
  m["__spirv_GenericCastToPtrExplicit_ToGlobal"] = castToSpace(kGlobalSpace);
  m["__spirv_GenericCastToPtrExplicit_ToLocal"] = castToSpace(kLocalSpace);
  m["__spirv_GenericCastToPtrExplicit_ToPrivate"] = castToSpace(kPrivateSpace);
  m["__spirv_GenericPtrMemSemantics"] = lowerPtrMemSemantics;
  // Copies are done when they start, and prefetching is only a hint.
  m["__spirv_GroupWaitEvents"] = [](Builder&, llvm::CallInst*, const Args&) { return nullptr; };
  m["__spirv_ocl_prefetch"] = [](Builder&, llvm::CallInst*, const Args&) { return nullptr; };
}

}  // namespace tessera::backends::cpu::jit::builtins
