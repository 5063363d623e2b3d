// Images and samplers: the builtins SPIRV-LLVM-Translator makes of OpenCL C's image functions
// (SPIRVFriendlyIR), image_lowering.h describes how they are built:
//   __spirv_ImageRead / __spirv_ImageFetch (image, int coords[, operands])      read_image{f,i,ui}
//   __spirv_SampledImage (image, sampler) + __spirv_ImageSampleExplicitLod (sampled image,
//     coords, operands, lod)                                           read_image{f,i,ui} + sampler
//   __spirv_ImageWrite (image, int coords, texel[, operands])                 write_image{f,i,ui}
//   __spirv_ImageQuerySizeLod (image, lod), __spirv_ImageQuerySize (image)   get_image_width & co.
//   __spirv_ImageQueryOrder / Format (image)   get_image_channel_order / _data_type: ImageView's
//                                              SPIR-V values, to which the translator's code adds
//                                              0x10B0 / 0x10D0 (OpenCL's numbers)
//   __translate_sampler_initializer (i32)      an inline sampler (OpConstantSampler), its bits
// An image is a pointer (addrspace 1) to its ImageView, a sampler a pointer (addrspace 2) whose
// address is its value (image_abi.h). Level 0 is the only level: Lod operands are ignored.
// read_imageh / write_imageh (cl_khr_fp16) are these lowerings in float (builtin_half.cpp).
#include <llvm/IR/Constants.h>

#include <cctype>
#include <cstddef>

#include "backends/cpu/runtime/image_abi.h"
#include "backends/cpu/jit/image_lowering.h"
#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit::builtins {

namespace image {

std::optional<Shape> shapeOf(llvm::CallInst* call) {
  // "...PU3AS133__spirv_Image__void_1_0_0_0_0_0_0..." or "...__spirv_SampledImage__void_..."
  llvm::StringRef name = call->getCalledFunction()->getName();
  size_t at = name.find("__spirv_Image__");
  size_t skip = llvm::StringRef("__spirv_Image__").size();
  if (at == llvm::StringRef::npos) {
    at = name.find("__spirv_SampledImage__");
    skip = llvm::StringRef("__spirv_SampledImage__").size();
  }
  if (at == llvm::StringRef::npos) return std::nullopt;
  llvm::StringRef rest = name.drop_front(at + skip);
  rest = rest.drop_while([](char c) { return std::isalnum(static_cast<unsigned char>(c)); });
  unsigned fields[7];
  for (unsigned& field : fields) {
    if (!rest.consume_front("_") || rest.empty() ||
        !std::isdigit(static_cast<unsigned char>(rest[0])))
      return std::nullopt;
    // Single digits, but the image format (field 5), which may have two.
    size_t digits = &field == &fields[5] ? rest.find_first_not_of("0123456789") : 1;
    if (rest.substr(0, digits).getAsInteger(10, field)) return std::nullopt;
    rest = rest.drop_front(digits);
  }
  Shape s{fields[0], fields[2] != 0};
  if (s.dim > 2 && s.dim != 5) return std::nullopt;  // Cube, Rect, SubpassData
  if (s.dim == 5 && s.arrayed) return std::nullopt;
  return s;
}

}  // namespace image

namespace {

using namespace image;

constexpr const char* kSamplerInitializer = "__translate_sampler_initializer";

Kind kindOf(llvm::Type* t) {
  return t->getScalarType()->isFloatingPointTy() ? Kind::Float : Kind::Int;
}

llvm::StringRef calleeBase(llvm::Value* v) {
  auto* call = llvm::dyn_cast<llvm::CallInst>(v);
  llvm::Function* f = call == nullptr ? nullptr : call->getCalledFunction();
  return f == nullptr ? "" : spirvBaseName(f->getName());
}

// A sampler's i32 value: an inline sampler's constant, or the bits an argument's slot holds (the
// sampler pointer's address).
llvm::Value* samplerValue(Builder& b, llvm::Value* sampler) {
  if (calleeBase(sampler) == kSamplerInitializer)
    return b.CreateZExtOrTrunc(llvm::cast<llvm::CallInst>(sampler)->getArgOperand(0),
                               b.getInt32Ty());
  return b.CreateTrunc(b.CreatePtrToInt(sampler, b.getInt64Ty()), b.getInt32Ty());
}

llvm::Value* lowerSample(Builder& b, llvm::CallInst* call, const Args& a) {
  auto* sampledImage = llvm::cast<llvm::CallInst>(a[0]);  // refusal() checked it
  llvm::Value* sampler = samplerValue(b, sampledImage->getArgOperand(1));
  Shape s = *shapeOf(call);
  Kind kind = kindOf(call->getType());
  View v = loadView(b, sampledImage->getArgOperand(0));
  auto read = [&, coord = a[1]](bool linear) {
    return [&, coord, linear](Builder& b) {
      return valuesOf(readComponents(b, v, Read{s, kind, sampler, linear, coord}));
    };
  };
  Components c;
  // LINEAR filters float coordinates into float results; read_imagei/ui and integer coordinates
  // require NEAREST (anything else is undefined).
  if (kind == Kind::Int || a[1]->getType()->getScalarType()->isIntegerTy()) {
    c = componentsOf(read(false)(b));
  } else if (auto* k = llvm::dyn_cast<llvm::ConstantInt>(sampler)) {
    c = componentsOf(
        read((k->getZExtValue() & sampler_bits::kFilterMask) == sampler_bits::kFilterLinear)(b));
  } else {
    llvm::Value* filter = b.CreateAnd(sampler, sampler_bits::kFilterMask);
    c = componentsOf(switchOn(b, filter, {{sampler_bits::kFilterLinear, read(true)}}, read(false)));
  }
  return swizzled(b, v, c, kind, call->getType());
}

llvm::Value* lowerRead(Builder& b, llvm::CallInst* call, const Args& a) {
  Shape s = *shapeOf(call);
  Kind kind = kindOf(call->getType());
  View v = loadView(b, a[0]);
  Components c = readComponents(b, v, Read{s, kind, nullptr, false, a[1]});
  return swizzled(b, v, c, kind, call->getType());
}

llvm::Value* lowerWrite(Builder& b, llvm::CallInst* call, const Args& a) {
  Shape s = *shapeOf(call);
  View v = loadView(b, a[0]);
  Footprint f = exactFootprint(b, v, s, a[1]);
  writeTexel(b, v, f.taps.front(), a[2], kindOf(a[2]->getType()));
  return nullptr;
}

// get_image_width/height/depth/dim/array_size: element k of the size is extent[k] (image_abi.h:
// an array's layers are its last coordinate, as the size vector has them).
llvm::Value* lowerSize(Builder& b, llvm::CallInst* call, const Args& a) {
  llvm::Type* t = call->getType();
  llvm::Value* r = llvm::PoisonValue::get(t);
  for (unsigned k = 0; k < lanes(t) && k < 3; ++k) {
    llvm::Value* e = loadField(b, a[0], offsetof(ImageView, extent) + 8 * k, b.getInt64Ty());
    e = b.CreateZExtOrTrunc(e, t->getScalarType());
    r = t->isVectorTy() ? b.CreateInsertElement(r, e, k) : e;
  }
  return r;
}

template <uint64_t offset>
llvm::Value* lowerField(Builder& b, llvm::CallInst* call, const Args& a) {
  return b.CreateZExtOrTrunc(loadField(b, a[0], offset, b.getInt32Ty()), call->getType());
}

bool isImageBuiltin(llvm::StringRef base) {
  return base.startswith("__spirv_Image") || base == "__spirv_SampledImage";
}

}  // namespace

std::string imageRefusal(llvm::StringRef base, llvm::CallInst* call) {
  if (!isImageBuiltin(base)) return "";
  std::string name = call->getCalledFunction()->getName().str();
  if (!shapeOf(call)) return "image builtin with an image type Tessera does not know: " + name;
  if (base == "__spirv_SampledImage") {
    for (llvm::User* u : call->users())
      if (!calleeBase(u).startswith("__spirv_ImageSample"))
        return "a sampled image used other than by an image read: " + name;
    return "";
  }
  if (base.startswith("__spirv_ImageSample") &&
      calleeBase(call->getArgOperand(0)) != "__spirv_SampledImage")
    return "an image read whose sampled image is not made by OpSampledImage: " + name;
  if ((base.startswith("__spirv_ImageRead") || base.startswith("__spirv_ImageFetch") ||
       base.startswith("__spirv_ImageWrite")) &&
      !call->getArgOperand(1)->getType()->getScalarType()->isIntegerTy())
    return "an image read or write without a sampler must have integer coordinates: " + name;
  return "";
}

void addImageBuiltins(Table& m) {
  m["__spirv_ImageSampleExplicitLod"] = lowerSample;
  m["__spirv_ImageRead"] = lowerRead;
  m["__spirv_ImageFetch"] = lowerRead;
  m["__spirv_ImageWrite"] = lowerWrite;
  m["__spirv_ImageQuerySizeLod"] = lowerSize;
  m["__spirv_ImageQuerySize"] = lowerSize;
  m["__spirv_ImageQueryOrder"] = lowerField<offsetof(ImageView, channelOrder)>;
  m["__spirv_ImageQueryFormat"] = lowerField<offsetof(ImageView, channelDataType)>;
  m["__spirv_ImageQueryLevels"] = lowerField<offsetof(ImageView, mipLevels)>;
  // Lowered after the reads that use it (lowerBuiltins), which take its operands.
  m["__spirv_SampledImage"] = [](Builder&, llvm::CallInst* c, const Args&) {
    return llvm::PoisonValue::get(c->getType());
  };
  m[kSamplerInitializer] = [](Builder& b, llvm::CallInst* c, const Args& a) {
    return b.CreateIntToPtr(b.CreateZExtOrTrunc(a[0], b.getInt64Ty()), c->getType());
  };
}

bool lowersAfterItsUsers(llvm::StringRef base) {
  return base == "__spirv_SampledImage";
}

bool isSamplerInitializer(llvm::StringRef base) {
  return base == kSamplerInitializer;
}

}  // namespace tessera::backends::cpu::jit::builtins

namespace tessera::backends::cpu::jit {

std::optional<ArgKind> imageArgumentKind(const llvm::Function& kernel, unsigned index) {
  // The translator writes OpenCL's type names of a kernel's arguments ("image2d_t",
  // "image1d_buffer_t", "sampler_t") as kernel_arg_type metadata, from the SPIR-V types.
  for (const char* kind : {"kernel_arg_type", "kernel_arg_base_type"}) {
    auto* md = kernel.getMetadata(kind);
    if (md == nullptr || index >= md->getNumOperands()) continue;
    auto* s = llvm::dyn_cast<llvm::MDString>(md->getOperand(index));
    if (s == nullptr) continue;
    llvm::StringRef type = s->getString();
    if (type == "sampler_t") return ArgKind::Sampler;
    if (type.startswith("image") && type.endswith("_t")) return ArgKind::Image;
  }
  return std::nullopt;
}

}  // namespace tessera::backends::cpu::jit
