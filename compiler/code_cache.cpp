#include "compiler/code_cache.h"

#include <cstring>

#include "support/disk_cache.h"
#include "support/hash.h"

namespace tessera::compiler {

namespace disk_cache = support::disk_cache;
namespace {

std::string entryName(const CacheKey& key) {
  return key.hex() + ".tnb";
}

// A note: "TESSNT01" | u64 text bytes | text | u64 FNV-1a of everything before it.
constexpr char kNoteMagic[8] = {'T', 'E', 'S', 'S', 'N', 'T', '0', '1'};

uint64_t checksum(const std::vector<uint8_t>& bytes, size_t n) {
  return support::fnv1a64(std::string_view(reinterpret_cast<const char*>(bytes.data()), n));
}

// The text of a note's bytes, or nullopt when they are not a whole note.
std::optional<std::string> noteText(const std::vector<uint8_t>& bytes) {
  uint64_t n = 0, sum = 0;
  const size_t head = sizeof kNoteMagic + sizeof n;
  if (bytes.size() < head + sizeof sum ||
      std::memcmp(bytes.data(), kNoteMagic, sizeof kNoteMagic) != 0)
    return std::nullopt;
  std::memcpy(&n, bytes.data() + sizeof kNoteMagic, sizeof n);
  if (n != bytes.size() - head - sizeof sum) return std::nullopt;
  std::memcpy(&sum, bytes.data() + head + n, sizeof sum);
  if (sum != checksum(bytes, head + n)) return std::nullopt;
  return std::string(reinterpret_cast<const char*>(bytes.data()) + head, n);
}

}  // namespace

std::optional<std::string> CodeCache::findNote(const CacheKey& key) {
  std::optional<std::string> dir = disk_cache::directory(disk_);
  if (!dir) return std::nullopt;
  const std::string entry = key.hex() + ".ttr";
  std::vector<uint8_t> bytes = disk_cache::read(*dir, entry);
  std::optional<std::string> text = noteText(bytes);
  if (!text) {
    disk_cache::debug(disk_, bytes.empty() ? "note miss" : "note corrupt", entry);
    return std::nullopt;
  }
  disk_cache::debug(disk_, "note hit", entry);
  disk_cache::touch(*dir, entry);
  return text;
}

void CodeCache::storeNote(const CacheKey& key, const std::string& text) {
  std::optional<std::string> dir = disk_cache::directory(disk_);
  if (!dir) return;
  std::vector<uint8_t> bytes(kNoteMagic, kNoteMagic + sizeof kNoteMagic);
  const uint64_t n = text.size();
  bytes.insert(bytes.end(), reinterpret_cast<const uint8_t*>(&n),
               reinterpret_cast<const uint8_t*>(&n) + sizeof n);
  bytes.insert(bytes.end(), text.begin(), text.end());
  const uint64_t sum = checksum(bytes, bytes.size());
  bytes.insert(bytes.end(), reinterpret_cast<const uint8_t*>(&sum),
               reinterpret_cast<const uint8_t*>(&sum) + sizeof sum);
  disk_cache::write(disk_, *dir, key.hex() + ".ttr", bytes);
}

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
