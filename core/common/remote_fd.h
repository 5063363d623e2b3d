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
// INVALID_ARGUMENT when the process is gone, INSUFFICIENT_PERMISSIONS when the caller may not take
// its descriptors, UNSUPPORTED_FEATURE when the kernel lacks pidfd_getfd.
RemoteFd takeRemoteFd(int32_t pid, int32_t fd);

// A fresh non-zero 64-bit value from the kernel's random source: cookies that tell a live export
// from a stale handle.
uint64_t randomCookie();

}  // namespace tessera::core
