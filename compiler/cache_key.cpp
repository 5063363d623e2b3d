#include "compiler/cache_key.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdio>
#include <string_view>

#include "support/hash.h"

#ifndef TESSERA_VERSION
#define TESSERA_VERSION "unknown"
#endif

namespace tessera::compiler {
namespace {

// The driver build: its version and the identity of the file this code was loaded from (a rebuilt
// driver has another size or modification time, so it never loads code another build compiled).
const std::string& buildIdentity() {
  static const std::string id = [] {
    std::string s = "tessera " TESSERA_VERSION;
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&buildIdentity), &info) && info.dli_fname) {
      struct stat st {};
      if (stat(info.dli_fname, &st) == 0)
        s += "|" + std::to_string(st.st_size) + "|" + std::to_string(st.st_mtim.tv_sec) + "." +
             std::to_string(st.st_mtim.tv_nsec);
    }
    return s;
  }();
  return id;
}

// Two differently seeded hashes of `text`.
CacheKey hash128(std::string_view text) {
  uint64_t a = support::mix64(support::fnv1a64(text));
  uint64_t b = support::mix64(support::fnv1a64(text, a ^ 0x9e3779b97f4a7c15ull));
  return {a, b};
}

}  // namespace

std::string CacheKey::hex() const {
  char text[33];
  std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(high),
                static_cast<unsigned long long>(low));
  return text;
}

CacheKey cacheKey(std::span<const uint8_t> spirv, const BuildOptions& options,
                  std::span<const spirv::SpecAssignment> specs, const CodeSettings& code,
                  const CodeTarget& target) {
  std::string text(reinterpret_cast<const char*>(spirv.data()), spirv.size());
  text += "\x01O" + std::to_string(options.optLevel) + "|g" + std::to_string(options.debugInfo);
  text += "\x01";
  for (const spirv::SpecAssignment& s : specs)
    text += std::to_string(s.specId) + "=" + std::to_string(s.value) + ";";
  text += "\x01W" + std::to_string(code.widen) + "|P" + std::to_string(code.prefetch) + "|J" +
          std::to_string(code.rowJam) + "|G" + std::to_string(code.groupCopy);
  text += "\x01" + target.cpu + "\x01" + target.features + "\x01" + target.toolchain + "\x01" +
          buildIdentity();
  return hash128(text);
}

CacheKey kernelKey(const CacheKey& program, const std::string& kernel) {
  return hash128("kernel\x01" + program.hex() + "\x01" + kernel);
}

CacheKey translationKey(const CacheKey& program) {
  return hash128("translated\x01" + program.hex());
}

CacheKey linkedKey(const CacheKey& importer, std::span<const CacheKey> providers) {
  std::string text = "linked\x01" + importer.hex();
  for (const CacheKey& p : providers) text += "+" + p.hex();
  return hash128(text);
}

}  // namespace tessera::compiler
