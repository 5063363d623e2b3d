#include "spirv/clc/wire.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

namespace tessera::spirv::clc {

namespace {

constexpr uint32_t kRequestMagic = 0x43434c54;  // "TLCC"
constexpr uint32_t kReplyMagic = 0x52434c54;    // "TLCR"
// A frame larger than this is a broken peer, not a program (sources and SPIR-V are far smaller).
constexpr uint64_t kMaxFrame = uint64_t(1) << 31;

// Waits until `fd` is ready for `events` or `deadline` has passed (false). Without a deadline the
// blocking call that follows does the waiting. Only the time left is ever waited for: one deadline
// bounds every wait of an exchange together.
bool readyBefore(int fd, short events, Deadline deadline) {
  if (deadline == kNoDeadline) return true;
  for (;;) {
    auto left = deadline - std::chrono::steady_clock::now();
    if (left <= Deadline::duration::zero()) return false;
    // Rounded up: poll's milliseconds must not end the wait before the deadline.
    auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
    pollfd p{fd, events, 0};
    int rc = poll(&p, 1, int(std::min<int64_t>(ms, INT32_MAX)));
    if (rc > 0) return true;
    if (rc < 0 && errno != EINTR) return true;  // let the call that follows report it
  }
}

// With a deadline, sends and receives never block (they wait in readyBefore); without one they do.
int flagsFor(Deadline deadline) { return deadline == kNoDeadline ? 0 : MSG_DONTWAIT; }

class Writer {
 public:
  void u32(uint32_t v) { bytes(&v, sizeof v); }
  void string(const std::string& s) {
    uint64_t n = s.size();
    bytes(&n, sizeof n);
    bytes(s.data(), s.size());
  }
  void strings(const std::vector<std::string>& list) {
    u32(uint32_t(list.size()));
    for (const std::string& s : list) string(s);
  }
  void bytes(const void* p, size_t n) { out_.append(static_cast<const char*>(p), n); }
  // The frame: its length, then the payload; one send loop, never SIGPIPE on a dead peer.
  bool send(int fd, Deadline deadline = kNoDeadline) const {
    uint64_t n = out_.size();
    std::string frame(reinterpret_cast<const char*>(&n), sizeof n);
    frame += out_;
    for (size_t done = 0; done < frame.size();) {
      if (!readyBefore(fd, POLLOUT, deadline)) return false;
      ssize_t sent = ::send(fd, frame.data() + done, frame.size() - done,
                            MSG_NOSIGNAL | flagsFor(deadline));
      if (sent < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
      if (sent <= 0) return false;
      done += size_t(sent);
    }
    return true;
  }

 private:
  std::string out_;
};

bool receiveAll(int fd, void* p, size_t n, Deadline deadline) {
  for (size_t done = 0; done < n;) {
    if (!readyBefore(fd, POLLIN, deadline)) return false;
    ssize_t got = ::recv(fd, static_cast<char*>(p) + done, n - done, flagsFor(deadline));
    if (got < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
    if (got <= 0) return false;
    done += size_t(got);
  }
  return true;
}

class Reader {
 public:
  bool receive(int fd, Deadline deadline = kNoDeadline) {
    uint64_t n = 0;
    if (!receiveAll(fd, &n, sizeof n, deadline) || n > kMaxFrame) return false;
    in_.resize(n);
    return receiveAll(fd, in_.data(), n, deadline);
  }
  bool u32(uint32_t& v) { return bytes(&v, sizeof v); }
  bool string(std::string& s) {
    uint64_t n = 0;
    if (!bytes(&n, sizeof n) || n > in_.size() - at_) return false;
    s.assign(in_, at_, n);
    at_ += n;
    return true;
  }
  bool strings(std::vector<std::string>& list) {
    uint32_t n = 0;
    if (!u32(n)) return false;
    list.clear();
    for (uint32_t i = 0; i < n; ++i) {
      std::string s;
      if (!string(s)) return false;
      list.push_back(std::move(s));
    }
    return true;
  }
  bool bytes(void* p, size_t n) {
    if (n > in_.size() - at_) return false;
    std::memcpy(p, in_.data() + at_, n);
    at_ += n;
    return true;
  }
  bool done() const { return at_ == in_.size(); }

 private:
  std::string in_;
  size_t at_ = 0;
};

// CompileOptions as parseCompileOptions made them in the client: the compiler process takes them
// as they are instead of parsing the options again.
enum OptionBits : uint32_t {
  kOk = 1,
  kDenormsAreZero = 2,
  kOptDisable = 4,
  kDebugInfo = 8,
  kKernelArgInfo = 16,
};

void writeOptions(Writer& w, const CompileOptions& o) {
  w.u32((o.ok ? kOk : 0) | (o.denormsAreZero ? kDenormsAreZero : 0) |
        (o.optDisable ? kOptDisable : 0) | (o.debugInfoRequested ? kDebugInfo : 0) |
        (o.kernelArgInfo ? kKernelArgInfo : 0));
  w.u32(uint32_t(o.version));
  w.string(o.error);
  w.strings(o.clangArgs);
  w.strings(o.includeFolders);
  w.string(o.moduleFlags);
}

bool readOptions(Reader& r, CompileOptions& o) {
  uint32_t bits = 0, version = 0;
  if (!r.u32(bits) || !r.u32(version) || !r.string(o.error) || !r.strings(o.clangArgs) ||
      !r.strings(o.includeFolders) || !r.string(o.moduleFlags)) {
    return false;
  }
  switch (static_cast<OpenCLVersion>(version)) {
    case OpenCLVersion::CL10: case OpenCLVersion::CL11: case OpenCLVersion::CL12:
    case OpenCLVersion::CL20: case OpenCLVersion::CL30: break;
    default: return false;
  }
  o.version = static_cast<OpenCLVersion>(version);
  o.ok = bits & kOk;
  o.denormsAreZero = bits & kDenormsAreZero;
  o.optDisable = bits & kOptDisable;
  o.debugInfoRequested = bits & kDebugInfo;
  o.kernelArgInfo = bits & kKernelArgInfo;
  return true;
}

}  // namespace

bool sendRequest(int fd, const Request& request, Deadline deadline) {
  Writer w;
  w.u32(kRequestMagic);
  w.u32(static_cast<uint32_t>(request.kind));
  w.string(request.source);
  writeOptions(w, request.options);
  w.u32(uint32_t(request.headers.size()));
  for (const OpenCLHeader& h : request.headers) {
    w.string(h.name);
    w.string(h.source);
  }
  w.u32(static_cast<uint32_t>(request.includes));
  w.string(std::string(reinterpret_cast<const char*>(request.spirv.data()),
                       request.spirv.size() * sizeof(uint32_t)));
  w.u32(uint32_t(request.specConstants.size()));
  for (const SpecAssignment& a : request.specConstants) {
    w.u32(a.specId);
    w.bytes(&a.value, sizeof a.value);
  }
  w.string(request.object);
  w.strings(request.symbols);
  w.strings(request.modules);
  w.u32(request.createLibrary ? 1u : 0u);
  return w.send(fd, deadline);
}

bool receiveRequest(int fd, Request& request) {
  Reader r;
  uint32_t magic = 0, kind = 0, headers = 0, includes = 0, specs = 0;
  std::string words;
  if (!r.receive(fd) || !r.u32(magic) || magic != kRequestMagic || !r.u32(kind) ||
      (kind != uint32_t(Kind::CompileOpenCLC) && kind != uint32_t(Kind::TranslateSpirv) &&
       kind != uint32_t(Kind::LoadObject) && kind != uint32_t(Kind::CompileOpenCLCToIR) &&
       kind != uint32_t(Kind::CheckIR) && kind != uint32_t(Kind::LinkIR)) ||
      !r.string(request.source) || !readOptions(r, request.options) || !r.u32(headers)) {
    return false;
  }
  request.kind = static_cast<Kind>(kind);
  request.headers.clear();
  for (uint32_t i = 0; i < headers; ++i) {
    OpenCLHeader h;
    if (!r.string(h.name) || !r.string(h.source)) return false;
    request.headers.push_back(std::move(h));
  }
  if (!r.u32(includes) || includes > uint32_t(IncludeRule::Strict)) return false;
  request.includes = static_cast<IncludeRule>(includes);
  if (!r.string(words) || words.size() % sizeof(uint32_t) != 0 || !r.u32(specs)) return false;
  request.spirv.resize(words.size() / sizeof(uint32_t));
  if (!words.empty()) std::memcpy(request.spirv.data(), words.data(), words.size());
  request.specConstants.clear();
  for (uint32_t i = 0; i < specs; ++i) {
    SpecAssignment a;
    if (!r.u32(a.specId) || !r.bytes(&a.value, sizeof a.value)) return false;
    request.specConstants.push_back(a);
  }
  uint32_t library = 0;
  if (!r.string(request.object) || !r.strings(request.symbols) || !r.strings(request.modules) ||
      !r.u32(library) || library > 1)
    return false;
  request.createLibrary = library == 1;
  return r.done();
}

bool sendReply(int fd, const Reply& reply) {
  Writer w;
  w.u32(kReplyMagic);
  w.u32((reply.ok ? 1u : 0u) | (reply.invalidOptions ? 2u : 0u) | (reply.ending ? 4u : 0u) |
        (reply.readOutsideFolders ? 8u : 0u));
  w.string(reply.log);
  w.string(reply.payload);
  return w.send(fd);
}

bool receiveReply(int fd, Reply& reply, Deadline deadline) {
  Reader r;
  uint32_t magic = 0, flags = 0;
  if (!r.receive(fd, deadline) || !r.u32(magic) || magic != kReplyMagic || !r.u32(flags) ||
      !r.string(reply.log) || !r.string(reply.payload) || !r.done()) {
    return false;
  }
  reply.ok = flags & 1u;
  reply.invalidOptions = flags & 2u;
  reply.ending = flags & 4u;
  reply.readOutsideFolders = flags & 8u;
  return true;
}

}  // namespace tessera::spirv::clc
