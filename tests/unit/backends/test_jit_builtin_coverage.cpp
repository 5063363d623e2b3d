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
#include "spirv_kernel_writer.h"

namespace tessera::backends::cpu::test {
namespace {

// How an instruction is typed, as OpenCL C declares its builtin. kFloat1-3: 1 to 3 gentype
// operands, half, float and double; kFloatOnly1-2: half_ and native_, float only; kFloatInt: ldexp,
// pown, rootn (gentype, intn); kFloatPtr: modf, fract, sincos; kFloatIntPtr: frexp, lgamma_r;
// kGeo*: 1 to 4 lanes, a scalar or vector result, float and double (kFast*: float only); kInt1-3:
// every integer type; kInt24x2-3: int only; kUpsample: a result twice as wide.
// clang-format off
enum class Sig {
  kFloat1, kFloat2, kFloat3, kFloatOnly1, kFloatOnly2, kFloatInt, kIlogb, kNan, kFloatPtr,
  kFloatIntPtr, kRemquo, kGeoScalar1, kGeoScalar2, kGeoVector1, kFastScalar1, kFastScalar2,
  kFastVector1, kCross, kInt1, kInt2, kInt3, kInt24x2, kInt24x3, kUpsample, kBitselect, kSelect,
  kVloadn, kVstoren, kVloadHalf, kVloadHalfn, kVstoreHalf, kVstoreHalfR, kVstoreHalfn,
  kVstoreHalfnR, kShuffle, kShuffle2, kPrintf, kPrefetch,
};
// clang-format on

// Every entry of OpenCL.std.h by name.
const std::map<std::string, Sig>& signatures() {
  using S = Sig;
  // clang-format off
  static const std::map<std::string, Sig> table = {
      {"Acos", S::kFloat1}, {"Acosh", S::kFloat1}, {"Acospi", S::kFloat1}, {"Asin", S::kFloat1},
      {"Asinh", S::kFloat1}, {"Asinpi", S::kFloat1}, {"Atan", S::kFloat1}, {"Atan2", S::kFloat2},
      {"Atanh", S::kFloat1}, {"Atanpi", S::kFloat1}, {"Atan2pi", S::kFloat2}, {"Cbrt", S::kFloat1},
      {"Ceil", S::kFloat1}, {"Copysign", S::kFloat2}, {"Cos", S::kFloat1}, {"Cosh", S::kFloat1},
      {"Cospi", S::kFloat1}, {"Erfc", S::kFloat1}, {"Erf", S::kFloat1}, {"Exp", S::kFloat1},
      {"Exp2", S::kFloat1}, {"Exp10", S::kFloat1}, {"Expm1", S::kFloat1}, {"Fabs", S::kFloat1},
      {"Fdim", S::kFloat2}, {"Floor", S::kFloat1}, {"Fma", S::kFloat3}, {"Fmax", S::kFloat2},
      {"Fmin", S::kFloat2}, {"Fmod", S::kFloat2}, {"Fract", S::kFloatPtr},
      {"Frexp", S::kFloatIntPtr}, {"Hypot", S::kFloat2}, {"Ilogb", S::kIlogb},
      {"Ldexp", S::kFloatInt}, {"Lgamma", S::kFloat1}, {"Lgamma_r", S::kFloatIntPtr},
      {"Log", S::kFloat1}, {"Log2", S::kFloat1}, {"Log10", S::kFloat1}, {"Log1p", S::kFloat1},
      {"Logb", S::kFloat1}, {"Mad", S::kFloat3}, {"Maxmag", S::kFloat2}, {"Minmag", S::kFloat2},
      {"Modf", S::kFloatPtr}, {"Nan", S::kNan}, {"Nextafter", S::kFloat2}, {"Pow", S::kFloat2},
      {"Pown", S::kFloatInt}, {"Powr", S::kFloat2}, {"Remainder", S::kFloat2},
      {"Remquo", S::kRemquo}, {"Rint", S::kFloat1}, {"Rootn", S::kFloatInt}, {"Round", S::kFloat1},
      {"Rsqrt", S::kFloat1}, {"Sin", S::kFloat1}, {"Sincos", S::kFloatPtr}, {"Sinh", S::kFloat1},
      {"Sinpi", S::kFloat1}, {"Sqrt", S::kFloat1}, {"Tan", S::kFloat1}, {"Tanh", S::kFloat1},
      {"Tanpi", S::kFloat1}, {"Tgamma", S::kFloat1}, {"Trunc", S::kFloat1},
      {"Half_cos", S::kFloatOnly1}, {"Half_divide", S::kFloatOnly2}, {"Half_exp", S::kFloatOnly1},
      {"Half_exp2", S::kFloatOnly1}, {"Half_exp10", S::kFloatOnly1}, {"Half_log", S::kFloatOnly1},
      {"Half_log2", S::kFloatOnly1}, {"Half_log10", S::kFloatOnly1}, {"Half_powr", S::kFloatOnly2},
      {"Half_recip", S::kFloatOnly1}, {"Half_rsqrt", S::kFloatOnly1}, {"Half_sin", S::kFloatOnly1},
      {"Half_sqrt", S::kFloatOnly1}, {"Half_tan", S::kFloatOnly1}, {"Native_cos", S::kFloatOnly1},
      {"Native_divide", S::kFloatOnly2}, {"Native_exp", S::kFloatOnly1},
      {"Native_exp2", S::kFloatOnly1}, {"Native_exp10", S::kFloatOnly1},
      {"Native_log", S::kFloatOnly1}, {"Native_log2", S::kFloatOnly1},
      {"Native_log10", S::kFloatOnly1}, {"Native_powr", S::kFloatOnly2},
      {"Native_recip", S::kFloatOnly1}, {"Native_rsqrt", S::kFloatOnly1},
      {"Native_sin", S::kFloatOnly1}, {"Native_sqrt", S::kFloatOnly1},
      {"Native_tan", S::kFloatOnly1}, {"SAbs", S::kInt1}, {"SAbs_diff", S::kInt2},
      {"SAdd_sat", S::kInt2}, {"UAdd_sat", S::kInt2}, {"SHadd", S::kInt2}, {"UHadd", S::kInt2},
      {"SRhadd", S::kInt2}, {"URhadd", S::kInt2}, {"SClamp", S::kInt3}, {"UClamp", S::kInt3},
      {"Clz", S::kInt1}, {"Ctz", S::kInt1}, {"SMad_hi", S::kInt3}, {"UMad_sat", S::kInt3},
      {"SMad_sat", S::kInt3}, {"SMax", S::kInt2}, {"UMax", S::kInt2}, {"SMin", S::kInt2},
      {"UMin", S::kInt2}, {"SMul_hi", S::kInt2}, {"Rotate", S::kInt2}, {"SSub_sat", S::kInt2},
      {"USub_sat", S::kInt2}, {"U_Upsample", S::kUpsample}, {"S_Upsample", S::kUpsample},
      {"Popcount", S::kInt1}, {"SMad24", S::kInt24x3}, {"UMad24", S::kInt24x3},
      {"SMul24", S::kInt24x2}, {"UMul24", S::kInt24x2}, {"UAbs", S::kInt1}, {"UAbs_diff", S::kInt2},
      {"UMul_hi", S::kInt2}, {"UMad_hi", S::kInt3}, {"FClamp", S::kFloat3}, {"Degrees", S::kFloat1},
      {"FMax_common", S::kFloat2}, {"FMin_common", S::kFloat2}, {"Mix", S::kFloat3},
      {"Radians", S::kFloat1}, {"Step", S::kFloat2}, {"Smoothstep", S::kFloat3},
      {"Sign", S::kFloat1}, {"Cross", S::kCross}, {"Distance", S::kGeoScalar2},
      {"Length", S::kGeoScalar1}, {"Normalize", S::kGeoVector1}, {"Fast_distance", S::kFastScalar2},
      {"Fast_length", S::kFastScalar1}, {"Fast_normalize", S::kFastVector1},
      {"Bitselect", S::kBitselect}, {"Select", S::kSelect}, {"Vloadn", S::kVloadn},
      {"Vstoren", S::kVstoren}, {"Vload_half", S::kVloadHalf}, {"Vload_halfn", S::kVloadHalfn},
      {"Vstore_half", S::kVstoreHalf}, {"Vstore_half_r", S::kVstoreHalfR},
      {"Vstore_halfn", S::kVstoreHalfn}, {"Vstore_halfn_r", S::kVstoreHalfnR},
      {"Vloada_halfn", S::kVloadHalfn}, {"Vstorea_halfn", S::kVstoreHalfn},
      {"Vstorea_halfn_r", S::kVstoreHalfnR}, {"Shuffle", S::kShuffle}, {"Shuffle2", S::kShuffle2},
      {"Printf", S::kPrintf}, {"Prefetch", S::kPrefetch},
  };
  // clang-format on
  return table;
}

const std::vector<unsigned> kWidths = {1, 2, 3, 4, 8, 16};
const std::vector<Scalar> kIntegers = {Scalar::kI8, Scalar::kI16, Scalar::kI32, Scalar::kI64};
// half: cl_khr_fp16 declares every gentype math, common and geometric function for half and halfn.
const std::vector<Scalar> kFloats = {Scalar::kHalf, Scalar::kFloat, Scalar::kDouble};

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
      each({Scalar::kFloat, Scalar::kDouble}, widths, [&](Scalar s, unsigned n) {
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
      k.call(k.type(Scalar::kI32), op, {format, u(Scalar::kHalf, 8)});
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
    auto it = signatures().find(name);
    REQUIRE(it != signatures().end());
    SpirvKernel k;
    addCalls(k, op, it->second);
    addCalls(all, op, it->second);
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
  auto compiled = jit().compile(std::move(context), std::move(m), &error, options);
  INFO(error);
  REQUIRE(compiled != nullptr);
  REQUIRE(compiled->find("k") != nullptr);
}

}  // namespace
}  // namespace tessera::backends::cpu::test
