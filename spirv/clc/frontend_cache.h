// The OpenCL C front end's cache: the SPIR-V or Tessera IR (and clang's log) a successful compileOpenCLC made of
// a source, on disk in Tessera's cache folder (support/disk_cache.h: the same folder, trust rule,
// size bound and TESSERA_CACHE* settings as the compiler's code cache), so that another process
// building the same program does not run clang.
//
// The key (a 128-bit content hash) covers everything the result depends on: the source, the
// options as given, the input headers (clCompileProgram's, names and contents), the contents of
// every file under the folders the program may include from (the -I folders and the absolute
// folders given as a macro's value, include_filesystem.h; listed recursively, names and
// contents), and the compiler: the identity (size and modification time) of the compiler process's
// program, of the clang library and of clang's OpenCL headers, and the LLVM version. A header that
// changes in an -I folder therefore misses. When those folders hold more than kMaxIncludedFiles
// files or kMaxIncludedBytes bytes, the build is not cached (hashing them would cost more than it
// saves).
//
// An entry: "TESSFE01" | u32 code bytes | code | u32 log bytes | log | u64 FNV-1a of what
// precedes, the code being SPIR-V or Tessera IR as the output asked (which the key covers); one that does not check is ignored (and replaced by the next store). Failed builds are
// not cached.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spirv/opencl_c.h"
#include "support/disk_cache.h"

namespace tessera::spirv::clc {

constexpr size_t kMaxIncludedFiles = 4096;
constexpr uint64_t kMaxIncludedBytes = uint64_t{64} << 20;

class FrontendCache {
 public:
  // `compilerProgram`: the compiler process's program (its identity is part of the key).
  FrontendCache(const support::DiskCacheSettings& disk, std::string_view source,
                std::string_view options, const std::vector<OpenCLHeader>& headers,
                const std::vector<std::string>& includeFolders, const std::string& compilerProgram,
                CompileOutput output = CompileOutput::Spirv);

  // The cached result, or nullopt (no entry, a corrupt one, caching off or not possible).
  std::optional<CompileResult> find() const;
  // Stores a successful result (others are ignored).
  void store(const CompileResult& result) const;
  // The entry's file name ("<32 hex digits>.tfe"), empty when this build is not cached.
  const std::string& entry() const { return entry_; }

 private:
  support::DiskCacheSettings disk_;
  CompileOutput output_;
  std::string entry_;
};

}  // namespace tessera::spirv::clc
