#include "spirv/friendly_ir.h"

#include <LLVMSPIRVLib/LLVMSPIRVLib.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Pass.h>
#include <llvm/Support/raw_ostream.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace tessera::spirv {
namespace {

constexpr llvm::StringLiteral kEntryPrefix = "__spirv_entry_";

// The translator's regularization gives every kernel a wrapper, `__spirv_entry_<name>`, the
// entry point its writer names <name>, and makes the kernel's own body a spir_func called by it
// (and by the kernels that call it as a function). Its reader gives the JIT each kernel as one
// function, body included, and the JIT's kernel passes expect that shape: the body is inlined into
// the wrapper, which takes the kernel's name; a body no other kernel calls is then dropped, and one
// that is called keeps a name no OpenCL C identifier can have.
void nameKernelsByTheirEntryPoints(llvm::Module& module) {
  std::vector<llvm::Function*> wrappers;
  for (llvm::Function& f : module)
    if (f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL && f.getName().startswith(kEntryPrefix))
      wrappers.push_back(&f);
  for (llvm::Function* wrapper : wrappers) {
    std::string name = wrapper->getName().drop_front(kEntryPrefix.size()).str();
    if (llvm::Function* body = module.getFunction(name)) {
      body->setName("__tessera_kernel_body." + name);
      body->setLinkage(llvm::GlobalValue::InternalLinkage);
      std::vector<llvm::CallBase*> calls;
      for (llvm::User* u : body->users())
        if (auto* call = llvm::dyn_cast<llvm::CallBase>(u))
          if (call->getFunction() == wrapper && call->getCalledFunction() == body)
            calls.push_back(call);
      for (llvm::CallBase* call : calls) {
        llvm::InlineFunctionInfo info;
        llvm::InlineFunction(*call, info);
      }
      if (body->use_empty()) body->eraseFromParent();
    }
    wrapper->setName(name);
    wrapper->setLinkage(llvm::GlobalValue::ExternalLinkage);
  }
}

// The SPIR-V image type of one of clang's (`opencl.image2d_array_ro_t`) as the translator's reader
// names it: "_void_<Dim>_<Depth>_<Arrayed>_<MS>_<Sampled>_<Format>_<Access>", "" for none.
std::string imageTypeSuffix(llvm::StringRef clangName) {
  llvm::StringRef n = clangName;
  if (!n.consume_front("image") || !n.consume_back("_t") || n.size() < 5) return {};
  unsigned access = n.endswith("_ro") ? 0 : n.endswith("_wo") ? 1 : n.endswith("_rw") ? 2 : 3;
  if (access == 3) return {};
  n = n.drop_back(3);
  unsigned dim = n.startswith("1d_buffer") ? 5 : n.startswith("1d") ? 0 : n.startswith("2d") ? 1
               : n.startswith("3d") ? 2 : 9;
  if (dim == 9) return {};
  const bool depth = n.contains("_depth"), arrayed = n.contains("_array"), ms = n.contains("_msaa");
  return "_void_" + std::to_string(dim) + "_" + std::to_string(depth) + "_" +
         std::to_string(arrayed) + "_" + std::to_string(ms) + "_0_0_" + std::to_string(access);
}

// Itanium's length-prefixed name: "14ocl_image2d_ro" for "ocl_image2d_ro".
std::string sourceName(const std::string& s) { return std::to_string(s.size()) + s; }

// The translator's passes leave clang's OpenCL handle types (%opencl.image2d_ro_t,
// %opencl.sampler_t) for its writer to map, and mangle the builtins that take them with clang's
// names (`14ocl_image2d_ro`); its reader, whose output the JIT reads, names them as SPIR-V types
// (%spirv.Image._void_1_0_0_0_0_0_0, %spirv.Sampler) and mangles those as pointers into their
// address space. The types take the reader's names, and so do the builtins: their parameters'
// mangling, and the result-type suffix, which the passes write after a double underscore
// (`__spirv_ImageSampleExplicitLod__Rfloat4`) and the reader after one. The casts out of the
// generic space name their storage class as the reader does (`_ToGlobal`, not `_To5`).
void nameHandlesAsTheReaderDoes(llvm::Module& module) {
  std::vector<std::pair<std::string, std::string>> manglings;  // clang's -> the reader's
  for (llvm::StructType* t : module.getIdentifiedStructTypes()) {
    if (!t->isOpaque() || !t->getName().startswith("opencl.")) continue;
    llvm::StringRef clangName = t->getName().drop_front(7);
    std::string spirvName;
    std::string addressSpace;
    if (clangName == "sampler_t") {
      spirvName = "spirv.Sampler";
      addressSpace = "2";
      manglings.push_back({sourceName("ocl_sampler"), "PU3AS2" + sourceName("__spirv_Sampler")});
    } else if (std::string suffix = imageTypeSuffix(clangName); !suffix.empty()) {
      spirvName = "spirv.Image." + suffix;
      std::string clangMangled = "ocl_" + clangName.drop_back(2).str();
      manglings.push_back(
          {sourceName(clangMangled), "PU3AS1" + sourceName("__spirv_Image_" + suffix)});
    } else {
      continue;
    }
    t->setName(spirvName);
  }
  std::vector<llvm::Function*> builtins;
  for (llvm::Function& f : module)
    if (f.isDeclaration() && f.getName().startswith("_Z") && f.getName().contains("__spirv_"))
      builtins.push_back(&f);
  for (llvm::Function* f : builtins) {
    std::string name = f->getName().str();
    // "_Z<length><base><parameters>"
    size_t digits = name.find_first_not_of("0123456789", 2);
    size_t length = 0;
    if (digits == std::string::npos || digits == 2 ||
        llvm::StringRef(name).substr(2, digits - 2).getAsInteger(10, length) ||
        digits + length > name.size())
      continue;
    std::string base = name.substr(digits, length);
    std::string parameters = name.substr(digits + length);
    size_t r = base.find("__R");
    if (r != std::string::npos) base.erase(r, 1);
    // An empty result-type suffix leaves a trailing underscore (`__spirv_SubgroupBlockWriteINTEL_`).
    if (base.size() > 1 && base.back() == '_') base.pop_back();
    // to_global / to_local / to_private: the passes name the target storage class by number.
    static const std::pair<const char*, const char*> kStorageClasses[] = {
        {"_To5", "_ToGlobal"}, {"_To4", "_ToLocal"}, {"_To7", "_ToPrivate"}};
    if (llvm::StringRef(base).startswith("__spirv_GenericCastToPtrExplicit"))
      for (const auto& [number, word] : kStorageClasses)
        if (llvm::StringRef(base).endswith(number))
          base = base.substr(0, base.size() - std::strlen(number)) + word;
    for (const auto& [from, to] : manglings)
      for (size_t at = parameters.find(from); at != std::string::npos;
           at = parameters.find(from, at + to.size()))
        parameters.replace(at, from.size(), to);
    std::string renamed = "_Z" + sourceName(base) + parameters;
    if (renamed == name) continue;
    if (llvm::Function* existing = module.getFunction(renamed)) {
      if (existing->getFunctionType() != f->getFunctionType()) continue;
      f->replaceAllUsesWith(existing);
      f->eraseFromParent();
    } else {
      f->setName(renamed);
    }
  }
}

// The passes rewrite some builtin calls with fewer arguments than clang's (work_group_broadcast's
// three coordinates become one vector) and keep the call's parameter attributes, which then name
// parameters that are gone: the verifier refuses such a call. A builtin's parameter attributes are
// clang's `noundef` and nothing a lowering needs, so they are dropped from every builtin and its calls.
void dropBuiltinParameterAttributes(llvm::Module& module) {
  for (llvm::Function& f : module) {
    if (!f.isDeclaration() || !f.getName().contains("__spirv_")) continue;
    llvm::AttributeList own = f.getAttributes();
    f.setAttributes(
        llvm::AttributeList::get(module.getContext(), own.getFnAttrs(), own.getRetAttrs(), {}));
    for (llvm::User* u : f.users())
      if (auto* call = llvm::dyn_cast<llvm::CallBase>(u)) {
        llvm::AttributeList a = call->getAttributes();
        call->setAttributes(llvm::AttributeList::get(
            module.getContext(), a.getFnAttrs(), a.getRetAttrs(), {}));
      }
  }
}

// Whether a builtin is one every work-item of a group (or sub-group) must reach together: barriers
// and the group and sub-group operations (SPIR-V's OpControlBarrier, OpGroup*, OpGroupNonUniform*,
// OpSubgroup*INTEL), which the translator's reader alone marks convergent.
bool groupBuiltin(llvm::StringRef name) {
  for (const char* word : {"Barrier", "Group", "Subgroup", "SubGroup", "sub_group", "work_group"})
    if (name.contains(word)) return true;
  return false;
}

// Clang marks every function and call of OpenCL C convergent, the builtins included. On a work-item
// query (get_group_id's __spirv_BuiltInWorkgroupId), a math function or a conversion that forbids
// hoisting it out of a loop (LICM and GVN leave convergent calls where they are), which keeps
// addresses built from it from being seen as loop-invariant: the JIT's prefetch across barriers
// found no step for a tile load of CLBlast's shape (tiles4), where the SPIR-V front end's IR,
// with the reader's attributes, gave three. So builtins other than the group ones lose it, as
// the reader would have them.
void dropConvergenceOfPlainBuiltins(llvm::Module& module) {
  for (llvm::Function& f : module) {
    if (!f.isDeclaration() || !f.getName().contains("__spirv_") || groupBuiltin(f.getName()))
      continue;
    f.removeFnAttr(llvm::Attribute::Convergent);
    for (llvm::User* u : f.users())
      if (auto* call = llvm::dyn_cast<llvm::CallBase>(u);
          call && call->getCalledFunction() == &f)
        call->removeFnAttr(llvm::Attribute::Convergent);
  }
}

}  // namespace

void nameAsTheReaderDoes(llvm::Module& module) {
  nameKernelsByTheirEntryPoints(module);
  nameHandlesAsTheReaderDoes(module);
  dropBuiltinParameterAttributes(module);
  dropConvergenceOfPlainBuiltins(module);
}

bool toTesseraIR(llvm::Module& module, std::string& log) {
  // The passes llvm::writeSpirv runs before translating (SPIRVWriter.cpp's addPassesForSPIRV, in
  // its order), without mem2reg (the JIT optimizes) and without the writer itself.
  llvm::legacy::PassManager passes;
  passes.add(llvm::createPreprocessMetadataLegacy());
  passes.add(llvm::createSPIRVLowerOCLBlocksLegacy());
  passes.add(llvm::createOCLTypeToSPIRVLegacy());
  passes.add(llvm::createSPIRVLowerBoolLegacy());
  passes.add(llvm::createSPIRVLowerConstExprLegacy());
  passes.add(llvm::createOCLToSPIRVLegacy());
  passes.add(llvm::createSPIRVLowerSaddIntrinsicsLegacy());
  passes.add(llvm::createSPIRVRegularizeLLVMLegacy());
  passes.add(llvm::createSPIRVLowerMemmoveLegacy());
  passes.run(module);
  nameAsTheReaderDoes(module);
  std::string problems;
  llvm::raw_string_ostream out(problems);
  if (llvm::verifyModule(module, &out)) {
    out.flush();
    log += "error: the compiled LLVM IR does not verify: " + problems + "\n";
    return false;
  }
  return true;
}

}  // namespace tessera::spirv
