#include "spirv/zero_length_arrays.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/Utils/Local.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <algorithm>
#include <vector>

namespace tessera::spirv {
namespace {

using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

// Which types change. Identified structs are decided as a least fixpoint (a struct changes when a
// member does, a pointer when its element type does), so recursive types need no cycle check.
class Changes {
 public:
  explicit Changes(llvm::Module& module) {
    for (bool grew = true; grew;) {
      grew = false;
      for (llvm::StructType* s : module.getIdentifiedStructTypes()) {
        if (s->isOpaque() || structs_.count(s) != 0 || !anyMember(s)) continue;
        structs_.insert(s);
        grew = true;
      }
    }
  }

  bool operator()(llvm::Type* t) const {
    if (auto* a = dyn_cast<llvm::ArrayType>(t))
      return a->getNumElements() == 0 || (*this)(a->getElementType());
    if (auto* p = dyn_cast<llvm::PointerType>(t))
      return !p->isOpaque() && (*this)(p->getNonOpaquePointerElementType());
    if (auto* s = dyn_cast<llvm::StructType>(t))
      return s->isLiteral() ? anyMember(s) : structs_.count(s) != 0;
    if (auto* f = dyn_cast<llvm::FunctionType>(t)) {
      if ((*this)(f->getReturnType())) return true;
      return std::any_of(f->param_begin(), f->param_end(), [&](llvm::Type* p) { return (*this)(p); });
    }
    return false;
  }

  // A constant whose expression mentions a changing type or a variable or function of one.
  bool operator()(const llvm::Constant* c) const {
    if ((*this)(c->getType())) return true;
    if (auto* gep = dyn_cast<llvm::GEPOperator>(c))
      if ((*this)(gep->getSourceElementType())) return true;
    if (!isa<llvm::ConstantExpr, llvm::ConstantAggregate>(c)) return false;
    for (const llvm::Use& u : c->operands())
      if ((*this)(cast<llvm::Constant>(u.get()))) return true;
    return false;
  }

 private:
  bool anyMember(llvm::StructType* s) const {
    return std::any_of(s->element_begin(), s->element_end(), [&](llvm::Type* e) { return (*this)(e); });
  }

  llvm::SmallPtrSet<llvm::StructType*, 8> structs_;
};

// The new types. A struct keeps its natural (unpacked) layout when dropping its zero-size members
// moves nothing; otherwise it is packed, with i8 arrays where the old offsets and size had room.
class Remapper final : public llvm::ValueMapTypeRemapper {
 public:
  Remapper(const Changes& changes, const llvm::DataLayout& layout, llvm::LLVMContext& context)
      : changes_(changes), layout_(layout), context_(context) {}

  llvm::Type* remapType(llvm::Type* t) override {
    if (!changes_(t)) return t;
    if (auto it = done_.find(t); it != done_.end()) return it->second;
    llvm::Type* out = t;
    if (auto* a = dyn_cast<llvm::ArrayType>(t)) {
      out = llvm::ArrayType::get(remapType(a->getElementType()),
                                 std::max<uint64_t>(a->getNumElements(), 1));
    } else if (auto* p = dyn_cast<llvm::PointerType>(t)) {
      out = llvm::PointerType::get(remapType(p->getNonOpaquePointerElementType()),
                                   p->getAddressSpace());
    } else if (auto* f = dyn_cast<llvm::FunctionType>(t)) {
      std::vector<llvm::Type*> params;
      for (llvm::Type* p : f->params()) params.push_back(remapType(p));
      out = llvm::FunctionType::get(remapType(f->getReturnType()), params, f->isVarArg());
    } else if (auto* s = dyn_cast<llvm::StructType>(t)) {
      out = remapStruct(s);
    }
    done_[t] = out;
    return out;
  }

  // For a changed struct (the old type): the old member index of each new member, -1 for padding.
  const std::vector<int>& fields(llvm::StructType* old) const { return fields_.find(old)->second; }
  const std::string& failure() const { return failure_; }
  // The changed identified structs.
  std::vector<llvm::StructType*> renamed() const {
    std::vector<llvm::StructType*> out;
    for (auto& [old, fields] : fields_)
      if (!old->isLiteral()) out.push_back(old);
    return out;
  }

 private:
  llvm::StructType* remapStruct(llvm::StructType* s) {
    llvm::StructType* named = nullptr;
    if (!s->isLiteral()) {
      // Registered before the members are mapped: a member may point to the struct itself.
      named = llvm::StructType::create(context_, s->getName());
      done_[s] = named;
    }
    const llvm::StructLayout* old = layout_.getStructLayout(s);
    std::vector<llvm::Type*> kept;
    std::vector<int> index;
    for (unsigned i = 0; i < s->getNumElements(); ++i) {
      llvm::Type* e = s->getElementType(i);
      if (layout_.getTypeAllocSize(e).getFixedSize() == 0) continue;
      llvm::Type* mapped = remapType(e);
      if (layout_.getTypeAllocSize(mapped) != layout_.getTypeAllocSize(e))
        failure_ = "a member of a struct with a zero-length array changed size";
      kept.push_back(mapped);
      index.push_back(static_cast<int>(i));
    }
    llvm::StructType* natural = llvm::StructType::get(context_, kept, s->isPacked());
    const llvm::StructLayout* now = layout_.getStructLayout(natural);
    bool same = now->getSizeInBytes() == old->getSizeInBytes() &&
                layout_.getABITypeAlign(natural) == layout_.getABITypeAlign(s);
    for (size_t j = 0; same && j < kept.size(); ++j)
      same = now->getElementOffset(j) == old->getElementOffset(index[j]);
    std::vector<llvm::Type*> body = kept;
    std::vector<int> map = index;
    if (!same) {
      body.clear();
      map.clear();
      uint64_t at = 0;
      auto pad = [&](uint64_t to) {
        if (to <= at) return;
        body.push_back(llvm::ArrayType::get(llvm::Type::getInt8Ty(context_), to - at));
        map.push_back(-1);
        at = to;
      };
      for (size_t j = 0; j < kept.size(); ++j) {
        pad(old->getElementOffset(index[j]));
        body.push_back(kept[j]);
        map.push_back(index[j]);
        at += layout_.getTypeAllocSize(kept[j]).getFixedSize();
      }
      pad(old->getSizeInBytes());
    }
    fields_[s] = map;
    bool packed = s->isPacked() || !same;
    if (named == nullptr) return llvm::StructType::get(context_, body, packed);
    named->setBody(body, packed);
    return named;
  }

  const Changes& changes_;
  const llvm::DataLayout& layout_;
  llvm::LLVMContext& context_;
  llvm::DenseMap<llvm::Type*, llvm::Type*> done_;
  llvm::DenseMap<llvm::StructType*, std::vector<int>> fields_;
  std::string failure_;
};

// Constants in their new types: aggregates member by member (padding zero), a replaced variable as
// its replacement, and an address into one (a constant GEP) as a byte offset from it.
class Constants {
 public:
  Constants(const Changes& changes, Remapper& types, const llvm::DataLayout& layout)
      : changes_(changes), types_(types), layout_(layout) {}

  void replace(llvm::GlobalValue* old, llvm::GlobalValue* now) { replaced_[old] = now; }

  // Whether map() can say `c`; checked before anything changes.
  bool mappable(const llvm::Constant* c) const {
    if (!changes_(c)) return true;
    if (isa<llvm::Function, llvm::ConstantVector>(c)) return false;
    if (isa<llvm::GlobalVariable, llvm::UndefValue>(c) || c->isNullValue()) return true;
    if (auto* gep = dyn_cast<llvm::GEPOperator>(c)) {
      llvm::APInt offset(layout_.getIndexTypeSizeInBits(gep->getType()), 0);
      if (!gep->accumulateConstantOffset(layout_, offset)) return false;
    } else if (auto* ce = dyn_cast<llvm::ConstantExpr>(c); ce != nullptr && !ce->isCast()) {
      return false;
    } else if (!isa<llvm::ConstantExpr, llvm::ConstantAggregate, llvm::ConstantDataSequential>(c)) {
      return false;
    }
    for (const llvm::Use& u : c->operands())
      if (!mappable(cast<llvm::Constant>(u.get()))) return false;
    return true;
  }

  llvm::Constant* map(llvm::Constant* c) {
    if (!changes_(c)) return c;
    llvm::Type* to = types_.remapType(c->getType());
    if (auto* g = dyn_cast<llvm::GlobalValue>(c)) return replaced_.lookup(g);
    if (isa<llvm::PoisonValue>(c)) return llvm::PoisonValue::get(to);
    if (isa<llvm::UndefValue>(c)) return llvm::UndefValue::get(to);
    if (c->isNullValue()) return llvm::Constant::getNullValue(to);
    if (auto* gep = dyn_cast<llvm::GEPOperator>(c)) {
      llvm::APInt offset(layout_.getIndexTypeSizeInBits(gep->getType()), 0);
      gep->accumulateConstantOffset(layout_, offset);
      llvm::Constant* base = map(cast<llvm::Constant>(gep->getPointerOperand()));
      llvm::Type* bytes = llvm::Type::getInt8PtrTy(c->getContext(), gep->getPointerAddressSpace());
      llvm::Constant* at = llvm::ConstantExpr::getGetElementPtr(
          llvm::Type::getInt8Ty(c->getContext()), llvm::ConstantExpr::getBitCast(base, bytes),
          llvm::ConstantInt::get(c->getContext(), offset));
      return llvm::ConstantExpr::getBitCast(at, to);
    }
    if (auto* ce = dyn_cast<llvm::ConstantExpr>(c))
      return llvm::ConstantExpr::getCast(ce->getOpcode(), map(ce->getOperand(0)), to);
    std::vector<llvm::Constant*> elements;
    if (auto* s = dyn_cast<llvm::StructType>(to)) {
      auto* old = cast<llvm::StructType>(c->getType());
      for (unsigned j = 0; j < s->getNumElements(); ++j) {
        int from = old == s ? static_cast<int>(j) : types_.fields(old)[j];
        elements.push_back(from < 0 ? llvm::Constant::getNullValue(s->getElementType(j))
                                    : map(c->getAggregateElement(from)));
      }
      return llvm::ConstantStruct::get(s, elements);
    }
    auto* a = cast<llvm::ArrayType>(to);
    uint64_t had = cast<llvm::ArrayType>(c->getType())->getNumElements();
    for (uint64_t i = 0; i < a->getNumElements(); ++i)
      elements.push_back(i < had ? map(c->getAggregateElement(i))
                                 : llvm::Constant::getNullValue(a->getElementType()));
    return llvm::ConstantArray::get(a, elements);
  }

 private:
  const Changes& changes_;
  Remapper& types_;
  const llvm::DataLayout& layout_;
  llvm::DenseMap<llvm::GlobalValue*, llvm::GlobalValue*> replaced_;
};

// The member indices of an extractvalue/insertvalue on a changed aggregate, in the new type; false
// when the path goes through a dropped (zero-size) member.
bool newIndices(llvm::Type* old, llvm::ArrayRef<unsigned> indices, Remapper& types,
                std::vector<unsigned>& out) {
  out.clear();
  for (unsigned index : indices) {
    if (auto* s = dyn_cast<llvm::StructType>(old)) {
      llvm::Type* now = types.remapType(s);
      unsigned mapped = index;
      if (now != s) {
        const std::vector<int>& fields = types.fields(s);
        auto it = std::find(fields.begin(), fields.end(), static_cast<int>(index));
        if (it == fields.end()) return false;
        mapped = static_cast<unsigned>(it - fields.begin());
      }
      out.push_back(mapped);
      old = s->getElementType(index);
    } else {
      out.push_back(index);
      old = cast<llvm::ArrayType>(old)->getElementType();
    }
  }
  return true;
}

llvm::ArrayRef<unsigned> aggregateIndices(llvm::Instruction& i) {
  if (auto* e = dyn_cast<llvm::ExtractValueInst>(&i)) return e->getIndices();
  return cast<llvm::InsertValueInst>(&i)->getIndices();
}

// Everything the lowering cannot carry, found before anything changes.
std::string unsupportedForm(llvm::Module& module, const Changes& changes, Remapper& types,
                            const Constants& constants) {
  for (llvm::GlobalVariable& g : module.globals())
    if (g.hasInitializer() && !constants.mappable(g.getInitializer()))
      return "the initializer of '" + g.getName().str() + "'";
  std::vector<unsigned> indices;
  for (llvm::Function& f : module) {
    f.removeDeadConstantUsers();
    if (changes(f.getType()))
      for (const llvm::Use& u : f.uses()) {
        auto* call = dyn_cast<llvm::CallBase>(u.getUser());
        if (call == nullptr || !call->isCallee(&u))
          return "the address of function '" + f.getName().str() + "' taken";
      }
    for (llvm::Instruction& i : llvm::instructions(f)) {
      if (isa<llvm::ExtractValueInst, llvm::InsertValueInst>(i) &&
          changes(i.getOperand(0)->getType()) &&
          !newIndices(i.getOperand(0)->getType(), aggregateIndices(i), types, indices))
        return "a zero-length member of a struct value taken apart";
      if (auto* gep = dyn_cast<llvm::GetElementPtrInst>(&i))
        if (gep->getType()->isVectorTy() && changes(gep->getSourceElementType()))
          return "a vector of addresses into a zero-length array";
      // Globals are replaced and constant expressions become instructions; other constants map.
      for (const llvm::Use& u : i.operands())
        if (auto* c = dyn_cast<llvm::Constant>(u.get());
            c && !isa<llvm::GlobalValue, llvm::ConstantExpr>(c) && !constants.mappable(c))
          return "a constant operand in '" + f.getName().str() + "'";
    }
  }
  return types.failure();
}

// Constant expressions that mention a changing type become instructions (before `at`, or at the end
// of the incoming block for a phi), so that their types change with the others.
void expandConstants(llvm::Instruction* at, const Changes& changes) {
  for (llvm::Use& u : at->operands()) {
    auto* ce = dyn_cast<llvm::ConstantExpr>(u.get());
    if (ce == nullptr || !changes(static_cast<const llvm::Constant*>(ce))) continue;
    llvm::Instruction* before = at;
    if (auto* phi = dyn_cast<llvm::PHINode>(at)) before = phi->getIncomingBlock(u)->getTerminator();
    llvm::Instruction* expanded = ce->getAsInstruction(before);
    u.set(expanded);
    expandConstants(expanded, changes);
  }
}

// An address computed through a changing type, as the byte offset the old layout gives.
void toByteOffset(llvm::GetElementPtrInst* gep, const llvm::DataLayout& layout) {
  llvm::IRBuilder<> b(gep);
  llvm::Value* offset = llvm::EmitGEPOffset(&b, layout, gep, /*NoAssumptions=*/true);
  unsigned space = gep->getPointerAddressSpace();
  llvm::Value* base = b.CreateBitCast(gep->getPointerOperand(), b.getInt8PtrTy(space));
  llvm::Value* bytes = gep->isInBounds() ? b.CreateInBoundsGEP(b.getInt8Ty(), base, offset)
                                         : b.CreateGEP(b.getInt8Ty(), base, offset);
  llvm::Value* result = b.CreateBitCast(bytes, gep->getType());
  result->takeName(gep);
  gep->replaceAllUsesWith(result);
  gep->eraseFromParent();
}

llvm::AttributeList remapAttributeTypes(llvm::LLVMContext& context, llvm::AttributeList list,
                                        Remapper& types) {
  for (unsigned i = 0; i < list.getNumAttrSets(); ++i)
    for (int kind = llvm::Attribute::FirstTypeAttr; kind <= llvm::Attribute::LastTypeAttr; ++kind) {
      auto k = static_cast<llvm::Attribute::AttrKind>(kind);
      if (llvm::Type* t = list.getAttributeAtIndex(i, k).getValueAsType())
        list = list.replaceAttributeTypeAtIndex(context, i, k, types.remapType(t));
    }
  return list;
}

llvm::GlobalVariable* newVariable(llvm::GlobalVariable& old, Remapper& types) {
  auto* now = new llvm::GlobalVariable(*old.getParent(), types.remapType(old.getValueType()),
                                       old.isConstant(), old.getLinkage(), nullptr, "", &old,
                                       old.getThreadLocalMode(), old.getAddressSpace(),
                                       old.isExternallyInitialized());
  now->copyAttributesFrom(&old);
  now->takeName(&old);
  return now;
}

// `old`'s remaining users are instructions (expandConstants) and dead constants.
void retireVariable(llvm::GlobalVariable& old, llvm::GlobalVariable& now) {
  old.removeDeadConstantUsers();
  old.mutateType(now.getType());
  old.replaceAllUsesWith(&now);
  old.eraseFromParent();
}

void replaceFunction(llvm::Function& old, Remapper& types) {
  auto* type = cast<llvm::FunctionType>(types.remapType(old.getFunctionType()));
  llvm::Function* now =
      llvm::Function::Create(type, old.getLinkage(), old.getAddressSpace(), "", nullptr);
  old.getParent()->getFunctionList().insert(old.getIterator(), now);
  now->copyAttributesFrom(&old);
  now->setAttributes(remapAttributeTypes(old.getContext(), old.getAttributes(), types));
  now->copyMetadata(&old, 0);
  now->takeName(&old);
  now->getBasicBlockList().splice(now->end(), old.getBasicBlockList());
  for (auto [from, to] : llvm::zip(old.args(), now->args())) {
    from.mutateType(to.getType());
    from.replaceAllUsesWith(&to);
    to.takeName(&from);
  }
  while (!old.use_empty()) cast<llvm::CallBase>(old.use_begin()->getUser())->setCalledFunction(now);
  old.eraseFromParent();
}

bool mentionsChange(llvm::Module& module, const Changes& changes) {
  for (llvm::GlobalVariable& g : module.globals())
    if (changes(g.getType())) return true;
  for (llvm::Function& f : module) {
    if (changes(f.getType())) return true;
    for (llvm::Instruction& i : llvm::instructions(f)) {
      if (changes(i.getType())) return true;
      if (auto* a = dyn_cast<llvm::AllocaInst>(&i); a && changes(a->getAllocatedType())) return true;
      if (auto* g = dyn_cast<llvm::GetElementPtrInst>(&i); g && changes(g->getSourceElementType()))
        return true;
      for (const llvm::Use& u : i.operands())
        if (auto* c = dyn_cast<llvm::Constant>(u.get()); c && changes(c)) return true;
    }
  }
  return false;
}

}  // namespace

bool lowerZeroLengthArrays(llvm::Module& module, std::string& reason) {
  Changes changes(module);
  if (!mentionsChange(module, changes)) return true;
  const llvm::DataLayout& layout = module.getDataLayout();
  Remapper types(changes, layout, module.getContext());
  // Every new type is made before anything changes, so a layout that cannot be kept is found here.
  for (llvm::StructType* s : module.getIdentifiedStructTypes())
    if (changes(s)) types.remapType(s);
  Constants constants(changes, types, layout);
  reason = unsupportedForm(module, changes, types, constants);
  if (!reason.empty()) return false;

  for (llvm::Function& f : module)
    for (llvm::Instruction& i : llvm::instructions(f)) expandConstants(&i, changes);
  for (llvm::Function& f : module) {
    std::vector<llvm::GetElementPtrInst*> geps;
    for (llvm::Instruction& i : llvm::instructions(f))
      if (auto* gep = dyn_cast<llvm::GetElementPtrInst>(&i))
        if (changes(gep->getSourceElementType())) geps.push_back(gep);
    for (llvm::GetElementPtrInst* gep : geps) toByteOffset(gep, layout);
  }

  std::vector<std::pair<llvm::GlobalVariable*, llvm::GlobalVariable*>> variables;
  for (llvm::GlobalVariable& g : module.globals())
    if (changes(g.getType())) variables.emplace_back(&g, nullptr);
  for (auto& [old, now] : variables) {
    now = newVariable(*old, types);
    constants.replace(old, now);
  }
  for (auto& [old, now] : variables)
    if (old->hasInitializer()) now->setInitializer(constants.map(old->getInitializer()));
  for (llvm::GlobalVariable& g : module.globals())
    if (g.hasInitializer() && !changes(g.getType()) && changes(g.getInitializer()))
      g.setInitializer(constants.map(g.getInitializer()));
  for (auto& [old, now] : variables) old->setInitializer(nullptr);
  for (auto& [old, now] : variables) retireVariable(*old, *now);

  std::vector<llvm::Function*> functions;
  for (llvm::Function& f : module)
    if (changes(f.getType())) functions.push_back(&f);
  for (llvm::Function* f : functions) replaceFunction(*f, types);

  // Member indices into changed struct values, from the old types, applied after the types change.
  std::vector<std::pair<llvm::Instruction*, std::vector<unsigned>>> reindexed;
  llvm::ValueToValueMapTy identity;
  for (llvm::Function& f : module)
    for (llvm::Instruction& i : llvm::instructions(f)) {
      if (isa<llvm::ExtractValueInst, llvm::InsertValueInst>(i) &&
          changes(i.getOperand(0)->getType())) {
        reindexed.emplace_back(&i, std::vector<unsigned>());
        newIndices(i.getOperand(0)->getType(), aggregateIndices(i), types, reindexed.back().second);
      }
      for (llvm::Use& u : i.operands())
        if (auto* c = dyn_cast<llvm::Constant>(u.get()); c && !isa<llvm::GlobalValue>(c))
          u.set(constants.map(c));
      llvm::RemapInstruction(&i, identity,
                             llvm::RF_IgnoreMissingLocals | llvm::RF_ReuseAndMutateDistinctMDs,
                             &types);
    }
  for (auto& [i, indices] : reindexed) {
    llvm::Instruction* now = nullptr;
    if (auto* e = dyn_cast<llvm::ExtractValueInst>(i))
      now = llvm::ExtractValueInst::Create(e->getAggregateOperand(), indices, "", i);
    else
      now = llvm::InsertValueInst::Create(i->getOperand(0), i->getOperand(1), indices, "", i);
    now->takeName(i);
    i->replaceAllUsesWith(now);
    i->eraseFromParent();
  }

  std::string problems;
  llvm::raw_string_ostream out(problems);
  if (llvm::verifyModule(module, &out)) {
    reason = "the lowered module does not verify: " + out.str();
    return false;
  }
  // The new structs take the old names (the old types are no longer used).
  for (llvm::StructType* s : types.renamed()) {
    auto* now = cast<llvm::StructType>(types.remapType(s));
    std::string name = s->getName().str();
    s->setName("");
    now->setName(name);
  }
  return true;
}

}  // namespace tessera::spirv
