// Taking a file descriptor from another process: how IPC handles (memory, event pools) reach the
// pages another process exports. pidfd_open + pidfd_getfd succeed only for a caller allowed to ptrace
// the exporter (same user and the exporter dumpable, or CAP_SYS_PTRACE), which is the security model
// of every Tessera IPC handle.
#pragma once

#include <level_zero/ze_api.h>

#include <cstdint>

namespace tessera::core {

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

// A fresh non-zero 64-bit value from the kernel's random source: cookies that tell a live export
// from a stale handle.
uint64_t randomCookie();

}  // namespace tessera::core
