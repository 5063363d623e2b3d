// Vector math as vector code: the math of several lanes at once is one call of the C library's
// vector math (glibc's libmvec, resolved by host_symbols.cpp), never one scalar libm call per
// lane. Two passes:
//
// - "vector-variants", before O3: every call of a libm function that libmvec has in vector form
//   (the builtin library's erff, tanf, cbrtf, ...) names its variants for the target
//   (`vector-function-abi-variant`, LLVM's vector function ABI), so that the loop vectorizer, which
//   refuses a loop with a call it cannot vectorize, vectorizes a work-item loop calling erfc and
//   calls _ZGVdN8v_erfcf itself;
// - "vector-math", after O3, for what reaches code generation with several lanes of one function:
//   a vector intrinsic (llvm.exp.v16f32, llvm.pow.v4f64: the builtin library lowers exp, log, sin,
//   cos, pow, ... to intrinsics, which the widening and the vectorizers widen, and x86 would call
//   expf once per lane), or a vector put together lane by lane from calls of one libm function on
//   the lanes of the same operands (insertelement of erff(extractelement x, k) for every k: the
//   builtin library's libm() of an OpenCL vector, the widening's lane-by-lane calls). Each becomes
//   calls of the variant for the target's registers, split into such pieces, the last padded.
//
// Variants: AVX2 ('d', 8 floats or 4 doubles in a ymm register) where the target has AVX2, else
// SSE ('b', 4 or 2 in xmm). AVX-512 ('e', zmm) is left out: a <16 x float> argument goes in one
// zmm register only where the caller's legal vector width is 512 bits, which x86's
// prefer-256-bit tuning may deny. Only functions whose libmvec variant keeps OpenCL's bounds
// (OpenCL C 1.2 section 7.4, Tables 7.1 and 7.2) are mapped: test_jit_builtin_math.cpp checks
// every function against long double references in vectors of 3 and 16 lanes, widened and not,
// and the special values.
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <map>
#include <optional>
#include <vector>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

// libmvec's functions (glibc 2.36; those before 2.35: sin, cos, exp, log, pow) by their double
// names, with their parameter count; not cbrt, whose float variant is 2.3 ulp off where OpenCL
// allows 2 (cbrt(3)).
const std::map<std::string, unsigned>& vectorFunctions() {
  static const std::map<std::string, unsigned> functions = {
      {"acos", 1},  {"acosh", 1}, {"asin", 1},  {"asinh", 1}, {"atan", 1},
      {"atan2", 2}, {"atanh", 1}, {"cos", 1},   {"cosh", 1},  {"erf", 1},
      {"erfc", 1},  {"exp", 1},   {"exp10", 1}, {"exp2", 1},  {"expm1", 1},
      {"hypot", 2}, {"log", 1},   {"log10", 1}, {"log1p", 1}, {"log2", 1},
      {"pow", 2},   {"sin", 1},   {"sinh", 1},  {"tan", 1},   {"tanh", 1}};
  return functions;
}

// The intrinsics of those functions.
std::optional<std::string> intrinsicName(llvm::Intrinsic::ID id) {
  switch (id) {
    case llvm::Intrinsic::exp:
      return "exp";
    case llvm::Intrinsic::exp2:
      return "exp2";
    case llvm::Intrinsic::log:
      return "log";
    case llvm::Intrinsic::log2:
      return "log2";
    case llvm::Intrinsic::log10:
      return "log10";
    case llvm::Intrinsic::sin:
      return "sin";
    case llvm::Intrinsic::cos:
      return "cos";
    case llvm::Intrinsic::pow:
      return "pow";
    default:
      return std::nullopt;
  }
}

// The double name of a libm function's float or double symbol ("erff" -> "erf"), if libmvec has it.
std::optional<std::string> libmName(llvm::Function* f) {
  if (f == nullptr || !f->isDeclaration()) return std::nullopt;
  std::string name = f->getName().str();
  llvm::Type* t = f->getReturnType();
  if (t->isFloatTy()) {
    if (name.empty() || name.back() != 'f') return std::nullopt;
    name.pop_back();
  } else if (!t->isDoubleTy()) {
    return std::nullopt;
  }
  auto it = vectorFunctions().find(name);
  if (it == vectorFunctions().end() || f->arg_size() != it->second) return std::nullopt;
  for (llvm::Argument& a : f->args())
    if (a.getType() != t) return std::nullopt;
  return name;
}

// The variants the target can call: SSE's 128-bit ('b') always; 256-bit ones with AVX2 ('d') or
// AVX ('c').
struct Isa {
  char letter256 = 0;  // 0: no 256-bit variants
  // Lanes of the widest variant for elements of `element`'s type.
  unsigned widest(llvm::Type* element) const {
    return (letter256 ? 256 : 128) / element->getScalarSizeInBits();
  }
  char letter(llvm::Type* element, unsigned width) const {
    return width * element->getScalarSizeInBits() == 128 ? 'b' : letter256;
  }
};

Isa isaOf(const llvm::TargetMachine* tm) {
  llvm::StringRef features = tm ? tm->getTargetFeatureString() : "";
  if (features.contains("+avx2")) return {'d'};
  if (features.contains("+avx")) return {'c'};
  return {};
}

// libmvec's name of `fn` (double name) on `width` lanes of `element`: _ZGVdN8v_expf.
std::string variantName(Isa isa, const std::string& fn, llvm::Type* element, unsigned width) {
  unsigned params = vectorFunctions().at(fn);
  return std::string("_ZGV") + isa.letter(element, width) + "N" + std::to_string(width) +
         std::string(params, 'v') + "_" + fn + (element->isFloatTy() ? "f" : "");
}

llvm::Function* declareVariant(llvm::Module& m, Isa isa, const std::string& fn, llvm::Type* element,
                               unsigned width) {
  auto* vt = llvm::FixedVectorType::get(element, width);
  std::vector<llvm::Type*> types(vectorFunctions().at(fn), vt);
  llvm::FunctionCallee callee = m.getOrInsertFunction(variantName(isa, fn, element, width),
                                                      llvm::FunctionType::get(vt, types, false));
  auto* f = llvm::cast<llvm::Function>(callee.getCallee());
  f->setDoesNotAccessMemory();
  f->setDoesNotThrow();
  f->setWillReturn();
  return f;
}

class VectorMath {
 public:
  VectorMath(llvm::Module& m, Isa isa) : m_(m), isa_(isa) {}

  // `lanes` of `fn` (double name) on `args` (vectors of n lanes of float or double) as calls of
  // libmvec variants; the result has n lanes.
  llvm::Value* call(llvm::IRBuilder<>& b, const std::string& fn, llvm::Type* element,
                    const std::vector<llvm::Value*>& args, unsigned n) {
    const unsigned width = isa_.widest(element);
    std::vector<llvm::Value*> pieces;
    for (unsigned start = 0; start < n; start += width) {
      std::vector<llvm::Value*> parts;
      for (llvm::Value* a : args) parts.push_back(slice(b, a, start, width));
      pieces.push_back(b.CreateCall(variant(fn, element, width), parts));
    }
    return join(b, pieces, width, n);
  }

 private:
  llvm::Function* variant(const std::string& fn, llvm::Type* element, unsigned width) {
    return declareVariant(m_, isa_, fn, element, width);
  }

  // Lanes [start, start + width) of v, poison past its end.
  static llvm::Value* slice(llvm::IRBuilder<>& b, llvm::Value* v, unsigned start, unsigned width) {
    unsigned n = llvm::cast<llvm::FixedVectorType>(v->getType())->getNumElements();
    if (start == 0 && n == width) return v;
    llvm::SmallVector<int, 16> idx;
    for (unsigned k = 0; k < width; ++k) idx.push_back(start + k < n ? int(start + k) : -1);
    return b.CreateShuffleVector(v, idx);
  }

  // The pieces' first n lanes, in order, as one vector.
  static llvm::Value* join(llvm::IRBuilder<>& b, const std::vector<llvm::Value*>& pieces,
                           unsigned width, unsigned n) {
    if (pieces.size() == 1 && n == width) return pieces[0];
    llvm::Type* element = llvm::cast<llvm::VectorType>(pieces[0]->getType())->getElementType();
    llvm::Value* r = llvm::PoisonValue::get(llvm::FixedVectorType::get(element, n));
    // Pieces widened to n lanes and blended in: one shuffle per piece.
    for (size_t p = 0; p < pieces.size(); ++p) {
      llvm::SmallVector<int, 64> grow, blend;
      for (unsigned k = 0; k < n; ++k) grow.push_back(k < width ? int(k) : -1);
      llvm::Value* wide = n == width ? pieces[p] : b.CreateShuffleVector(pieces[p], grow);
      unsigned lo = unsigned(p) * width;
      for (unsigned k = 0; k < n; ++k)
        blend.push_back(k >= lo && k < lo + width ? int(n + k - lo) : int(k));
      r = b.CreateShuffleVector(r, wide, blend);
    }
    return r;
  }

  llvm::Module& m_;
  Isa isa_;
};

// A vector built lane by lane from calls of one libm function: the calls per lane and, per
// parameter, the vector its lanes come from (or the scalar every lane takes).
struct LaneCalls {
  llvm::InsertElementInst* last = nullptr;
  std::vector<llvm::InsertElementInst*> chain;
  std::vector<llvm::CallInst*> calls;  // by lane
  std::vector<llvm::Value*> operands;  // by parameter: a vector of n lanes, or a uniform scalar
  std::string fn;
};

// The operand of lane k's call for parameter p: extractelement(v, k) of one v for all lanes, or
// one scalar for all lanes.
bool sameOperands(LaneCalls& lc, unsigned n) {
  unsigned params = lc.calls[0]->arg_size();
  for (unsigned p = 0; p < params; ++p) {
    llvm::Value* common = nullptr;
    bool uniform = true, fromVector = true;
    for (unsigned k = 0; k < n; ++k) {
      llvm::Value* a = lc.calls[k]->getArgOperand(p);
      uniform &= a == lc.calls[0]->getArgOperand(p);
      auto* e = llvm::dyn_cast<llvm::ExtractElementInst>(a);
      auto* index = e ? llvm::dyn_cast<llvm::ConstantInt>(e->getIndexOperand()) : nullptr;
      if (!e || !index || index->getZExtValue() != k ||
          llvm::cast<llvm::FixedVectorType>(e->getVectorOperandType())->getNumElements() != n ||
          (common && e->getVectorOperand() != common)) {
        fromVector = false;
      } else {
        common = e->getVectorOperand();
      }
    }
    if (fromVector && common)
      lc.operands.push_back(common);
    else if (uniform)
      lc.operands.push_back(lc.calls[0]->getArgOperand(p));
    else
      return false;
  }
  return true;
}

// The lane-by-lane vector whose last insert is `last`, if it is one.
std::optional<LaneCalls> laneCalls(llvm::InsertElementInst* last) {
  auto* vt = llvm::cast<llvm::FixedVectorType>(last->getType());
  const unsigned n = vt->getNumElements();
  if (n < 2 || !(vt->getElementType()->isFloatTy() || vt->getElementType()->isDoubleTy()))
    return std::nullopt;
  LaneCalls lc;
  lc.last = last;
  lc.calls.assign(n, nullptr);
  llvm::Value* v = last;
  while (auto* ins = llvm::dyn_cast<llvm::InsertElementInst>(v)) {
    if (ins != last && !ins->hasOneUse()) return std::nullopt;
    auto* index = llvm::dyn_cast<llvm::ConstantInt>(ins->getOperand(2));
    auto* call = llvm::dyn_cast<llvm::CallInst>(ins->getOperand(1));
    if (!index || index->getZExtValue() >= n || !call || !call->hasOneUse() ||
        lc.calls[index->getZExtValue()])
      return std::nullopt;
    auto name = libmName(call->getCalledFunction());
    if (!name || (!lc.fn.empty() && *name != lc.fn)) return std::nullopt;
    lc.fn = *name;
    lc.calls[index->getZExtValue()] = call;
    lc.chain.push_back(ins);
    v = ins->getOperand(0);
  }
  if (!llvm::isa<llvm::PoisonValue>(v) && !llvm::isa<llvm::UndefValue>(v)) return std::nullopt;
  for (llvm::CallInst* c : lc.calls)
    if (c == nullptr) return std::nullopt;
  if (!sameOperands(lc, n)) return std::nullopt;
  return lc;
}

// llvm.compiler.used without the variants nameVectorVariants kept.
void releaseVariants(llvm::Module& m) {
  llvm::GlobalVariable* used = m.getGlobalVariable("llvm.compiler.used");
  if (used == nullptr) return;
  std::vector<llvm::Constant*> rest;
  if (auto* list = llvm::dyn_cast<llvm::ConstantArray>(used->getInitializer()))
    for (llvm::Value* v : list->operands()) {
      auto* f = llvm::dyn_cast<llvm::Function>(v->stripPointerCasts());
      if (!(f && f->isDeclaration() && f->getName().startswith("_ZGV")))
        rest.push_back(llvm::cast<llvm::Constant>(v));
    }
  llvm::Type* element = used->getValueType()->getArrayElementType();
  used->eraseFromParent();
  if (rest.empty()) return;
  auto* type = llvm::ArrayType::get(element, rest.size());
  auto* g = new llvm::GlobalVariable(m, type, false, llvm::GlobalValue::AppendingLinkage,
                                     llvm::ConstantArray::get(type, rest), "llvm.compiler.used");
  g->setSection("llvm.metadata");
}

}  // namespace

void nameVectorVariants(llvm::Module& m, const llvm::TargetMachine* tm) {
  const Isa isa = isaOf(tm);
  std::vector<llvm::GlobalValue*> keep;
  std::vector<llvm::Function*> scalars;
  for (llvm::Function& f : m)
    if (libmName(&f)) scalars.push_back(&f);
  for (llvm::Function* fp : scalars) {
    llvm::Function& f = *fp;
    auto fn = libmName(&f);
    llvm::Type* element = f.getReturnType();
    // The widths the loop vectorizer may choose from: an SSE register's lanes and the widest.
    std::vector<std::string> names;
    const unsigned sse = 128 / element->getScalarSizeInBits();
    for (unsigned width : {sse, isa.widest(element)}) {
      if (!names.empty() && width == sse) break;  // no 256-bit variants
      llvm::Function* v = declareVariant(m, isa, *fn, element, width);
      keep.push_back(v);
      names.push_back(llvm::VFABI::mangleTLIVectorName(v->getName(), f.getName(), f.arg_size(),
                                                       llvm::ElementCount::getFixed(width)));
    }
    for (llvm::User* u : f.users())
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(u); call && call->getCalledFunction() == &f)
        llvm::VFABI::setVectorVariantNames(call, names);
  }
  // Kept until the vectorizer has run (declarations nothing calls yet would be dropped by O3's
  // GlobalDCE); callVectorMath lets them go.
  if (!keep.empty()) llvm::appendToCompilerUsed(m, keep);
}

void callVectorMath(llvm::Module& m, const llvm::TargetMachine* tm) {
  releaseVariants(m);
  VectorMath vm(m, isaOf(tm));
  std::vector<llvm::IntrinsicInst*> intrinsics;
  std::vector<llvm::InsertElementInst*> lasts;
  for (llvm::Function& f : m)
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb) {
        if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&i)) {
          auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(call->getType());
          if (vt && intrinsicName(call->getIntrinsicID()) &&
              (vt->getElementType()->isFloatTy() || vt->getElementType()->isDoubleTy()))
            intrinsics.push_back(call);
        } else if (auto* ins = llvm::dyn_cast<llvm::InsertElementInst>(&i)) {
          bool continued = false;
          for (llvm::User* u : ins->users())
            if (auto* next = llvm::dyn_cast<llvm::InsertElementInst>(u))
              continued |= next->getOperand(0) == ins;
          if (!continued) lasts.push_back(ins);
        }
      }
  for (llvm::IntrinsicInst* call : intrinsics) {
    llvm::IRBuilder<> b(call);
    auto* vt = llvm::cast<llvm::FixedVectorType>(call->getType());
    std::vector<llvm::Value*> args(call->arg_begin(), call->arg_end());
    llvm::Value* r = vm.call(b, *intrinsicName(call->getIntrinsicID()), vt->getElementType(), args,
                             vt->getNumElements());
    call->replaceAllUsesWith(r);
    call->eraseFromParent();
  }
  for (llvm::InsertElementInst* last : lasts) {
    std::optional<LaneCalls> lc = laneCalls(last);
    if (!lc) continue;
    // Every call and operand must be available where the vector is complete: at the last insert
    // (the calls dominate it: each feeds the chain that ends there).
    llvm::IRBuilder<> b(last);
    auto* vt = llvm::cast<llvm::FixedVectorType>(last->getType());
    const unsigned n = vt->getNumElements();
    std::vector<llvm::Value*> args;
    for (llvm::Value* op : lc->operands)
      args.push_back(op->getType()->isVectorTy() ? op : b.CreateVectorSplat(n, op));
    llvm::Value* r = vm.call(b, lc->fn, vt->getElementType(), args, n);
    last->replaceAllUsesWith(r);
    for (llvm::InsertElementInst* ins : lc->chain) ins->eraseFromParent();
    for (llvm::CallInst* c : lc->calls) c->eraseFromParent();
  }
}

}  // namespace tessera::backends::cpu::jit
