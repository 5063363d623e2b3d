// The on-disk module cache: native binaries (core/module/native_binary.h) of modules built from
// SPIR-V, so that a later process creates the same module without compiling it.
//
// Key: a 128-bit content hash of the SPIR-V, the build options, the specialization constants, the
// host CPU name and feature string, and the driver build (version, and the size and modification
// time of the library holding this code, so that a rebuilt driver never loads another build's
// code). Value: the module's native binary, which carries its own checksum; an entry that is
// truncated, corrupt or does not load is ignored and rewritten.
//
// Environment (read at each lookup):
//   TESSERA_CACHE=0            no cache (neither read nor written)
//   TESSERA_CACHE_DIR=<dir>    where entries live; default $XDG_CACHE_HOME/tessera, else
//                              $HOME/.cache/tessera
//   TESSERA_CACHE_MAX_MB=<n>   bound on the directory's size in MiB (default 256, fractions
//                              allowed, 0 unbounded): after a write, the least recently used
//                              entries (by modification time; a hit touches its entry) other than
//                              the one just written are removed until the rest fits
//   TESSERA_CACHE_DEBUG=1      one line on stderr per lookup ("tessera cache: hit|miss|corrupt|
//                              stored <file>")
// Entries are written to a temporary file in the same directory and renamed over the final name,
// so concurrent processes never read a partial entry; two processes building the same module both
// compile it, and the last rename wins (both contents are equivalent).
//
// Trust (an entry is object code this process runs; its checksum is no signature): the folder is
// created 0700 (missing parents too) and entries 0600. A folder or an entry not owned by the
// effective user, or writable by its group or others, is not used (a warning on stderr, once per
// process and name): such a folder disables the cache, such an entry is ignored and replaced by
// the next write. Entries are opened with O_NOFOLLOW and O_NONBLOCK, and read only if regular
// files (a FIFO planted there never blocks zeModuleCreate).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tessera::core::module_cache {

// The directory in use, or nullopt when the cache is disabled, no directory can be named or the
// folder is not trusted (see above).
std::optional<std::string> directory();

// The entry's file name (hex of the 128-bit key, ".tnb") for the given inputs.
std::string entryName(std::span<const uint8_t> spirv, const std::string& options,
                      const std::string& specs, const std::string& cpu, const std::string& features);

// The entry's bytes, or empty when absent, unreadable, not a regular file or not trusted.
std::vector<uint8_t> read(const std::string& dir, const std::string& name);
// Atomically replaces the entry (temporary file + rename); then bounds the directory's size.
// Failures are silent: the cache is an optimization.
void write(const std::string& dir, const std::string& name, const std::vector<uint8_t>& bytes);
// Marks a hit (updates the entry's modification time, for the size bound's LRU order).
void touch(const std::string& dir, const std::string& name);
// TESSERA_CACHE_DEBUG: a line on stderr.
void debug(const char* what, const std::string& name);

}  // namespace tessera::core::module_cache
