#include "core/module/module_cache.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "core/common/hash.h"

#ifndef TESSERA_VERSION
#define TESSERA_VERSION "unknown"
#endif

namespace tessera::core::module_cache {
namespace {

namespace fs = std::filesystem;

// The driver build: its version and the identity of the file this code was loaded from (a rebuilt
// driver has another size or modification time, so it never loads code another build compiled).
const std::string& buildIdentity() {
  static const std::string id = [] {
    std::string s = "tessera " TESSERA_VERSION;
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&buildIdentity), &info) && info.dli_fname) {
      struct stat st{};
      if (stat(info.dli_fname, &st) == 0)
        s += "|" + std::to_string(st.st_size) + "|" + std::to_string(st.st_mtim.tv_sec) + "." +
             std::to_string(st.st_mtim.tv_nsec);
    }
    return s;
  }();
  return id;
}

uint64_t maxBytes() {
  const char* v = std::getenv("TESSERA_CACHE_MAX_MB");
  double mb = v && *v ? std::atof(v) : 256;
  return mb <= 0 ? 0 : std::max<uint64_t>(1, uint64_t(mb * 1048576.0));
}

// Removes the least recently used entries until the directory holds at most maxBytes(); never
// `keep` (the entry just written).
void bound(const std::string& dir, const std::string& keep) {
  uint64_t limit = maxBytes();
  if (!limit) return;
  struct Entry {
    fs::path path;
    uint64_t size;
    fs::file_time_type time;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != ".tnb" || it->path().filename() == keep) continue;
    std::error_code e1, e2;
    uint64_t size = it->file_size(e1);
    auto time = it->last_write_time(e2);
    if (e1 || e2) continue;
    entries.push_back({it->path(), size, time});
    total += size;
  }
  if (std::error_code e; fs::exists(fs::path(dir) / keep, e)) total += fs::file_size(fs::path(dir) / keep, e);
  if (total <= limit) return;
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.time < b.time; });
  for (const Entry& e : entries) {
    if (total <= limit) break;
    std::error_code e1;
    fs::remove(e.path, e1);  // another process may have removed it already
    total -= e.size;
  }
}

}  // namespace

std::optional<std::string> directory() {
  if (const char* on = std::getenv("TESSERA_CACHE"); on && std::strcmp(on, "0") == 0)
    return std::nullopt;
  if (const char* d = std::getenv("TESSERA_CACHE_DIR"); d && *d) return std::string(d);
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/tessera";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/tessera";
  return std::nullopt;
}

std::string entryName(std::span<const uint8_t> spirv, const std::string& options,
                      const std::string& specs, const std::string& cpu,
                      const std::string& features) {
  std::string text(reinterpret_cast<const char*>(spirv.data()), spirv.size());
  text += "\x01" + options + "\x01" + specs + "\x01" + cpu + "\x01" + features + "\x01" +
          buildIdentity();
  uint64_t a = mix64(fnv1a64(text));
  uint64_t b = mix64(fnv1a64(text, a ^ 0x9e3779b97f4a7c15ull));
  char name[40];
  std::snprintf(name, sizeof name, "%016llx%016llx.tnb", static_cast<unsigned long long>(a),
                static_cast<unsigned long long>(b));
  return name;
}

std::vector<uint8_t> read(const std::string& dir, const std::string& name) {
  std::vector<uint8_t> bytes;
  int fd = ::open((dir + "/" + name).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return bytes;
  struct stat st{};
  if (fstat(fd, &st) == 0 && st.st_size > 0 && st.st_size < (1ll << 31)) {
    bytes.resize(size_t(st.st_size));
    size_t done = 0;
    while (done < bytes.size()) {
      ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += size_t(n);
    }
    bytes.resize(done);
  }
  ::close(fd);
  return bytes;
}

void write(const std::string& dir, const std::string& name, const std::vector<uint8_t>& bytes) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  static std::atomic<uint64_t> serial{0};
  std::string tmp = dir + "/." + name + "." + std::to_string(getpid()) + "." +
                    std::to_string(serial.fetch_add(1)) + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return;
  size_t done = 0;
  bool ok = true;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ok = false;
      break;
    }
    done += size_t(n);
  }
  ok = ::close(fd) == 0 && ok;
  if (!ok || ::rename(tmp.c_str(), (dir + "/" + name).c_str()) != 0) {
    ::unlink(tmp.c_str());
    return;
  }
  debug("stored", name);
  bound(dir, name);
}

void touch(const std::string& dir, const std::string& name) {
  ::utimensat(AT_FDCWD, (dir + "/" + name).c_str(), nullptr, 0);
}

void debug(const char* what, const std::string& name) {
  static const bool on = [] {
    const char* v = std::getenv("TESSERA_CACHE_DEBUG");
    return v && *v && std::strcmp(v, "0") != 0;
  }();
  if (on) std::fprintf(stderr, "tessera cache: %s %s\n", what, name.c_str());
}

}  // namespace tessera::core::module_cache
