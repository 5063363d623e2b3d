// The checks of object_check.h.
#include "backends/cpu/jit/object_check.h"

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Object/ELF.h>
#include <llvm/Support/Error.h>

#include <cstring>
#include <map>

#include "backends/cpu/jit/kernel_jit.h"
#include "support/hash.h"

namespace tessera::backends::cpu {
namespace {

using Elf = llvm::object::ELFFile<llvm::object::ELF64LE>;
using Shdr = Elf::Elf_Shdr;
using Sym = Elf::Elf_Sym;

template <typename T>
bool take(llvm::Expected<T>& value, std::string& error, const std::string& what) {
  if (value) return true;
  error = what + ": " + llvm::toString(value.takeError());
  return false;
}

// The bytes a relocation of `type` writes, for the x86-64 relocations RuntimeDyld implements that
// LLVM's code generation emits for the JIT's code model (no TLS, no GOT-relative data); -1 for
// any other (RuntimeDyld's answer to an unknown type is report_fatal_error).
int relocationBytes(uint16_t machine, uint32_t type) {
  if (machine != llvm::ELF::EM_X86_64) return -1;
  switch (type) {
    case llvm::ELF::R_X86_64_NONE:
      return 0;
    case llvm::ELF::R_X86_64_64:
    case llvm::ELF::R_X86_64_PC64:
      return 8;
    case llvm::ELF::R_X86_64_PC32:
    case llvm::ELF::R_X86_64_PLT32:
    case llvm::ELF::R_X86_64_32:
    case llvm::ELF::R_X86_64_32S:
    case llvm::ELF::R_X86_64_GOTPCREL:
    case llvm::ELF::R_X86_64_GOTPCRELX:
    case llvm::ELF::R_X86_64_REX_GOTPCRELX:
      return 4;
    default:
      return -1;
  }
}

uint16_t hostMachine() {
#if defined(__x86_64__)
  return llvm::ELF::EM_X86_64;
#elif defined(__aarch64__)
  return llvm::ELF::EM_AARCH64;
#else
  return llvm::ELF::EM_NONE;
#endif
}

// Objects larger than this are not native code of a kernel (and sizes below it cannot overflow
// RuntimeDyld's 64-bit sums of sizes, alignments and stubs).
constexpr uint64_t kMaxSectionBytes = uint64_t{1} << 40;
constexpr uint64_t kMaxSectionAlignment = 4096;

bool isPowerOfTwoOrZero(uint64_t v) {
  return (v & (v - 1)) == 0;
}

}  // namespace

std::string abiRecordSymbol(const std::string& kernelSymbol) {
  return "__tessera_abi." + kernelSymbol;
}

std::vector<uint32_t> abiRecord(const CompiledKernel& k) {
  const uint64_t name = support::fnv1a64(k.name);
  std::vector<uint32_t> r = {
      uint32_t(name),     uint32_t(name >> 32),      k.argBufferSize,
      k.staticLocalBytes, k.scratchBytesPerWorkItem, k.barrierCount,
      k.subgroupSize,     k.requiredSubgroupSize,    uint32_t(k.args.size())};
  for (const KernelArgInfo& a : k.args) {
    r.push_back(uint32_t(a.kind));
    r.push_back(a.size);
    r.push_back(a.offset);
  }
  return r;
}

bool checkObjectStructure(const CompiledModule& unit, std::string& error) {
  llvm::StringRef bytes(unit.object.data(), unit.object.size());
  if (bytes.size() < sizeof(Elf::Elf_Ehdr) || !bytes.startswith("\x7f"
                                                                "ELF")) {
    error = "the object code is not ELF";
    return false;
  }
  const auto* ident = reinterpret_cast<const uint8_t*>(bytes.data());
  if (ident[llvm::ELF::EI_CLASS] != llvm::ELF::ELFCLASS64 ||
      ident[llvm::ELF::EI_DATA] != llvm::ELF::ELFDATA2LSB) {
    error = "the object code is not 64-bit little-endian ELF";
    return false;
  }
  auto file = Elf::create(bytes);
  if (!take(file, error, "the object code")) return false;
  const auto& header = file->getHeader();
  if (header.e_type != llvm::ELF::ET_REL || header.e_machine != hostMachine() ||
      header.e_shentsize != sizeof(Shdr)) {
    error = "the object code is not a relocatable object for this CPU";
    return false;
  }
  auto sectionsOr = file->sections();
  if (!take(sectionsOr, error, "the object's section headers")) return false;
  auto sections = *sectionsOr;
  if (sections.empty() || header.e_shstrndx >= sections.size()) {
    error = "the object has no section name table";
    return false;
  }
  const Shdr* symtab = nullptr;
  for (const Shdr& s : sections) {
    auto name = file->getSectionName(s);
    if (!take(name, error, "a section name")) return false;
    if (s.sh_type != llvm::ELF::SHT_NOBITS) {
      auto contents = file->getSectionContents(s);
      if (!take(contents, error, "section " + name->str())) return false;
    }
    if (s.sh_size > kMaxSectionBytes || !isPowerOfTwoOrZero(s.sh_addralign) ||
        s.sh_addralign > kMaxSectionAlignment) {
      error = "section " + name->str() + " has an impossible size or alignment";
      return false;
    }
    // Tessera's objects have no unwind tables (kernels never unwind); the unwinder would parse
    // one, unchecked, at the application's next C++ exception.
    if (*name == ".eh_frame" || s.sh_type == llvm::ELF::SHT_X86_64_UNWIND ||
        s.sh_type == llvm::ELF::SHT_GROUP || (s.sh_flags & llvm::ELF::SHF_TLS) ||
        s.sh_type == llvm::ELF::SHT_REL || s.sh_type == llvm::ELF::SHT_SYMTAB_SHNDX ||
        s.sh_type == llvm::ELF::SHT_DYNSYM || s.sh_type == llvm::ELF::SHT_DYNAMIC) {
      error = "section " + name->str() + " is of a kind Tessera's objects never have";
      return false;
    }
    if (s.sh_type == llvm::ELF::SHT_SYMTAB) {
      if (symtab) {
        error = "the object has two symbol tables";
        return false;
      }
      symtab = &s;
    }
  }
  if (!symtab) {
    error = "the object has no symbol table";
    return false;
  }
  auto symbolsOr = file->symbols(symtab);
  if (!take(symbolsOr, error, "the symbol table")) return false;
  auto symbols = *symbolsOr;
  auto strings = file->getStringTableForSymtab(*symtab, sections);
  if (!take(strings, error, "the symbol names")) return false;
  // Every symbol: a readable name, a section that exists, and (defined in a section) its value
  // and size inside it.
  std::map<std::string, const Sym*> byName;
  for (const Sym& sym : symbols) {
    auto name = sym.getName(*strings);
    if (!take(name, error, "a symbol name")) return false;
    const uint16_t index = sym.st_shndx;
    // An undefined symbol is global (the first, null, entry aside), a section's symbol names one.
    if (&sym != &symbols[0] && index == llvm::ELF::SHN_UNDEF &&
        (sym.getBinding() == llvm::ELF::STB_LOCAL || sym.getType() == llvm::ELF::STT_SECTION)) {
      error = "symbol " + name->str() + " is undefined and local";
      return false;
    }
    if (index == llvm::ELF::SHN_UNDEF || index == llvm::ELF::SHN_ABS) {
    } else if (index >= sections.size()) {
      error = "symbol " + name->str() + " names a section that does not exist";
      return false;
    } else {
      const Shdr& s = sections[index];
      if (sym.st_value > s.sh_size || sym.st_size > s.sh_size - sym.st_value) {
        error = "symbol " + name->str() + " lies outside its section";
        return false;
      }
    }
    if (sym.getType() == llvm::ELF::STT_TLS || sym.getType() == llvm::ELF::STT_GNU_IFUNC) {
      error = "symbol " + name->str() + " is of a kind Tessera's objects never have";
      return false;
    }
    if (!name->empty() && sym.getBinding() != llvm::ELF::STB_LOCAL) byName[name->str()] = &sym;
  }
  // Every relocation: of a section that exists, of a type the linker implements, of a symbol
  // that exists, writing inside the section it relocates.
  for (const Shdr& s : sections) {
    if (s.sh_type != llvm::ELF::SHT_RELA) continue;
    if (s.sh_link >= sections.size() || &sections[s.sh_link] != symtab || s.sh_info == 0 ||
        s.sh_info >= sections.size() || s.sh_entsize != sizeof(Elf::Elf_Rela)) {
      error = "a relocation section names the wrong symbol table or section";
      return false;
    }
    const Shdr& target = sections[s.sh_info];
    auto relas = file->relas(s);
    if (!take(relas, error, "a relocation section")) return false;
    for (const auto& r : *relas) {
      const uint32_t type = r.getType(false);
      const int width = relocationBytes(header.e_machine, type);
      if (width < 0) {
        error = "relocation type " + std::to_string(type) + " is not one the JIT links";
        return false;
      }
      if (r.getSymbol(false) >= symbols.size() || r.r_offset > target.sh_size ||
          uint64_t(width) > target.sh_size - r.r_offset) {
        error = "a relocation names no symbol or writes outside its section";
        return false;
      }
    }
  }
  // The unit's tables and the object agree: a kernel's work-group function and an exported
  // function are functions defined in executable code; a global is a variable of the size the
  // table gives (zeModuleGetGlobalPointer reports it, and the application copies that much).
  auto defined = [&](const std::string& name, bool function) -> const Sym* {
    auto it = byName.find(name);
    if (it == byName.end()) return nullptr;
    const Sym& sym = *it->second;
    if (sym.st_shndx == llvm::ELF::SHN_UNDEF || sym.st_shndx >= sections.size()) return nullptr;
    const bool code = sections[sym.st_shndx].sh_flags & llvm::ELF::SHF_EXECINSTR;
    if (function != (code && sym.getType() == llvm::ELF::STT_FUNC)) return nullptr;
    return &sym;
  };
  for (size_t i = 0; i < unit.kernelSymbols.size(); ++i) {
    const std::string& name = unit.kernelSymbols[i];
    if (!defined(name, true)) {
      error = "kernel function " + name + " is not defined in the object";
      return false;
    }
    // The table says what the code was compiled for: the JIT's record beside it, byte for byte.
    const std::vector<uint32_t> record =
        i < unit.kernels.size() ? abiRecord(unit.kernels[i]) : std::vector<uint32_t>{};
    const Sym* abi = defined(abiRecordSymbol(name), false);
    bool same = abi && !record.empty() && abi->st_size == record.size() * sizeof(uint32_t) &&
                sections[abi->st_shndx].sh_type == llvm::ELF::SHT_PROGBITS;
    if (same) {
      auto contents = file->getSectionContents(sections[abi->st_shndx]);
      if (!take(contents, error, "the kernel record's section")) return false;
      same = std::memcmp(contents->data() + abi->st_value, record.data(), abi->st_size) == 0;
    }
    if (!same) {
      error = "kernel " + name + "'s table is not the one its code was compiled with";
      return false;
    }
  }
  for (const auto& [name, f] : unit.functions)
    if (!defined(name, true)) {
      error = "function " + name + " is not defined in the object";
      return false;
    }
  for (const auto& [name, g] : unit.globals) {
    const Sym* sym = defined(name, false);
    if (!sym || sym->st_size != g.size) {
      error = "variable " + name + " is not defined in the object with the size the table gives";
      return false;
    }
  }
  return true;
}

bool loadObjectForCheck(const CompiledModule& unit, std::string& error) {
  // One JIT for the process's life (creating one is most of a check's time); each object is
  // removed once tried.
  static std::string createError;
  static const std::unique_ptr<KernelJit> jit = KernelJit::create(&createError);
  if (!jit) {
    error = createError;
    return false;
  }
  return jit->loadOnTrial(unit, &error);
}

}  // namespace tessera::backends::cpu
