// What the OpenCL C compiler (opencl_c.cpp, in the compiler process) may read from the real file
// system: only files inside the folders a program may include from, namely the -I folders its
// build options name, existing folders the options give by absolute path as a macro's value
// (-D NAME=/folder, opencl_c.cpp's includeFolders) and clang's OpenCL headers (the resource
// directory's include/; the program and clCompileProgram's input headers are in memory and never
// reach this). Everything else,
// `#include "/etc/shadow"`, `#include "../../x"` and a symbolic link inside an -I folder that leads
// out of it alike, is refused as if absent, and the refusal is remembered for the build log, so no
// byte of such a file can appear in a diagnostic. Files are read only if they are regular files,
// opened with O_NONBLOCK: a FIFO or a device at an include target fails that #include at once
// instead of blocking the compile.
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
  IncludeFileSystem(const std::vector<std::string>& folders, std::string ignored);

  llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine& path) override;
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(
      const llvm::Twine& path) override;
  llvm::vfs::directory_iterator dir_begin(const llvm::Twine& dir, std::error_code& ec) override;

  // One "error: ..." line per path refused, for the build log (each path once).
  std::string refusals() const;

 private:
  // Whether `path` may be read; a path outside the folders is recorded for refusals().
  bool allowed(const std::string& path);
  void refuse(const std::string& path, const std::string& why);

  std::vector<std::string> roots_;      // as given, without dots, each ending in '/'
  std::vector<std::string> realRoots_;  // their real paths, each ending in '/'
  std::string ignored_;
  std::vector<std::pair<std::string, std::string>> refused_;
};

}  // namespace tessera::spirv
