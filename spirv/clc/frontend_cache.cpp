#include "spirv/clc/frontend_cache.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <llvm/Config/llvm-config.h>

#include "support/hash.h"
#include "support/safe_file.h"

namespace tessera::spirv::clc {
namespace {

namespace fs = std::filesystem;

constexpr char kMagic[8] = {'T', 'E', 'S', 'S', 'F', 'E', '0', '1'};

// A file's identity for the key: its path, size and modification time ("" when it is absent).
std::string identity(const std::string& path) {
  struct stat st {};
  if (path.empty() || ::stat(path.c_str(), &st) != 0) return path + "|absent";
  return path + "|" + std::to_string(st.st_size) + "|" + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec);
}

void field(std::string& text, std::string_view value) {
  text += std::to_string(value.size());
  text += ':';
  text += value;
}

// Every regular file under `folder` (recursively, in name order), its path relative to the folder
// and its contents added to `text`; false when the folders hold too much to hash (or a file cannot
// be read).
bool addFolder(std::string& text, const std::string& folder, size_t& files, uint64_t& bytes) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) {
    field(text, folder + "|absent");
    return true;
  }
  std::vector<fs::path> paths;
  for (fs::recursive_directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code e;
    if (!it->is_regular_file(e)) continue;
    if (++files > kMaxIncludedFiles) return false;
    paths.push_back(it->path());
  }
  if (ec) return false;
  std::sort(paths.begin(), paths.end());
  field(text, folder);
  for (const fs::path& p : paths) {
    std::string contents, why;
    if (!support::readRegularFile(p.c_str(), kMaxIncludedBytes, contents, why)) return false;
    bytes += contents.size();
    if (bytes > kMaxIncludedBytes) return false;
    field(text, p.lexically_relative(folder).string());
    field(text, contents);
  }
  return true;
}

template <typename T>
void put(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

}  // namespace

FrontendCache::FrontendCache(const support::DiskCacheSettings& disk, std::string_view source,
                             std::string_view options, const std::vector<OpenCLHeader>& headers,
                             const std::vector<std::string>& includeFolders,
                             const std::string& compilerProgram, CompileOutput output)
    : disk_(disk), output_(output) {
  if (!disk_.enabled) return;
  std::string text = "tessera OpenCL C front end 1\x01" LLVM_VERSION_STRING "\x01";
  text += output == CompileOutput::TesseraIR ? "ir\x01" : "spirv\x01";
  field(text, identity(compilerProgram));
  field(text, identity(TESSERA_CLANG_LIBRARY));
  field(text, identity(TESSERA_CLANG_RESOURCE_DIR "/include/opencl-c-base.h"));
  field(text, identity(TESSERA_CLANG_RESOURCE_DIR "/include/opencl-c.h"));
  field(text, source);
  field(text, options);
  for (const OpenCLHeader& h : headers) {
    field(text, h.name);
    field(text, h.source);
  }
  text += "\x01";
  size_t files = 0;
  uint64_t bytes = 0;
  for (const std::string& folder : includeFolders)
    if (!addFolder(text, folder, files, bytes)) return;  // too much to hash: not cached
  uint64_t a = support::mix64(support::fnv1a64(text));
  uint64_t b = support::mix64(support::fnv1a64(text, a ^ 0x9e3779b97f4a7c15ull));
  char name[40];
  std::snprintf(name, sizeof name, "%016llx%016llx.tfe", static_cast<unsigned long long>(a),
                static_cast<unsigned long long>(b));
  entry_ = name;
}

std::optional<CompileResult> FrontendCache::find() const {
  if (entry_.empty()) return std::nullopt;
  std::optional<std::string> dir = support::disk_cache::directory(disk_);
  if (!dir) return std::nullopt;
  std::vector<uint8_t> bytes = support::disk_cache::read(*dir, entry_);
  if (bytes.empty()) {
    support::disk_cache::debug(disk_, "miss", entry_);
    return std::nullopt;
  }
  auto corrupt = [&] {
    support::disk_cache::debug(disk_, "corrupt", entry_);
    return std::nullopt;
  };
  if (bytes.size() < sizeof kMagic + 4 + 4 + 8 || std::memcmp(bytes.data(), kMagic, sizeof kMagic))
    return corrupt();
  uint64_t stored = 0;
  std::memcpy(&stored, bytes.data() + bytes.size() - 8, 8);
  std::string_view body(reinterpret_cast<const char*>(bytes.data()), bytes.size() - 8);
  if (support::fnv1a64(body) != stored) return corrupt();
  size_t pos = sizeof kMagic;
  auto take = [&](std::string& out) {
    uint32_t n = 0;
    if (body.size() - pos < 4) return false;
    std::memcpy(&n, body.data() + pos, 4);
    pos += 4;
    if (body.size() - pos < n) return false;
    out.assign(body.data() + pos, n);
    pos += n;
    return true;
  };
  std::string code, log;
  if (!take(code) || !take(log) || pos != body.size() || code.empty() ||
      (output_ == CompileOutput::Spirv && code.size() % sizeof(uint32_t) != 0))
    return corrupt();
  CompileResult r;
  r.ok = true;
  if (output_ == CompileOutput::TesseraIR) {
    r.ir = std::move(code);
  } else {
    r.spirv.resize(code.size() / sizeof(uint32_t));
    std::memcpy(r.spirv.data(), code.data(), code.size());
  }
  r.log = std::move(log);
  support::disk_cache::debug(disk_, "hit", entry_);
  support::disk_cache::touch(*dir, entry_);
  return r;
}

void FrontendCache::store(const CompileResult& result) const {
  const std::string_view code =
      output_ == CompileOutput::TesseraIR
          ? std::string_view(result.ir)
          : std::string_view(reinterpret_cast<const char*>(result.spirv.data()),
                             result.spirv.size() * sizeof(uint32_t));
  if (entry_.empty() || !result.ok || code.empty()) return;
  std::optional<std::string> dir = support::disk_cache::directory(disk_);
  if (!dir) return;
  std::string out(kMagic, sizeof kMagic);
  put(out, static_cast<uint32_t>(code.size()));
  out += code;
  put(out, static_cast<uint32_t>(result.log.size()));
  out += result.log;
  put(out, support::fnv1a64(out));
  support::disk_cache::write(disk_, *dir, entry_, std::vector<uint8_t>(out.begin(), out.end()));
}

}  // namespace tessera::spirv::clc
