#include "core/memory/physical_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include "core/device/device.h"
#include "core/driver/driver.h"
#include "core/memory/placement.h"

namespace tessera::core {

std::unique_ptr<PhysicalMemory> PhysicalMemory::create(Context& context, Device& device,
                                                       size_t bytes) {
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
  // Placed as device memory (placement.h). The device is one of the context's (the entry point
  // checks), so of its driver.
  Placement p = placementFor(MemoryKind::Device, &device, {}, false, device.driver().topology());
  return std::unique_ptr<PhysicalMemory>(new PhysicalMemory(
      context, device, fd, bytes, p, static_cast<ExportEntry*>(table), tableBytes));
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
