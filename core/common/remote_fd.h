// Taking a file descriptor from another process: how IPC handles (memory, event pools) reach the
// pages another process exports. pidfd_open + pidfd_getfd succeed only for a caller allowed to ptrace
// the exporter (same user and the exporter dumpable, or CAP_SYS_PTRACE), which is the security model
// of every Tessera IPC handle.
#pragma once

#include <level_zero/ze_api.h>

#include <cstdint>

namespace tessera::core {

void closeFd(int fd);

struct RemoteFd {
  ze_result_t result = ZE_RESULT_ERROR_UNKNOWN;
  int fd = -1;  // owned by the caller on success
};
// Takes descriptor `fd` of process `pid`, which must name a regular file of at least `minBytes`
// (anything else would fault when mapped and read). INVALID_ARGUMENT when the process or descriptor
// is gone or names something else, INSUFFICIENT_PERMISSIONS when the caller may not take the
// process's descriptors, OUT_OF_HOST_MEMORY when this process has no descriptor left,
// UNSUPPORTED_FEATURE when the kernel lacks pidfd_getfd.
RemoteFd takeRemoteFd(int32_t pid, int32_t fd, uint64_t minBytes);
// A duplicate of this process's descriptor `fd` when it names a regular file of at least
// `minBytes`; INVALID_ARGUMENT otherwise.
RemoteFd dupLocalFd(int32_t fd, uint64_t minBytes);

// The descriptor an IPC handle names. Programs written for the reference driver (level-zero-tests
// among them) read a handle's first four bytes as a file descriptor, send it to the other process
// over a UNIX socket (SCM_RIGHTS) and write there the number it arrived as. Tessera's handles
// therefore start with the exporter's descriptor number, and the opener tries that number as a
// descriptor of its own process first (what such a program put there; in the exporter's process it
// is the exporter's own), then takes the exporter's with pidfd_getfd. `matches(fd)` tells the
// exported file from any other (it checks the handle's cookie in the file): a descriptor it refuses
// is not used, so a number that names some other file of the opener changes nothing.
template <typename Matches>
RemoteFd takeHandleFd(int32_t pid, int32_t fd, uint64_t minBytes, Matches&& matches) {
  RemoteFd local = dupLocalFd(fd, minBytes);
  if (local.result == ZE_RESULT_SUCCESS) {
    if (matches(local.fd)) return local;
    closeFd(local.fd);
  }
  RemoteFd remote = takeRemoteFd(pid, fd, minBytes);
  if (remote.result != ZE_RESULT_SUCCESS) return remote;
  if (matches(remote.fd)) return remote;
  closeFd(remote.fd);
  return {ZE_RESULT_ERROR_INVALID_ARGUMENT, -1};
}

// A fresh non-zero 64-bit value from the kernel's random source: cookies that tell a live export
// from a stale handle.
uint64_t randomCookie();

}  // namespace tessera::core
