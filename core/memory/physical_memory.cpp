#include "core/memory/physical_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include "core/context/context.h"
#include "core/driver/driver.h"

namespace tessera::core {

std::unique_ptr<PhysicalMemory> PhysicalMemory::create(Context& context, Device& device,
                                                       size_t bytes) {
  int fd = memfd_create("tessera-physical", MFD_CLOEXEC);
  if (fd < 0) return nullptr;
  if (ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
    close(fd);
    return nullptr;
  }
  Placement p;
  p.topology = &context.driver().topology();
  for (const NumaNodeInfo& n : device.resources().numaNodes) p.nodes.push_back(n.osIndex);
  return std::unique_ptr<PhysicalMemory>(new PhysicalMemory(context, device, fd, bytes, p));
}

PhysicalMemory::~PhysicalMemory() {
  close(fd_);
}

}  // namespace tessera::core
