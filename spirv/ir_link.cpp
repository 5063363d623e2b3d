#include "spirv/ir_link.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/raw_ostream.h>

#include <map>

#include "spirv/ir_reflect.h"

namespace tessera::spirv {
namespace {

// The linker reports through the context's diagnostics: each error becomes a log line.
void collectDiagnostic(const llvm::DiagnosticInfo& info, void* log) {
  if (info.getSeverity() != llvm::DS_Error) return;
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::DiagnosticPrinterRawOStream printer(os);
  info.print(printer);
  os.flush();
  *static_cast<std::string*>(log) += "error: " + text + "\n";
}

std::unique_ptr<llvm::Module> readModule(llvm::LLVMContext& context, const std::string& bitcode,
                                         size_t index, std::string& log) {
  const std::string name = "object " + std::to_string(index);
  llvm::Expected<std::unique_ptr<llvm::Module>> parsed =
      llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode, name), context);
  if (!parsed) {
    log += "error: " + name + " does not read: " + llvm::toString(parsed.takeError()) + "\n";
    return nullptr;
  }
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(**parsed, &os)) {
    os.flush();
    log += "error: " + name + " is not valid LLVM IR: " + problems + "\n";
    return nullptr;
  }
  return std::move(*parsed);
}

// Whether `g` is a definition the linker keeps one of: external and strong (a linkonce_odr or weak
// definition may come twice, one copy is kept).
bool definesStrongly(const llvm::GlobalValue& g) {
  return !g.isDeclarationForLinker() && !g.hasLocalLinkage() && !g.hasLinkOnceLinkage() &&
         !g.hasWeakLinkage() && !g.hasCommonLinkage() && !g.getName().startswith("llvm.");
}

// OpenCL 3.0, clLinkProgram: CL_LINK_PROGRAM_FAILURE "if there is a failure to link the compiled
// binaries and/or libraries"; a name two inputs define is one, as for a C linker (spirv/link.h's
// duplicateDefinitions says the same of SPIR-V units). Checked before linking, for a message that
// names both inputs.
bool checkDefinitions(const std::vector<std::unique_ptr<llvm::Module>>& modules,
                      const std::vector<std::string>& definedElsewhere, std::string& log) {
  std::map<std::string, std::string> definedBy;
  for (const std::string& name : definedElsewhere) definedBy.emplace(name, "a SPIR-V input");
  bool ok = true;
  for (size_t i = 0; i < modules.size(); ++i) {
    const std::string self = "object " + std::to_string(i);
    for (const llvm::GlobalValue& g : modules[i]->global_values()) {
      if (!definesStrongly(g)) continue;
      auto [at, added] = definedBy.emplace(g.getName().str(), self);
      if (added) continue;
      log += "error: '" + at->first + "' is defined by two inputs (" + at->second + " and " + self +
             "): multiple definition\n";
      ok = false;
    }
  }
  return ok;
}

}  // namespace

std::string linkTesseraIRInProcess(const std::vector<std::string>& modules, bool createLibrary,
                                   const std::vector<std::string>& definedElsewhere,
                                   std::string& log) {
  if (modules.empty()) {
    log += "error: nothing to link\n";
    return {};
  }
  llvm::LLVMContext context;
  // Tessera IR is clang's typed-pointer IR (ir_reflect.h reads it so), and stays so.
  context.setOpaquePointers(false);
  context.setDiagnosticHandlerCallBack(collectDiagnostic, &log);
  std::vector<std::unique_ptr<llvm::Module>> read;
  for (size_t i = 0; i < modules.size(); ++i) {
    read.push_back(readModule(context, modules[i], i, log));
    if (!read.back()) return {};
  }
  if (!checkDefinitions(read, definedElsewhere, log)) return {};
  std::unique_ptr<llvm::Module> linked = std::move(read[0]);
  llvm::Linker linker(*linked);
  for (size_t i = 1; i < read.size(); ++i) {
    // True on failure; the reason came through collectDiagnostic.
    if (linker.linkInModule(std::move(read[i]))) {
      if (log.empty()) log = "error: the modules do not link\n";
      return {};
    }
  }
  if (!createLibrary) {
    ReflectResult reflected = reflectIR(*linked);
    bool unresolved = false;
    for (const LinkageEntry& e : reflected.module.linkage)
      if (e.kind == LinkageKind::Import && !e.builtIn) {
        log += "error: " + std::string(e.isFunction ? "function" : "variable") + " '" + e.name +
               "' is used but defined by no linked program\n";
        unresolved = true;
      }
    if (unresolved) return {};
  }
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*linked, &os)) {
    os.flush();
    log += "error: the linked module is not valid LLVM IR: " + problems + "\n";
    return {};
  }
  std::string out;
  llvm::raw_string_ostream bitcode(out);
  llvm::WriteBitcodeToFile(*linked, bitcode);
  bitcode.flush();
  return out;
}

}  // namespace tessera::spirv
