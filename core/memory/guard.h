// Guard-page mode (TESSERA_GUARD_PAGES=1; docs/reliability.md, "Guard pages"): every USM allocation
// made by the arena allocator gets a memfd of its own, mapped between two inaccessible (PROT_NONE)
// pages so that its last byte is the last byte before the upper guard page. Any access past the
// end of an allocation then faults at once (a kernel's fault is contained: its context is lost),
// instead of reading a neighbour's bytes or the slack of a page-rounded slot.
//
// The alignment rule: an allocation of `size` bytes asked for with `alignment` (0: Tessera's
// default, a page) starts at a multiple of
//     min(alignment or 4096, the largest power of two dividing size),
// which always lets its end be exactly flush with the guard page. That is the requested alignment
// whenever the size is a multiple of it (OpenCL's 128-byte buffers of 128-multiple sizes, any
// page-multiple allocation) and otherwise the natural alignment of every element type the size is
// a multiple of: a buffer of float4s stays 16-aligned, of doubles 8-aligned. Only a caller that
// relies on more alignment than its size's largest power of two sees less than it asked for; that
// is what the mode trades for finding over-reads byte-exactly.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tessera::core {

// Where a guarded allocation of `size` bytes (> 0) asked for with `alignment` starts: the rule
// above. A power of two.
size_t guardAlignment(size_t size, size_t alignment);

// A mapping of `bytes` (a page multiple) between two inaccessible pages.
struct GuardedMapping {
  uint8_t* data = nullptr;         // null when the system refused
  uint8_t* reservation = nullptr;  // the lower guard page: what to munmap
  size_t reservedBytes = 0;        // bytes + two pages
};

// Maps `bytes` of fd at fileOffset (MAP_SHARED, read-write) so that their end is aligned to
// `endAlignment` (a power of two; a page at least) with a PROT_NONE page right below and right
// above. Nothing stays mapped on failure.
GuardedMapping mapGuarded(size_t bytes, size_t endAlignment, int fd, size_t fileOffset);

}  // namespace tessera::core
