// Texels to values and back (image_lowering.h). The image's format is known only when the kernel
// runs, the same for every work-item: a switch on its layout and type picks code made for the
// common formats (one load per texel, the conversion inline, so that widened work-items gather
// texels and convert them as vectors); any other format goes through image_runtime.h, one call per
// texel. Conversions as OpenCL C 1.2 section 8.3 ("Conversion Rules") gives them, bit for bit the
// same as the runtime's.
#include <llvm/IR/Constants.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <cstddef>
#include <span>

#include "backends/cpu/jit/image_abi.h"
#include "backends/cpu/jit/image_lowering.h"
#include "backends/cpu/jit/image_runtime.h"

namespace tessera::backends::cpu::jit::builtins::image {
namespace {

namespace fmt = image_format;

// A format decoded inline: `count` components of `bits` bits each, in memory in order.
struct FastFormat {
  uint32_t layout, type, bits, count;
};
// RGBA/BGRA 8-bit (pictures), R8 (and luminance, intensity, alpha), float and half RGBA, R float.
constexpr FastFormat kFloatFormats[] = {{fmt::kLayout8_8_8_8, fmt::kUnorm, 8, 4},
                                        {fmt::kLayout8, fmt::kUnorm, 8, 1},
                                        {fmt::kLayout32_32_32_32, fmt::kFloat, 32, 4},
                                        {fmt::kLayout32, fmt::kFloat, 32, 1},
                                        {fmt::kLayout16_16_16_16, fmt::kFloat, 16, 4}};
constexpr FastFormat kIntFormats[] = {{fmt::kLayout8_8_8_8, fmt::kUint, 8, 4},
                                      {fmt::kLayout8_8_8_8, fmt::kSint, 8, 4},
                                      {fmt::kLayout32_32_32_32, fmt::kUint, 32, 4},
                                      {fmt::kLayout32_32_32_32, fmt::kSint, 32, 4}};

std::span<const FastFormat> fastFormats(Kind kind) {
  if (kind == Kind::Float) return kFloatFormats;
  return kIntFormats;
}

llvm::Type* elementOf(Builder& b, Kind kind) {
  return kind == Kind::Float ? b.getFloatTy() : b.getInt32Ty();
}

llvm::Value* texelAddress(Builder& b, const View& v, const Tap& t, llvm::Value* pixelBytes) {
  llvm::Value* offset = nullptr;
  for (unsigned k = 0; k < 3; ++k) {
    if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(t.index[k]); c && c->isZero()) continue;
    llvm::Value* step = k == 0 ? pixelBytes : v.pitch[k];
    llvm::Value* term = b.CreateMul(b.CreateZExt(t.index[k], b.getInt64Ty()), step);
    offset = offset == nullptr ? term : b.CreateAdd(offset, term);
  }
  return offset == nullptr ? v.data : b.CreateGEP(b.getInt8Ty(), v.data, offset);
}

// "CL_UNORM_INT8: (float)c / 255.0f", "CL_HALF_FLOAT: half to float" (exact), float as it is;
// integers zero- or sign-extended.
llvm::Value* decode(Builder& b, llvm::Value* c, const FastFormat& f) {
  switch (f.type) {
    case fmt::kUnorm:
      return b.CreateFDiv(b.CreateUIToFP(c, b.getFloatTy()),
                          fconst(b.getFloatTy(), double((uint64_t{1} << f.bits) - 1)));
    case fmt::kFloat:
      if (f.bits == 16) return b.CreateFPExt(b.CreateBitCast(c, b.getHalfTy()), b.getFloatTy());
      return b.CreateBitCast(c, b.getFloatTy());
    case fmt::kSint:
      return b.CreateSExt(c, b.getInt32Ty());
    default:
      return b.CreateZExt(c, b.getInt32Ty());
  }
}

Components readFast(Builder& b, const View& v, const Tap& t, const FastFormat& f, Kind kind) {
  llvm::Value* p = texelAddress(b, v, t, b.getInt64(f.bits / 8 * f.count));
  Components c;
  c.fill(llvm::Constant::getNullValue(elementOf(b, kind)));
  llvm::Type* component = b.getIntNTy(f.bits);
  llvm::Value* word = nullptr;
  if (f.bits < 32) word = b.CreateAlignedLoad(b.getIntNTy(f.bits * f.count), p, llvm::Align(1));
  for (unsigned k = 0; k < f.count; ++k) {
    llvm::Value* raw =
        word != nullptr
            ? b.CreateTrunc(b.CreateLShr(word, uint64_t{f.bits} * k), component)
            : b.CreateAlignedLoad(component, b.CreateConstGEP1_64(b.getInt8Ty(), p, 4 * k),
                                  llvm::Align(1));
    c[k] = decode(b, raw, f);
  }
  return c;
}

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

}  // namespace

Components switchOn(Builder& b, llvm::Value* key,
                    const std::vector<std::pair<uint32_t, CaseBody>>& cases,
                    const CaseBody& other) {
  llvm::Instruction* at = &*b.GetInsertPoint();
  llvm::BasicBlock* head = at->getParent();
  llvm::Function* fn = head->getParent();
  llvm::BasicBlock* join = head->splitBasicBlock(at, "image.join");
  head->getTerminator()->eraseFromParent();
  b.SetInsertPoint(head);
  llvm::LLVMContext& ctx = b.getContext();
  auto* otherBlock = llvm::BasicBlock::Create(ctx, "image.other", fn, join);
  llvm::SwitchInst* sw = b.CreateSwitch(key, otherBlock, static_cast<unsigned>(cases.size()));
  std::vector<std::pair<Components, llvm::BasicBlock*>> results;
  auto emit = [&](llvm::BasicBlock* bb, const CaseBody& body) {
    b.SetInsertPoint(bb);
    llvm::BranchInst* br = b.CreateBr(join);
    b.SetInsertPoint(br);
    Components c = body(b);  // may split the block: the branch ends the last one
    results.emplace_back(c, br->getParent());
  };
  for (const auto& [value, body] : cases) {
    auto* bb = llvm::BasicBlock::Create(ctx, "image.case", fn, otherBlock);
    sw->addCase(b.getInt32(value), bb);
    emit(bb, body);
  }
  emit(otherBlock, other);
  b.SetInsertPoint(at);
  Components out{};
  if (results.front().first[0] == nullptr) return out;
  for (unsigned k = 0; k < 4; ++k) {
    llvm::PHINode* phi =
        b.CreatePHI(results.front().first[k]->getType(), static_cast<unsigned>(results.size()));
    for (const auto& [c, bb] : results) phi->addIncoming(c[k], bb);
    out[k] = phi;
  }
  return out;
}

namespace {

// The stored bits of one component: "convert_uchar_sat_rte(f * 255.0f)" for UNORM (NaN: 0), float
// to half rounding to nearest even, "convert_uchar_sat(u)" and "convert_char_sat(i)" for integers.
llvm::Value* encode(Builder& b, llvm::Value* c, const FastFormat& f) {
  llvm::Type* component = b.getIntNTy(f.bits);
  uint64_t max = (uint64_t{1} << f.bits) - 1;
  switch (f.type) {
    case fmt::kUnorm: {
      llvm::Value* r =
          unary(b, llvm::Intrinsic::rint, b.CreateFMul(c, fconst(c->getType(), double(max))));
      r = binary(b, llvm::Intrinsic::maxnum, r, fconst(c->getType(), 0.0));
      r = binary(b, llvm::Intrinsic::minnum, r, fconst(c->getType(), double(max)));
      return b.CreateFPToUI(r, component);
    }
    case fmt::kFloat:
      if (f.bits == 16) return b.CreateBitCast(b.CreateFPTrunc(c, b.getHalfTy()), component);
      return b.CreateBitCast(c, component);
    case fmt::kSint:
      if (f.bits < 32) {
        int64_t hi = int64_t(max >> 1);
        c = b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, c, b.getInt32(uint32_t(hi)));
        c = b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, c, b.getInt32(uint32_t(-hi - 1)));
      }
      return b.CreateTrunc(c, component);
    default:
      if (f.bits < 32)
        c = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, c, b.getInt32(uint32_t(max)));
      return b.CreateTrunc(c, component);
  }
}

void writeFast(Builder& b, const View& v, const Tap& t, const Components& c, const FastFormat& f) {
  llvm::Instruction* at = &*b.GetInsertPoint();
  llvm::Instruction* then = llvm::SplitBlockAndInsertIfThen(t.inside, at, false);
  b.SetInsertPoint(then);
  llvm::Value* p = texelAddress(b, v, t, b.getInt64(f.bits / 8 * f.count));
  if (f.bits == 32) {
    for (unsigned k = 0; k < f.count; ++k)
      b.CreateAlignedStore(encode(b, c[k], f), b.CreateConstGEP1_64(b.getInt8Ty(), p, 4 * k),
                           llvm::Align(1));
  } else {
    llvm::Type* word = b.getIntNTy(f.bits * f.count);
    llvm::Value* packed = llvm::Constant::getNullValue(word);
    for (unsigned k = 0; k < f.count; ++k) {
      llvm::Value* e = b.CreateShl(b.CreateZExt(encode(b, c[k], f), word), uint64_t{f.bits} * k);
      packed = k == 0 ? e : b.CreateOr(packed, e);
    }
    b.CreateAlignedStore(packed, p, llvm::Align(1));
  }
  b.SetInsertPoint(at);
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

}  // namespace

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

Components readComponents(Builder& b, const View& v, const Footprint& f, Kind kind) {
  std::vector<std::pair<uint32_t, CaseBody>> cases;
  for (const FastFormat& format : fastFormats(kind)) {
    cases.emplace_back(formatKey(format.layout, format.type), [&v, &f, format, kind](Builder& b) {
      return filter(
          b, f, [&](Builder& b, const Tap& t) { return readFast(b, v, t, format, kind); }, kind);
    });
  }
  return switchOn(b, v.formatKey, cases, [&](Builder& b) {
    return filter(
        b, f, [&](Builder& b, const Tap& t) { return readRuntime(b, v, t, kind); }, kind);
  });
}

llvm::Value* swizzled(Builder& b, const View& v, const Components& c, Kind kind,
                      llvm::Type* result) {
  llvm::Type* t = elementOf(b, kind);
  llvm::Value* zero = llvm::Constant::getNullValue(t);
  llvm::Value* one = kind == Kind::Float ? fconst(t, 1.0) : iconst(t, 1);
  llvm::Value* r = llvm::PoisonValue::get(llvm::FixedVectorType::get(t, 4));
  for (unsigned ch = 0; ch < 4; ++ch) {
    llvm::Value* s = v.swizzle[ch];
    llvm::Value* value = b.CreateSelect(b.CreateICmpEQ(s, b.getInt32(fmt::kSwizzleOne)), one, zero);
    for (unsigned k = 4; k-- > 0;)
      value = b.CreateSelect(b.CreateICmpEQ(s, b.getInt32(k)), c[k], value);
    r = b.CreateInsertElement(r, value, ch);
  }
  return r->getType() == result ? r : b.CreateBitCast(r, result);
}

void writeTexel(Builder& b, const View& v, const Tap& tap, llvm::Value* texel, Kind kind) {
  // "Writing stores each result channel c whose swizzle[c] names a component into that
  // component" (image_abi.h), the first such channel when several name one; the others are 0.
  llvm::Type* t = elementOf(b, kind);
  Components channel, c;
  for (unsigned ch = 0; ch < 4; ++ch)
    channel[ch] = b.CreateBitCast(b.CreateExtractElement(texel, uint64_t{ch}), t);
  for (unsigned k = 0; k < 4; ++k) {
    llvm::Value* value = llvm::Constant::getNullValue(t);
    for (unsigned ch = 4; ch-- > 0;)
      value = b.CreateSelect(b.CreateICmpEQ(v.swizzle[ch], b.getInt32(k)), channel[ch], value);
    c[k] = value;
  }
  std::vector<std::pair<uint32_t, CaseBody>> cases;
  for (const FastFormat& format : fastFormats(kind)) {
    cases.emplace_back(formatKey(format.layout, format.type), [&, format](Builder& b) {
      writeFast(b, v, tap, c, format);
      return Components{};
    });
  }
  switchOn(b, v.formatKey, cases, [&](Builder& b) {
    writeRuntime(b, v, tap, c);
    return Components{};
  });
}

}  // namespace tessera::backends::cpu::jit::builtins::image
