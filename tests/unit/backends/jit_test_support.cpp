#include "jit_test_support.h"

#include <LLVMSPIRVLib/LLVMSPIRVLib.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/SourceMgr.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "compiler/compiler_config.h"
#include "spirv/clc/translate.h"
#include "spirv/opencl_c.h"

namespace tessera::backends::cpu::test {

KernelJit& jit() {
  static std::unique_ptr<KernelJit> j = [] {
    std::string error;
    auto k = KernelJit::create(&error);
    if (!k) FAIL("KernelJit::create: " << error);
    return k;
  }();
  return *j;
}

WorkerPool& pool() {
  static WorkerPool p({}, 2, 20000);
  return p;
}

std::shared_ptr<const CompiledModule> compileKernelFile(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const CompiledModule>> modules;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = modules.find(name); it != modules.end()) return it->second;
  return modules[name] = readAndCompile(name);
}

CompileOptions defaultOptions() {
  // TESSERA_WIDEN as the driver reads it (config/settings.def, through the compiler's settings):
  // ctest runs the builtin tests again at forced widths (unit.backends.widen16, .widen4), so
  // that every kernel they build is compared widened with the host's reference.
  static const int widen = [] {
    std::vector<std::string> warnings;
    return compiler::configFromEnvironment(warnings).code.widen;
  }();
  CompileOptions options;
  options.widen = widen;
  return options;
}

std::shared_ptr<const CompiledModule> readAndCompile(const std::string& name) {
  return readAndCompile(name, defaultOptions());
}

bool tesseraIRFrontEnd() {
  static const bool ir = [] {
    const char* v = std::getenv("TESSERA_TEST_FRONT_END");
    return v != nullptr && std::string(v) == "ir";
  }();
  return ir;
}

namespace {

std::shared_ptr<const CompiledModule> compileFromSource(const std::string& name,
                                                        const CompileOptions& options) {
  std::ifstream file(std::string(TESSERA_KERNELS_JIT_SOURCES) + "/" + name + ".cl");
  REQUIRE(file.good());
  std::stringstream source;
  source << file.rdbuf();
  // As the build compiles the files (third_party/opencl_to_spirv.cmake): OpenCL C 2.0.
  spirv::CompileResult r = spirv::compileOpenCLC(source.str(), "-cl-std=CL2.0", {},
                                                 spirv::CompileOutput::TesseraIR);
  INFO(r.log);
  REQUIRE(r.ok);
  auto context = std::make_unique<llvm::LLVMContext>();
  spirv::TranslateResult t = spirv::readTesseraIR(
      *context, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(r.ir.data()), r.ir.size()));
  INFO(t.log);
  REQUIRE(t.ok());
  std::string error;
  std::shared_ptr<const CompiledModule> compiled =
      jit().compile(std::move(context), std::move(t.module), &error, options);
  INFO(error);
  REQUIRE(compiled != nullptr);
  return compiled;
}

}  // namespace

std::shared_ptr<const CompiledModule> readAndCompile(const std::string& name,
                                                     const CompileOptions& options) {
  if (tesseraIRFrontEnd()) return compileFromSource(name, options);
  std::string path = std::string(TESSERA_KERNELS_JIT) + "/" + name + ".spv";
  std::ifstream file(path, std::ios::binary);
  REQUIRE(file.good());
  std::stringstream bytes;
  bytes << file.rdbuf();
  std::string spirv = bytes.str();
  uint32_t magic = 0;
  REQUIRE(spirv.size() >= 4);
  std::memcpy(&magic, spirv.data(), 4);
  REQUIRE(magic == 0x07230203u);
  auto context = std::make_unique<llvm::LLVMContext>();
  SPIRV::TranslatorOpts opts;
  opts.setDesiredBIsRepresentation(SPIRV::BIsRepresentation::SPIRVFriendlyIR);
  llvm::Module* module = nullptr;
  std::string error;
  std::istringstream in(spirv);
  REQUIRE(llvm::readSpirv(*context, opts, in, module, error));
  std::shared_ptr<const CompiledModule> compiled =
      jit().compile(std::move(context), std::unique_ptr<llvm::Module>(module), &error, options);
  INFO(error);
  REQUIRE(compiled != nullptr);
  return compiled;
}

std::unique_ptr<llvm::Module> parseModule(llvm::LLVMContext& context, const char* ir) {
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> m = llvm::parseAssemblyString(ir, diagnostic, context);
  INFO(diagnostic.getMessage().str());
  REQUIRE(m != nullptr);
  return m;
}

namespace {

// IR text parsed and compiled: the module, or null and the JIT's `error`.
std::shared_ptr<const CompiledModule> compileText(const std::string& ir,
                                                  const CompileOptions& options,
                                                  std::string& error) {
  auto context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> module = parseModule(*context, ir.c_str());
  return jit().compile(std::move(context), std::move(module), &error, options);
}

}  // namespace

std::shared_ptr<const CompiledModule> compileIR(const std::string& ir,
                                                const CompileOptions& options) {
  std::string error;
  auto compiled = compileText(ir, options, error);
  INFO(error);
  REQUIRE(compiled != nullptr);
  return compiled;
}

std::string compileIRError(const std::string& ir) {
  std::string error;
  return compileText(ir, defaultOptions(), error) == nullptr ? error : "";
}

const CompiledKernel& kernel(const std::string& file, const std::string& name) {
  const CompiledKernel* k = compileKernelFile(file)->find(name);
  REQUIRE(k != nullptr);
  return *k;
}

std::string captureFd(int fd, const std::function<void()>& body) {
  std::fflush(nullptr);
  std::FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  const int saved = dup(fd);
  REQUIRE(dup2(fileno(file), fd) == fd);
  body();  // launch() flushes stdout before it returns
  std::fflush(nullptr);
  dup2(saved, fd);
  close(saved);
  std::string text;
  std::rewind(file);
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) > 0;) text.append(buffer, n);
  std::fclose(file);
  return text;
}

}  // namespace tessera::backends::cpu::test
