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
#include <mutex>
#include <set>
#include <string>

#include "core/common/hash.h"
#include "support/safe_file.h"

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

// Why a cache folder or entry with this status is not trusted, or empty: it must be the user's
// (the effective user's) and writable by nobody else, since another user who can write there can
// plant object code this process would run (an entry's checksum is no signature).
std::string distrust(const struct stat& st) {
  if (st.st_uid != geteuid())
    return "is owned by another user (uid " + std::to_string(st.st_uid) + ")";
  if (st.st_mode & (S_IWGRP | S_IWOTH)) return "is writable by other users";
  return {};
}

// A warning on stderr, once per message and process.
void warnOnce(const std::string& message) {
  static std::mutex mutex;
  static std::set<std::string> said;
  std::lock_guard lock(mutex);
  if (said.insert(message).second) std::fprintf(stderr, "tessera: warning: %s\n", message.c_str());
}

// Makes `dir` and its missing parents, each 0700; true when `dir` is then a folder to trust.
bool makeDirectory(const std::string& dir) {
  struct stat st{};
  if (::stat(dir.c_str(), &st) != 0) {
    std::string parent = fs::path(dir).parent_path().string();
    if (!parent.empty() && parent != dir && ::stat(parent.c_str(), &st) != 0 &&
        !makeDirectory(parent))
      return false;
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) return false;
    if (::stat(dir.c_str(), &st) != 0) return false;
  }
  return S_ISDIR(st.st_mode) && distrust(st).empty();
}

}  // namespace

std::optional<std::string> directory() {
  if (const char* on = std::getenv("TESSERA_CACHE"); on && std::strcmp(on, "0") == 0)
    return std::nullopt;
  std::string dir;
  if (const char* d = std::getenv("TESSERA_CACHE_DIR"); d && *d)
    dir = d;
  else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    dir = std::string(x) + "/tessera";
  else if (const char* h = std::getenv("HOME"); h && *h)
    dir = std::string(h) + "/.cache/tessera";
  else
    return std::nullopt;
  // A folder that does not exist yet is made (0700) by the first write().
  struct stat st{};
  if (::stat(dir.c_str(), &st) != 0) return errno == ENOENT ? std::optional(dir) : std::nullopt;
  std::string why = !S_ISDIR(st.st_mode) ? std::string("is not a folder") : distrust(st);
  if (why.empty()) return dir;
  warnOnce("module cache folder " + dir + " " + why + "; the cache is not used");
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
  // Only a regular file (a FIFO would block the read), not through a symbolic link, and only one
  // of the user's that nobody else may write: the entry is code this process will run.
  struct stat st{};
  std::string path = dir + "/" + name, why;
  int fd = support::openRegularFile(path.c_str(), O_NOFOLLOW, st, why);
  if (fd < 0) {
    if (errno != ENOENT) warnOnce("module cache entry " + path + " " + why + "; ignored");
    return bytes;
  }
  if (why = distrust(st); !why.empty()) {
    warnOnce("module cache entry " + path + " " + why + "; ignored");
    ::close(fd);
    return bytes;
  }
  if (st.st_size > 0 && st.st_size < (1ll << 31)) {
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
  if (!makeDirectory(dir)) return;
  static std::atomic<uint64_t> serial{0};
  std::string tmp = dir + "/." + name + "." + std::to_string(getpid()) + "." +
                    std::to_string(serial.fetch_add(1)) + ".tmp";
  // A fresh file (O_EXCL: nothing planted at the name is opened or followed), the user's only.
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
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
  ::utimensat(AT_FDCWD, (dir + "/" + name).c_str(), nullptr, AT_SYMLINK_NOFOLLOW);
}

void debug(const char* what, const std::string& name) {
  static const bool on = [] {
    const char* v = std::getenv("TESSERA_CACHE_DEBUG");
    return v && *v && std::strcmp(v, "0") != 0;
  }();
  if (on) std::fprintf(stderr, "tessera cache: %s %s\n", what, name.c_str());
}

}  // namespace tessera::core::module_cache
