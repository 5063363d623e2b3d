// Tessera's on-disk cache folder, shared by two caches:
//   - the compiler's code cache (compiler/code_cache.h): native binaries (compiler/native_binary.h)
//     of modules and kernels built from SPIR-V, so that a later process creates the same module
//     without compiling it. Entry name: the hex of the cache key (compiler/cache_key.h: a 128-bit
//     content hash of the SPIR-V, the build options, the specialization constants, the code
//     switches, the host CPU name and features, the LLVM version and the driver build; for a
//     kernel, also its name) and ".tnb";
//     Beside them, the compiler's notes (".ttr", CodeCache::findNote): that the program of a key
//     translated to LLVM IR, with the translator's warnings;
//   - the OpenCL C front end's (spirv/clc/frontend_cache.h): the SPIR-V and log clang made of a
//     source, keyed by everything clang read (".tfe").
// Each entry carries its own checksum; one that is truncated, corrupt or does not load is ignored
// and rewritten.
//
// Settings (DiskCacheSettings, from the environment by fromEnvironmentValues' callers):
//   TESSERA_CACHE=0            no cache (neither read nor written)
//   TESSERA_CACHE_DIR=<dir>    where entries live; default $XDG_CACHE_HOME/tessera, else
//                              $HOME/.cache/tessera
//   TESSERA_CACHE_MAX_MB=<n>   bound on the directory's size in MiB (default 256, fractions
//                              allowed, 0 unbounded): after a write, the least recently used
//                              entries of both kinds (by modification time; a hit touches its
//                              entry) other than the one just written are removed until the rest
//                              fits
//   TESSERA_CACHE_DEBUG=1      one line on stderr per lookup ("tessera cache: hit|miss|corrupt|
//                              stored <file>"; "note hit|miss|corrupt" for notes)
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

namespace tessera::support {

// The folder's settings, as plain values.
struct DiskCacheSettings {
  // TESSERA_CACHE=0 turns it off; it is off too when no folder can be named.
  bool enabled = false;
  // TESSERA_CACHE_DIR, else $XDG_CACHE_HOME/tessera, else $HOME/.cache/tessera.
  std::string folder;
  // TESSERA_CACHE_MAX_MB: bound on the folder's size (default 256 MiB, fractions allowed; 0 or
  // less: unbounded).
  uint64_t maxBytes = uint64_t{256} << 20;
  // TESSERA_CACHE_DEBUG (set and not 0): a line on stderr per lookup and store.
  bool debug = false;
};

// The settings from the values of TESSERA_CACHE, TESSERA_CACHE_DIR (empty: unset),
// TESSERA_CACHE_MAX_MB and TESSERA_CACHE_DEBUG as config/settings.def reads them, with the
// default folder from XDG_CACHE_HOME or HOME.
DiskCacheSettings diskCacheSettings(bool on, const std::string& dir, double maxMb, bool debug);

}  // namespace tessera::support

namespace tessera::support::disk_cache {

// The directory in use, or nullopt when the tier is disabled or the folder is not trusted (see
// above). Checked at each call: the folder may be made, or changed, while the process runs.
std::optional<std::string> directory(const DiskCacheSettings& settings);

// The entry's bytes, or empty when absent, unreadable, not a regular file or not trusted.
std::vector<uint8_t> read(const std::string& dir, const std::string& name);
// Atomically replaces the entry (temporary file + rename); then bounds the directory's size to
// settings.maxBytes. Failures are silent: the cache is an optimization.
void write(const DiskCacheSettings& settings, const std::string& dir, const std::string& name,
           const std::vector<uint8_t>& bytes);
// Marks a hit (updates the entry's modification time, for the size bound's LRU order).
void touch(const std::string& dir, const std::string& name);
// TESSERA_CACHE_DEBUG: a line on stderr.
void debug(const DiskCacheSettings& settings, const char* what, const std::string& name);

}  // namespace tessera::support::disk_cache
