// Helpers of the JIT tests: reading a build-time .spv into an llvm::Module (the spirv/ layer will
// own this step; here it is the minimum: magic check + SPIRV-LLVM-Translator), compiling it, and
// an argument buffer builder that follows a kernel's KernelArgInfo layout.
#pragma once

#include <catch2/catch.hpp>

#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/jit/kernel_jit.h"
#include "backends/cpu/runtime/launcher.h"
#include "backends/cpu/worker_pool.h"

namespace tessera::backends::cpu::test {

// The process-wide JIT and a 2-thread pool shared by the tests.
KernelJit& jit();
WorkerPool& pool();

// The options of the helpers below that take none: the defaults, with the widening that
// TESSERA_WIDEN asks for.
CompileOptions defaultOptions();
// Compiles tests/kernels_jit/<name>.cl's SPIR-V (cached by name).
std::shared_ptr<const CompiledModule> compileKernelFile(const std::string& name);
// Reads and compiles again (the JIT keeps no cache: every call compiles).
std::shared_ptr<const CompiledModule> readAndCompile(const std::string& name);
std::shared_ptr<const CompiledModule> readAndCompile(const std::string& name,
                                                     const CompileOptions& options);
const CompiledKernel& kernel(const std::string& file, const std::string& name);
// TESSERA_TEST_FRONT_END=ir: readAndCompile compiles the kernel files as clBuildProgram builds
// them, OpenCL C through the compiler process to Tessera IR (spirv/friendly_ir.h), rather than
// reading their SPIR-V from the build (ctest unit.backends.tessera_ir: the widening's own tests on
// the IR the OpenCL layer gives the JIT).
bool tesseraIRFrontEnd();
// LLVM IR text parsed into a module of `context` (the test fails with the parser's message when it
// does not parse): for the tests of single passes on hand-written IR.
std::unique_ptr<llvm::Module> parseModule(llvm::LLVMContext& context, const char* ir);
// Compiles LLVM IR text written as the translator writes it (spir_kernel functions, SPIRVFriendlyIR
// builtins): what OpenCL C through clang cannot produce (unmasked shifts, reductions).
std::shared_ptr<const CompiledModule> compileIR(const std::string& ir,
                                                const CompileOptions& options = defaultOptions());
// The JIT's error for IR it must refuse (empty when it compiled).
std::string compileIRError(const std::string& ir);

// Runs `body` with file descriptor `fd` (1: stdout, 2: stderr) going to a temporary file, the C
// streams flushed around it; returns what was written there.
std::string captureFd(int fd, const std::function<void()>& body);

class ArgBuffer {
 public:
  explicit ArgBuffer(const CompiledKernel& k) : k_(k), bytes_(k.argBufferSize) {}
  template <typename T>
  ArgBuffer& set(size_t index, const T& value) {
    REQUIRE(index < k_.args.size());
    REQUIRE(sizeof(T) == k_.args[index].size);
    std::memcpy(bytes_.data() + k_.args[index].offset, &value, sizeof(T));
    return *this;
  }
  ArgBuffer& local(size_t index, uint64_t bytes) {
    REQUIRE(k_.args[index].kind == ArgKind::LocalPointer);
    return set(index, bytes);
  }
  const uint8_t* data() const { return bytes_.data(); }

 private:
  const CompiledKernel& k_;
  std::vector<uint8_t> bytes_;
};

inline LaunchDims dims1(uint32_t groups, uint32_t size, uint64_t offset = 0) {
  LaunchDims d;
  d.groupCount[0] = groups;
  d.groupSize[0] = size;
  d.globalOffset[0] = offset;
  return d;
}

inline LaunchDims dims2(uint32_t gx, uint32_t gy, uint32_t sx, uint32_t sy) {
  LaunchDims d;
  d.groupCount[0] = gx;
  d.groupCount[1] = gy;
  d.groupSize[0] = sx;
  d.groupSize[1] = sy;
  return d;
}

}  // namespace tessera::backends::cpu::test
