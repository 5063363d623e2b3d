// The compiler's one cache of compiled modules, by one key (cache_key.h), in two tiers:
//   memory  this process's code, shared by every module with the same key (code of a program with
//           program-scope variables is never shared: each module has its own variables);
//   disk    native binaries (disk_cache.h, with its trust and size rules), so that another process
//           loads the module instead of compiling it.
// A lookup tries memory, then disk; what the disk gives is kept in memory too.
//
// Threading: any thread; the memory tier is under a mutex. Two threads compiling the same module
// at once both compile it, and the first store wins in memory (on disk, the last).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <span>
#include <vector>

#include "compiler/cache_key.h"
#include "compiler/program.h"
#include "compiler/compiler_config.h"

namespace tessera::compiler {

class CodeCache {
 public:
  explicit CodeCache(DiskCacheSettings disk) : disk_(std::move(disk)) {}

  // Turns an on-disk entry's bytes into code, or null when the entry does not hold this module's
  // code for this CPU (the entry is then rewritten by the next store).
  using Loader = std::function<std::shared_ptr<const ModuleCode>(std::span<const uint8_t>)>;

  // The code for `key`: from memory, else (when `load` is given) from disk; null on a miss.
  // `shareable`: whether code from disk may be kept in memory for the next lookup.
  std::shared_ptr<const ModuleCode> find(const CacheKey& key, bool shareable, const Loader& load);
  // Code just compiled for `key`: kept in memory when `shareable`, and written to disk as
  // `nativeBinary` when that is not empty.
  void store(const CacheKey& key, std::shared_ptr<const ModuleCode> code, bool shareable,
             const std::vector<uint8_t>& nativeBinary);
  // Notes: short texts on disk beside the code (entries ".ttr", with their own checksum), facts
  // about a key another process may reuse; today, that a program's translation to LLVM IR
  // succeeded, with the translator's warnings (lazy_code.h). nullopt when absent or corrupt.
  std::optional<std::string> findNote(const CacheKey& key);
  void storeNote(const CacheKey& key, const std::string& text);
  // Whether stores write to disk (the tier is on and its folder trusted): callers skip making a
  // native binary otherwise.
  bool writesToDisk() const;

 private:
  void remember(const CacheKey& key, std::shared_ptr<const ModuleCode> code);

  DiskCacheSettings disk_;
  std::mutex mutex_;
  std::map<CacheKey, std::shared_ptr<const ModuleCode>> memory_;
};

}  // namespace tessera::compiler
