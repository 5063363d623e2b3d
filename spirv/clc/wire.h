// The messages between Tessera and its OpenCL C compiler process (tessera-clc, clc/main.cpp): one
// request (options, input headers, source) answered by one result, each a length-prefixed frame
// on a stream socket. Blocking calls; false on end of stream, a broken peer or a malformed frame.
#pragma once

#include <string>
#include <vector>

#include "spirv/opencl_c.h"

namespace tessera::spirv::clc {

struct Request {
  std::string source;
  std::string options;
  std::vector<OpenCLHeader> headers;
};

struct Reply {
  CompileResult result;
  // The process ends after this reply (the translator called exit() or LLVM hit a fatal error):
  // the client must not send it another request.
  bool ending = false;
};

bool sendRequest(int fd, const Request& request);
bool receiveRequest(int fd, Request& request);
bool sendReply(int fd, const Reply& reply);
bool receiveReply(int fd, Reply& reply);

}  // namespace tessera::spirv::clc
