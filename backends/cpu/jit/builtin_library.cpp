// Pass: the builtin library. OpenCL.std extended instructions (__spirv_ocl_*), relational
// instructions (__spirv_IsNan, ...) and atomics (__spirv_Atomic*) become LLVM IR: intrinsics where
// LLVM has one (O3 and the vectorizer understand them; the JIT resolves the libm calls they may
// lower to from the process), libm calls otherwise (scalarized for vectors), plain arithmetic for
// the integer and common functions. Atomics become atomicrmw / cmpxchg / atomic load and store,
// seq_cst whatever the requested semantics (stronger than asked is allowed). Work-item builtins
// and __spirv_ControlBarrier are left for the region passes.
#include <llvm/ADT/StringMap.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>

#include <algorithm>
#include <cstring>
#include <functional>

#include "backends/cpu/jit/builtin_conversions.h"
#include "backends/cpu/jit/builtin_runtime.h"
#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

using Builder = llvm::IRBuilder<>;
using Args = llvm::SmallVector<llvm::Value*, 6>;
using Lowering = std::function<llvm::Value*(Builder&, llvm::CallInst*, const Args&)>;

llvm::Value* intrinsic(Builder& b, llvm::Intrinsic::ID id, const Args& a) {
  return b.CreateIntrinsic(id, {a[0]->getType()}, a);
}

// A libm function on each lane ("sinf" for float, "sin" for double).
llvm::Value* libm(Builder& b, llvm::CallInst* call, llvm::StringRef base, const Args& a) {
  llvm::Type* t = call->getType();
  llvm::Type* scalar = t->getScalarType();
  std::string name = base.str() + (scalar->isFloatTy() ? "f" : "");
  llvm::Module* m = call->getModule();
  llvm::SmallVector<llvm::Type*, 3> params;
  for (llvm::Value* v : a) params.push_back(v->getType()->getScalarType());
  llvm::FunctionCallee fn =
      m->getOrInsertFunction(name, llvm::FunctionType::get(scalar, params, false));
  auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(t);
  if (vt == nullptr) return b.CreateCall(fn, a);
  llvm::Value* r = llvm::PoisonValue::get(t);
  for (unsigned lane = 0; lane < vt->getNumElements(); ++lane) {
    Args scalars;
    for (llvm::Value* v : a) {
      scalars.push_back(v->getType()->isVectorTy() ? b.CreateExtractElement(v, lane) : v);
    }
    r = b.CreateInsertElement(r, b.CreateCall(fn, scalars), lane);
  }
  return r;
}

llvm::Value* fconst(llvm::Type* t, double v) {
  return llvm::ConstantFP::get(t, v);
}

llvm::Value* mulHi(Builder& b, const Args& a, bool isSigned) {
  llvm::Type* t = a[0]->getType();
  llvm::Type* wide = llvm::IntegerType::get(b.getContext(), t->getScalarSizeInBits() * 2);
  if (auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(t)) {
    wide = llvm::FixedVectorType::get(wide, vt->getNumElements());
  }
  llvm::Value* x = isSigned ? b.CreateSExt(a[0], wide) : b.CreateZExt(a[0], wide);
  llvm::Value* y = isSigned ? b.CreateSExt(a[1], wide) : b.CreateZExt(a[1], wide);
  llvm::Value* p = b.CreateMul(x, y);
  return b.CreateTrunc(b.CreateLShr(p, t->getScalarSizeInBits()), t);
}

llvm::Value* dot(Builder& b, llvm::Value* x, llvm::Value* y) {
  llvm::Value* p = b.CreateFMul(x, y);
  auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(p->getType());
  if (vt == nullptr) return p;
  llvm::Value* sum = b.CreateExtractElement(p, uint64_t{0});
  for (unsigned i = 1; i < vt->getNumElements(); ++i) {
    sum = b.CreateFAdd(sum, b.CreateExtractElement(p, i));
  }
  return sum;
}

llvm::Value* rmw(Builder& b, llvm::AtomicRMWInst::BinOp op, llvm::Value* ptr, llvm::Value* v) {
  return b.CreateAtomicRMW(op, ptr, v, llvm::MaybeAlign(),
                           llvm::AtomicOrdering::SequentiallyConsistent);
}

// `p` as a pointer to `element` in the same address space.
llvm::Value* pointerTo(Builder& b, llvm::Value* p, llvm::Type* element) {
  unsigned as = p->getType()->getPointerAddressSpace();
  return b.CreatePointerCast(p, llvm::PointerType::get(element, as));
}

// `p` (pointing at `element`s) as a pointer to `element` in the default address space, as C wants.
llvm::Value* cPointer(Builder& b, llvm::Value* p, llvm::Type* element) {
  llvm::Value* q = pointerTo(b, p, element);
  return b.CreateAddrSpaceCast(q, llvm::PointerType::get(element, 0));
}

unsigned lanes(llvm::Type* t) {
  auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(t);
  return vt == nullptr ? 1 : vt->getNumElements();
}

llvm::Type* withLanes(llvm::Type* scalar, unsigned n) {
  return n == 1 ? scalar : llvm::FixedVectorType::get(scalar, n);
}

// vloadn / vload_halfn: `n` elements of `element` at p + offset * stride, converted to `result`.
llvm::Value* vload(Builder& b, llvm::Type* result, llvm::Type* element, llvm::Value* offset,
                   llvm::Value* p, unsigned n, unsigned stride) {
  llvm::Value* index = b.CreateMul(offset, llvm::ConstantInt::get(offset->getType(), stride));
  llvm::Value* at = b.CreateGEP(element, pointerTo(b, p, element), index);
  llvm::Type* loaded = withLanes(element, n);
  llvm::Value* v = b.CreateAlignedLoad(loaded, pointerTo(b, at, loaded),
                                       llvm::Align(element->getPrimitiveSizeInBits() / 8));
  return v->getType() == result ? v : b.CreateFPExt(v, result);
}

void vstore(Builder& b, llvm::Value* v, llvm::Type* element, llvm::Value* offset, llvm::Value* p,
            unsigned stride) {
  unsigned n = lanes(v->getType());
  llvm::Value* index = b.CreateMul(offset, llvm::ConstantInt::get(offset->getType(), stride));
  llvm::Value* at = b.CreateGEP(element, pointerTo(b, p, element), index);
  llvm::Type* stored = withLanes(element, n);
  b.CreateAlignedStore(v, pointerTo(b, at, stored),
                       llvm::Align(element->getPrimitiveSizeInBits() / 8));
}

// float/double (or vectors) to half with a SPIR-V FPRoundingMode (0 RTE, 1 RTZ, 2 RTP, 3 RTN).
// fptrunc rounds to nearest even; the directed modes step the half one ulp (its bits +-1: halves
// are sign-magnitude) when that rounding went the wrong way. Doubles go through float first (a
// second rounding, which can differ from a direct conversion in the last bit).
llvm::Value* toHalf(Builder& b, llvm::Value* v, unsigned mode) {
  unsigned n = lanes(v->getType());
  llvm::Type* f32 = withLanes(b.getFloatTy(), n);
  if (v->getType()->getScalarType()->isDoubleTy()) v = b.CreateFPTrunc(v, f32);
  llvm::Type* f16 = withLanes(b.getHalfTy(), n);
  llvm::Type* i16 = withLanes(b.getInt16Ty(), n);
  llvm::Value* h = b.CreateFPTrunc(v, f16);
  if (mode == 0) return h;
  llvm::Value* back = b.CreateFPExt(h, f32);
  llvm::Value* bits = b.CreateBitCast(h, i16);
  llvm::Value* one = llvm::ConstantInt::get(i16, 1);
  llvm::Value* negative = b.CreateICmpSLT(bits, llvm::Constant::getNullValue(i16));
  llvm::Value* towardZero = b.CreateSub(bits, one);
  llvm::Value* awayFromZero = b.CreateAdd(bits, one);
  llvm::Value* fixed = bits;
  if (mode == 1) {
    llvm::Value* tooBig = b.CreateFCmpOGT(b.CreateIntrinsic(llvm::Intrinsic::fabs, {f32}, {back}),
                                          b.CreateIntrinsic(llvm::Intrinsic::fabs, {f32}, {v}));
    fixed = b.CreateSelect(tooBig, towardZero, bits);
  } else if (mode == 2) {
    llvm::Value* up = b.CreateSelect(negative, towardZero, awayFromZero);
    fixed = b.CreateSelect(b.CreateFCmpOLT(back, v), up, bits);
  } else if (mode == 3) {
    llvm::Value* down = b.CreateSelect(negative, awayFromZero, towardZero);
    fixed = b.CreateSelect(b.CreateFCmpOGT(back, v), down, bits);
  }
  return b.CreateBitCast(fixed, f16);
}

unsigned constantArg(llvm::Value* v) {
  auto* c = llvm::dyn_cast<llvm::ConstantInt>(v);
  return c == nullptr ? 0 : static_cast<unsigned>(c->getZExtValue());
}

// A libm function with a result through a pointer (frexpf(x, int*), ...), lane by lane: `a` holds
// the value arguments, `out` the kernel's pointer to `outElement`s (one per lane).
llvm::Value* libmOut(Builder& b, llvm::CallInst* call, llvm::StringRef name, Args a,
                     llvm::Value* out, llvm::Type* outElement) {
  llvm::Type* t = call->getType();
  llvm::Type* scalar = t->getScalarType();
  // The float version: "frexp" -> "frexpf", "lgamma_r" -> "lgammaf_r".
  std::string fn = name.str();
  if (scalar->isFloatTy()) fn.insert(std::min(fn.find('_'), fn.size()), "f");
  llvm::SmallVector<llvm::Type*, 3> params;
  for (llvm::Value* v : a) params.push_back(v->getType()->getScalarType());
  params.push_back(llvm::PointerType::get(outElement, 0));
  llvm::FunctionCallee callee =
      call->getModule()->getOrInsertFunction(fn, llvm::FunctionType::get(scalar, params, false));
  llvm::Value* base = cPointer(b, out, outElement);
  unsigned n = lanes(t);
  llvm::Value* r = llvm::PoisonValue::get(t);
  for (unsigned lane = 0; lane < n; ++lane) {
    Args scalars;
    for (llvm::Value* v : a) {
      scalars.push_back(v->getType()->isVectorTy() ? b.CreateExtractElement(v, lane) : v);
    }
    scalars.push_back(b.CreateConstGEP1_32(outElement, base, lane));
    llvm::Value* x = b.CreateCall(callee, scalars);
    r = n == 1 ? x : b.CreateInsertElement(r, x, lane);
  }
  return r;
}

// The identity of a group operation's exclusive scan.
llvm::Value* identity(llvm::Type* t, llvm::StringRef op) {
  bool fp = t->isFPOrFPVectorTy();
  if (op.endswith("Add")) return llvm::Constant::getNullValue(t);
  if (op.endswith("Mul")) return fp ? fconst(t, 1.0) : llvm::ConstantInt::get(t, 1);
  unsigned bits = t->getScalarSizeInBits();
  if (op == "FMin") return llvm::ConstantFP::getInfinity(t, false);
  if (op == "FMax") return llvm::ConstantFP::getInfinity(t, true);
  if (op == "UMin") return llvm::ConstantInt::get(t, llvm::APInt::getMaxValue(bits));
  if (op == "SMin") return llvm::ConstantInt::get(t, llvm::APInt::getSignedMaxValue(bits));
  if (op == "UMax") return llvm::ConstantInt::get(t, 0);
  return llvm::ConstantInt::get(t, llvm::APInt::getSignedMinValue(bits));  // SMax
}

// A call to a host function of builtin_runtime.h, by the name the JIT binds to it.
llvm::Value* callHost(Builder& b, const char* symbol, llvm::Type* result, const Args& a) {
  llvm::SmallVector<llvm::Type*, 8> params;
  for (llvm::Value* v : a) params.push_back(v->getType());
  llvm::FunctionType* type = llvm::FunctionType::get(result, params, false);
  llvm::Module* m = b.GetInsertBlock()->getModule();
  return b.CreateCall(m->getOrInsertFunction(symbol, type), a);
}

llvm::Value* bytePointer(Builder& b, llvm::Value* p) {
  return b.CreateAddrSpaceCast(pointerTo(b, p, b.getInt8Ty()), b.getInt8PtrTy());
}

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
  return callHost(b, kPrintfSymbol, b.getInt32Ty(),
                  {bytePointer(b, a[0]), typeString, buffer});
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

// Why a call cannot be lowered here, or empty.
std::string refusal(llvm::StringRef base, llvm::CallInst* call) {
  if (base == "__spirv_GroupAsyncCopy") {
    if (asyncCopyElement(call) == nullptr) {
      return "async_work_group_copy: element type not found in " +
             call->getCalledFunction()->getName().str();
    }
    return "";
  }
  if (base.startswith("__spirv_Group") && base != "__spirv_GroupWaitEvents") {
    if (constantArg(call->getArgOperand(0)) != 3) {
      return "work-group collective (" + base.str() +
             ") is not supported: only sub-group scope (size 1)";
    }
  }
  return "";
}

const llvm::StringMap<Lowering>& table() {
  static const llvm::StringMap<Lowering> t = [] {
    llvm::StringMap<Lowering> m;
    using I = llvm::Intrinsic::ID;
    auto intr = [&](const std::string& name, I id) {
      m[name] = [id](Builder& b, llvm::CallInst*, const Args& a) { return intrinsic(b, id, a); };
    };
    // Conversions with a rounding mode or saturation (builtin_conversions.cpp).
    for (const char* name : kConversionBuiltins) {
      std::string base = name;
      m[base] = [base](Builder& b, llvm::CallInst* c, const Args&) {
        return lowerConversion(b, c, base);
      };
    }
    auto call = [&](const std::string& name, const char* fn) {
      std::string f = fn;
      m[name] = [f](Builder& b, llvm::CallInst* c, const Args& a) { return libm(b, c, f, a); };
    };
    // Math with an LLVM intrinsic (also the native_ and half_ variants: same precision or better).
    for (const char* prefix : {"", "native_", "half_"}) {
      auto p = [&](const char* n) { return std::string("__spirv_ocl_") + prefix + n; };
      intr(p("sqrt"), llvm::Intrinsic::sqrt);
      intr(p("sin"), llvm::Intrinsic::sin);
      intr(p("cos"), llvm::Intrinsic::cos);
      intr(p("exp"), llvm::Intrinsic::exp);
      intr(p("exp2"), llvm::Intrinsic::exp2);
      intr(p("log"), llvm::Intrinsic::log);
      intr(p("log2"), llvm::Intrinsic::log2);
      intr(p("log10"), llvm::Intrinsic::log10);
      intr(p("powr"), llvm::Intrinsic::pow);
      call(p("tan"), "tan");
      call(p("exp10"), "exp10");
      m[p("rsqrt")] = [](Builder& b, llvm::CallInst*, const Args& a) {
        return b.CreateFDiv(fconst(a[0]->getType(), 1.0), intrinsic(b, llvm::Intrinsic::sqrt, a));
      };
      m[p("recip")] = [](Builder& b, llvm::CallInst*, const Args& a) {
        return b.CreateFDiv(fconst(a[0]->getType(), 1.0), a[0]);
      };
      m[p("divide")] = [](Builder& b, llvm::CallInst*, const Args& a) {
        return b.CreateFDiv(a[0], a[1]);
      };
    }
    intr("__spirv_ocl_fabs", llvm::Intrinsic::fabs);
    intr("__spirv_ocl_floor", llvm::Intrinsic::floor);
    intr("__spirv_ocl_ceil", llvm::Intrinsic::ceil);
    intr("__spirv_ocl_trunc", llvm::Intrinsic::trunc);
    intr("__spirv_ocl_rint", llvm::Intrinsic::rint);
    intr("__spirv_ocl_round", llvm::Intrinsic::round);
    intr("__spirv_ocl_fma", llvm::Intrinsic::fma);
    intr("__spirv_ocl_mad", llvm::Intrinsic::fmuladd);
    intr("__spirv_ocl_fmin", llvm::Intrinsic::minnum);
    intr("__spirv_ocl_fmax", llvm::Intrinsic::maxnum);
    intr("__spirv_ocl_fmin_common", llvm::Intrinsic::minnum);
    intr("__spirv_ocl_fmax_common", llvm::Intrinsic::maxnum);
    intr("__spirv_ocl_copysign", llvm::Intrinsic::copysign);
    intr("__spirv_ocl_pow", llvm::Intrinsic::pow);
    for (const char* f :
         {"asin",  "acos",  "atan", "atan2",     "sinh", "cosh",   "tanh",     "asinh",
          "acosh", "atanh", "cbrt", "erf",       "erfc", "tgamma", "lgamma",   "expm1",
          "log1p", "hypot", "fmod", "remainder", "fdim", "logb",   "nextafter"}) {
      call(std::string("__spirv_ocl_") + f, f);
    }
    m["__spirv_ocl_pown"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      return b.CreateIntrinsic(llvm::Intrinsic::pow, {a[0]->getType()},
                               {a[0], b.CreateSIToFP(a[1], a[0]->getType())});
    };
    // Integer functions.
    intr("__spirv_ocl_s_max", llvm::Intrinsic::smax);
    intr("__spirv_ocl_u_max", llvm::Intrinsic::umax);
    intr("__spirv_ocl_s_min", llvm::Intrinsic::smin);
    intr("__spirv_ocl_u_min", llvm::Intrinsic::umin);
    intr("__spirv_ocl_s_add_sat", llvm::Intrinsic::sadd_sat);
    intr("__spirv_ocl_u_add_sat", llvm::Intrinsic::uadd_sat);
    intr("__spirv_ocl_s_sub_sat", llvm::Intrinsic::ssub_sat);
    intr("__spirv_ocl_u_sub_sat", llvm::Intrinsic::usub_sat);
    intr("__spirv_ocl_popcount", llvm::Intrinsic::ctpop);
    intr("__spirv_BitCount", llvm::Intrinsic::ctpop);
    intr("__spirv_BitReverse", llvm::Intrinsic::bitreverse);
    m["__spirv_ocl_s_abs"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      return b.CreateIntrinsic(llvm::Intrinsic::abs, {a[0]->getType()}, {a[0], b.getFalse()});
    };
    m["__spirv_ocl_u_abs"] = [](Builder&, llvm::CallInst*, const Args& a) { return a[0]; };
    m["__spirv_ocl_clz"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      return b.CreateIntrinsic(llvm::Intrinsic::ctlz, {a[0]->getType()}, {a[0], b.getFalse()});
    };
    m["__spirv_ocl_ctz"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      return b.CreateIntrinsic(llvm::Intrinsic::cttz, {a[0]->getType()}, {a[0], b.getFalse()});
    };
    m["__spirv_ocl_rotate"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      return b.CreateIntrinsic(llvm::Intrinsic::fshl, {a[0]->getType()}, {a[0], a[0], a[1]});
    };
    m["__spirv_ocl_s_mul_hi"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      return mulHi(b, a, true);
    };
    m["__spirv_ocl_u_mul_hi"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      return mulHi(b, a, false);
    };
    for (const char* n : {"__spirv_ocl_s_mad24", "__spirv_ocl_u_mad24"}) {
      m[n] = [](Builder& b, llvm::CallInst*, const Args& a) {
        return b.CreateAdd(b.CreateMul(a[0], a[1]), a[2]);
      };
    }
    for (const char* n : {"__spirv_ocl_s_mul24", "__spirv_ocl_u_mul24"}) {
      m[n] = [](Builder& b, llvm::CallInst*, const Args& a) { return b.CreateMul(a[0], a[1]); };
    }
    m["__spirv_ocl_s_clamp"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      llvm::Type* t = a[0]->getType();
      return b.CreateIntrinsic(llvm::Intrinsic::smin, {t},
                               {b.CreateIntrinsic(llvm::Intrinsic::smax, {t}, {a[0], a[1]}), a[2]});
    };
    m["__spirv_ocl_u_clamp"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      llvm::Type* t = a[0]->getType();
      return b.CreateIntrinsic(llvm::Intrinsic::umin, {t},
                               {b.CreateIntrinsic(llvm::Intrinsic::umax, {t}, {a[0], a[1]}), a[2]});
    };
    // Common functions.
    m["__spirv_ocl_fclamp"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      llvm::Type* t = a[0]->getType();
      return b.CreateIntrinsic(
          llvm::Intrinsic::minnum, {t},
          {b.CreateIntrinsic(llvm::Intrinsic::maxnum, {t}, {a[0], a[1]}), a[2]});
    };
    m["__spirv_ocl_degrees"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      return b.CreateFMul(a[0], fconst(a[0]->getType(), 57.29577951308232));
    };
    m["__spirv_ocl_radians"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      return b.CreateFMul(a[0], fconst(a[0]->getType(), 0.017453292519943295));
    };
    m["__spirv_ocl_mix"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      return b.CreateFAdd(a[0], b.CreateFMul(b.CreateFSub(a[1], a[0]), a[2]));
    };
    m["__spirv_ocl_step"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
      llvm::Type* t = c->getType();
      return b.CreateSelect(b.CreateFCmpOLT(a[1], a[0]), fconst(t, 0.0), fconst(t, 1.0));
    };
    m["__spirv_ocl_smoothstep"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
      llvm::Type* t = c->getType();
      llvm::Value* x = b.CreateFDiv(b.CreateFSub(a[2], a[0]), b.CreateFSub(a[1], a[0]));
      x = b.CreateIntrinsic(llvm::Intrinsic::maxnum, {t}, {x, fconst(t, 0.0)});
      x = b.CreateIntrinsic(llvm::Intrinsic::minnum, {t}, {x, fconst(t, 1.0)});
      return b.CreateFMul(b.CreateFMul(x, x),
                          b.CreateFSub(fconst(t, 3.0), b.CreateFMul(fconst(t, 2.0), x)));
    };
    m["__spirv_ocl_sign"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      llvm::Type* t = a[0]->getType();
      llvm::Value* zeroOrSelf = b.CreateSelect(b.CreateFCmpUNO(a[0], a[0]), fconst(t, 0.0), a[0]);
      return b.CreateSelect(
          b.CreateFCmpOGT(a[0], fconst(t, 0.0)), fconst(t, 1.0),
          b.CreateSelect(b.CreateFCmpOLT(a[0], fconst(t, 0.0)), fconst(t, -1.0), zeroOrSelf));
    };
    // Geometric functions.
    m["__spirv_Dot"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      return dot(b, a[0], a[1]);
    };
    m["__spirv_ocl_length"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
      return b.CreateIntrinsic(llvm::Intrinsic::sqrt, {c->getType()}, {dot(b, a[0], a[0])});
    };
    m["__spirv_ocl_distance"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
      llvm::Value* d = b.CreateFSub(a[0], a[1]);
      return b.CreateIntrinsic(llvm::Intrinsic::sqrt, {c->getType()}, {dot(b, d, d)});
    };
    m["__spirv_ocl_normalize"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
      llvm::Type* s = a[0]->getType()->getScalarType();
      llvm::Value* len = b.CreateIntrinsic(llvm::Intrinsic::sqrt, {s}, {dot(b, a[0], a[0])});
      if (a[0]->getType()->isVectorTy()) {
        len = b.CreateVectorSplat(
            llvm::cast<llvm::FixedVectorType>(a[0]->getType())->getNumElements(), len);
      }
      return b.CreateFDiv(a[0], len);
    };
    // Relational instructions.
    m["__spirv_IsNan"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      return b.CreateFCmpUNO(a[0], a[0]);
    };
    m["__spirv_IsInf"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      return b.CreateFCmpOEQ(intrinsic(b, llvm::Intrinsic::fabs, {a[0]}),
                             llvm::ConstantFP::getInfinity(a[0]->getType()));
    };
    m["__spirv_IsFinite"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      return b.CreateFCmpONE(intrinsic(b, llvm::Intrinsic::fabs, {a[0]}),
                             llvm::ConstantFP::getInfinity(a[0]->getType()));
    };
    m["__spirv_IsNormal"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      llvm::Type* t = a[0]->getType();
      llvm::Value* x = intrinsic(b, llvm::Intrinsic::fabs, {a[0]});
      const llvm::fltSemantics& sem = t->getScalarType()->getFltSemantics();
      llvm::Value* minNormal = llvm::ConstantFP::get(t, llvm::APFloat::getSmallestNormalized(sem));
      return b.CreateAnd(b.CreateFCmpOGE(x, minNormal),
                         b.CreateFCmpOLT(x, llvm::ConstantFP::getInfinity(t)));
    };
    m["__spirv_SignBitSet"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      llvm::Type* t = a[0]->getType();
      llvm::Type* it = llvm::IntegerType::get(b.getContext(), t->getScalarSizeInBits());
      if (auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(t)) {
        it = llvm::FixedVectorType::get(it, vt->getNumElements());
      }
      return b.CreateICmpSLT(b.CreateBitCast(a[0], it), llvm::Constant::getNullValue(it));
    };
    m["__spirv_Ordered"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      return b.CreateFCmpORD(a[0], a[1]);
    };
    m["__spirv_Unordered"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      return b.CreateFCmpUNO(a[0], a[1]);
    };
    m["__spirv_LessOrGreater"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      return b.CreateFCmpONE(a[0], a[1]);
    };
    m["__spirv_Any"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      return b.CreateOrReduce(a[0]);
    };
    m["__spirv_All"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      return b.CreateAndReduce(a[0]);
    };
    m["__spirv_ocl_bitselect"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      llvm::Type* t = a[0]->getType();
      llvm::Type* it = t;
      if (t->isFPOrFPVectorTy()) {
        it = llvm::IntegerType::get(b.getContext(), t->getScalarSizeInBits());
        if (auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(t)) {
          it = llvm::FixedVectorType::get(it, vt->getNumElements());
        }
      }
      llvm::Value* x = b.CreateBitCast(a[0], it);
      llvm::Value* y = b.CreateBitCast(a[1], it);
      llvm::Value* c = b.CreateBitCast(a[2], it);
      return b.CreateBitCast(b.CreateOr(b.CreateAnd(x, b.CreateNot(c)), b.CreateAnd(y, c)), t);
    };
    m["__spirv_ocl_select"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      llvm::Value* c = a[2];
      llvm::Value* cond = c->getType()->isVectorTy()
                              ? b.CreateICmpSLT(c, llvm::Constant::getNullValue(c->getType()))
                              : b.CreateICmpNE(c, llvm::Constant::getNullValue(c->getType()));
      return b.CreateSelect(cond, a[1], a[0]);
    };
    // Vector data loads and stores: (offset, p[, n]) and (value, offset, p[, mode]).
    m["__spirv_ocl_vloadn"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
      unsigned n = lanes(c->getType());
      return vload(b, c->getType(), c->getType()->getScalarType(), a[0], a[1], n, n);
    };
    m["__spirv_ocl_vstoren"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      vstore(b, a[0], a[0]->getType()->getScalarType(), a[1], a[2], lanes(a[0]->getType()));
      return nullptr;
    };
    m["__spirv_ocl_vload_half"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
      return vload(b, c->getType(), b.getHalfTy(), a[0], a[1], 1, 1);
    };
    m["__spirv_ocl_vload_halfn"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
      unsigned n = lanes(c->getType());
      return vload(b, c->getType(), b.getHalfTy(), a[0], a[1], n, n);
    };
    m["__spirv_ocl_vloada_halfn"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
      unsigned n = lanes(c->getType());
      return vload(b, c->getType(), b.getHalfTy(), a[0], a[1], n, n == 3 ? 4 : n);
    };
    for (const char* name : {"__spirv_ocl_vstore_half", "__spirv_ocl_vstore_halfn",
                             "__spirv_ocl_vstorea_halfn", "__spirv_ocl_vstore_half_r",
                             "__spirv_ocl_vstore_halfn_r", "__spirv_ocl_vstorea_halfn_r"}) {
      llvm::StringRef s(name);
      bool aligned = s.contains("vstorea");
      bool rounding = s.endswith("_r");
      m[name] = [aligned, rounding](Builder& b, llvm::CallInst*, const Args& a) {
        unsigned n = lanes(a[0]->getType());
        unsigned stride = aligned && n == 3 ? 4 : n;
        vstore(b, toHalf(b, a[0], rounding ? constantArg(a[3]) : 0), b.getHalfTy(), a[1], a[2],
               stride);
        return nullptr;
      };
    }
    // Math with a second result through a pointer (the pointer is the last argument).
    m["__spirv_ocl_sincos"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
      b.CreateStore(intrinsic(b, llvm::Intrinsic::cos, {a[0]}), pointerTo(b, a[1], c->getType()));
      return intrinsic(b, llvm::Intrinsic::sin, {a[0]});
    };
    m["__spirv_ocl_frexp"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
      return libmOut(b, c, "frexp", {a[0]}, a[1], b.getInt32Ty());
    };
    m["__spirv_ocl_modf"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
      return libmOut(b, c, "modf", {a[0]}, a[1], c->getType()->getScalarType());
    };
    m["__spirv_ocl_remquo"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
      return libmOut(b, c, "remquo", {a[0], a[1]}, a[2], b.getInt32Ty());
    };
    m["__spirv_ocl_lgamma_r"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
      return libmOut(b, c, "lgamma_r", {a[0]}, a[1], b.getInt32Ty());
    };
    m["__spirv_ocl_fract"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
      // fract(x) = fmin(x - floor(x), largest float below 1); NaN stays NaN, +-inf gives +-0.
      llvm::Type* t = c->getType();
      llvm::Value* fl = intrinsic(b, llvm::Intrinsic::floor, {a[0]});
      b.CreateStore(fl, pointerTo(b, a[1], t));
      const llvm::fltSemantics& sem = t->getScalarType()->getFltSemantics();
      llvm::APFloat below1(sem, 1);
      below1.next(true);
      llvm::Value* r = b.CreateIntrinsic(
          llvm::Intrinsic::minnum, {t}, {b.CreateFSub(a[0], fl), llvm::ConstantFP::get(t, below1)});
      llvm::Value* zero = b.CreateIntrinsic(llvm::Intrinsic::copysign, {t}, {fconst(t, 0.0), a[0]});
      llvm::Value* inf = b.CreateFCmpOEQ(intrinsic(b, llvm::Intrinsic::fabs, {a[0]}),
                                         llvm::ConstantFP::getInfinity(t));
      r = b.CreateSelect(inf, zero, r);
      return b.CreateSelect(b.CreateFCmpUNO(a[0], a[0]), a[0], r);
    };
    // Group operations at sub-group scope (3): sub-groups have one work-item, so a reduction or
    // an inclusive scan is the value itself, an exclusive scan the identity, a broadcast the value.
    // Work-group scope is lowered by the collectives pass (left alone here).
    for (const char* op :
         {"FAdd", "IAdd", "FMin", "UMin", "SMin", "FMax", "UMax", "SMax", "FMul", "IMulKHR"}) {
      std::string opName = op;
      m[std::string("__spirv_Group") + op] = [opName](Builder&, llvm::CallInst* c,
                                                      const Args& a) -> llvm::Value* {
        if (constantArg(a[1]) == 2) return identity(c->getType(), opName);  // ExclusiveScan
        return a[2];
      };
    }
    for (const char* n : {"__spirv_GroupBroadcast", "__spirv_GroupAll", "__spirv_GroupAny"}) {
      m[n] = [](Builder&, llvm::CallInst*, const Args& a) { return a[1]; };
    }
    m["__spirv_ocl_printf"] = lowerPrintf;
    m["__spirv_GroupAsyncCopy"] = lowerAsyncCopy;
    // Copies are done when they start, and prefetching is only a hint.
    m["__spirv_GroupWaitEvents"] = [](Builder&, llvm::CallInst*, const Args&) { return nullptr; };
    m["__spirv_ocl_prefetch"] = [](Builder&, llvm::CallInst*, const Args&) { return nullptr; };
    // Atomics: (pointer, scope, semantics[, value]).
    auto atomic = [&](const char* name, llvm::AtomicRMWInst::BinOp op) {
      m[name] = [op](Builder& b, llvm::CallInst*, const Args& a) { return rmw(b, op, a[0], a[3]); };
    };
    atomic("__spirv_AtomicIAdd", llvm::AtomicRMWInst::Add);
    atomic("__spirv_AtomicISub", llvm::AtomicRMWInst::Sub);
    atomic("__spirv_AtomicSMin", llvm::AtomicRMWInst::Min);
    atomic("__spirv_AtomicUMin", llvm::AtomicRMWInst::UMin);
    atomic("__spirv_AtomicSMax", llvm::AtomicRMWInst::Max);
    atomic("__spirv_AtomicUMax", llvm::AtomicRMWInst::UMax);
    atomic("__spirv_AtomicAnd", llvm::AtomicRMWInst::And);
    atomic("__spirv_AtomicOr", llvm::AtomicRMWInst::Or);
    atomic("__spirv_AtomicXor", llvm::AtomicRMWInst::Xor);
    atomic("__spirv_AtomicExchange", llvm::AtomicRMWInst::Xchg);
    atomic("__spirv_AtomicFAddEXT", llvm::AtomicRMWInst::FAdd);
    atomic("__spirv_AtomicFMinEXT", llvm::AtomicRMWInst::FMin);
    atomic("__spirv_AtomicFMaxEXT", llvm::AtomicRMWInst::FMax);
    m["__spirv_AtomicIIncrement"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
      return rmw(b, llvm::AtomicRMWInst::Add, a[0], llvm::ConstantInt::get(c->getType(), 1));
    };
    m["__spirv_AtomicIDecrement"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
      return rmw(b, llvm::AtomicRMWInst::Sub, a[0], llvm::ConstantInt::get(c->getType(), 1));
    };
    m["__spirv_AtomicLoad"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
      llvm::LoadInst* l = b.CreateLoad(c->getType(), a[0]);
      l->setAtomic(llvm::AtomicOrdering::SequentiallyConsistent);
      l->setAlignment(llvm::Align(c->getModule()->getDataLayout().getTypeStoreSize(c->getType())));
      return l;
    };
    m["__spirv_AtomicStore"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
      llvm::StoreInst* s = b.CreateStore(a[3], a[0]);
      s->setAtomic(llvm::AtomicOrdering::SequentiallyConsistent);
      s->setAlignment(
          llvm::Align(c->getModule()->getDataLayout().getTypeStoreSize(a[3]->getType())));
      return nullptr;
    };
    for (const char* n : {"__spirv_AtomicCompareExchange", "__spirv_AtomicCompareExchangeWeak"}) {
      // (pointer, scope, equal semantics, unequal semantics, value, comparator) -> original.
      m[n] = [](Builder& b, llvm::CallInst*, const Args& a) {
        llvm::Value* pair = b.CreateAtomicCmpXchg(a[0], a[5], a[4], llvm::MaybeAlign(),
                                                  llvm::AtomicOrdering::SequentiallyConsistent,
                                                  llvm::AtomicOrdering::SequentiallyConsistent);
        return b.CreateExtractValue(pair, 0);
      };
    }
    m["__spirv_AtomicFlagTestAndSet"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      return b.CreateICmpNE(rmw(b, llvm::AtomicRMWInst::Xchg, a[0], b.getInt32(1)), b.getInt32(0));
    };
    m["__spirv_AtomicFlagClear"] = [](Builder& b, llvm::CallInst*, const Args& a) {
      llvm::StoreInst* s = b.CreateStore(b.getInt32(0), a[0]);
      s->setAtomic(llvm::AtomicOrdering::SequentiallyConsistent);
      s->setAlignment(llvm::Align(4));
      return nullptr;
    };
    // A work-group runs on one thread, so a fence orders against other work-groups and the host.
    m["__spirv_MemoryBarrier"] = [](Builder& b, llvm::CallInst*, const Args&) {
      b.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent);
      return nullptr;
    };
    return m;
  }();
  return t;
}

bool leftForLaterPasses(llvm::StringRef base) {
  return base.startswith("__spirv_BuiltIn") || base == "__spirv_ControlBarrier";
}

}  // namespace

bool lowerBuiltins(llvm::Module& m, std::string* error) {
  const llvm::StringMap<Lowering>& lowerings = table();
  std::vector<llvm::Function*> done;
  for (llvm::Function& f : m) {
    if (!f.isDeclaration()) continue;
    llvm::StringRef base = spirvBaseName(f.getName());
    if (!base.startswith("__spirv_") || leftForLaterPasses(base)) continue;
    auto it = lowerings.find(base);
    if (it == lowerings.end() && base.contains("_R")) {
      it = lowerings.find(base.rsplit("_R").first);  // "__spirv_ocl_vloadn_Rfloat4": result type
    }
    if (it == lowerings.end()) {
      if (f.use_empty()) continue;
      *error = "unsupported builtin: " + base.str() + " (" + f.getName().str() + ")";
      return false;
    }
    std::vector<llvm::CallInst*> calls;
    for (llvm::User* u : f.users()) {
      if (auto* c = llvm::dyn_cast<llvm::CallInst>(u)) calls.push_back(c);
    }
    for (llvm::CallInst* c : calls) {
      if (std::string why = refusal(base, c); !why.empty()) {
        *error = why;
        return false;
      }
    }
    for (llvm::CallInst* c : calls) {
      Builder b(c);
      Args args(c->arg_begin(), c->arg_end());
      llvm::Value* r = it->second(b, c, args);
      if (r != nullptr && !c->getType()->isVoidTy()) {
        if (r->getType() != c->getType()) r = b.CreateBitOrPointerCast(r, c->getType());
        c->replaceAllUsesWith(r);
      }
      c->eraseFromParent();
    }
    done.push_back(&f);
  }
  for (llvm::Function* f : done) {
    if (f->use_empty()) f->eraseFromParent();
  }
  return true;
}

}  // namespace tessera::backends::cpu::jit
