// Memory IPC between processes, over memfd and pidfd.
//
// An IPC handle names pages of a memfd the exporter holds open: (fd number, exporter pid, offset,
// size, export-table offset, cookie). The opener takes a duplicate of that descriptor with
// pidfd_open + pidfd_getfd (or uses the descriptor of its own that the application sent it under
// that number, core/common/remote_fd.h) and maps the pages, so both processes see the same bytes.
//
// Security model: pidfd_getfd succeeds only for a caller that may ptrace the exporter (same user
// and the exporter dumpable, or CAP_SYS_PTRACE; Yama may restrict further). Such a process can read
// the exporter's memory anyway, so a handle gives it nothing new; any other process that gets hold
// of the handle's 64 bytes cannot use them (the open fails with
// ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS). The cookie is not a secret: it is a random 64-bit
// value the exporter writes into the memfd's export table at the allocation's first page and clears
// on zeMemPutIpcHandle or zeMemFree. The opener checks it, so a handle that was put, whose
// allocation was freed, or whose fd number now names another file (the exporter closed and reused
// it; its pid was recycled) is refused instead of mapping the wrong memory.
#pragma once

#include <level_zero/ze_api.h>

#include <cstddef>
#include <cstdint>

namespace tessera::core {

// The descriptor number comes first: programs written for the reference driver pass a handle's
// first four bytes to the other process as a descriptor (core/common/remote_fd.h, takeHandleFd).
struct IpcHandleData {
  static constexpr uint32_t kMagic = 0x50497354;  // "TsIP"
  static constexpr uint32_t kVersion = 3;
  int32_t fd = -1;
  uint32_t magic = kMagic;
  uint32_t version = kVersion;
  int32_t pid = 0;
  uint64_t dataOffset = 0;
  uint64_t size = 0;
  uint64_t tableOffset = 0;
  uint64_t cookie = 0;
  uint32_t kind = 0;  // ze_memory_type_t of the exported allocation
  // Where the allocation starts in its first page (under 4096): 0 except for the allocations of
  // the guard-page mode (guard.h), which end flush with a page instead of starting at one.
  uint32_t lead = 0;
};
static_assert(sizeof(IpcHandleData) <= ZE_MAX_IPC_HANDLE_SIZE);

void encode(const IpcHandleData& d, ze_ipc_mem_handle_t& h);
// False when the bytes are not a Tessera IPC handle of this version.
bool decode(const ze_ipc_mem_handle_t& h, IpcHandleData& d);
// A handle that holds a descriptor of this process and nothing else (its other bytes zero): what a
// program written for Intel's driver rebuilds in another process from the descriptor alone.
// intel/compute-benchmarks' MultiProcessComputeSharedBuffer reads `*(int*)handle.data`, lets the
// child inherit that descriptor and passes its number on the command line, and the child opens a
// handle made of that number. When the descriptor names a memfd laid out as Tessera's (Backing,
// physical memory), `d` is the handle of the export whose own descriptor had that number in the
// exporter (ExportEntry::fd: the number the child inherited), else of the file's only export (a
// device allocation; `lead` 0, so not the allocations of the guard-page mode); otherwise false (a
// file with several exports, none under that number, cannot tell which is meant).
bool decodeBareDescriptor(const ze_ipc_mem_handle_t& h, IpcHandleData& d);

struct IpcMapping {
  ze_result_t result = ZE_RESULT_ERROR_UNKNOWN;
  void* ptr = nullptr;        // the allocation (mapping + lead)
  void* mapping = nullptr;    // what to munmap
  size_t mappedBytes = 0;
};
// Takes the exporter's descriptor, checks the cookie and maps the pages read-write; `guarded`
// (the opener's guard-page mode): between two PROT_NONE pages (guard.h).
IpcMapping openIpc(const IpcHandleData& d, bool guarded = false);

}  // namespace tessera::core
