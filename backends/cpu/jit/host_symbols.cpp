// The names JIT-compiled code may call outside itself (host_symbols.h).
#include "backends/cpu/jit/host_symbols.h"

#include <dlfcn.h>

#include <llvm/ADT/StringSet.h>

#include <cstring>

namespace tessera::backends::cpu::jit {
namespace {

// C99's math functions by their double names; each also in float ("sinf"; "lgammaf_r"). What the
// builtin library calls (builtin_math.cpp: libm()) and what LLVM's code generation turns
// intrinsics into when the target has no instruction for them (llvm.exp -> expf, frem -> fmodf,
// llvm.floor -> floorf without SSE4.1, sin + cos -> sincosf, ...). Pure functions: none of them
// can reach anything beyond its arguments and errno.
constexpr const char* kMathNames[] = {
    "acos",      "acosh",     "asin",      "asinh",  "atan",      "atan2",  "atanh",    "cbrt",
    "ceil",      "copysign",  "cos",       "cosh",   "erf",       "erfc",   "exp",      "exp10",
    "exp2",      "expm1",     "fabs",      "fdim",   "floor",     "fma",    "fmax",     "fmin",
    "fmod",      "frexp",     "hypot",     "ilogb",  "ldexp",     "lgamma", "lgamma_r", "llrint",
    "llround",   "log",       "log10",     "log1p",  "log2",      "logb",   "lrint",    "lround",
    "modf",      "nearbyint", "nextafter", "pow",    "remainder", "remquo", "rint",     "round",
    "roundeven", "scalbn",    "sin",       "sincos", "sinh",      "sqrt",   "tan",      "tanh",
    "tgamma",    "trunc"};

// The compiler runtime's helpers (libgcc_s) LLVM calls for what the target cannot do inline: half
// conversions without F16C (__extendhfsf2, __truncsfhf2, __truncdfhf2), llvm.powi (__powisf2),
// 128-bit multiplication, division and conversions (__multi3, __udivti3, __floattisf, __fixdfti).
constexpr const char* kRuntimePrefixes[] = {"__extend", "__trunc", "__powi",    "__mul",
                                            "__div",    "__udiv",  "__mod",     "__umod",
                                            "__float",  "__fix",   "__gnu_h2f", "__gnu_f2h"};

const llvm::StringSet<>& mathNames() {
  static const llvm::StringSet<> names = [] {
    llvm::StringSet<> s;
    for (const char* n : kMathNames) {
      std::string d = n;
      s.insert(d);
      if (d == "lgamma_r")
        s.insert("lgammaf_r");
      else
        s.insert(d + "f");
    }
    return s;
  }();
  return names;
}

// A libmvec name: _ZGV<isa><mask><lanes><parameter letters>_<math name>, e.g. _ZGVdN8v_expf.
bool isVectorMathName(llvm::StringRef name) {
  if (!name.consume_front("_ZGV")) return false;
  size_t underscore = name.find('_');
  if (underscore == llvm::StringRef::npos) return false;
  return mathNames().contains(name.drop_front(underscore + 1));
}

bool isRuntimeName(llvm::StringRef name) {
  for (const char* p : kRuntimePrefixes)
    if (name.startswith(p)) return true;
  return false;
}

// A library opened by this one, whatever the application has loaded (RTLD_LOCAL: its names do
// not join the process's global scope). Null when the system has none.
void* openLibrary(const char* soname) {
  return dlopen(soname, RTLD_NOW | RTLD_LOCAL);
}

void* libm() {
  static void* handle = openLibrary("libm.so.6");
  return handle;
}
void* libmvec() {
  static void* handle = openLibrary("libmvec.so.1");
  return handle;
}
void* libgcc() {
  static void* handle = openLibrary("libgcc_s.so.1");
  return handle;
}

void* lookIn(void* handle, llvm::StringRef name) {
  if (handle == nullptr) return nullptr;
  return dlsym(handle, name.str().c_str());
}

void* resolve(llvm::StringRef name) {
  if (name == "memcpy") return reinterpret_cast<void*>(&std::memcpy);
  if (name == "memmove") return reinterpret_cast<void*>(&std::memmove);
  if (name == "memset") return reinterpret_cast<void*>(&std::memset);
  if (mathNames().contains(name)) return lookIn(libm(), name);
  if (isVectorMathName(name)) return lookIn(libmvec(), name);
  if (isRuntimeName(name)) return lookIn(libgcc(), name);
  return nullptr;
}

class HostSymbols final : public llvm::orc::DefinitionGenerator {
 public:
  llvm::Error tryToGenerate(llvm::orc::LookupState&, llvm::orc::LookupKind,
                            llvm::orc::JITDylib& dylib, llvm::orc::JITDylibLookupFlags,
                            const llvm::orc::SymbolLookupSet& symbols) override {
    const auto flags = llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable;
    llvm::orc::SymbolMap found;
    for (const auto& [name, unused] : symbols) {
      (void)unused;
      // ELF on x86-64 has no global prefix: the symbol is the name.
      if (void* address = resolve(*name))
        found[name] = llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(address), flags);
    }
    if (found.empty()) return llvm::Error::success();
    return dylib.define(llvm::orc::absoluteSymbols(std::move(found)));
  }
};

}  // namespace

std::unique_ptr<llvm::orc::DefinitionGenerator> hostSymbolGenerator() {
  return std::make_unique<HostSymbols>();
}

bool isHostSymbolAllowed(llvm::StringRef name) {
  return resolve(name) != nullptr;
}

}  // namespace tessera::backends::cpu::jit
