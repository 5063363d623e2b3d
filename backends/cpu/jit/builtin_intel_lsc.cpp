// Intel's LSC builtins (__builtin_IB_lsc_*): loads, stores, prefetches, fences and atomics with a
// cache-control hint, which Intel's GPU compiler provides and kernels written for Intel's driver
// declare and call by name (compute-benchmarks' ulls kernels: write_one_uncached). Their meaning
// is the plain operation at base[immElemOff]; the hint only steers a GPU's caches, so here each is
// that operation and the hint is dropped. They come as imported functions: the JIT provides them
// (jit::providesVendorBuiltin), so a module calling them needs no zeModuleDynamicLink.
//
// The names are regular: __builtin_IB_lsc_<op>_<space>_<type>, where <type> names the memory
// element (uchar, ushort, uint, uintN, ulong, ulongN, int, long, short, float, double), and
// "_to_uint" / "_from_uint" (or "_from_int") mark 8- and 16-bit memory carried as 32-bit values.
// Arguments: (base, immElemOff[, comparand][, value][, cache hint]), immElemOff in elements.
// Not provided (a module calling them still needs linking): block, cmask and status loads, whose
// meaning depends on a GPU's sub-group layout. A kernel declares these itself, so a call whose
// operands or result do not have the builtin's types is refused with the builtin's name
// (intelLscRefusal) rather than lowered.
#include <llvm/IR/Constants.h>

#include "backends/cpu/jit/builtin_lowering.h"

namespace tessera::backends::cpu::jit::builtins {
namespace {

constexpr const char* kPrefix = "__builtin_IB_lsc_";

// A memory element named in a builtin's name.
struct Element {
  const char* name;  // "uint4"
  char kind;         // 'u' unsigned, 's' signed, 'f' float
  unsigned bits;
  unsigned lanes;
};

constexpr Element kVectors[] = {
    {"uint", 'u', 32, 1},   {"uint2", 'u', 32, 2}, {"uint3", 'u', 32, 3},  {"uint4", 'u', 32, 4},
    {"uint8", 'u', 32, 8},  {"ulong", 'u', 64, 1}, {"ulong2", 'u', 64, 2}, {"ulong3", 'u', 64, 3},
    {"ulong4", 'u', 64, 4}, {"ulong8", 'u', 64, 8}};

llvm::Type* memoryType(llvm::LLVMContext& c, const Element& e) {
  llvm::Type* scalar = e.kind != 'f'  ? llvm::Type::getIntNTy(c, e.bits)
                       : e.bits == 32 ? llvm::Type::getFloatTy(c)
                                      : llvm::Type::getDoubleTy(c);
  return withLanes(scalar, e.lanes);
}

// The type the call carries a value of memory element `e` in: 8- and 16-bit integers in 32 bits.
llvm::Type* carrierType(llvm::LLVMContext& c, const Element& e) {
  return e.kind != 'f' && e.bits < 32 ? llvm::Type::getInt32Ty(c) : memoryType(c, e);
}

// What a call must look like: (base pointer, integer immElemOff, `values` values of the carrier
// type, an integer cache hint when `hint`) returning the carrier type or void; fences take any
// operands and return void.
struct Shape {
  Element memory;
  unsigned values;
  bool hint;
  bool returns;
  bool fence = false;
};

struct Entry {
  Shape shape;
  Lowering lower;
};
using Registry = llvm::StringMap<Entry>;

void add(Registry& r, const std::string& name, Shape shape, Lowering lower) {
  r[name] = Entry{shape, std::move(lower)};
}

// &base[immElemOff] as a pointer to the element (a pointer cast only where pointers are typed).
llvm::Value* address(Builder& b, const Args& a, llvm::Type* element) {
  auto* base = llvm::cast<llvm::PointerType>(a[0]->getType());
  llvm::Value* p = b.CreatePointerCast(a[0], element->getPointerTo(base->getAddressSpace()));
  return b.CreateGEP(element, p, b.CreateSExtOrTrunc(a[1], b.getInt64Ty()));
}

llvm::Align elementAlign(const Element& e) {
  return llvm::Align(e.bits / 8);
}

// A value of memory type `to` from the call's 32-bit carrier (or as it is).
llvm::Value* toMemory(Builder& b, llvm::Value* v, llvm::Type* to) {
  return v->getType() == to ? v : b.CreateTrunc(v, to);
}
// And back: a value of memory element `e` in the call's type (extended by the element's sign).
llvm::Value* toCarrier(Builder& b, llvm::Value* v, llvm::Type* to, const Element& e) {
  if (v->getType() == to) return v;
  return e.kind == 's' ? b.CreateSExt(v, to) : b.CreateZExt(v, to);
}

// Loads and stores of `space` (with a cache hint argument when `hint`), and for global memory the
// prefetches.
void addMemoryOps(Registry& t, const std::string& space, bool hint) {
  std::vector<std::pair<Element, std::string>> types;  // element, name suffix
  for (const Element& e : kVectors) types.push_back({e, e.name});
  std::vector<std::pair<Element, std::string>> loads = types, stores = types;
  loads.push_back({{"uchar", 'u', 8, 1}, "uchar_to_uint"});
  loads.push_back({{"ushort", 'u', 16, 1}, "ushort_to_uint"});
  stores.push_back({{"uchar", 'u', 8, 1}, "uchar_from_uint"});
  stores.push_back({{"ushort", 'u', 16, 1}, "ushort_from_uint"});
  for (const auto& [e, suffix] : loads) {
    add(t, kPrefix + ("load_" + space + "_" + suffix), {e, 0, hint, true},
        [e = e](Builder& b, llvm::CallInst* c, const Args& a) -> llvm::Value* {
          llvm::Type* m = memoryType(c->getContext(), e);
          llvm::LoadInst* l = b.CreateAlignedLoad(m, address(b, a, m), elementAlign(e));
          return toCarrier(b, l, c->getType(), e);
        });
  }
  for (const auto& [e, suffix] : stores) {
    add(t, kPrefix + ("store_" + space + "_" + suffix), {e, 1, hint, false},
        [e = e](Builder& b, llvm::CallInst* c, const Args& a) -> llvm::Value* {
          llvm::Type* m = memoryType(c->getContext(), e);
          b.CreateAlignedStore(toMemory(b, a[2], m), address(b, a, m), elementAlign(e));
          return nullptr;
        });
  }
  if (!hint) return;  // prefetches exist for global memory only
  types.push_back({{"uchar", 'u', 8, 1}, "uchar"});
  types.push_back({{"ushort", 'u', 16, 1}, "ushort"});
  for (const auto& [e, suffix] : types)
    add(t, kPrefix + ("prefetch_" + space + "_" + suffix), {e, 0, true, false},
        [](Builder&, llvm::CallInst*, const Args&) -> llvm::Value* {
          return nullptr;  // a hint: nothing to do that the hardware prefetchers do not
        });
}

llvm::Value* atomicRmw(Builder& b, llvm::AtomicRMWInst::BinOp op, llvm::Value* ptr, llvm::Value* v,
                       const Element& e) {
  return b.CreateAtomicRMW(op, ptr, v, elementAlign(e),
                           llvm::AtomicOrdering::SequentiallyConsistent);
}

// The operands an atomic takes after (base, immElemOff), before the cache hint.
enum class Operands {
  Value,            // (value): a read-modify-write `op`; store is an exchange
  None,             // (): inc and dec, `op` by one
  Load,             // (): an atomic load
  CompareAndValue,  // (comparand, value): cmpxchg
};

// One atomic, returning the memory's old value in the call's type.
void addAtomic(Registry& t, const std::string& name, const Element& e,
               llvm::AtomicRMWInst::BinOp op, Operands operands, bool hint) {
  unsigned values = operands == Operands::Value ? 1 : operands == Operands::CompareAndValue ? 2 : 0;
  add(t, name, {e, values, hint, true},
      [e, op, operands](Builder& b, llvm::CallInst* c, const Args& a) -> llvm::Value* {
        llvm::Type* m = memoryType(c->getContext(), e);
        llvm::Value* p = address(b, a, m);
        llvm::Value* old = nullptr;
        switch (operands) {
          case Operands::Load: {
            llvm::LoadInst* l = b.CreateAlignedLoad(m, p, elementAlign(e));
            l->setAtomic(llvm::AtomicOrdering::SequentiallyConsistent);
            old = l;
            break;
          }
          case Operands::CompareAndValue: {
            // cmpxchg takes integers: a float's bits are compared (as the GPU's compare-exchange
            // does).
            llvm::Type* bits = b.getIntNTy(e.bits);
            llvm::Value* at =
                b.CreatePointerCast(p, bits->getPointerTo(p->getType()->getPointerAddressSpace()));
            llvm::Value* pair =
                b.CreateAtomicCmpXchg(at, b.CreateBitCast(toMemory(b, a[2], m), bits),
                                      b.CreateBitCast(toMemory(b, a[3], m), bits), elementAlign(e),
                                      llvm::AtomicOrdering::SequentiallyConsistent,
                                      llvm::AtomicOrdering::SequentiallyConsistent);
            old = b.CreateBitCast(b.CreateExtractValue(pair, 0), m);
            break;
          }
          case Operands::None:
            old = atomicRmw(b, op, p, llvm::ConstantInt::get(m, 1), e);
            break;
          case Operands::Value:
            old = atomicRmw(b, op, p, toMemory(b, a[2], m), e);
            break;
        }
        return toCarrier(b, old, c->getType(), e);
      });
}

void addAtomics(Registry& t, const std::string& space) {
  using Op = llvm::AtomicRMWInst::BinOp;
  // Integer atomics on 16-, 32- and 64-bit memory; min and max are signed on the signed names.
  struct Integer {
    Element unsignedElement, signedElement;
    std::string unsignedSuffix, signedSuffix;
  };
  const Integer integers[] = {
      {{"ushort", 'u', 16, 1}, {"short", 's', 16, 1}, "ushort_from_uint", "short_from_int"},
      {{"uint", 'u', 32, 1}, {"int", 's', 32, 1}, "uint", "int"},
      {{"ulong", 'u', 64, 1}, {"long", 's', 64, 1}, "ulong", "long"}};
  auto name = [&](const char* op, const std::string& suffix) {
    return kPrefix + ("atomic_" + std::string(op) + "_" + space + "_" + suffix);
  };
  const bool hint = space == "global";
  for (const Integer& i : integers) {
    const Element& u = i.unsignedElement;
    addAtomic(t, name("inc", i.unsignedSuffix), u, Op::Add, Operands::None, hint);
    addAtomic(t, name("dec", i.unsignedSuffix), u, Op::Sub, Operands::None, hint);
    addAtomic(t, name("add", i.unsignedSuffix), u, Op::Add, Operands::Value, hint);
    addAtomic(t, name("sub", i.unsignedSuffix), u, Op::Sub, Operands::Value, hint);
    addAtomic(t, name("and", i.unsignedSuffix), u, Op::And, Operands::Value, hint);
    addAtomic(t, name("or", i.unsignedSuffix), u, Op::Or, Operands::Value, hint);
    addAtomic(t, name("xor", i.unsignedSuffix), u, Op::Xor, Operands::Value, hint);
    addAtomic(t, name("min", i.unsignedSuffix), u, Op::UMin, Operands::Value, hint);
    addAtomic(t, name("max", i.unsignedSuffix), u, Op::UMax, Operands::Value, hint);
    addAtomic(t, name("min", i.signedSuffix), i.signedElement, Op::Min, Operands::Value, hint);
    addAtomic(t, name("max", i.signedSuffix), i.signedElement, Op::Max, Operands::Value, hint);
    addAtomic(t, name("load", i.unsignedSuffix), u, Op::BAD_BINOP, Operands::Load, hint);
    addAtomic(t, name("store", i.unsignedSuffix), u, Op::Xchg, Operands::Value, hint);
    addAtomic(t, name("cmpxchg", i.unsignedSuffix), u, Op::BAD_BINOP, Operands::CompareAndValue,
              hint);
  }
  const Element f32{"float", 'f', 32, 1}, f64{"double", 'f', 64, 1};
  addAtomic(t, name("min", "float"), f32, Op::FMin, Operands::Value, hint);
  addAtomic(t, name("max", "float"), f32, Op::FMax, Operands::Value, hint);
  addAtomic(t, name("cmpxchg", "float"), f32, Op::BAD_BINOP, Operands::CompareAndValue, hint);
  if (space == "global") {  // float add and sub, double add and sub: global memory only
    addAtomic(t, name("add", "float"), f32, Op::FAdd, Operands::Value, hint);
    addAtomic(t, name("sub", "float"), f32, Op::FSub, Operands::Value, hint);
    addAtomic(t, name("add", "double"), f64, Op::FAdd, Operands::Value, hint);
    addAtomic(t, name("sub", "double"), f64, Op::FSub, Operands::Value, hint);
  }
}

const Registry& registry() {
  static const Registry r = [] {
    Registry m;
    addMemoryOps(m, "global", true);
    addMemoryOps(m, "local", false);
    addAtomics(m, "global");
    addAtomics(m, "local");
    // Fences of every scope and kind: a work-group runs on one thread, so a fence orders against
    // other work-groups and the host (as __spirv_MemoryBarrier does).
    for (const char* fence : {"fence_global_untyped", "fence_global_untyped_cross_tile",
                              "fence_global_typed", "fence_local", "fence_evict_to_memory"})
      add(m, kPrefix + std::string(fence), {{"", 'u', 32, 1}, 0, false, false, true},
          [](Builder& b, llvm::CallInst*, const Args&) -> llvm::Value* {
            b.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent);
            return nullptr;
          });
    return m;
  }();
  return r;
}

}  // namespace

void addIntelLscBuiltins(Table& t) {
  for (const auto& entry : registry()) t[entry.getKey()] = entry.getValue().lower;
}

bool isIntelLscName(llvm::StringRef name) {
  return name.startswith(kPrefix);
}

std::string intelLscRefusal(llvm::StringRef base, llvm::CallInst* call) {
  auto it = registry().find(base);
  if (it == registry().end()) return "";
  const Shape& shape = it->getValue().shape;
  llvm::Type* carrier = carrierType(call->getContext(), shape.memory);
  bool right =
      call->getType() == (shape.returns ? carrier : llvm::Type::getVoidTy(call->getContext()));
  if (right && !shape.fence) {
    unsigned count = 2 + shape.values + (shape.hint ? 1 : 0);
    right = call->arg_size() == count && call->getArgOperand(0)->getType()->isPointerTy() &&
            call->getArgOperand(1)->getType()->isIntegerTy();
    for (unsigned i = 2; right && i < count; ++i)
      right = i < 2 + shape.values ? call->getArgOperand(i)->getType() == carrier
                                   : call->getArgOperand(i)->getType()->isIntegerTy();
  }
  return right ? "" : base.str() + " is called with other types than Intel's builtin has";
}

}  // namespace tessera::backends::cpu::jit::builtins
