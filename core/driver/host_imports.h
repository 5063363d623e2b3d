// Host memory imported into the driver by Intel's experimental zexDriverImportExternalPointer,
// zexDriverReleaseImportedPointer and zexDriverGetHostPointerBaseAddress (compute-runtime's
// zex_driver.h; reached through zeDriverGetExtensionFunctionAddress). Tessera's device is the
// host: any host address is already device-accessible, so an import changes nothing about how
// memory is reached; what is kept is the bookkeeping the three functions answer from.
#pragma once

#include <level_zero/ze_api.h>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <mutex>

namespace tessera::core {

class HostImports {
 public:
  // [ptr, ptr + size) becomes imported. INVALID_NULL_POINTER for a null ptr, INVALID_SIZE for a
  // size of 0 or a range past the end of the address space, INVALID_ARGUMENT for a range that
  // overlaps one imported before (and not released).
  ze_result_t import(void* ptr, size_t size);
  // The import that starts at ptr ends. INVALID_NULL_POINTER for null, INVALID_ARGUMENT when no
  // import starts there.
  ze_result_t release(void* ptr);
  // The start of the import holding ptr, into *base when base is not null. INVALID_NULL_POINTER
  // for a null ptr, INVALID_ARGUMENT when ptr is in no import.
  ze_result_t base(void* ptr, void** base) const;

 private:
  mutable std::mutex mutex_;
  std::map<uintptr_t, size_t> ranges_;  // start -> size; disjoint
};

}  // namespace tessera::core
