// clc::run (client.h) and compileOpenCLC (opencl_c.h) over a pool of tessera-clc processes.
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "spirv/clc/client.h"
#include "spirv/clc/frontend_cache.h"

#include "config/settings.h"
#include "spirv/opencl_c.h"
#include "spirv/opencl_options.h"

extern char** environ;

namespace tessera::spirv {
namespace clc {
namespace {

// Idle compiler processes kept for later compiles; more run while more threads compile at once.
constexpr size_t kMaxIdle = 2;

// Settings::program, else tessera/tessera-clc beside the shared library holding this code (the
// installed layout and the build tree's lib/), else the build tree's (static test programs).
std::string compilerPath(const Settings& settings) {
  if (!settings.program.empty()) return settings.program;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&compilerPath), &info) != 0 && info.dli_fname != nullptr) {
    std::string library = info.dli_fname;
    std::string beside = library.substr(0, library.rfind('/') + 1) + "tessera/tessera-clc";
    if (access(beside.c_str(), X_OK) == 0) return beside;
  }
  return TESSERA_CLC_BUILD_PATH;
}

std::string describeSeconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}

std::string describeStatus(int status) {
  if (WIFSIGNALED(status)) {
    const char* name = sigdescr_np(WTERMSIG(status));
    return "signal " + std::to_string(WTERMSIG(status)) + (name ? std::string(" (") + name + ")" : "");
  }
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  return "status " + std::to_string(status);
}

class CompilerProcess {
 public:
  ~CompilerProcess() {
    if (socket_ >= 0) close(socket_);
    // It ends when it sees the socket close; reap it unless it is another process's child (the
    // application forked after starting it).
    if (owner_ == getpid()) waitpid(pid_, nullptr, 0);
  }

  static std::unique_ptr<CompilerProcess> start(const Settings& settings, std::string& error) {
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
      error = std::string("cannot create a socket for the compiler: ") + std::strerror(errno);
      return nullptr;
    }
    std::string path = compilerPath(settings);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, pair[1], 3);  // dup2 clears close-on-exec
    posix_spawn_file_actions_addclosefrom_np(&actions, 4);   // none of the application's files
    char* argv[] = {const_cast<char*>("tessera-clc"), nullptr};
    pid_t pid = 0;
    int failed = posix_spawn(&pid, path.c_str(), &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(pair[1]);
    if (failed != 0) {
      close(pair[0]);
      error = "cannot start the compiler process " + path + ": " + std::strerror(failed) +
              " (TESSERA_CLC names another)";
      return nullptr;
    }
    auto process = std::unique_ptr<CompilerProcess>(new CompilerProcess);
    process->pid_ = pid;
    process->socket_ = pair[0];
    process->owner_ = getpid();
    return process;
  }

  enum class Outcome { Replied, NotTaken, Ended };

  // NotTaken: the process was gone before the request (an idle one that was killed, say); Ended:
  // it ended before replying, or it had not replied by the deadline (`seconds` after the request,
  // 0: none) and was killed. Either way it is of no further use, and `error` says what happened.
  // The deadline is one instant for the whole exchange: sending the request, waiting for the reply
  // and every read of it get only the time left (wire.h), so a process that trickles its reply a
  // byte at a time is stopped at the deadline like a silent one (issue 28: a per-read timeout let
  // it hold clBuildProgram without end).
  Outcome exchange(const Request& request, Reply& reply, double seconds, std::string& error) {
    using Clock = std::chrono::steady_clock;
    const Deadline deadline =
        seconds > 0 ? Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                         std::chrono::duration<double>(seconds))
                    : kNoDeadline;
    auto passed = [&] { return deadline != kNoDeadline && Clock::now() >= deadline; };
    bool timedOut = false;
    if (!sendRequest(socket_, request, deadline)) {
      timedOut = passed();
      if (!timedOut) {
        error = "the compiler process (tessera-clc) did not take the request";
        return Outcome::NotTaken;
      }
    } else {
      if (receiveReply(socket_, reply, deadline)) return Outcome::Replied;
      timedOut = passed();
    }
    close(socket_);
    socket_ = -1;
    if (timedOut) kill(pid_, SIGKILL);
    int status = 0;
    pid_t reaped = waitpid(pid_, &status, 0);
    owner_ = 0;  // reaped (or not ours to reap)
    if (timedOut) {
      error = "the compiler process (tessera-clc) did not finish within " + describeSeconds(seconds) +
              " s (TESSERA_COMPILE_TIMEOUT_S) and was stopped";
    } else {
      error = "the compiler process (tessera-clc) ended while working (" +
              (reaped == pid_ ? describeStatus(status) : std::string("status unknown")) + ")";
    }
    return Outcome::Ended;
  }

  bool ownedHere() const { return owner_ == getpid(); }

 private:
  CompilerProcess() = default;

  pid_t pid_ = 0;
  int socket_ = -1;
  pid_t owner_ = 0;
};

class ProcessPool {
 public:
  std::unique_ptr<CompilerProcess> take(const Settings& settings, bool& reused,
                                        std::string& error) {
    {
      std::lock_guard lock(mutex_);
      while (!idle_.empty()) {
        std::unique_ptr<CompilerProcess> p = std::move(idle_.back());
        idle_.pop_back();
        if (p->ownedHere()) {
          reused = true;
          return p;
        }
      }
    }
    return CompilerProcess::start(settings, error);
  }

  void clear() {
    std::vector<std::unique_ptr<CompilerProcess>> idle;
    {
      std::lock_guard lock(mutex_);
      idle.swap(idle_);
    }
  }

  void give(std::unique_ptr<CompilerProcess> p) {
    std::lock_guard lock(mutex_);
    if (idle_.size() < kMaxIdle) idle_.push_back(std::move(p));
  }

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<CompilerProcess>> idle_;
};

// Never destroyed: the idle processes end with the application (their sockets close then).
ProcessPool& pool() {
  static ProcessPool* p = new ProcessPool;
  return *p;
}

Reply failure(const std::string& why) {
  Reply r;
  r.log = "error: " + why + "\n";
  return r;
}

}  // namespace

support::DiskCacheSettings diskCacheFromEnvironment() {
  std::vector<std::string> ignored;
  return support::diskCacheSettings(config::var::cache.fromEnvironment(ignored),
                                    config::var::cacheDir.fromEnvironment(ignored),
                                    config::var::cacheMaxMb.fromEnvironment(ignored),
                                    config::var::cacheDebug.fromEnvironment(ignored));
}

Settings settingsFromEnvironment() {
  // The driver has printed what these rules refused when it was created; an OpenCL C build only
  // takes the values.
  std::vector<std::string> ignored;
  Settings settings;
  settings.program = config::var::clc.fromEnvironment(ignored);
  settings.deadlineSeconds = config::var::compileTimeoutS.fromEnvironment(ignored);
  settings.includes = config::var::strictIncludes.fromEnvironment(ignored) ? IncludeRule::Strict
                                                                          : IncludeRule::Preprocessor;
  return settings;
}

Reply run(const Request& request, const Settings& settings) {
  // An idle process may have ended since its last request: then the request goes to a new one.
  for (;;) {
    std::string error;
    bool reused = false;
    std::unique_ptr<CompilerProcess> process = pool().take(settings, reused, error);
    if (process == nullptr) return failure(error);
    Reply reply;
    switch (process->exchange(request, reply, settings.deadlineSeconds, error)) {
      case CompilerProcess::Outcome::Replied:
        if (!reply.ending) pool().give(std::move(process));
        return reply;
      case CompilerProcess::Outcome::NotTaken:
        if (reused) continue;
        return failure(error);
      case CompilerProcess::Outcome::Ended:
        return failure(error);
    }
  }
}

}  // namespace clc

CompileResult compileOpenCLC(std::string_view source, std::string_view options,
                             const std::vector<OpenCLHeader>& headers, CompileOutput output) {
  CompileOptions parsed = parseCompileOptions(options);
  if (!parsed.ok) return invalidOptionsResult(parsed);
  // Read at each request: the OpenCL layer compiles without a driver to hold settings.
  const clc::Settings settings = clc::settingsFromEnvironment();
  // A build another process (or this one) made of the same inputs is on disk (frontend_cache.h).
  const clc::FrontendCache cache(clc::diskCacheFromEnvironment(), source, options, headers,
                                 parsed.includeFolders, clc::compilerPath(settings), output);
  if (std::optional<CompileResult> cached = cache.find()) {
    cached->options = std::move(parsed);
    return std::move(*cached);
  }
  CompileResult result;
  clc::Request request;
  request.kind = output == CompileOutput::TesseraIR ? clc::Kind::CompileOpenCLCToIR
                                                   : clc::Kind::CompileOpenCLC;
  request.source = std::string(source);
  request.options = parsed;  // the compiler process does not parse them again
  request.headers = headers;
  request.includes = settings.includes;
  clc::Reply reply = clc::run(request, settings);
  result.ok = reply.ok && !reply.payload.empty() &&
              (output == CompileOutput::TesseraIR || reply.payload.size() % sizeof(uint32_t) == 0);
  result.invalidOptions = reply.invalidOptions;
  result.log = std::move(reply.log);
  result.options = std::move(parsed);
  if (result.ok) {
    if (output == CompileOutput::TesseraIR) {
      result.ir = std::move(reply.payload);
    } else {
      result.spirv.resize(reply.payload.size() / sizeof(uint32_t));
      std::memcpy(result.spirv.data(), reply.payload.data(), reply.payload.size());
    }
    // A file read outside the folders the key covers could change unseen.
    if (!reply.readOutsideFolders) cache.store(result);
  }
  return result;
}

CompileResult linkTesseraIR(const std::vector<std::string>& modules, bool createLibrary,
                            const std::vector<std::string>& definedElsewhere) {
  clc::Request request;
  request.kind = clc::Kind::LinkIR;
  request.modules = modules;
  request.createLibrary = createLibrary;
  request.symbols = definedElsewhere;
  clc::Reply reply = clc::run(request, clc::settingsFromEnvironment());
  CompileResult result;
  result.ok = reply.ok && !reply.payload.empty();
  result.log = std::move(reply.log);
  if (result.ok) result.ir = std::move(reply.payload);
  return result;
}

void unloadCompiler() { clc::pool().clear(); }

}  // namespace tessera::spirv
