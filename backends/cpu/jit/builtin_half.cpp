// Half precision (cl_khr_fp16) in the builtin library and in plain arithmetic.
//
// The host has no half arithmetic (AVX-512 FP16 is rare; F16C only converts), so halves are
// computed as floats and each result rounded to half, which is what LLVM's x86 backend does for
// `fadd half` and the like (vcvtph2ps, the float operation, vcvtps2ph per instruction). For
// + - * / and sqrt that is the correctly rounded half result: float's 24-bit significand is at
// least 2p + 2 bits for half's p = 11, and for these operations a first rounding to such a
// precision never changes the second rounding to p bits (Figueroa, "When is double rounding
// innocuous?", 1995). Half denormals are normal floats, so nothing flushes them.
//
// fma is not among those: fma(a, b, c) rounded to float first can land exactly on a half tie that
// the exact value is not on (a*b = 2^-11 - 2^-31, c = 1 + 2^-10: float gives the tie 1 + 3*2^-11,
// which rounds to even 1 + 2^-9; the exact value rounds down to 1 + 2^-10). In double it is
// exact enough: a*b has at most 22 significant bits (its last at 2^-48 or above) and is exact; c
// has 11 (its last at 2^-24 or above). The sum is inexact in double only when the smaller operand
// has bits below 2^-52 of the result: if that is c, the result exceeds 2^28 and both give
// infinity; if it is a*b, then |a*b| < 2^-30 |c|, and neither c + a*b nor its double rounding can
// reach a half rounding boundary around c (2^-12 |c| away or more), so both round to c. The
// double result is then rounded to half once (through float rounded to odd, narrowFloat).
//
// Builtins: every OpenCL.std instruction on halves that has a float lowering is that lowering on
// the arguments widened to float (exact) with the result rounded to half to nearest even; the
// spec's half ULP tables (OpenCL C 3.0, 7.4, "half precision") are looser than one rounding of a
// float result that is within its own float bound. A result through a pointer (sincos, modf,
// fract) goes through a float temporary and is rounded the same way. Builtins that only move or
// reinterpret bits, or that already take any floating-point type, keep their halves (relational
// instructions, select, bitselect, shuffles, vloads and vstores, nan, conversions).
//
// Images: read_imageh is read_imagef's result (the texel decoded and filtered in float) rounded to
// half; write_imageh widens its halves to float (exact) and writes them as write_imagef does.
#include <llvm/IR/Constants.h>
#include <llvm/IR/IntrinsicInst.h>

#include "backends/cpu/jit/builtin_conversions.h"
#include "backends/cpu/jit/builtin_half.h"

namespace tessera::backends::cpu::jit::builtins {
namespace {

bool hasHalf(llvm::Type* t) {
  return t->getScalarType()->isHalfTy();
}

// OpenCL.std instructions whose lowering is correct on halves as they are.
bool keepsHalves(llvm::StringRef base) {
  return base.startswith("__spirv_ocl_vload") || base.startswith("__spirv_ocl_vstore") ||
         base.startswith("__spirv_ocl_shuffle") || base == "__spirv_ocl_select" ||
         base == "__spirv_ocl_bitselect" || base == "__spirv_ocl_nan" ||
         base == "__spirv_ocl_printf" || base == "__spirv_ocl_prefetch" ||
         base == "__spirv_ocl_fabs" || base == "__spirv_ocl_copysign";
}

// Builtins whose pointer argument receives a value of the result's type (the last argument).
bool storesResultType(llvm::StringRef base) {
  return base == "__spirv_ocl_sincos" || base == "__spirv_ocl_modf" || base == "__spirv_ocl_fract";
}

llvm::Type* widened(llvm::Type* t, llvm::Type* to) {
  return hasHalf(t) ? shapeOf(t, to) : t;
}

}  // namespace

bool computesInFloat(llvm::StringRef base, llvm::CallInst* call) {
  // read_imageh is read_imagef rounded to half; write_imageh writes its halves as floats (exact).
  bool image = base == "__spirv_ImageRead" || base == "__spirv_ImageFetch" ||
               base == "__spirv_ImageSampleExplicitLod" || base == "__spirv_ImageWrite";
  bool math = base.startswith("__spirv_ocl_") || base == "__spirv_Dot" || image;
  if (!math || keepsHalves(base)) return false;
  if (hasHalf(call->getType())) return true;
  for (llvm::Value* a : call->args())
    if (hasHalf(a->getType())) return true;
  return false;
}

llvm::Value* lowerInFloat(Builder& b, llvm::CallInst* call, const Args& args, llvm::StringRef base,
                          const Lowering& lowering) {
  // fma in double (see the top of the file); everything else in float.
  llvm::Type* wide = base == "__spirv_ocl_fma" ? b.getDoubleTy() : b.getFloatTy();
  llvm::Function* f = call->getFunction();
  Args a;
  for (llvm::Value* v : args)
    a.push_back(hasHalf(v->getType()) ? b.CreateFPExt(v, widened(v->getType(), wide)) : v);
  llvm::Type* result = widened(call->getType(), wide);
  llvm::Value* out = nullptr;  // the kernel's pointer to halves, replaced by a float temporary
  llvm::AllocaInst* temporary = nullptr;
  if (storesResultType(base) && hasHalf(call->getType())) {
    Builder entry(&f->getEntryBlock(), f->getEntryBlock().begin());
    temporary = entry.CreateAlloca(result);
    out = a.back();
    a.back() = temporary;
  }
  // The lowering reads the call's result type (and module) from a stand-in call of the widened
  // types, which is erased again: only the arguments' values reach the lowered code. Its name is
  // the callee's with a suffix (the image lowerings read the image type from the mangled name).
  llvm::SmallVector<llvm::Type*, 6> params;
  for (llvm::Value* v : a) params.push_back(v->getType());
  llvm::FunctionType* type = llvm::FunctionType::get(result, params, false);
  llvm::Module* m = f->getParent();
  std::string name = call->getCalledFunction()->getName().str() + ".tessera.in_float";
  llvm::FunctionCallee standIn = m->getOrInsertFunction(name, type);
  llvm::CallInst* proxy = b.CreateCall(standIn, a);
  llvm::Value* r = lowering(b, proxy, a);
  proxy->eraseFromParent();
  if (auto* decl = llvm::dyn_cast<llvm::Function>(standIn.getCallee()->stripPointerCasts()))
    if (decl->use_empty()) decl->eraseFromParent();
  if (temporary != nullptr) {
    llvm::Value* stored = b.CreateLoad(result, temporary);
    b.CreateStore(narrowFloat(b, stored, call->getType(), Rounding::kNearestEven),
                  pointerTo(b, out, call->getType()));
  }
  if (r == nullptr || !hasHalf(call->getType())) return r;
  r = narrowFloat(b, r, call->getType(), Rounding::kNearestEven);
  if (base == "__spirv_ocl_fract") {
    // fract is fmin(x - floor(x), 0x1.fffffep-1f) in float; in half the bound is 0x1.ffcp-1
    // (a float fraction within 2^-12 of 1 rounds to 1.0).
    llvm::APFloat below1(llvm::APFloat::IEEEhalf(), 1);
    below1.next(true);
    llvm::Value* bound = llvm::ConstantFP::get(call->getType(), below1);
    llvm::Value* clamped = binary(b, llvm::Intrinsic::minnum, r, bound);
    r = b.CreateSelect(b.CreateFCmpUNO(r, r), r, clamped);
  }
  return r;
}

void lowerHalfArithmetic(llvm::Module& m) {
  std::vector<llvm::Instruction*> work;
  for (llvm::Function& f : m)
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb) {
        // fptrunc double -> half would be a call to __truncdfhf2; llvm.fma.f16 would be a float
        // fma rounded twice.
        if (auto* t = llvm::dyn_cast<llvm::FPTruncInst>(&i)) {
          if (hasHalf(t->getType()) && t->getOperand(0)->getType()->getScalarType()->isDoubleTy())
            work.push_back(t);
        } else if (auto* c = llvm::dyn_cast<llvm::IntrinsicInst>(&i)) {
          if (c->getIntrinsicID() == llvm::Intrinsic::fma && hasHalf(c->getType()))
            work.push_back(c);
        }
      }
  for (llvm::Instruction* i : work) {
    Builder b(i);
    llvm::Value* r = nullptr;
    if (llvm::isa<llvm::FPTruncInst>(i)) {
      r = narrowFloat(b, i->getOperand(0), i->getType(), Rounding::kNearestEven);
    } else {
      Args a;
      for (unsigned k = 0; k < 3; ++k)
        a.push_back(b.CreateFPExt(i->getOperand(k), shapeOf(i->getType(), b.getDoubleTy())));
      r = narrowFloat(b, intrinsic(b, llvm::Intrinsic::fma, a), i->getType(),
                      Rounding::kNearestEven);
    }
    i->replaceAllUsesWith(r);
    i->eraseFromParent();
  }
}

}  // namespace tessera::backends::cpu::jit::builtins
