// Pass: work-group collectives (OpGroup* at work-group scope: work_group_reduce/scan/broadcast/
// all/any) become a static __local accumulator per call site and barriers. The region machinery
// runs the work-items between two barriers one after the other in local linear id order, on one
// thread; so each work-item folds its value into the accumulator (work-item 0 starts from the
// identity), a scan reads the running value as it goes, and a reduction, broadcast, all or any
// reads the final value after a barrier. A barrier after the collective keeps the next run of the
// same call site (in a loop) from restarting the accumulator before everyone has read it. The
// accumulator is accessed with monotonic atomics: the work-item loop is marked parallel, and
// atomics keep the vectorizer from treating those accesses as independent. Sub-group scope (one
// work-item) is left to lowerBuiltins.
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

#include <algorithm>

#include "backends/cpu/jit/collective_ops.h"
#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

constexpr unsigned kWorkgroupScope = 2;
constexpr unsigned kReduce = 0, kInclusiveScan = 1, kExclusiveScan = 2;

struct Collective {
  llvm::CallInst* call;
  llvm::StringRef op;  // "FAdd", ..., "Broadcast", "All", "Any"
};

unsigned constantArg(llvm::Value* v) {
  auto* c = llvm::dyn_cast<llvm::ConstantInt>(v);
  return c == nullptr ? ~0u : static_cast<unsigned>(c->getZExtValue());
}

class Lowering {
 public:
  explicit Lowering(llvm::Module& m) : m_(m), ctx_(m.getContext()) {}

  void lower(const Collective& c) {
    llvm::CallInst* call = c.call;
    llvm::IRBuilder<> b(call);
    llvm::Type* i32 = b.getInt32Ty();
    bool logical = c.op == "All" || c.op == "Any";
    llvm::Value* x = logical ? b.CreateZExt(call->getArgOperand(1), i32)
                             : call->getArgOperand(c.op == "Broadcast" ? 1 : 2);
    llvm::Type* t = x->getType();
    unsigned kind = c.op == "Broadcast" || logical ? kReduce : constantArg(call->getArgOperand(1));
    auto* acc = new llvm::GlobalVariable(m_, t, false, llvm::GlobalValue::InternalLinkage,
                                         llvm::UndefValue::get(t), "wg.collective", nullptr,
                                         llvm::GlobalValue::NotThreadLocal, 3);
    llvm::Align align(m_.getDataLayout().getTypeStoreSize(t).getFixedSize());
    acc->setAlignment(align);
    llvm::Value* lid = b.CreateCall(builtin("__spirv_BuiltInLocalInvocationIndex", {}));
    llvm::Value* first = b.CreateICmpEQ(lid, b.getInt64(0));
    auto load = [&]() {
      llvm::LoadInst* l = b.CreateAlignedLoad(t, acc, align);
      l->setAtomic(llvm::AtomicOrdering::Monotonic);
      return l;
    };
    auto store = [&](llvm::Value* v) {
      b.CreateAlignedStore(v, acc, align)->setAtomic(llvm::AtomicOrdering::Monotonic);
    };
    llvm::Value* result;
    if (c.op == "Broadcast") {
      // The value of the work-item whose (linear) local id is given.
      llvm::Value* who = linearId(b, call->getArgOperand(2));
      store(b.CreateSelect(b.CreateICmpEQ(lid, who), x, load()));
      barrier(b);
      result = load();
    } else {
      llvm::Value* before = b.CreateSelect(first, identity(t, c.op), load());
      llvm::Value* after = combine(b, c.op, before, x);
      store(after);
      if (kind == kReduce) {
        barrier(b);
        result = load();
      } else {
        result = kind == kInclusiveScan ? after : before;
      }
    }
    barrier(b);
    if (logical) result = b.CreateICmpNE(result, llvm::ConstantInt::get(t, 0));
    call->replaceAllUsesWith(result);
    call->eraseFromParent();
  }

 private:
  llvm::FunctionCallee builtin(const char* name, llvm::ArrayRef<llvm::Type*> params) {
    return m_.getOrInsertFunction(
        name, llvm::FunctionType::get(llvm::Type::getInt64Ty(ctx_), params, false));
  }

  // A local id (scalar, or vector of 2 or 3 dimensions) as the linear id.
  llvm::Value* linearId(llvm::IRBuilder<>& b, llvm::Value* id) {
    auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(id->getType());
    if (vt == nullptr) return b.CreateZExtOrTrunc(id, b.getInt64Ty());
    llvm::FunctionCallee size = builtin("__spirv_BuiltInWorkgroupSize", {b.getInt32Ty()});
    llvm::Value* linear = b.getInt64(0);
    llvm::Value* stride = b.getInt64(1);
    for (unsigned d = 0; d < vt->getNumElements(); ++d) {
      llvm::Value* component = b.CreateZExtOrTrunc(b.CreateExtractElement(id, d), b.getInt64Ty());
      linear = b.CreateAdd(linear, b.CreateMul(component, stride));
      stride = b.CreateMul(stride, b.CreateCall(size, {b.getInt32(d)}));
    }
    return linear;
  }

  // barrier(CLK_LOCAL_MEM_FENCE): __spirv_ControlBarrier(Workgroup, Workgroup,
  // WorkgroupMemory | SequentiallyConsistent).
  void barrier(llvm::IRBuilder<>& b) {
    llvm::Type* i32 = b.getInt32Ty();
    llvm::FunctionCallee f = m_.getOrInsertFunction(
        "_Z22__spirv_ControlBarrieriii",
        llvm::FunctionType::get(llvm::Type::getVoidTy(ctx_), {i32, i32, i32}, false));
    b.CreateCall(f, {b.getInt32(2), b.getInt32(2), b.getInt32(0x110)});
  }

  llvm::Module& m_;
  llvm::LLVMContext& ctx_;
};

}  // namespace

void lowerWorkGroupCollectives(llvm::Module& m) {
  std::vector<Collective> collectives;
  for (llvm::Function& f : m) {
    if (!f.isDeclaration()) continue;
    llvm::StringRef base = spirvBaseName(f.getName());
    if (!base.consume_front("__spirv_Group")) continue;
    static const char* const kOps[] = {"FAdd", "IAdd", "FMin",      "UMin", "SMin", "FMax",
                                       "UMax", "SMax", "Broadcast", "All",  "Any"};
    if (std::find(std::begin(kOps), std::end(kOps), base) == std::end(kOps)) continue;
    for (llvm::User* u : f.users()) {
      auto* call = llvm::dyn_cast<llvm::CallInst>(u);
      if (call == nullptr || constantArg(call->getArgOperand(0)) != kWorkgroupScope) continue;
      bool logical = base == "Broadcast" || base == "All" || base == "Any";
      if (!logical && constantArg(call->getArgOperand(1)) > kExclusiveScan) continue;
      collectives.push_back({call, base});
    }
  }
  Lowering lowering(m);
  for (const Collective& c : collectives) lowering.lower(c);
}

}  // namespace tessera::backends::cpu::jit
