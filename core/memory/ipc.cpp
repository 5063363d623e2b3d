#include "core/memory/ipc.h"

#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/memory/backing.h"

namespace tessera::core {
namespace {

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

ze_result_t fromErrno(int e) {
  // EPERM: not allowed to ptrace the exporter (the security model in ipc.h). ESRCH/EBADF: the
  // exporter or its descriptor is gone, so the handle is stale.
  if (e == EPERM || e == EACCES) return ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS;
  if (e == EMFILE || e == ENFILE || e == ENOMEM) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
  return ZE_RESULT_ERROR_INVALID_ARGUMENT;
}

}  // namespace

void encode(const IpcHandleData& d, ze_ipc_mem_handle_t& h) {
  std::memset(h.data, 0, sizeof h.data);
  std::memcpy(h.data, &d, sizeof d);
}

bool decode(const ze_ipc_mem_handle_t& h, IpcHandleData& d) {
  std::memcpy(&d, h.data, sizeof d);
  return d.magic == IpcHandleData::kMagic && d.version == IpcHandleData::kVersion &&
         d.cookie != 0 && d.size != 0 && d.dataOffset % kPageSize == 0 &&
         d.tableOffset % kPageSize == 0;
}

uint64_t newCookie() {
  uint64_t c = 0;
  while (c == 0)
    if (getrandom(&c, sizeof c, 0) != sizeof c) c = 0;
  return c;
}

IpcMapping openIpc(const IpcHandleData& d) {
  IpcMapping m;
  Fd pidfd{static_cast<int>(syscall(SYS_pidfd_open, d.pid, 0))};
  if (pidfd.fd < 0) return {fromErrno(errno)};
  Fd fd{static_cast<int>(syscall(SYS_pidfd_getfd, pidfd.fd, d.fd, 0))};
  if (fd.fd < 0) return {fromErrno(errno)};

  // The descriptor must be a file long enough for the export entry, and the entry must hold the
  // handle's cookie and size.
  size_t entryOffset = d.tableOffset + d.dataOffset / kPageSize * sizeof(ExportEntry);
  struct stat st;
  if (fstat(fd.fd, &st) != 0 || !S_ISREG(st.st_mode) ||
      static_cast<uint64_t>(st.st_size) < entryOffset + sizeof(ExportEntry) ||
      d.dataOffset + d.size > d.tableOffset)
    return {ZE_RESULT_ERROR_INVALID_ARGUMENT};
  size_t pageStart = entryOffset / kPageSize * kPageSize;
  void* table =
      mmap(nullptr, kPageSize, PROT_READ, MAP_SHARED, fd.fd, static_cast<off_t>(pageStart));
  if (table == MAP_FAILED) return {fromErrno(errno)};
  ExportEntry entry;
  std::memcpy(&entry, static_cast<uint8_t*>(table) + (entryOffset - pageStart), sizeof entry);
  munmap(table, kPageSize);
  if (entry.cookie != d.cookie || entry.size != d.size) return {ZE_RESULT_ERROR_INVALID_ARGUMENT};

  m.mappedBytes = roundUp(d.size, kPageSize);
  void* p = mmap(nullptr, m.mappedBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd.fd,
                 static_cast<off_t>(d.dataOffset));
  if (p == MAP_FAILED)
    return {errno == ENOMEM ? ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY
                            : ZE_RESULT_ERROR_INVALID_ARGUMENT};
  m.ptr = p;
  m.result = ZE_RESULT_SUCCESS;
  return m;
}

}  // namespace tessera::core
