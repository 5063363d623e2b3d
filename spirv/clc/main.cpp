// tessera-clc: the compiler process. Tessera starts it (client.cpp) with a stream socket as file
// descriptor 3 and sends it requests until it closes the socket: OpenCL C to compile to SPIR-V
// (clang, then SPIRV-LLVM-Translator, or Tessera IR), SPIR-V to translate to LLVM IR (returned as
// bitcode), Tessera IR to check or to link (spirv/ir_link.h), a native binary's object code to load
// on trial (backends/cpu/jit/object_check.h). They
// run here rather than in the application because the installed translator ends its process with
// exit() on LLVM IR it cannot express (e.g. a zero-length array), asserts on SPIR-V it does not
// expect, and LLVM has fatal errors of its own: here they end only this process, after a reply
// that says why where they let it.
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Verifier.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/raw_ostream.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <sstream>

#include "backends/cpu/jit/object_check.h"
#include "spirv/clc/wire.h"
#include "spirv/ir_link.h"
#include "spirv/opencl_c_inprocess.h"
#include "spirv/translate_inprocess.h"

namespace {

constexpr int kSocket = 3;

// What the translator prints on std::cerr before its exit(): the reason, for the build log.
std::ostringstream translatorMessages;
bool compiling = false;

void replyEnding(const std::string& why) {
  tessera::spirv::clc::Reply reply;
  reply.ending = true;
  reply.log = why;
  if (!translatorMessages.str().empty())
    reply.log += "error: the SPIR-V translator failed: " + translatorMessages.str();
  tessera::spirv::clc::sendReply(kSocket, reply);
}

void onExit() {
  if (compiling) replyEnding("error: the compiler process stopped while working\n");
}

tessera::spirv::clc::Reply compile(const tessera::spirv::clc::Request& request) {
  tessera::spirv::clc::Reply reply;
  tessera::spirv::CompileResult r =
      tessera::spirv::compileOpenCLCInProcess(
          request.source, request.options, request.headers, request.includes,
          request.kind == tessera::spirv::clc::Kind::CompileOpenCLCToIR
              ? tessera::spirv::CompileOutput::TesseraIR
              : tessera::spirv::CompileOutput::Spirv);
  reply.ok = r.ok;
  reply.invalidOptions = r.invalidOptions;
  reply.readOutsideFolders = r.readOutsideFolders;
  reply.log = std::move(r.log);
  if (!r.ir.empty())
    reply.payload = std::move(r.ir);
  else
    reply.payload.assign(reinterpret_cast<const char*>(r.spirv.data()),
                         r.spirv.size() * sizeof(uint32_t));
  return reply;
}

// Whether Tessera IR from outside reads and verifies: LLVM's bitcode reader may assert or fail
// fatally on corrupt input, here rather than in the application.
tessera::spirv::clc::Reply checkIR(const tessera::spirv::clc::Request& request) {
  tessera::spirv::clc::Reply reply;
  llvm::LLVMContext context;
  llvm::Expected<std::unique_ptr<llvm::Module>> parsed = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(llvm::StringRef(request.object), "tessera-ir"), context);
  if (!parsed) {
    reply.log = "unreadable bitcode: " + llvm::toString(parsed.takeError()) + "\n";
    return reply;
  }
  llvm::raw_string_ostream problems(reply.log);
  reply.ok = !llvm::verifyModule(**parsed, &problems);
  return reply;
}

// clLinkProgram's Tessera IR objects into one module (spirv/ir_link.h).
tessera::spirv::clc::Reply linkIR(const tessera::spirv::clc::Request& request) {
  tessera::spirv::clc::Reply reply;
  reply.payload =
      tessera::spirv::linkTesseraIRInProcess(request.modules, request.createLibrary,
                                             request.symbols, reply.log);
  reply.ok = !reply.payload.empty();
  return reply;
}

tessera::spirv::clc::Reply translate(const tessera::spirv::clc::Request& request) {
  tessera::spirv::clc::Reply reply;
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = tessera::spirv::translateInProcess(
      context, request.spirv, request.specConstants, reply.log);
  if (module == nullptr) return reply;
  llvm::raw_string_ostream out(reply.payload);
  llvm::WriteBitcodeToFile(*module, out);
  out.flush();
  reply.ok = true;
  return reply;
}

// A JIT of this process loads the object and looks up every symbol: what LLVM's object linker
// does on these bytes in the application (a fatal error, a crash while parsing) happens here.
tessera::spirv::clc::Reply loadObject(const tessera::spirv::clc::Request& request) {
  tessera::spirv::clc::Reply reply;
  tessera::backends::cpu::CompiledModule unit;
  unit.object.assign(request.object.begin(), request.object.end());
  unit.kernelSymbols = request.symbols;
  unit.kernels.resize(request.symbols.size());
  reply.ok = tessera::backends::cpu::loadObjectForCheck(unit, reply.log);
  return reply;
}

void onFatalError(void*, const char* reason, bool) {
  replyEnding(std::string("error: LLVM fatal error: ") + reason + "\n");
  _exit(70);
}

}  // namespace

int main() {
  std::cerr.rdbuf(translatorMessages.rdbuf());
  std::atexit(onExit);
  llvm::install_fatal_error_handler(onFatalError);
  tessera::spirv::clc::Request request;
  // The socket's end (Tessera closed it, or its process ended) ends this process: no static
  // destructors or leak scans to wait for.
  while (tessera::spirv::clc::receiveRequest(kSocket, request)) {
    translatorMessages.str("");
    compiling = true;
    using tessera::spirv::clc::Kind;
    tessera::spirv::clc::Reply reply = request.kind == Kind::TranslateSpirv ? translate(request)
                                       : request.kind == Kind::LoadObject   ? loadObject(request)
                                       : request.kind == Kind::CheckIR      ? checkIR(request)
                                       : request.kind == Kind::LinkIR       ? linkIR(request)
                                                                            : compile(request);
    compiling = false;
    if (!tessera::spirv::clc::sendReply(kSocket, reply)) break;
  }
  _exit(0);
}
