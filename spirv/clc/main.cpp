// tessera-clc: the OpenCL C compiler process. Tessera starts it (client.cpp) with a stream socket as
// file descriptor 3 and sends it requests until it closes the socket. clang and
// SPIRV-LLVM-Translator run here rather than in the application, because the installed translator
// ends its process with exit() on LLVM IR it cannot express (e.g. a zero-length array) and LLVM
// has fatal errors of its own: here they end only this process, after a reply that says why.
#include <llvm/Support/ErrorHandling.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <sstream>

#include "spirv/clc/wire.h"
#include "spirv/opencl_c_inprocess.h"

namespace {

constexpr int kSocket = 3;

// What the translator prints on std::cerr before its exit(): the reason, for the build log.
std::ostringstream translatorMessages;
bool compiling = false;

void replyEnding(const std::string& why) {
  using tessera::spirv::clc::Reply;
  Reply reply;
  reply.ending = true;
  reply.result.log = why;
  if (!translatorMessages.str().empty())
    reply.result.log += "error: LLVM IR -> SPIR-V translation failed: " + translatorMessages.str();
  tessera::spirv::clc::sendReply(kSocket, reply);
}

void onExit() {
  if (compiling) replyEnding("error: the OpenCL C compiler stopped while compiling\n");
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
    tessera::spirv::clc::Reply reply;
    reply.result =
        tessera::spirv::compileOpenCLCInProcess(request.source, request.options, request.headers);
    compiling = false;
    if (!tessera::spirv::clc::sendReply(kSocket, reply)) break;
  }
  _exit(0);
}
