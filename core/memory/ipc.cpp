#include "core/memory/ipc.h"

#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "core/common/remote_fd.h"
#include "core/memory/backing.h"
#include "core/memory/guard.h"

namespace tessera::core {
namespace {

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

}  // namespace

void encode(const IpcHandleData& d, ze_ipc_mem_handle_t& h) {
  std::memset(h.data, 0, sizeof h.data);
  std::memcpy(h.data, &d, sizeof d);
}

bool decode(const ze_ipc_mem_handle_t& h, IpcHandleData& d) {
  std::memcpy(&d, h.data, sizeof d);
  return d.magic == IpcHandleData::kMagic && d.version == IpcHandleData::kVersion &&
         d.cookie != 0 && d.size != 0 && d.dataOffset % kPageSize == 0 &&
         d.tableOffset % kPageSize == 0 && d.lead < kPageSize;
}

bool decodeBareDescriptor(const ze_ipc_mem_handle_t& h, IpcHandleData& d) {
  int32_t fd = -1;
  std::memcpy(&fd, h.data, sizeof fd);
  if (fd < 0 || std::any_of(h.data + sizeof fd, h.data + sizeof h.data,
                            [](char c) { return c != 0; }))
    return false;
  // Only Tessera's own memfds (Backing, physical memory): any other file of the process whose size
  // happens to fit the layout would otherwise be read as an export table and mapped.
  char link[64];
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  const ssize_t n = readlink(path.c_str(), link, sizeof link - 1);
  if (n <= 0) return false;
  const std::string target(link, size_t(n));
  if (target.rfind("/memfd:tessera-usm", 0) != 0 && target.rfind("/memfd:tessera-physical", 0) != 0)
    return false;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return false;
  const size_t dataBytes = dataBytesOfFile(static_cast<size_t>(st.st_size));
  if (dataBytes == 0) return false;
  const size_t tableBytes = exportTableBytes(dataBytes);
  void* table = mmap(nullptr, tableBytes, PROT_READ, MAP_SHARED, fd, static_cast<off_t>(dataBytes));
  if (table == MAP_FAILED) return false;
  // The export whose own descriptor has this number (the opener inherited it under the number the
  // exporter had), else the only export of the file.
  const auto* entries = static_cast<const ExportEntry*>(table);
  size_t found = 0, index = 0, named = SIZE_MAX;
  for (size_t i = 0; i < dataBytes / kPageSize; ++i) {
    if (entries[i].cookie == 0) continue;
    ++found, index = i;
    if (entries[i].fd == fd) named = i;
  }
  if (named != SIZE_MAX) found = 1, index = named;
  const ExportEntry entry = found == 1 ? entries[index] : ExportEntry{0, 0};
  munmap(table, tableBytes);
  if (found != 1 || entry.size == 0 || entry.size > dataBytes - index * kPageSize) return false;
  d = IpcHandleData{};
  d.fd = fd;
  d.pid = getpid();
  d.dataOffset = index * kPageSize;
  d.size = entry.size;
  d.tableOffset = dataBytes;
  d.cookie = entry.cookie;
  d.kind = ZE_MEMORY_TYPE_DEVICE;
  return true;
}

IpcMapping openIpc(const IpcHandleData& d, bool guarded) {
  IpcMapping m;
  // The descriptor must be a file long enough for the export entry, and the entry must hold the
  // handle's cookie and size.
  size_t entryOffset = d.tableOffset + d.dataOffset / kPageSize * sizeof(ExportEntry);
  if (d.size > d.tableOffset || d.dataOffset + d.lead > d.tableOffset - d.size)
    return {ZE_RESULT_ERROR_INVALID_ARGUMENT};
  size_t pageStart = entryOffset / kPageSize * kPageSize;
  auto exported = [&](int candidate) {
    void* table =
        mmap(nullptr, kPageSize, PROT_READ, MAP_SHARED, candidate, static_cast<off_t>(pageStart));
    if (table == MAP_FAILED) return false;
    ExportEntry entry;
    std::memcpy(&entry, static_cast<uint8_t*>(table) + (entryOffset - pageStart), sizeof entry);
    munmap(table, kPageSize);
    return entry.cookie == d.cookie && entry.size == d.size;
  };
  RemoteFd remote = takeHandleFd(d.pid, d.fd, entryOffset + sizeof(ExportEntry), exported);
  if (remote.result != ZE_RESULT_SUCCESS) return {remote.result};
  Fd fd{remote.fd};

  size_t bytes = roundUp(d.lead + d.size, kPageSize);
  void* p;
  if (guarded) {
    GuardedMapping g = mapGuarded(bytes, kPageSize, fd.fd, d.dataOffset);
    p = g.data;
    m.mapping = g.reservation;
    m.mappedBytes = g.reservedBytes;
  } else {
    p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd.fd,
             static_cast<off_t>(d.dataOffset));
    if (p == MAP_FAILED) p = nullptr;
    m.mapping = p;
    m.mappedBytes = bytes;
  }
  if (!p)
    return {errno == ENOMEM ? ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY
                            : ZE_RESULT_ERROR_INVALID_ARGUMENT};
  m.ptr = static_cast<uint8_t*>(p) + d.lead;
  m.result = ZE_RESULT_SUCCESS;
  return m;
}

}  // namespace tessera::core
