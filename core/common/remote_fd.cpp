#include "core/common/remote_fd.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace tessera::core {

RemoteFd takeRemoteFd(int32_t pid, int32_t fd, uint64_t minBytes) {
  auto fromErrno = [](int e) {
    switch (e) {
      case EPERM:
      case EACCES: return ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS;  // may not ptrace the exporter
      case EMFILE:
      case ENFILE:
      case ENOMEM: return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
      case ENOSYS: return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
      default: return ZE_RESULT_ERROR_INVALID_ARGUMENT;  // ESRCH, EBADF: the handle is stale
    }
  };
  int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  if (pidfd < 0) return {fromErrno(errno), -1};
  int local = static_cast<int>(syscall(SYS_pidfd_getfd, pidfd, fd, 0));
  int err = errno;
  close(pidfd);
  if (local < 0) return {fromErrno(err), -1};
  struct stat st;
  if (fstat(local, &st) != 0 || !S_ISREG(st.st_mode) || uint64_t(st.st_size) < minBytes) {
    close(local);
    return {ZE_RESULT_ERROR_INVALID_ARGUMENT, -1};
  }
  return {ZE_RESULT_SUCCESS, local};
}

RemoteFd dupLocalFd(int32_t fd, uint64_t minBytes) {
  if (fd < 0) return {ZE_RESULT_ERROR_INVALID_ARGUMENT, -1};
  int local = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (local < 0) return {ZE_RESULT_ERROR_INVALID_ARGUMENT, -1};
  struct stat st;
  if (fstat(local, &st) != 0 || !S_ISREG(st.st_mode) || uint64_t(st.st_size) < minBytes) {
    close(local);
    return {ZE_RESULT_ERROR_INVALID_ARGUMENT, -1};
  }
  return {ZE_RESULT_SUCCESS, local};
}

void closeFd(int fd) {
  if (fd >= 0) close(fd);
}

uint64_t randomCookie() {
  uint64_t v = 0;
  while (v == 0)
    if (getrandom(&v, sizeof v, 0) != sizeof v) v = 0;
  return v;
}

}  // namespace tessera::core
