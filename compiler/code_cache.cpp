#include "compiler/code_cache.h"

#include "support/disk_cache.h"

namespace tessera::compiler {

namespace disk_cache = support::disk_cache;
namespace {

std::string entryName(const CacheKey& key) {
  return key.hex() + ".tnb";
}

}  // namespace

std::shared_ptr<const ModuleCode> CodeCache::find(const CacheKey& key, bool shareable,
                                                  const Loader& load) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = memory_.find(key); it != memory_.end()) return it->second;
  }
  if (!load) return nullptr;
  std::optional<std::string> dir = disk_cache::directory(disk_);
  if (!dir) return nullptr;
  const std::string entry = entryName(key);
  std::vector<uint8_t> bytes = disk_cache::read(*dir, entry);
  if (bytes.empty()) {
    disk_cache::debug(disk_, "miss", entry);
    return nullptr;
  }
  std::shared_ptr<const ModuleCode> code = load(bytes);
  if (!code) {
    disk_cache::debug(disk_, "corrupt", entry);
    return nullptr;
  }
  disk_cache::debug(disk_, "hit", entry);
  disk_cache::touch(*dir, entry);
  if (shareable) remember(key, code);
  return code;
}

void CodeCache::store(const CacheKey& key, std::shared_ptr<const ModuleCode> code, bool shareable,
                      const std::vector<uint8_t>& nativeBinary) {
  if (shareable) remember(key, std::move(code));
  if (nativeBinary.empty()) return;
  if (std::optional<std::string> dir = disk_cache::directory(disk_))
    disk_cache::write(disk_, *dir, entryName(key), nativeBinary);
}

bool CodeCache::writesToDisk() const {
  return disk_cache::directory(disk_).has_value();
}

void CodeCache::remember(const CacheKey& key, std::shared_ptr<const ModuleCode> code) {
  std::lock_guard<std::mutex> lock(mutex_);
  memory_.emplace(key, std::move(code));
}

}  // namespace tessera::compiler
