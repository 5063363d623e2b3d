#include "trace/trace.h"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "config/settings.h"
#include "support/safe_file.h"

namespace tessera::trace {

std::atomic<bool> gEnabled{false};

namespace {

struct Record {
  std::atomic<uint32_t> ready;  // 1 once the record is complete
  char ph;                      // X, i, s, f
  uint32_t tid;
  uint64_t ts, dur, id;
  char cat[12];
  char name[84];
  char args[160];
};

struct ThreadName {
  uint32_t tid;
  std::string name;
  int sortIndex;
};

struct State {
  std::string path;  // as given; "%p" replaced when written
  uint64_t capacity = 131072;
  std::once_flag allocated;
  Record* records = nullptr;
  std::atomic<uint64_t> next{0};
  std::atomic<uint64_t> droppedCount{0};
  std::atomic<uint32_t> queues{0};
  std::mutex mutex;  // thread names, writing
  std::vector<ThreadName> threads;
  uint32_t pid = 0;  // the process that writes the file (not a fork child's copy)
};

State& state() {
  static State* s = new State;  // never destroyed: threads may still record during exit
  return *s;
}

thread_local uint32_t tlsTid = 0;
thread_local char tlsLabel[84] = "";

uint32_t currentTid() {
  if (!tlsTid) tlsTid = static_cast<uint32_t>(syscall(SYS_gettid));
  return tlsTid;
}

void copyText(char* dst, size_t cap, std::string_view s) {
  size_t n = s.size() < cap - 1 ? s.size() : cap - 1;
  if (n) std::memcpy(dst, s.data(), n);  // an empty view may have a null data() (UBSan)
  dst[n] = 0;
}

Record* reserve() {
  State& s = state();
  std::call_once(s.allocated, [&] {
    void* p = mmap(nullptr, s.capacity * sizeof(Record), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    s.records = p == MAP_FAILED ? nullptr : static_cast<Record*>(p);
  });
  uint64_t i = s.next.fetch_add(1, std::memory_order_relaxed);
  if (!s.records || i >= s.capacity) {
    s.droppedCount.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  return &s.records[i];
}

void record(char ph, std::string_view cat, std::string_view name, uint64_t ts, uint64_t dur,
            uint64_t id, std::string_view args) {
  Record* r = reserve();
  if (!r) return;
  r->ph = ph;
  r->tid = currentTid();
  r->ts = ts;
  r->dur = dur;
  r->id = id;
  copyText(r->cat, sizeof r->cat, cat);
  copyText(r->name, sizeof r->name, name);
  if (args.size() < sizeof r->args) copyText(r->args, sizeof r->args, args);
  else copyText(r->args, sizeof r->args, "\"args_truncated\":true");
  r->ready.store(1, std::memory_order_release);
}

void writeString(std::FILE* f, const char* s) {
  std::fputc('"', f);
  for (; *s; ++s) {
    unsigned char c = static_cast<unsigned char>(*s);
    if (c == '"' || c == '\\') std::fprintf(f, "\\%c", c);
    else if (c < 0x20) std::fprintf(f, "\\u%04x", c);
    else std::fputc(c, f);
  }
  std::fputc('"', f);
}

void writeUs(std::FILE* f, uint64_t ns) {
  std::fprintf(f, "%llu.%03llu", static_cast<unsigned long long>(ns / 1000),
               static_cast<unsigned long long>(ns % 1000));
}

std::string exeName() {
  char buf[256];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "process";
  buf[n] = 0;
  const char* slash = std::strrchr(buf, '/');
  return slash ? slash + 1 : buf;
}

// Reads TESSERA_TRACE and TESSERA_TRACE_EVENTS (config/settings.def) when the library is loaded,
// so that the trace records from the start; writes the file when it is unloaded or the process
// exits.
struct Init {
  Init() {
    std::vector<std::string> warnings;
    config::TraceSettings settings = config::TraceSettings::fromEnvironment(warnings);
    for (const std::string& w : warnings) std::fprintf(stderr, "tessera: warning: %s\n", w.c_str());
    if (settings.path.empty()) return;
    State& s = state();
    s.path = settings.path;
    s.capacity = settings.events;
    s.pid = static_cast<uint32_t>(getpid());
    gEnabled.store(true, std::memory_order_relaxed);
  }
  ~Init() {
    if (enabled()) flush();
  }
} gInit;

}  // namespace

uint64_t nowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1'000'000'000ull + uint64_t(ts.tv_nsec);
}

void complete(std::string_view category, std::string_view name, uint64_t startNs, uint64_t endNs,
              std::string_view args) {
  record('X', category, name, startNs, endNs > startNs ? endNs - startNs : 0, 0, args);
}

void instant(std::string_view category, std::string_view name, uint64_t ts, std::string_view args) {
  record('i', category, name, ts, 0, 0, args);
}

void flowStart(uint64_t id, uint64_t ts) { record('s', "event", "event", ts, 0, id, {}); }
void flowEnd(uint64_t id, uint64_t ts) { record('f', "event", "event", ts, 0, id, {}); }

void nameThread(std::string_view name, int sortIndex) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  uint32_t tid = currentTid();
  for (auto& t : s.threads)
    if (t.tid == tid) {
      t.name = std::string(name);
      t.sortIndex = sortIndex;
      return;
    }
  s.threads.push_back({tid, std::string(name), sortIndex});
}

uint32_t nextQueueNumber() { return state().queues.fetch_add(1, std::memory_order_relaxed); }

void setCurrentLabel(std::string_view label) { copyText(tlsLabel, sizeof tlsLabel, label); }
const char* currentLabel() { return tlsLabel; }

uint64_t recorded() {
  State& s = state();
  uint64_t n = s.next.load(std::memory_order_relaxed);
  return n < s.capacity ? n : s.capacity;
}
uint64_t dropped() { return state().droppedCount.load(std::memory_order_relaxed); }

void flush() {
  State& s = state();
  // A fork() child's copy of the records is its parent's, and the lock may be held by a thread
  // that does not exist in the child: only the process that read TESSERA_TRACE writes the file
  // (docs/reliability.md, "fork()").
  uint32_t pid = static_cast<uint32_t>(getpid());
  if (s.path.empty() || pid != s.pid) return;
  std::lock_guard lock(s.mutex);
  std::string path = s.path;
  for (size_t at; (at = path.find("%p")) != std::string::npos;)
    path.replace(at, 2, std::to_string(pid));
  // Through a fresh temporary file renamed into place (support/safe_file.h): nothing planted at a
  // fixed temporary name (a symbolic link, a FIFO) is followed or blocks the exit.
  support::ReplacingFile out(path);
  std::string why;
  std::FILE* f = out.open(why);
  if (!f) {
    std::fprintf(stderr, "tessera: warning: cannot write the trace to %s: %s\n", path.c_str(),
                 why.c_str());
    return;
  }
  std::fprintf(f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
  std::fprintf(f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"tid\":0,\"args\":{\"name\":",
               pid);
  writeString(f, ("Tessera: " + exeName()).c_str());
  std::fprintf(f, "}}");
  for (const auto& t : s.threads) {
    std::fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":",
                 pid, t.tid);
    writeString(f, t.name.c_str());
    std::fprintf(f, "}},\n{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%u,\"tid\":%u,"
                    "\"args\":{\"sort_index\":%d}}",
                 pid, t.tid, t.sortIndex);
  }
  uint64_t n = recorded();
  for (uint64_t i = 0; s.records && i < n; ++i) {
    const Record& r = s.records[i];
    if (!r.ready.load(std::memory_order_acquire)) continue;
    std::fprintf(f, ",\n{\"ph\":\"%c\",\"pid\":%u,\"tid\":%u,\"ts\":", r.ph, pid, r.tid);
    writeUs(f, r.ts);
    std::fprintf(f, ",\"cat\":");
    writeString(f, r.cat);
    std::fprintf(f, ",\"name\":");
    writeString(f, r.name);
    if (r.ph == 'X') {
      std::fprintf(f, ",\"dur\":");
      writeUs(f, r.dur);
    } else if (r.ph == 'i') {
      std::fprintf(f, ",\"s\":\"t\"");
    } else {
      std::fprintf(f, ",\"id\":%llu", static_cast<unsigned long long>(r.id));
      if (r.ph == 'f') std::fprintf(f, ",\"bp\":\"e\"");
    }
    std::fprintf(f, ",\"args\":{%s}}", r.args);
  }
  std::fprintf(f, "\n],\"otherData\":{\"recorded\":%llu,\"dropped\":%llu,\"capacity\":%llu}}\n",
               static_cast<unsigned long long>(n),
               static_cast<unsigned long long>(dropped()),
               static_cast<unsigned long long>(s.capacity));
  if (!out.commit(why))
    std::fprintf(stderr, "tessera: warning: cannot write the trace to %s: %s\n", path.c_str(),
                 why.c_str());
}

}  // namespace tessera::trace
