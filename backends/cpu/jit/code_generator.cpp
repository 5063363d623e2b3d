#include "backends/cpu/jit/code_generator.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "backends/cpu/jit/jit_passes.h"
#include "backends/cpu/jit/kernel_jit.h"
#include "backends/cpu/jit/native_unit.h"
#include "backends/cpu/jit/object_check.h"
#include "backends/cpu/runtime/builtin_runtime.h"

namespace tessera::backends::cpu {
namespace {

class CpuCodeGenerator final : public CodeGenerator {
 public:
  explicit CpuCodeGenerator(std::unique_ptr<KernelJit> jit)
      : jit_(std::move(jit)),
        target_{jit_->hostCpu(), jit_->hostFeatures(), KernelJit::llvmVersion()} {}

  const CodeTarget& target() const override { return target_; }
  std::string describePipeline() const override { return KernelJit::describePipeline(); }
  uint64_t compileCount() const override { return jit_->compileCount(); }
  bool providesFunction(const std::string& name) const override {
    return jit::isRuntimeFunction(name) || jit::providesVendorBuiltin(name);
  }

  std::shared_ptr<const ModuleCode> compile(std::unique_ptr<llvm::LLVMContext> context,
                                            std::unique_ptr<llvm::Module> module,
                                            const CompileOptions& options,
                                            std::string& error) override {
    return jit_->compile(std::move(context), std::move(module), &error, options);
  }

  std::shared_ptr<const ModuleCode> combine(
      const std::vector<std::string>& order,
      std::vector<std::shared_ptr<const ModuleCode>> units) const override {
    auto all = std::make_shared<CompiledModule>();
    for (const std::string& name : order) {
      bool found = false;
      for (const auto& part : units) {
        const CompiledModule& unit = compiledModule(*part);
        for (size_t i = 0; !found && i < unit.kernels.size(); ++i) {
          if (unit.kernels[i].name != name) continue;
          all->kernels.push_back(unit.kernels[i]);
          all->kernelSymbols.push_back(unit.kernelSymbols.at(i));
          found = true;
        }
        if (found) break;
      }
      if (!found) return nullptr;
    }
    for (const auto& unit : units) {
      all->compileMs += unit->compileMs;
      all->globals.insert(unit->globals.begin(), unit->globals.end());
      all->functions.insert(unit->functions.begin(), unit->functions.end());
    }
    all->parts = std::move(units);
    return all;
  }

  void writeUnit(const ModuleCode& unit, std::vector<uint8_t>& out) const override {
    cpu::writeUnit(compiledModule(unit), out);
  }
  std::shared_ptr<ModuleCode> readUnit(std::span<const uint8_t> in, size_t& used,
                                       std::string& error) const override {
    auto unit = std::make_shared<CompiledModule>();
    if (!cpu::readUnit(in, used, *unit, error)) return nullptr;
    return unit;
  }
  bool checkUnit(const ModuleCode& unit, std::string& error) const override {
    return checkObjectStructure(compiledModule(unit), error);
  }
  void trialLoad(const ModuleCode& code, std::vector<uint8_t>& object,
                 std::vector<std::string>& symbols) const override {
    const CompiledModule& unit = compiledModule(code);
    object.assign(unit.object.begin(), unit.object.end());
    symbols = unit.kernelSymbols;
    for (const auto& [name, symbol] : unit.globals) symbols.push_back(name);
    for (const auto& [name, symbol] : unit.functions) symbols.push_back(name);
  }
  std::shared_ptr<const ModuleCode> load(const ModuleCode& unit, std::string& error) override {
    return jit_->load(compiledModule(unit), &error);
  }

 private:
  std::unique_ptr<KernelJit> jit_;
  const CodeTarget target_;
};

}  // namespace

std::unique_ptr<CodeGenerator> createCodeGenerator(const GeneratorOptions& options,
                                                   std::string& error) {
  JitOptions jitOptions;
  jitOptions.perfJit = options.perfJit;
  std::unique_ptr<KernelJit> jit = KernelJit::create(&error, jitOptions);
  if (!jit) return nullptr;
  return std::make_unique<CpuCodeGenerator>(std::move(jit));
}

}  // namespace tessera::backends::cpu
