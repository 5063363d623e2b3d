// Images of any format from kernel code, and the IR the image files share (image_lowering.h): the
// ImageView's fields, the switch on a value such as the format, and the generic side of reads and
// writes, calls of image_runtime.h for texels of formats not decoded inline (image_texels.cpp).
#include <llvm/IR/Constants.h>

#include <cstddef>

#include "backends/cpu/runtime/image_abi.h"
#include "backends/cpu/jit/image_lowering.h"
#include "backends/cpu/runtime/image_runtime.h"
#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit::builtins::image {
namespace {

llvm::FunctionCallee runtime(Builder& b, const char* name, llvm::FunctionType* type,
                             bool readOnly) {
  llvm::Module* m = b.GetInsertBlock()->getModule();
  llvm::FunctionCallee callee = m->getOrInsertFunction(name, type);
  if (auto* f = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
    f->setDoesNotThrow();
    f->addFnAttr(llvm::Attribute::WillReturn);
    if (readOnly) f->setOnlyReadsMemory();
  }
  return callee;
}

llvm::Value* viewPointer(Builder& b, const View& v) {
  return b.CreateAddrSpaceCast(v.view, b.getPtrTy());
}

Components readRuntime(Builder& b, const View& v, const Tap& t, Kind kind) {
  llvm::Type* i32 = b.getInt32Ty();
  auto* type = llvm::FunctionType::get(llvm::FixedVectorType::get(i32, 4),
                                       {b.getPtrTy(), i32, i32, i32}, false);
  llvm::Value* bits = b.CreateCall(runtime(b, kImageLoadSymbol, type, true),
                                   {viewPointer(b, v), t.index[0], t.index[1], t.index[2]});
  Components c;
  for (unsigned k = 0; k < 4; ++k) {
    c[k] = b.CreateExtractElement(bits, uint64_t{k});
    if (kind == Kind::Float) c[k] = b.CreateBitCast(c[k], b.getFloatTy());
  }
  return c;
}

constexpr const char* kGenericReadPrefix = "__tessera_image_read.";

// The read of any format: a function of the module per shape, kind, filter and coordinate type,
// which computes the footprint from its parameters (view, sampler, coordinates) and reads each
// texel through the runtime. A read calls it once (once per lane when widened) rather than the
// runtime once per texel in the kernel: the kernel's code stays small (a bilinear read's widened
// copy at 16 lanes took 64 runtime calls and their operands inline).
llvm::Function* genericRead(llvm::Module& m, const Read& r) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Type* coordType = r.coord->getType()->getScalarType();
  const unsigned n = lanes(r.coord->getType());
  std::string name = kGenericReadPrefix + std::to_string(r.shape.dim) +
                     (r.shape.arrayed ? "a." : ".") + (r.kind == Kind::Float ? "f." : "i.") +
                     (r.sampler == nullptr ? "exact."
                      : r.linear           ? "linear."
                                           : "nearest.") +
                     (coordType->isIntegerTy() ? "i" : "f") + std::to_string(n);
  // An inline sampler's modes fold in a function of their own.
  auto* constant = llvm::dyn_cast_or_null<llvm::ConstantInt>(r.sampler);
  if (constant) name += ".s" + std::to_string(constant->getZExtValue());
  if (llvm::Function* f = m.getFunction(name)) return f;
  llvm::Type* i32 = llvm::Type::getInt32Ty(ctx);
  llvm::SmallVector<llvm::Type*, 6> params{llvm::PointerType::get(ctx, 0), i32};
  params.append(n, coordType);
  llvm::Type* element = r.kind == Kind::Float ? llvm::Type::getFloatTy(ctx) : i32;
  auto* type = llvm::FunctionType::get(llvm::FixedVectorType::get(element, 4), params, false);
  auto* f = llvm::Function::Create(type, llvm::GlobalValue::InternalLinkage, name, m);
  f->addFnAttr(llvm::Attribute::NoInline);
  f->addFnAttr(llvm::Attribute::WillReturn);
  f->setDoesNotThrow();
  f->setOnlyReadsMemory();
  Builder b(llvm::BasicBlock::Create(ctx, "entry", f));
  Read inner = r;
  inner.sampler = r.sampler == nullptr || constant ? r.sampler : f->getArg(1);
  inner.coord = f->getArg(2);
  if (n > 1) {
    inner.coord = llvm::PoisonValue::get(r.coord->getType());
    for (unsigned k = 0; k < n; ++k)
      inner.coord = b.CreateInsertElement(inner.coord, f->getArg(2 + k), k);
  }
  View v = loadView(b, f->getArg(0));
  Footprint footprint = footprintOf(b, v, inner);
  std::vector<Components> texels;
  for (const Tap& t : footprint.taps) texels.push_back(readRuntime(b, v, t, r.kind));
  Components c = filter(b, footprint, texels, r.kind);
  llvm::Value* result = llvm::PoisonValue::get(type->getReturnType());
  for (unsigned k = 0; k < 4; ++k) result = b.CreateInsertElement(result, c[k], k);
  b.CreateRet(result);
  return f;
}

}  // namespace

Values callGenericRead(Builder& b, const View& v, const Read& r) {
  llvm::Function* fn = genericRead(*b.GetInsertBlock()->getModule(), r);
  llvm::SmallVector<llvm::Value*, 6> args{viewPointer(b, v), r.sampler ? r.sampler : b.getInt32(0)};
  for (unsigned k = 0; k < lanes(r.coord->getType()); ++k)
    args.push_back(r.coord->getType()->isVectorTy() ? b.CreateExtractElement(r.coord, uint64_t{k})
                                                    : r.coord);
  llvm::Value* texel = b.CreateCall(fn, args);
  Values c;
  for (unsigned k = 0; k < 4; ++k) c.push_back(b.CreateExtractElement(texel, uint64_t{k}));
  return c;
}

llvm::Value* loadField(Builder& b, llvm::Value* view, uint64_t offset, llvm::Type* type) {
  llvm::LoadInst* l = b.CreateLoad(type, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), view, offset));
  l->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(b.getContext(), {}));
  return l;
}

View loadView(Builder& b, llvm::Value* image) {
  View v;
  v.view = image;
  v.data = loadField(b, image, offsetof(ImageView, data), b.getPtrTy());
  for (unsigned k = 0; k < 3; ++k) {
    // At least 1 and at most INT32_MAX texels (core gives 1..2^27).
    llvm::Value* e = loadField(b, image, offsetof(ImageView, extent) + 8 * k, b.getInt64Ty());
    e = b.CreateBinaryIntrinsic(llvm::Intrinsic::umax, e, b.getInt64(1));
    e = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, e, b.getInt64(INT32_MAX));
    v.extent[k] = b.CreateTrunc(e, b.getInt32Ty());
  }
  v.pitch[0] = b.CreateZExt(loadField(b, image, offsetof(ImageView, pixelBytes), b.getInt32Ty()),
                            b.getInt64Ty());
  v.pitch[1] = loadField(b, image, offsetof(ImageView, rowPitch), b.getInt64Ty());
  v.pitch[2] = loadField(b, image, offsetof(ImageView, slicePitch), b.getInt64Ty());
  llvm::Value* layout = loadField(b, image, offsetof(ImageView, layout), b.getInt32Ty());
  llvm::Value* type = loadField(b, image, offsetof(ImageView, type), b.getInt32Ty());
  v.formatKey = b.CreateAdd(b.CreateMul(layout, b.getInt32(8)), type);
  for (unsigned c = 0; c < 4; ++c)
    v.swizzle[c] = b.CreateZExt(
        loadField(b, image, offsetof(ImageView, swizzle) + c, b.getInt8Ty()), b.getInt32Ty());
  return v;
}

Values switchOn(Builder& b, llvm::Value* key,
                const std::vector<std::pair<uint32_t, CaseBody>>& cases, const CaseBody& other) {
  llvm::Instruction* at = &*b.GetInsertPoint();
  llvm::BasicBlock* head = at->getParent();
  llvm::Function* fn = head->getParent();
  llvm::BasicBlock* join = head->splitBasicBlock(at, "image.join");
  head->getTerminator()->eraseFromParent();
  b.SetInsertPoint(head);
  llvm::LLVMContext& ctx = b.getContext();
  auto* otherBlock = llvm::BasicBlock::Create(ctx, "image.other", fn, join);
  llvm::SwitchInst* sw = b.CreateSwitch(key, otherBlock, static_cast<unsigned>(cases.size()));
  std::vector<std::pair<Values, llvm::BasicBlock*>> results;
  auto emit = [&](llvm::BasicBlock* bb, const CaseBody& body) {
    b.SetInsertPoint(bb);
    llvm::BranchInst* br = b.CreateBr(join);
    b.SetInsertPoint(br);
    Values c = body(b);  // may split the block: the branch ends the last one
    results.emplace_back(c, br->getParent());
  };
  for (const auto& [value, body] : cases) {
    auto* bb = llvm::BasicBlock::Create(ctx, "image.case", fn, otherBlock);
    sw->addCase(b.getInt32(value), bb);
    emit(bb, body);
  }
  emit(otherBlock, other);
  b.SetInsertPoint(at);
  Values out;
  for (size_t k = 0; k < results.front().first.size(); ++k) {
    llvm::PHINode* phi =
        b.CreatePHI(results.front().first[k]->getType(), static_cast<unsigned>(results.size()));
    for (const auto& [c, bb] : results) phi->addIncoming(c[k], bb);
    out.push_back(phi);
  }
  return out;
}

void writeRuntime(Builder& b, const View& v, const Tap& t, const Components& c) {
  llvm::Type* i32 = b.getInt32Ty();
  auto* type = llvm::FunctionType::get(b.getVoidTy(),
                                       {b.getPtrTy(), i32, i32, i32, i32, i32, i32, i32}, false);
  // An index outside is -1, which the runtime refuses (the tap's own index is 0 there).
  llvm::Value* x = select(b, t.inside, t.index[0], b.getInt32(~0u));
  llvm::SmallVector<llvm::Value*, 8> args{viewPointer(b, v), x, t.index[1], t.index[2]};
  for (llvm::Value* k : c) args.push_back(b.CreateBitCast(k, i32));
  b.CreateCall(runtime(b, kImageStoreSymbol, type, false), args);
}

}  // namespace tessera::backends::cpu::jit::builtins::image

namespace tessera::backends::cpu::jit {

bool accessesImages(const llvm::Function& f) {
  llvm::StringRef name = f.getName();
  return name == kImageLoadSymbol || name == kImageStoreSymbol ||
         name.startswith(builtins::image::kGenericReadPrefix);
}

}  // namespace tessera::backends::cpu::jit
