// What the OpenCL C compiler (opencl_c.cpp, in the compiler process) may read from the real file
// system (opencl_c.h's IncludeRule). The folders a program may include from are the -I folders
// its build options name, existing folders the options give by absolute path as a macro's value
// (-D NAME=/folder, opencl_c.cpp's includeFolders) and clang's OpenCL headers (the resource
// directory's include/; the program and clCompileProgram's input headers are in memory and never
// reach this).
// - Strict: only files inside those folders. Everything else, `#include "/etc/shadow"`,
//   `#include "../../x"` and a symbolic link inside an -I folder that leads out of it alike, is
//   refused as if absent, and the refusal is remembered for the build log, so no byte of such a
//   file can appear in a diagnostic.
// - Otherwise (the preprocessor's semantics): any absolute path clang asks for; a file read
//   outside the folders is noted (readOutsideFolders), since the frontend cache's key covers only
//   the folders' contents.
// Either way, files are read only if they are regular files, opened with O_NONBLOCK: a FIFO or a
// device at an include target fails that #include at once instead of blocking the compile.
#pragma once

#include <llvm/ADT/IntrusiveRefCntPtr.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <string>
#include <vector>

namespace tessera::spirv {

class IncludeFileSystem : public llvm::vfs::ProxyFileSystem {
 public:
  // `folders`: where reading is allowed (absolute; relative ones are dropped). `ignored`: a folder
  // (the in-memory input folder) whose paths are absent here without being a refusal.
  IncludeFileSystem(const std::vector<std::string>& folders, std::string ignored, bool strict);

  llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine& path) override;
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(
      const llvm::Twine& path) override;
  llvm::vfs::directory_iterator dir_begin(const llvm::Twine& dir, std::error_code& ec) override;

  // One "error: ..." line per path refused, for the build log (each path once).
  std::string refusals() const;
  // Whether a file outside the folders was read (never under the strict rule).
  bool readOutsideFolders() const { return readOutside_; }

 private:
  // Whether `path` may be read; a path outside the folders is recorded for refusals().
  bool allowed(const std::string& path);
  void refuse(const std::string& path, const std::string& why);

  std::vector<std::string> roots_;      // as given, without dots, each ending in '/'
  std::vector<std::string> realRoots_;  // their real paths, each ending in '/'
  std::string ignored_;
  bool strict_;
  bool readOutside_ = false;
  std::vector<std::pair<std::string, std::string>> refused_;
};

}  // namespace tessera::spirv
