// Pass: the builtin library. OpenCL.std extended instructions (__spirv_ocl_*), relational
// instructions (__spirv_IsNan, ...), conversions with a rounding mode or saturation, atomics
// (__spirv_Atomic*) and images (__spirv_Image*, builtin_image.cpp) become LLVM IR: intrinsics where
// LLVM has one (O3 and the vectorizer understand them; the JIT resolves the libm calls they may
// lower to from the libraries host_symbols.cpp opens), libm calls otherwise (scalarized for
// vectors, then made libmvec calls by vector_math.cpp), plain arithmetic for the integer, common
// and relational functions.
// Work-item builtins and __spirv_ControlBarrier are left for the region passes.
//
// This file assembles the table from the families (builtin_lowering.h) and holds the helpers they
// share.
#include <llvm/IR/Constants.h>

#include <algorithm>

#include "backends/cpu/jit/builtin_conversions.h"
#include "backends/cpu/jit/builtin_half.h"
#include "backends/cpu/jit/builtin_lowering.h"
#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace builtins {

unsigned lanes(llvm::Type* t) {
  auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(t);
  return vt == nullptr ? 1 : vt->getNumElements();
}

llvm::Type* withLanes(llvm::Type* scalar, unsigned n) {
  return n == 1 ? scalar : llvm::FixedVectorType::get(scalar, n);
}

llvm::Type* shapeOf(llvm::Type* like, llvm::Type* scalar) {
  return like->isVectorTy() ? withLanes(scalar, lanes(like)) : scalar;
}

llvm::Type* intShape(llvm::Type* t) {
  return shapeOf(t, llvm::IntegerType::get(t->getContext(), t->getScalarSizeInBits()));
}

llvm::Value* splatTo(Builder& b, llvm::Value* v, llvm::Type* like) {
  if (v->getType()->isVectorTy() || !like->isVectorTy()) return v;
  return b.CreateVectorSplat(lanes(like), v);
}

Args uniform(Builder& b, const Args& a) {
  llvm::Type* vector = nullptr;
  for (llvm::Value* v : a)
    if (v->getType()->isVectorTy()) vector = v->getType();
  if (vector == nullptr) return a;
  Args out;
  for (llvm::Value* v : a) {
    bool sameElement = v->getType() == vector->getScalarType();
    out.push_back(sameElement ? splatTo(b, v, vector) : v);
  }
  return out;
}

llvm::Value* fconst(llvm::Type* t, double v) {
  return llvm::ConstantFP::get(t, v);
}

llvm::Value* iconst(llvm::Type* t, uint64_t v) {
  return llvm::ConstantInt::get(t, v);
}

llvm::Value* intrinsic(Builder& b, llvm::Intrinsic::ID id, const Args& a) {
  return b.CreateIntrinsic(id, {a[0]->getType()}, a);
}

llvm::Value* unary(Builder& b, llvm::Intrinsic::ID id, llvm::Value* x) {
  return b.CreateIntrinsic(id, {x->getType()}, {x});
}

llvm::Value* binary(Builder& b, llvm::Intrinsic::ID id, llvm::Value* x, llvm::Value* y) {
  return b.CreateIntrinsic(id, {x->getType()}, {x, y});
}

llvm::Value* libmCall(Builder& b, llvm::StringRef name, llvm::Type* result, const Args& a) {
  llvm::Type* scalar = result->getScalarType();
  llvm::SmallVector<llvm::Type*, 3> params;
  for (llvm::Value* v : a) params.push_back(v->getType()->getScalarType());
  llvm::Module* m = b.GetInsertBlock()->getModule();
  llvm::FunctionCallee fn =
      m->getOrInsertFunction(name, llvm::FunctionType::get(scalar, params, false));
  // Values in, a value out: what libm writes besides is errno, which no kernel can read. Known
  // so, LLVM's vectorizers and the widening may run the calls side by side, and vector_math.cpp
  // makes them one libmvec call.
  if (auto* f = llvm::dyn_cast<llvm::Function>(fn.getCallee())) {
    f->setDoesNotAccessMemory();
    f->setDoesNotThrow();
    f->setWillReturn();
  }
  if (!result->isVectorTy()) return b.CreateCall(fn, a);
  llvm::Value* r = llvm::PoisonValue::get(result);
  for (unsigned lane = 0; lane < lanes(result); ++lane) {
    Args scalars;
    for (llvm::Value* v : a) {
      scalars.push_back(v->getType()->isVectorTy() ? b.CreateExtractElement(v, lane) : v);
    }
    r = b.CreateInsertElement(r, b.CreateCall(fn, scalars), lane);
  }
  return r;
}

llvm::Value* libm(Builder& b, llvm::StringRef base, llvm::Type* result, const Args& a) {
  std::string name = base.str() + (result->getScalarType()->isFloatTy() ? "f" : "");
  return libmCall(b, name, result, a);
}

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

llvm::Value* callHost(Builder& b, const char* symbol, llvm::Type* result, const Args& a) {
  llvm::SmallVector<llvm::Type*, 8> params;
  for (llvm::Value* v : a) params.push_back(v->getType());
  llvm::FunctionType* type = llvm::FunctionType::get(result, params, false);
  llvm::Module* m = b.GetInsertBlock()->getModule();
  return b.CreateCall(m->getOrInsertFunction(symbol, type), a);
}

llvm::Value* toDouble(Builder& b, llvm::Value* v) {
  if (v->getType()->getScalarType()->isDoubleTy()) return v;
  return b.CreateFPExt(v, shapeOf(v->getType(), b.getDoubleTy()));
}

llvm::Value* fromDouble(Builder& b, llvm::Value* v, llvm::Type* type) {
  return v->getType() == type ? v : b.CreateFPTrunc(v, type);
}

llvm::Value* signBit(Builder& b, llvm::Value* x) {
  llvm::Type* it = intShape(x->getType());
  return b.CreateICmpSLT(b.CreateBitCast(x, it), llvm::Constant::getNullValue(it));
}

llvm::Value* isInf(Builder& b, llvm::Value* x) {
  return b.CreateFCmpOEQ(unary(b, llvm::Intrinsic::fabs, x),
                         llvm::ConstantFP::getInfinity(x->getType()));
}

llvm::Value* isFinite(Builder& b, llvm::Value* x) {
  return b.CreateFCmpONE(unary(b, llvm::Intrinsic::fabs, x),
                         llvm::ConstantFP::getInfinity(x->getType()));
}

llvm::Value* reduce(Builder& b, llvm::Value* v,
                    const std::function<llvm::Value*(llvm::Value*, llvm::Value*)>& op) {
  if (!v->getType()->isVectorTy()) return v;
  llvm::Value* r = b.CreateExtractElement(v, uint64_t{0});
  for (unsigned i = 1; i < lanes(v->getType()); ++i) r = op(r, b.CreateExtractElement(v, i));
  return r;
}

llvm::Value* pointerTo(Builder& b, llvm::Value* p, llvm::Type* element) {
  unsigned as = p->getType()->getPointerAddressSpace();
  return b.CreatePointerCast(p, llvm::PointerType::get(element, as));
}

llvm::Value* cPointer(Builder& b, llvm::Value* p, llvm::Type* element) {
  llvm::Value* q = pointerTo(b, p, element);
  return b.CreateAddrSpaceCast(q, llvm::PointerType::get(element, 0));
}

llvm::Value* bytePointer(Builder& b, llvm::Value* p) {
  return b.CreateAddrSpaceCast(pointerTo(b, p, b.getInt8Ty()), b.getInt8PtrTy());
}

unsigned constantArg(llvm::Value* v) {
  auto* c = llvm::dyn_cast<llvm::ConstantInt>(v);
  return c == nullptr ? 0 : static_cast<unsigned>(c->getZExtValue());
}

namespace {

const Table& table() {
  static const Table t = [] {
    Table m;
    // Conversions with a rounding mode or saturation (builtin_conversions.cpp).
    for (const char* name : kConversionBuiltins) {
      std::string base = name;
      m[base] = [base](Builder& b, llvm::CallInst* c, const Args&) {
        return lowerConversion(b, c, base);
      };
    }
    addMathBuiltins(m);
    addMathPiBuiltins(m);
    addIntegerBuiltins(m);
    addGeometricBuiltins(m);
    addRelationalBuiltins(m);
    addVectorDataBuiltins(m);
    addAtomicBuiltins(m);
    addHostCallBuiltins(m);
    addImageBuiltins(m);
    addIntelLscBuiltins(m);
    return m;
  }();
  return t;
}

bool leftForLaterPasses(llvm::StringRef base) {
  return base.startswith("__spirv_BuiltIn") || base == "__spirv_ControlBarrier";
}

// The lowered value in the call's type. Booleans the translator carries as integers (a vector
// relational returns <n x i8>, which it truncates to <n x i1>) get every bit of the lane set; a
// scalar relational of OpenCL's int type (Tessera IR's isgreater(float, float)) is 1 when true.
llvm::Value* asCallType(Builder& b, llvm::Value* r, llvm::Type* type) {
  if (r->getType() == type) return r;
  if (r->getType()->isIntOrIntVectorTy(1) && type->isIntOrIntVectorTy())
    return type->isVectorTy() ? b.CreateSExt(r, type) : b.CreateZExt(r, type);
  return b.CreateBitOrPointerCast(r, type);
}

}  // namespace
}  // namespace builtins

bool providesVendorBuiltin(llvm::StringRef name) {
  return builtins::isIntelLscName(name) && builtins::table().count(name) != 0;
}

bool lowerBuiltins(llvm::Module& m, std::string* error) {
  using namespace builtins;
  const Table& lowerings = table();
  std::vector<llvm::Function*> done;
  std::vector<llvm::Function*> declarations;
  for (llvm::Function& f : m)
    if (f.isDeclaration()) declarations.push_back(&f);
  std::stable_partition(declarations.begin(), declarations.end(), [](llvm::Function* f) {
    return !lowersAfterItsUsers(spirvBaseName(f->getName()));
  });
  for (llvm::Function* declaration : declarations) {
    llvm::Function& f = *declaration;
    llvm::StringRef base = spirvBaseName(f.getName());
    if ((!base.startswith("__spirv_") && !isSamplerInitializer(base) && !isIntelLscName(base)) ||
        leftForLaterPasses(base))
      continue;
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
      llvm::StringRef key = it->getKey();  // without a result type suffix
      llvm::Value* r = computesInFloat(key, c) ? lowerInFloat(b, c, args, key, it->second)
                                               : it->second(b, c, args);
      if (r != nullptr && !c->getType()->isVoidTy()) {
        c->replaceAllUsesWith(asCallType(b, r, c->getType()));
      }
      c->eraseFromParent();
    }
    done.push_back(&f);
  }
  for (llvm::Function* f : done) {
    if (f->use_empty()) f->eraseFromParent();
  }
  lowerHalfArithmetic(m);
  return true;
}

}  // namespace tessera::backends::cpu::jit
