// Guard-page mode (TESSERA_GUARD_PAGES=1; docs/reliability.md, "Guard pages"): every USM allocation
// made by the arena allocator gets a memfd of its own, mapped between two inaccessible (PROT_NONE)
// pages so that its last byte is the last byte before the upper guard page. Any access past the
// end of an allocation then faults at once (a kernel's fault is contained: its context is lost),
// instead of reading a neighbour's bytes or the slack of a page-rounded slot.
//
// The alignment rule: an allocation of `size` bytes asked for with `alignment` starts at a multiple
// of A, where A is the alignment asked for, or, when none was (0), the largest power of two dividing
// the size, up to a page (the natural alignment of every element type the size is a multiple of: a
// buffer of float4s is 16-aligned). It ends flush with the guard page when A divides the size (any
// allocation made without an alignment; OpenCL's 128-byte-aligned buffers of 128-multiple sizes;
// anything of a page multiple); otherwise it starts at the highest multiple of A that fits, and
// fewer than A bytes between its end and the guard page stay accessible. The asked alignment is
// never reduced: applications rely on it (CLBlast's "Fast" kernels dereference double8 pointers
// into buffers it sized freely, counting on OpenCL's 128-byte base alignment; an end forced flush
// at the cost of alignment made those loads fault as misaligned, SIGSEGV at address 0).
#pragma once

#include <cstddef>
#include <cstdint>

namespace tessera::core {

// A of the rule above for an allocation of `size` bytes (> 0) asked for with `alignment` (0 or a
// power of two). A power of two.
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
