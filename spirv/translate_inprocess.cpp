#include "spirv/translate_inprocess.h"

#include <LLVMSPIRVLib/LLVMSPIRVLib.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <sstream>

namespace tessera::spirv {

std::unique_ptr<llvm::Module> translateInProcess(llvm::LLVMContext& context,
                                                 std::span<const uint32_t> words,
                                                 std::span<const SpecAssignment> specConstants,
                                                 std::string& log) {
  std::string bytes(reinterpret_cast<const char*>(words.data()), words.size() * 4);
  std::istringstream stream(bytes);
  SPIRV::TranslatorOpts opts;
  opts.enableAllExtensions();
  opts.setDesiredBIsRepresentation(SPIRV::BIsRepresentation::SPIRVFriendlyIR);
  opts.setGenKernelArgNameMDEnabled(true);
  for (const SpecAssignment& a : specConstants) opts.setSpecConst(a.specId, a.value);
  llvm::Module* raw = nullptr;
  std::string error;
  bool ok = llvm::readSpirv(context, opts, stream, raw, error);
  std::unique_ptr<llvm::Module> module(raw);
  if (!ok || module == nullptr) {
    log = "SPIR-V translation failed: " + (error.empty() ? "no reason given" : error);
    return nullptr;
  }
  return module;
}

}  // namespace tessera::spirv
