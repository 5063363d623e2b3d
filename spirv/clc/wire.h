// The messages between Tessera and its compiler process (tessera-clc, clc/main.cpp): a request
// (OpenCL C to compile, SPIR-V to translate into LLVM IR, Tessera IR to check or link, or a native
// binary's object code to load on trial) answered by one reply, each a
// length-prefixed frame on a stream socket. Blocking calls; false on end of stream, a broken peer
// or a malformed frame.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "spirv/opencl_c.h"
#include "spirv/specialize.h"

namespace tessera::spirv::clc {

enum class Kind : uint32_t {
  CompileOpenCLC = 1,  // source, options, headers -> SPIR-V words
  TranslateSpirv = 2,  // SPIR-V words, specialization constants -> LLVM bitcode
  // object code, symbols -> ok when a JIT loads it and finds every symbol (compiler/, the check
  // of backends/cpu/jit/object_check.h that a native binary's object cannot end the application)
  LoadObject = 3,
  CompileOpenCLCToIR = 4,  // as CompileOpenCLC -> Tessera IR (spirv/friendly_ir.h) as bitcode
  // Tessera IR from outside (a native binary's module; `object`) -> ok when it reads and verifies
  CheckIR = 5,
  // Tessera IR modules (`modules`: clCompileProgram's objects and libraries) -> one Tessera IR
  // module, linked by LLVM's linker; unless `createLibrary`, every import must be defined
  LinkIR = 6,
};

struct Request {
  Kind kind = Kind::CompileOpenCLC;
  std::string source;
  CompileOptions options;  // CompileOpenCLC: parsed by the client
  std::vector<OpenCLHeader> headers;
  IncludeRule includes = IncludeRule::Preprocessor;  // CompileOpenCLC
  std::vector<uint32_t> spirv;
  std::vector<SpecAssignment> specConstants;
  std::string object;                // LoadObject: the relocatable object
  // LoadObject: the names it must define; LinkIR: the names other units define (ir_link.h)
  std::vector<std::string> symbols;
  std::vector<std::string> modules;  // LinkIR: the modules' bitcode
  bool createLibrary = false;        // LinkIR: imports may stay unresolved
};

struct Reply {
  bool ok = false;
  bool invalidOptions = false;      // CompileOpenCLC: see CompileResult
  bool readOutsideFolders = false;  // CompileOpenCLC: see CompileResult
  // The process ends after this reply (the translator called exit() or LLVM hit a fatal error):
  // the client must not send it another request.
  bool ending = false;
  std::string log;
  std::string payload;  // SPIR-V words (CompileOpenCLC) or LLVM bitcode (TranslateSpirv, ...ToIR)
};

// The client's side is bounded by one absolute `deadline` for the whole exchange: every wait (for
// room to send, for the next bytes of the reply) gets only the time left until it, so a peer that
// trickles bytes cannot stretch it (issue 28); past it the call returns false. The default waits
// without end.
using Deadline = std::chrono::steady_clock::time_point;
constexpr Deadline kNoDeadline = Deadline::max();
bool sendRequest(int fd, const Request& request, Deadline deadline = kNoDeadline);
bool receiveReply(int fd, Reply& reply, Deadline deadline = kNoDeadline);
// The compiler process's side: blocking, without a deadline.
bool receiveRequest(int fd, Request& request);
bool sendReply(int fd, const Reply& reply);

}  // namespace tessera::spirv::clc
