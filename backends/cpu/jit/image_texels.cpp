// Texels to values and back (image_lowering.h). The image's format is known only when the kernel
// runs, the same for every work-item: a switch on its layout and type picks code made for the
// common formats (one load per texel, the conversion inline, so that widened work-items gather
// texels and convert them as vectors); any other format goes through image_generic.cpp.
// Conversions as OpenCL C 1.2 section 8.3 ("Conversion Rules") gives them, bit for bit the
// same as the runtime's.
#include <llvm/IR/Constants.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <span>

#include "backends/cpu/runtime/image_abi.h"
#include "backends/cpu/jit/image_lowering.h"
#include "backends/cpu/runtime/image_runtime.h"

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

// The components of the texel at `p` in format f.
Components readFast(Builder& b, llvm::Value* p, const FastFormat& f, Kind kind) {
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

}  // namespace

Components readComponents(Builder& b, const View& v, const Read& r) {
  // Shared by the inline formats: the footprint, each tap's address (pitch[0] is the pixel's
  // size), and the filter after their switch, which gives each tap's texel.
  Footprint f = footprintOf(b, v, r);
  Values at;
  for (const Tap& t : f.taps) at.push_back(texelAddress(b, v, t, v.pitch[0]));
  std::vector<std::pair<uint32_t, CaseBody>> cases;
  llvm::Value* decodedInline = b.getFalse();
  for (const FastFormat& format : fastFormats(r.kind)) {
    uint32_t key = formatKey(format.layout, format.type);
    decodedInline = b.CreateOr(decodedInline, b.CreateICmpEQ(v.formatKey, b.getInt32(key)));
    cases.emplace_back(key, [&, format](Builder& b) {
      Values texels;
      for (llvm::Value* p : at)
        for (llvm::Value* c : readFast(b, p, format, r.kind)) texels.push_back(c);
      return texels;
    });
  }
  CaseBody inlineFormats = [&](Builder& b) {
    // The switch's default is never taken (the formats are the cases): zeros of the types.
    Values none(4 * at.size(), llvm::Constant::getNullValue(elementOf(b, r.kind)));
    Values texels = switchOn(b, v.formatKey, cases, [&](Builder&) { return none; });
    std::vector<Components> byTap;
    for (size_t i = 0; i < at.size(); ++i)
      byTap.push_back({texels[4 * i], texels[4 * i + 1], texels[4 * i + 2], texels[4 * i + 3]});
    return valuesOf(filter(b, f, byTap, r.kind));
  };
  return componentsOf(switchOn(b, b.CreateZExt(decodedInline, b.getInt32Ty()), {{1, inlineFormats}},
                               [&](Builder& b) { return callGenericRead(b, v, r); }));
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
      return Values{};
    });
  }
  switchOn(b, v.formatKey, cases, [&](Builder& b) {
    writeRuntime(b, v, tap, c);
    return Values{};
  });
}

}  // namespace tessera::backends::cpu::jit::builtins::image
