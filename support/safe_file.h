// Reading and writing files whose names come from the environment or from other users' reach
// (TESSERA_TOPOLOGY, the module cache, TESSERA_TRACE, TESSERA_CL_DUMP_PARTITIONS) without blocking
// or being redirected:
// - a file is read only if it is a regular file: it is opened with O_NONBLOCK, so a FIFO or a
//   device planted at the name cannot block the open, then checked with fstat before any read;
// - a file is written through a fresh temporary file beside it (mkostemps: O_CREAT|O_EXCL, which
//   never follows a symbolic link and never opens a FIFO another process put there), renamed over
//   the final name; only a regular file (or nothing) is ever replaced: a name that holds a device,
//   FIFO, socket, directory or symbolic link is refused with a reason, so TESSERA_TRACE=/dev/null
//   as root cannot put a regular file in place of the machine's /dev/null.
// Header-only: every layer (core, trace, cl_shim, tools) uses it.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessera::support {

// What open() gave, checked: a descriptor of a regular file (blocking mode restored) and its
// status, or -1 with the reason in `why` ("is a FIFO, not a regular file", "No such file or
// directory") and errno set (open's, or EISDIR / EINVAL for what is not a regular file).
// `extraFlags` may add O_NOFOLLOW.
inline int openRegularFile(const char* path, int extraFlags, struct stat& st, std::string& why) {
  int fd = ::open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | extraFlags);
  if (fd < 0) {
    why = errno == ELOOP && (extraFlags & O_NOFOLLOW) ? "is a symbolic link" : std::strerror(errno);
    return -1;
  }
  if (fstat(fd, &st) != 0) {
    why = std::strerror(errno);
    ::close(fd);
    return -1;
  }
  if (!S_ISREG(st.st_mode)) {
    why = S_ISFIFO(st.st_mode)  ? "is a FIFO, not a regular file"
          : S_ISDIR(st.st_mode) ? "is a directory, not a regular file"
          : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "is a device, not a regular file"
                                                        : "is not a regular file";
    ::close(fd);
    errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
    return -1;
  }
  // A regular file never blocks; clear O_NONBLOCK anyway so reads behave as usual.
  int flags = fcntl(fd, F_GETFL);
  if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

// The whole of a regular file of at most `maxBytes`; false with the reason in `why` otherwise.
inline bool readRegularFile(const char* path, uint64_t maxBytes, std::string& out,
                            std::string& why, int extraFlags = 0) {
  struct stat st{};
  int fd = openRegularFile(path, extraFlags, st, why);
  if (fd < 0) return false;
  if (uint64_t(st.st_size) > maxBytes) {
    why = "is larger than " + std::to_string(maxBytes) + " bytes";
    ::close(fd);
    return false;
  }
  out.assign(size_t(st.st_size), '\0');
  size_t done = 0;
  while (done < out.size()) {
    ssize_t n = ::read(fd, out.data() + done, out.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      why = std::strerror(errno);
      ::close(fd);
      return false;
    }
    if (n == 0) break;  // shrank since fstat: keep what is there
    done += size_t(n);
  }
  out.resize(done);
  ::close(fd);
  return true;
}

// A file written in full, then put in place: open() makes a fresh temporary file next to `path`,
// commit() renames it to `path`, and the destructor removes it if commit() was not reached.
class ReplacingFile {
 public:
  explicit ReplacingFile(std::string path) : path_(std::move(path)) {}
  ReplacingFile(const ReplacingFile&) = delete;
  ReplacingFile& operator=(const ReplacingFile&) = delete;
  ~ReplacingFile() {
    if (file_) std::fclose(file_);
    if (!tmp_.empty()) ::unlink(tmp_.c_str());
  }

  // The stream to write to, or null with the reason in `why`. The file has mode 0600 (mkostemps).
  std::FILE* open(std::string& why) {
    if (!replaceable(why)) return nullptr;
    std::string name = path_ + ".XXXXXX.tmp";
    int fd = mkostemps(name.data(), 4, O_CLOEXEC);
    if (fd < 0) {
      why = std::strerror(errno);
      return nullptr;
    }
    tmp_ = name;
    file_ = fdopen(fd, "w");
    if (!file_) {
      why = std::strerror(errno);
      ::close(fd);
    }
    return file_;
  }

  // Closes the stream and renames the file over `path`; false with the reason in `why`.
  bool commit(std::string& why) {
    if (!file_) return false;
    bool ok = std::fflush(file_) == 0 && !std::ferror(file_);
    ok = std::fclose(file_) == 0 && ok;
    file_ = nullptr;
    if (!ok) {
      why = "cannot write " + tmp_;
      return false;
    }
    // Checked again: something else may have appeared at the name while the file was written.
    if (!replaceable(why)) return false;
    if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
      why = std::strerror(errno);
      return false;
    }
    tmp_.clear();
    return true;
  }

 private:
  // Whether `path_` names nothing or a regular file (lstat: a link is not followed).
  bool replaceable(std::string& why) const {
    struct stat st{};
    if (::lstat(path_.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return true;
    why = S_ISLNK(st.st_mode)   ? "is a symbolic link"
          : S_ISFIFO(st.st_mode) ? "is a FIFO"
          : S_ISDIR(st.st_mode)  ? "is a directory"
          : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "is a device"
                                                        : "is not a regular file";
    why += ", not a regular file: not replaced";
    return false;
  }

  std::string path_;
  std::string tmp_;
  std::FILE* file_ = nullptr;
};

}  // namespace tessera::support
