#include "support/disk_cache.h"

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

#include "support/safe_file.h"

namespace tessera::support {

DiskCacheSettings diskCacheSettings(bool on, const std::string& dir, double maxMb, bool debug) {
  // XDG_CACHE_HOME and HOME: the system's, not Tessera's, so not rows of config/settings.def.
  auto value = [](const char* name) -> const char* {
    const char* v = std::getenv(name);
    return v && *v ? v : nullptr;
  };
  DiskCacheSettings d;
  if (!on) return d;
  if (!dir.empty())
    d.folder = dir;
  else if (const char* x = value("XDG_CACHE_HOME"))
    d.folder = std::string(x) + "/tessera";
  else if (const char* h = value("HOME"))
    d.folder = std::string(h) + "/.cache/tessera";
  d.enabled = !d.folder.empty();
  d.maxBytes = maxMb <= 0 ? 0 : std::max<uint64_t>(1, static_cast<uint64_t>(maxMb * 1048576.0));
  d.debug = debug;
  return d;
}

}  // namespace tessera::support

namespace tessera::support::disk_cache {
namespace {

namespace fs = std::filesystem;

// The extensions of the folder's entries (the size bound counts and removes only these).
bool isEntry(const fs::path& p) {
  return p.extension() == ".tnb" || p.extension() == ".tfe" || p.extension() == ".ttr";
}

// Removes the least recently used entries until the directory holds at most `limit` bytes (0: no
// bound); never `keep` (the entry just written).
void bound(const std::string& dir, const std::string& keep, uint64_t limit) {
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
    if (!isEntry(it->path()) || it->path().filename() == keep) continue;
    std::error_code e1, e2;
    uint64_t size = it->file_size(e1);
    auto time = it->last_write_time(e2);
    if (e1 || e2) continue;
    entries.push_back({it->path(), size, time});
    total += size;
  }
  if (std::error_code e; fs::exists(fs::path(dir) / keep, e))
    total += fs::file_size(fs::path(dir) / keep, e);
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
  struct stat st {};
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

std::optional<std::string> directory(const DiskCacheSettings& settings) {
  if (!settings.enabled || settings.folder.empty()) return std::nullopt;
  const std::string& dir = settings.folder;
  // A folder that does not exist yet is made (0700) by the first write().
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) return errno == ENOENT ? std::optional(dir) : std::nullopt;
  std::string why = !S_ISDIR(st.st_mode) ? std::string("is not a folder") : distrust(st);
  if (why.empty()) return dir;
  warnOnce("module cache folder " + dir + " " + why + "; the cache is not used");
  return std::nullopt;
}

std::vector<uint8_t> read(const std::string& dir, const std::string& name) {
  std::vector<uint8_t> bytes;
  // Only a regular file (a FIFO would block the read), not through a symbolic link, and only one
  // of the user's that nobody else may write: the entry is code this process will run.
  struct stat st {};
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

void write(const DiskCacheSettings& settings, const std::string& dir, const std::string& name,
           const std::vector<uint8_t>& bytes) {
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
  debug(settings, "stored", name);
  bound(dir, name, settings.maxBytes);
}

void touch(const std::string& dir, const std::string& name) {
  ::utimensat(AT_FDCWD, (dir + "/" + name).c_str(), nullptr, AT_SYMLINK_NOFOLLOW);
}

void debug(const DiskCacheSettings& settings, const char* what, const std::string& name) {
  if (settings.debug) std::fprintf(stderr, "tessera cache: %s %s\n", what, name.c_str());
}

}  // namespace tessera::support::disk_cache
