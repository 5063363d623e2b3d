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

#include <functional>

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

const llvm::StringMap<Lowering>& table() {
  static const llvm::StringMap<Lowering> t = [] {
    llvm::StringMap<Lowering> m;
    using I = llvm::Intrinsic::ID;
    auto intr = [&](const std::string& name, I id) {
      m[name] = [id](Builder& b, llvm::CallInst*, const Args& a) { return intrinsic(b, id, a); };
    };
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
