// Pinning threads to CPUs, by OS CPU number. No hwloc here: the caller (core) decides which CPUs a
// device owns.
#pragma once

#include <cstdint>
#include <vector>

namespace tessera::host {

// Restricts the calling thread to `cpus`; false when the OS refuses (e.g. CPUs that do not exist,
// as with a synthetic topology). An empty list leaves the thread as it is and returns true.
bool pinCurrentThread(const std::vector<uint32_t>& cpus);
// Whether the calling thread may run only on `cpus` (its affinity mask is within them), so work it
// does stays on them. Where it happens to run at this moment says nothing: an unpinned thread can
// migrate in the middle of a kernel.
bool confinedTo(const std::vector<uint32_t>& cpus);

// Whether `cpus` names every CPU the system has configured, so that every thread is confined to
// them whatever its affinity (confinedTo's answer without its system call).
bool coversEveryCpu(const std::vector<uint32_t>& cpus);

}  // namespace tessera::host
