#include "core/memory/physical_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include "core/memory/placement.h"

namespace tessera::core {

std::unique_ptr<PhysicalMemory> PhysicalMemory::create(Context& context, Device* device,
                                                       Placement placement, size_t bytes) {
  int fd = memfd_create("tessera-physical", MFD_CLOEXEC);
  if (fd < 0) return nullptr;
  // zePhysicalMemCreate's size is a page multiple (checked by the entry point).
  const size_t tableBytes = exportTableBytes(bytes);
  void* table = MAP_FAILED;
  if (ftruncate(fd, static_cast<off_t>(bytes + tableBytes)) == 0)
    table = mmap(nullptr, tableBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                 static_cast<off_t>(bytes));
  if (table == MAP_FAILED) {
    close(fd);
    return nullptr;
  }
  return std::unique_ptr<PhysicalMemory>(new PhysicalMemory(
      context, device, fd, bytes, std::move(placement), static_cast<ExportEntry*>(table),
      tableBytes));
}

uint64_t PhysicalMemory::nextId() {
  static std::atomic<uint64_t> last{0};
  return last.fetch_add(1, std::memory_order_relaxed) + 1;
}

PhysicalMemory::~PhysicalMemory() {
  munmap(table_, tableBytes_);
  close(fd_);
}

}  // namespace tessera::core
