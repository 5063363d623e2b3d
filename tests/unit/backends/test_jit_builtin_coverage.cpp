// Every OpenCL.std extended instruction lowers. The test walks the enum of spirv-headers'
// OpenCL.std.h (read from the installed header, so an instruction added there fails here until
// the table below and the library know it), writes a SPIR-V kernel that calls the instruction on
// every type and vector width OpenCL C allows it, reads it back through the SPIR-V translator and
// runs the builtin library on it: no "unsupported builtin", and the module verifies. Then all of
// them, as one module, go through the whole JIT, which resolves every function the lowerings
// call.
#include <LLVMSPIRVLib/LLVMSPIRVLib.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <spirv/unified1/OpenCL.std.h>
#include <spirv/unified1/spirv.h>

#include <catch2/catch.hpp>

#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "backends/cpu/jit/jit_passes.h"
#include "jit_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

namespace cl = OpenCLLIB;

enum class Scalar { kI8, kI16, kI32, kI64, kHalf, kFloat, kDouble };

// A SPIR-V module with one kernel, written word by word: the types and the parameters an
// instruction takes its operands from are made on demand.
class SpirvKernel {
 public:
  uint32_t type(Scalar s, unsigned lanes = 1) {
    uint32_t scalar = scalarType(s);
    if (lanes == 1) return scalar;
    return cached("v" + std::to_string(scalar) + "x" + std::to_string(lanes), [&](uint32_t id) {
      emit(types_, SpvOpTypeVector, {id, scalar, lanes});
    });
  }
  uint32_t pointer(uint32_t pointee, SpvStorageClass storage = SpvStorageClassCrossWorkgroup) {
    return cached("p" + std::to_string(storage) + ":" + std::to_string(pointee), [&](uint32_t id) {
      emit(types_, SpvOpTypePointer, {id, uint32_t(storage), pointee});
    });
  }
  uint32_t undef(uint32_t type) {
    return cached("u" + std::to_string(type), [&](uint32_t id) {
      emit(types_, SpvOpUndef, {type, id});
    });
  }
  // A kernel parameter of `type` (one per type): values the lowerings cannot fold away.
  uint32_t value(uint32_t type) {
    return cached("a" + std::to_string(type), [&](uint32_t id) {
      emit(params_, SpvOpFunctionParameter, {type, id});
      paramTypes_.push_back(type);
    });
  }
  uint32_t voidType() {
    return cached("void", [&](uint32_t id) { emit(types_, SpvOpTypeVoid, {id}); });
  }
  // result = OpExtInst OpenCL.std `op` (operands); `literals` follow the ids as they are.
  void call(uint32_t result, uint32_t op, const std::vector<uint32_t>& ids,
            const std::vector<uint32_t>& literals = {}) {
    std::vector<uint32_t> words = {result, next_++, kExtSet, op};
    words.insert(words.end(), ids.begin(), ids.end());
    words.insert(words.end(), literals.begin(), literals.end());
    emit(body_, SpvOpExtInst, words);
  }

  std::vector<uint32_t> finish() {
    uint32_t voidId = voidType();
    uint32_t fnType = next_++;
    std::vector<uint32_t> signature = {fnType, voidId};
    signature.insert(signature.end(), paramTypes_.begin(), paramTypes_.end());
    emit(types_, SpvOpTypeFunction, signature);
    uint32_t fn = next_++, label = next_++;
    std::vector<uint32_t> m = {0x07230203u, 0x00010000u, 0, 0, 0};
    for (SpvCapability c : {SpvCapabilityAddresses, SpvCapabilityKernel, SpvCapabilityInt8,
                            SpvCapabilityInt16, SpvCapabilityInt64, SpvCapabilityFloat64,
                            SpvCapabilityFloat16Buffer, SpvCapabilityVector16}) {
      emit(m, SpvOpCapability, {uint32_t(c)});
    }
    std::vector<uint32_t> import = {kExtSet};
    appendString(import, "OpenCL.std");
    emit(m, SpvOpExtInstImport, import);
    emit(m, SpvOpMemoryModel, {SpvAddressingModelPhysical64, SpvMemoryModelOpenCL});
    std::vector<uint32_t> entry = {SpvExecutionModelKernel, fn};
    appendString(entry, "k");
    emit(m, SpvOpEntryPoint, entry);
    m.insert(m.end(), types_.begin(), types_.end());
    emit(m, SpvOpFunction, {voidId, fn, SpvFunctionControlMaskNone, fnType});
    m.insert(m.end(), params_.begin(), params_.end());
    emit(m, SpvOpLabel, {label});
    m.insert(m.end(), body_.begin(), body_.end());
    emit(m, SpvOpReturn, {});
    emit(m, SpvOpFunctionEnd, {});
    m[3] = next_;  // the bound
    return m;
  }

 private:
  static constexpr uint32_t kExtSet = 1;

  uint32_t scalarType(Scalar s) {
    switch (s) {
      case Scalar::kI8:
        return integer(8);
      case Scalar::kI16:
        return integer(16);
      case Scalar::kI32:
        return integer(32);
      case Scalar::kI64:
        return integer(64);
      case Scalar::kHalf:
        return floating(16);
      case Scalar::kFloat:
        return floating(32);
      case Scalar::kDouble:
        return floating(64);
    }
    return 0;
  }
  uint32_t integer(uint32_t bits) {
    return cached("i" + std::to_string(bits), [&](uint32_t id) {
      emit(types_, SpvOpTypeInt, {id, bits, 0});
    });
  }
  uint32_t floating(uint32_t bits) {
    return cached("f" + std::to_string(bits), [&](uint32_t id) {
      emit(types_, SpvOpTypeFloat, {id, bits});
    });
  }
  uint32_t cached(const std::string& key, const std::function<void(uint32_t)>& make) {
    auto it = ids_.find(key);
    if (it != ids_.end()) return it->second;
    uint32_t id = next_++;
    make(id);
    return ids_[key] = id;
  }
  static void emit(std::vector<uint32_t>& out, SpvOp op, const std::vector<uint32_t>& operands) {
    out.push_back(uint32_t(operands.size() + 1) << 16 | uint32_t(op));
    out.insert(out.end(), operands.begin(), operands.end());
  }
  static void appendString(std::vector<uint32_t>& out, const std::string& s) {
    for (size_t i = 0; i <= s.size(); i += 4) {
      uint32_t w = 0;
      for (size_t j = 0; j < 4 && i + j < s.size(); ++j)
        w |= uint32_t(uint8_t(s[i + j])) << (8 * j);
      out.push_back(w);
    }
  }

  uint32_t next_ = kExtSet + 1;
  std::map<std::string, uint32_t> ids_;
  std::vector<uint32_t> types_, params_, body_, paramTypes_;
};

// How an instruction is typed, as OpenCL C declares its builtin.
enum class Sig {
  kFloat1,
  kFloat2,
  kFloat3,  // gentype f(gentype...), float and double
  kFloatOnly1,
  kFloatOnly2,  // half_ and native_: float only
  kFloatInt,    // gentype f(gentype, intn): ldexp, pown, rootn
  kIlogb,       // intn ilogb(gentype)
  kNan,         // gentype nan(uintn / ulongn)
  kFloatPtr,
  kFloatIntPtr,
  kRemquo,  // modf, fract, sincos / frexp, lgamma_r / remquo
  kGeoScalar1,
  kGeoScalar2,
  kGeoVector1,
  kFastScalar1,
  kFastScalar2,
  kFastVector1,
  kCross,
  kInt1,
  kInt2,
  kInt3,  // igentype f(igentype...), every integer type
  kInt24x2,
  kInt24x3,   // mul24, mad24: int and uint
  kUpsample,  // upsample(hi, lo) -> twice the width
  kBitselect,
  kSelect,
  kVloadn,
  kVstoren,
  kVloadHalf,
  kVloadHalfn,
  kVstoreHalf,
  kVstoreHalfR,
  kVstoreHalfn,
  kVstoreHalfnR,
  kShuffle,
  kShuffle2,
  kPrintf,
  kPrefetch,
};

struct Entry {
  const char* name;  // as in OpenCL.std.h
  Sig sig;
};

const std::map<uint32_t, Entry>& signatures() {
  using S = Sig;
  static const std::map<uint32_t, Entry> table = {
      {cl::Acos, {"Acos", S::kFloat1}},
      {cl::Acosh, {"Acosh", S::kFloat1}},
      {cl::Acospi, {"Acospi", S::kFloat1}},
      {cl::Asin, {"Asin", S::kFloat1}},
      {cl::Asinh, {"Asinh", S::kFloat1}},
      {cl::Asinpi, {"Asinpi", S::kFloat1}},
      {cl::Atan, {"Atan", S::kFloat1}},
      {cl::Atan2, {"Atan2", S::kFloat2}},
      {cl::Atanh, {"Atanh", S::kFloat1}},
      {cl::Atanpi, {"Atanpi", S::kFloat1}},
      {cl::Atan2pi, {"Atan2pi", S::kFloat2}},
      {cl::Cbrt, {"Cbrt", S::kFloat1}},
      {cl::Ceil, {"Ceil", S::kFloat1}},
      {cl::Copysign, {"Copysign", S::kFloat2}},
      {cl::Cos, {"Cos", S::kFloat1}},
      {cl::Cosh, {"Cosh", S::kFloat1}},
      {cl::Cospi, {"Cospi", S::kFloat1}},
      {cl::Erfc, {"Erfc", S::kFloat1}},
      {cl::Erf, {"Erf", S::kFloat1}},
      {cl::Exp, {"Exp", S::kFloat1}},
      {cl::Exp2, {"Exp2", S::kFloat1}},
      {cl::Exp10, {"Exp10", S::kFloat1}},
      {cl::Expm1, {"Expm1", S::kFloat1}},
      {cl::Fabs, {"Fabs", S::kFloat1}},
      {cl::Fdim, {"Fdim", S::kFloat2}},
      {cl::Floor, {"Floor", S::kFloat1}},
      {cl::Fma, {"Fma", S::kFloat3}},
      {cl::Fmax, {"Fmax", S::kFloat2}},
      {cl::Fmin, {"Fmin", S::kFloat2}},
      {cl::Fmod, {"Fmod", S::kFloat2}},
      {cl::Fract, {"Fract", S::kFloatPtr}},
      {cl::Frexp, {"Frexp", S::kFloatIntPtr}},
      {cl::Hypot, {"Hypot", S::kFloat2}},
      {cl::Ilogb, {"Ilogb", S::kIlogb}},
      {cl::Ldexp, {"Ldexp", S::kFloatInt}},
      {cl::Lgamma, {"Lgamma", S::kFloat1}},
      {cl::Lgamma_r, {"Lgamma_r", S::kFloatIntPtr}},
      {cl::Log, {"Log", S::kFloat1}},
      {cl::Log2, {"Log2", S::kFloat1}},
      {cl::Log10, {"Log10", S::kFloat1}},
      {cl::Log1p, {"Log1p", S::kFloat1}},
      {cl::Logb, {"Logb", S::kFloat1}},
      {cl::Mad, {"Mad", S::kFloat3}},
      {cl::Maxmag, {"Maxmag", S::kFloat2}},
      {cl::Minmag, {"Minmag", S::kFloat2}},
      {cl::Modf, {"Modf", S::kFloatPtr}},
      {cl::Nan, {"Nan", S::kNan}},
      {cl::Nextafter, {"Nextafter", S::kFloat2}},
      {cl::Pow, {"Pow", S::kFloat2}},
      {cl::Pown, {"Pown", S::kFloatInt}},
      {cl::Powr, {"Powr", S::kFloat2}},
      {cl::Remainder, {"Remainder", S::kFloat2}},
      {cl::Remquo, {"Remquo", S::kRemquo}},
      {cl::Rint, {"Rint", S::kFloat1}},
      {cl::Rootn, {"Rootn", S::kFloatInt}},
      {cl::Round, {"Round", S::kFloat1}},
      {cl::Rsqrt, {"Rsqrt", S::kFloat1}},
      {cl::Sin, {"Sin", S::kFloat1}},
      {cl::Sincos, {"Sincos", S::kFloatPtr}},
      {cl::Sinh, {"Sinh", S::kFloat1}},
      {cl::Sinpi, {"Sinpi", S::kFloat1}},
      {cl::Sqrt, {"Sqrt", S::kFloat1}},
      {cl::Tan, {"Tan", S::kFloat1}},
      {cl::Tanh, {"Tanh", S::kFloat1}},
      {cl::Tanpi, {"Tanpi", S::kFloat1}},
      {cl::Tgamma, {"Tgamma", S::kFloat1}},
      {cl::Trunc, {"Trunc", S::kFloat1}},
      {cl::Half_cos, {"Half_cos", S::kFloatOnly1}},
      {cl::Half_divide, {"Half_divide", S::kFloatOnly2}},
      {cl::Half_exp, {"Half_exp", S::kFloatOnly1}},
      {cl::Half_exp2, {"Half_exp2", S::kFloatOnly1}},
      {cl::Half_exp10, {"Half_exp10", S::kFloatOnly1}},
      {cl::Half_log, {"Half_log", S::kFloatOnly1}},
      {cl::Half_log2, {"Half_log2", S::kFloatOnly1}},
      {cl::Half_log10, {"Half_log10", S::kFloatOnly1}},
      {cl::Half_powr, {"Half_powr", S::kFloatOnly2}},
      {cl::Half_recip, {"Half_recip", S::kFloatOnly1}},
      {cl::Half_rsqrt, {"Half_rsqrt", S::kFloatOnly1}},
      {cl::Half_sin, {"Half_sin", S::kFloatOnly1}},
      {cl::Half_sqrt, {"Half_sqrt", S::kFloatOnly1}},
      {cl::Half_tan, {"Half_tan", S::kFloatOnly1}},
      {cl::Native_cos, {"Native_cos", S::kFloatOnly1}},
      {cl::Native_divide, {"Native_divide", S::kFloatOnly2}},
      {cl::Native_exp, {"Native_exp", S::kFloatOnly1}},
      {cl::Native_exp2, {"Native_exp2", S::kFloatOnly1}},
      {cl::Native_exp10, {"Native_exp10", S::kFloatOnly1}},
      {cl::Native_log, {"Native_log", S::kFloatOnly1}},
      {cl::Native_log2, {"Native_log2", S::kFloatOnly1}},
      {cl::Native_log10, {"Native_log10", S::kFloatOnly1}},
      {cl::Native_powr, {"Native_powr", S::kFloatOnly2}},
      {cl::Native_recip, {"Native_recip", S::kFloatOnly1}},
      {cl::Native_rsqrt, {"Native_rsqrt", S::kFloatOnly1}},
      {cl::Native_sin, {"Native_sin", S::kFloatOnly1}},
      {cl::Native_sqrt, {"Native_sqrt", S::kFloatOnly1}},
      {cl::Native_tan, {"Native_tan", S::kFloatOnly1}},
      {cl::SAbs, {"SAbs", S::kInt1}},
      {cl::SAbs_diff, {"SAbs_diff", S::kInt2}},
      {cl::SAdd_sat, {"SAdd_sat", S::kInt2}},
      {cl::UAdd_sat, {"UAdd_sat", S::kInt2}},
      {cl::SHadd, {"SHadd", S::kInt2}},
      {cl::UHadd, {"UHadd", S::kInt2}},
      {cl::SRhadd, {"SRhadd", S::kInt2}},
      {cl::URhadd, {"URhadd", S::kInt2}},
      {cl::SClamp, {"SClamp", S::kInt3}},
      {cl::UClamp, {"UClamp", S::kInt3}},
      {cl::Clz, {"Clz", S::kInt1}},
      {cl::Ctz, {"Ctz", S::kInt1}},
      {cl::SMad_hi, {"SMad_hi", S::kInt3}},
      {cl::UMad_sat, {"UMad_sat", S::kInt3}},
      {cl::SMad_sat, {"SMad_sat", S::kInt3}},
      {cl::SMax, {"SMax", S::kInt2}},
      {cl::UMax, {"UMax", S::kInt2}},
      {cl::SMin, {"SMin", S::kInt2}},
      {cl::UMin, {"UMin", S::kInt2}},
      {cl::SMul_hi, {"SMul_hi", S::kInt2}},
      {cl::Rotate, {"Rotate", S::kInt2}},
      {cl::SSub_sat, {"SSub_sat", S::kInt2}},
      {cl::USub_sat, {"USub_sat", S::kInt2}},
      {cl::U_Upsample, {"U_Upsample", S::kUpsample}},
      {cl::S_Upsample, {"S_Upsample", S::kUpsample}},
      {cl::Popcount, {"Popcount", S::kInt1}},
      {cl::SMad24, {"SMad24", S::kInt24x3}},
      {cl::UMad24, {"UMad24", S::kInt24x3}},
      {cl::SMul24, {"SMul24", S::kInt24x2}},
      {cl::UMul24, {"UMul24", S::kInt24x2}},
      {cl::UAbs, {"UAbs", S::kInt1}},
      {cl::UAbs_diff, {"UAbs_diff", S::kInt2}},
      {cl::UMul_hi, {"UMul_hi", S::kInt2}},
      {cl::UMad_hi, {"UMad_hi", S::kInt3}},
      {cl::FClamp, {"FClamp", S::kFloat3}},
      {cl::Degrees, {"Degrees", S::kFloat1}},
      {cl::FMax_common, {"FMax_common", S::kFloat2}},
      {cl::FMin_common, {"FMin_common", S::kFloat2}},
      {cl::Mix, {"Mix", S::kFloat3}},
      {cl::Radians, {"Radians", S::kFloat1}},
      {cl::Step, {"Step", S::kFloat2}},
      {cl::Smoothstep, {"Smoothstep", S::kFloat3}},
      {cl::Sign, {"Sign", S::kFloat1}},
      {cl::Cross, {"Cross", S::kCross}},
      {cl::Distance, {"Distance", S::kGeoScalar2}},
      {cl::Length, {"Length", S::kGeoScalar1}},
      {cl::Normalize, {"Normalize", S::kGeoVector1}},
      {cl::Fast_distance, {"Fast_distance", S::kFastScalar2}},
      {cl::Fast_length, {"Fast_length", S::kFastScalar1}},
      {cl::Fast_normalize, {"Fast_normalize", S::kFastVector1}},
      {cl::Bitselect, {"Bitselect", S::kBitselect}},
      {cl::Select, {"Select", S::kSelect}},
      {cl::Vloadn, {"Vloadn", S::kVloadn}},
      {cl::Vstoren, {"Vstoren", S::kVstoren}},
      {cl::Vload_half, {"Vload_half", S::kVloadHalf}},
      {cl::Vload_halfn, {"Vload_halfn", S::kVloadHalfn}},
      {cl::Vstore_half, {"Vstore_half", S::kVstoreHalf}},
      {cl::Vstore_half_r, {"Vstore_half_r", S::kVstoreHalfR}},
      {cl::Vstore_halfn, {"Vstore_halfn", S::kVstoreHalfn}},
      {cl::Vstore_halfn_r, {"Vstore_halfn_r", S::kVstoreHalfnR}},
      {cl::Vloada_halfn, {"Vloada_halfn", S::kVloadHalfn}},
      {cl::Vstorea_halfn, {"Vstorea_halfn", S::kVstoreHalfn}},
      {cl::Vstorea_halfn_r, {"Vstorea_halfn_r", S::kVstoreHalfnR}},
      {cl::Shuffle, {"Shuffle", S::kShuffle}},
      {cl::Shuffle2, {"Shuffle2", S::kShuffle2}},
      {cl::Printf, {"Printf", S::kPrintf}},
      {cl::Prefetch, {"Prefetch", S::kPrefetch}},
  };
  return table;
}

const std::vector<unsigned> kWidths = {1, 2, 3, 4, 8, 16};
const std::vector<Scalar> kIntegers = {Scalar::kI8, Scalar::kI16, Scalar::kI32, Scalar::kI64};
const std::vector<Scalar> kFloats = {Scalar::kFloat, Scalar::kDouble};

Scalar intOfWidth(Scalar s) {
  switch (s) {
    case Scalar::kHalf:
      return Scalar::kI16;
    case Scalar::kFloat:
      return Scalar::kI32;
    case Scalar::kDouble:
      return Scalar::kI64;
    default:
      return s;
  }
}

// Calls of instruction `op` on every type and width its signature allows.
void addCalls(SpirvKernel& k, uint32_t op, Sig sig) {
  auto u = [&](Scalar s, unsigned n = 1) { return k.value(k.type(s, n)); };
  auto ptr = [&](Scalar s, unsigned n = 1) { return k.value(k.pointer(k.type(s, n))); };
  uint32_t size = u(Scalar::kI64);
  auto each = [&](const std::vector<Scalar>& scalars, const std::vector<unsigned>& widths,
                  const std::function<void(Scalar, unsigned)>& f) {
    for (Scalar s : scalars)
      for (unsigned n : widths) f(s, n);
  };
  std::vector<Scalar> all = kIntegers;
  all.insert(all.end(), kFloats.begin(), kFloats.end());
  switch (sig) {
    case Sig::kFloat1:
    case Sig::kFloat2:
    case Sig::kFloat3:
    case Sig::kFloatOnly1:
    case Sig::kFloatOnly2: {
      unsigned arity = sig == Sig::kFloat1 || sig == Sig::kFloatOnly1   ? 1
                       : sig == Sig::kFloat2 || sig == Sig::kFloatOnly2 ? 2
                                                                        : 3;
      bool floatOnly = sig == Sig::kFloatOnly1 || sig == Sig::kFloatOnly2;
      each(floatOnly ? std::vector<Scalar>{Scalar::kFloat} : kFloats, kWidths,
           [&](Scalar s, unsigned n) {
             k.call(k.type(s, n), op, std::vector<uint32_t>(arity, u(s, n)));
           });
      break;
    }
    case Sig::kFloatInt:
      each(kFloats, kWidths, [&](Scalar s, unsigned n) {
        k.call(k.type(s, n), op, {u(s, n), u(Scalar::kI32, n)});
      });
      break;
    case Sig::kIlogb:
      each(kFloats, kWidths,
           [&](Scalar s, unsigned n) { k.call(k.type(Scalar::kI32, n), op, {u(s, n)}); });
      break;
    case Sig::kNan:
      each(kFloats, kWidths,
           [&](Scalar s, unsigned n) { k.call(k.type(s, n), op, {u(intOfWidth(s), n)}); });
      break;
    case Sig::kFloatPtr:
      each(kFloats, kWidths, [&](Scalar s, unsigned n) {
        k.call(k.type(s, n), op, {u(s, n), ptr(s, n)});
      });
      break;
    case Sig::kFloatIntPtr:
      each(kFloats, kWidths, [&](Scalar s, unsigned n) {
        k.call(k.type(s, n), op, {u(s, n), ptr(Scalar::kI32, n)});
      });
      break;
    case Sig::kRemquo:
      each(kFloats, kWidths, [&](Scalar s, unsigned n) {
        k.call(k.type(s, n), op, {u(s, n), u(s, n), ptr(Scalar::kI32, n)});
      });
      break;
    case Sig::kGeoScalar1:
    case Sig::kGeoScalar2:
    case Sig::kFastScalar1:
    case Sig::kFastScalar2:
      each(sig == Sig::kGeoScalar1 || sig == Sig::kGeoScalar2 ? kFloats
                                                              : std::vector<Scalar>{Scalar::kFloat},
           {1, 2, 3, 4}, [&](Scalar s, unsigned n) {
             unsigned arity = sig == Sig::kGeoScalar1 || sig == Sig::kFastScalar1 ? 1 : 2;
             k.call(k.type(s), op, std::vector<uint32_t>(arity, u(s, n)));
           });
      break;
    case Sig::kGeoVector1:
    case Sig::kFastVector1:
      each(sig == Sig::kGeoVector1 ? kFloats : std::vector<Scalar>{Scalar::kFloat}, {1, 2, 3, 4},
           [&](Scalar s, unsigned n) { k.call(k.type(s, n), op, {u(s, n)}); });
      break;
    case Sig::kCross:
      each(kFloats, {3, 4}, [&](Scalar s, unsigned n) {
        k.call(k.type(s, n), op, {u(s, n), u(s, n)});
      });
      break;
    case Sig::kInt1:
    case Sig::kInt2:
    case Sig::kInt3: {
      unsigned arity = sig == Sig::kInt1 ? 1 : sig == Sig::kInt2 ? 2 : 3;
      each(kIntegers, kWidths, [&](Scalar s, unsigned n) {
        k.call(k.type(s, n), op, std::vector<uint32_t>(arity, u(s, n)));
      });
      break;
    }
    case Sig::kInt24x2:
    case Sig::kInt24x3:
      each({Scalar::kI32}, kWidths, [&](Scalar s, unsigned n) {
        k.call(k.type(s, n), op, std::vector<uint32_t>(sig == Sig::kInt24x2 ? 2 : 3, u(s, n)));
      });
      break;
    case Sig::kUpsample:
      each({Scalar::kI8, Scalar::kI16, Scalar::kI32}, kWidths, [&](Scalar s, unsigned n) {
        Scalar wide = s == Scalar::kI8    ? Scalar::kI16
                      : s == Scalar::kI16 ? Scalar::kI32
                                          : Scalar::kI64;
        k.call(k.type(wide, n), op, {u(s, n), u(s, n)});
      });
      break;
    case Sig::kBitselect:
      each(all, kWidths, [&](Scalar s, unsigned n) {
        k.call(k.type(s, n), op, {u(s, n), u(s, n), u(s, n)});
      });
      break;
    case Sig::kSelect:
      each(all, kWidths, [&](Scalar s, unsigned n) {
        k.call(k.type(s, n), op, {u(s, n), u(s, n), u(intOfWidth(s), n)});
      });
      break;
    case Sig::kVloadn:
      each(all, {2, 3, 4, 8, 16}, [&](Scalar s, unsigned n) {
        k.call(k.type(s, n), op, {size, ptr(s)}, {n});
      });
      break;
    case Sig::kVstoren:
      each(all, {2, 3, 4, 8, 16}, [&](Scalar s, unsigned n) {
        k.call(k.voidType(), op, {u(s, n), size, ptr(s)});
      });
      break;
    case Sig::kVloadHalf:
      k.call(k.type(Scalar::kFloat), op, {size, ptr(Scalar::kHalf)});
      break;
    case Sig::kVloadHalfn:
      for (unsigned n : {2, 3, 4, 8, 16})
        k.call(k.type(Scalar::kFloat, n), op, {size, ptr(Scalar::kHalf)}, {n});
      break;
    case Sig::kVstoreHalf:
    case Sig::kVstoreHalfR:
    case Sig::kVstoreHalfn:
    case Sig::kVstoreHalfnR: {
      bool vector = sig == Sig::kVstoreHalfn || sig == Sig::kVstoreHalfnR;
      bool rounding = sig == Sig::kVstoreHalfR || sig == Sig::kVstoreHalfnR;
      std::vector<unsigned> widths =
          vector ? std::vector<unsigned>{2, 3, 4, 8, 16} : std::vector<unsigned>{1};
      each(kFloats, widths, [&](Scalar s, unsigned n) {
        for (uint32_t mode = 0; mode < (rounding ? 4u : 1u); ++mode) {
          std::vector<uint32_t> literals;
          if (rounding) literals.push_back(mode);
          k.call(k.voidType(), op, {u(s, n), size, ptr(Scalar::kHalf)}, literals);
        }
      });
      break;
    }
    case Sig::kShuffle:
    case Sig::kShuffle2:
      each(all, {2, 4, 8, 16}, [&](Scalar s, unsigned m) {
        for (unsigned n : {2, 4, 8, 16}) {
          uint32_t mask = u(intOfWidth(s), n);
          if (sig == Sig::kShuffle)
            k.call(k.type(s, n), op, {u(s, m), mask});
          else
            k.call(k.type(s, n), op, {u(s, m), u(s, m), mask});
        }
      });
      break;
    case Sig::kPrintf: {
      uint32_t format = k.undef(k.pointer(k.type(Scalar::kI8), SpvStorageClassUniformConstant));
      k.call(k.type(Scalar::kI32), op, {format});
      k.call(k.type(Scalar::kI32), op, {format, u(Scalar::kI32), u(Scalar::kDouble)});
      k.call(k.type(Scalar::kI32), op, {format, u(Scalar::kFloat, 4)});
      break;
    }
    case Sig::kPrefetch:
      each(all, kWidths, [&](Scalar s, unsigned n) {
        k.call(k.voidType(), op, {ptr(s, n), size});
      });
      break;
  }
}

// The entries of OpenCL.std.h's C++ enum: name and value.
std::vector<std::pair<std::string, uint32_t>> headerEntries() {
  std::ifstream file("/usr/include/spirv/unified1/OpenCL.std.h");
  REQUIRE(file.good());
  std::stringstream text;
  text << file.rdbuf();
  std::string s = text.str();
  size_t begin = s.find("enum Entrypoints {");
  size_t end = s.find("};", begin);
  REQUIRE(begin != std::string::npos);
  std::string body = s.substr(begin, end - begin);
  std::vector<std::pair<std::string, uint32_t>> entries;
  std::regex entry(R"((\w+) = (\d+),)");
  for (auto it = std::sregex_iterator(body.begin(), body.end(), entry);
       it != std::sregex_iterator(); ++it) {
    entries.emplace_back((*it)[1].str(), uint32_t(std::stoul((*it)[2].str())));
  }
  return entries;
}

std::unique_ptr<llvm::Module> translate(llvm::LLVMContext& context,
                                        const std::vector<uint32_t>& words) {
  std::string bytes(reinterpret_cast<const char*>(words.data()), words.size() * 4);
  SPIRV::TranslatorOpts opts;
  opts.setDesiredBIsRepresentation(SPIRV::BIsRepresentation::SPIRVFriendlyIR);
  llvm::Module* module = nullptr;
  std::string error;
  std::istringstream in(bytes);
  bool ok = llvm::readSpirv(context, opts, in, module, error);
  INFO(error);
  REQUIRE(ok);
  return std::unique_ptr<llvm::Module>(module);
}

TEST_CASE(
    "Given every OpenCL.std instruction on every type and width, when lowered, then none "
    "is unsupported and the module verifies",
    "[jit][builtins][coverage]") {
  std::vector<std::pair<std::string, uint32_t>> entries = headerEntries();
  REQUIRE(entries.size() >= 162);  // OpenCL.ExtendedInstructionSet.100
  SpirvKernel all;
  for (const auto& [name, op] : entries) {
    INFO("OpenCL.std " << name << " (" << op << ")");
    auto it = signatures().find(op);
    REQUIRE(it != signatures().end());
    REQUIRE(name == it->second.name);
    SpirvKernel k;
    addCalls(k, op, it->second.sig);
    addCalls(all, op, it->second.sig);
    std::vector<uint32_t> words = k.finish();
    if (const char* dump = std::getenv("TESSERA_COVERAGE_DUMP"); dump && *dump) {
      std::ofstream(std::string(dump) + "/" + name + ".spv", std::ios::binary)
          .write(reinterpret_cast<const char*>(words.data()), std::streamsize(words.size() * 4));
    }
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> m = translate(context, words);
    std::string error;
    CHECK(jit::lowerBuiltins(*m, &error));
    CHECK(error == "");
    std::string verify;
    llvm::raw_string_ostream os(verify);
    CHECK_FALSE(llvm::verifyModule(*m, &os));
    CHECK(os.str() == "");
  }
  // All of them in one module through the whole JIT: every function the lowerings call resolves.
  auto context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> m = translate(*context, all.finish());
  CompileOptions options;
  options.optLevel = 0;
  options.widen = 0;
  std::string error;
  auto compiled = jit().compile(0x0C0FFEE5u, std::move(context), std::move(m), &error, options);
  INFO(error);
  REQUIRE(compiled != nullptr);
  REQUIRE(compiled->find("k") != nullptr);
}

}  // namespace
}  // namespace tessera::backends::cpu::test
