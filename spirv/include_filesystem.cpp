#include "spirv/include_filesystem.h"

#include <llvm/Support/Chrono.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <unistd.h>

#include <algorithm>

#include "support/safe_file.h"

namespace tessera::spirv {
namespace {

// No OpenCL header comes near this; a larger regular file is refused rather than read.
constexpr uint64_t kMaxIncludeBytes = uint64_t(256) << 20;

std::string withoutDots(const std::string& path) {
  llvm::SmallString<256> p(path);
  llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
  return std::string(p);
}

std::string asFolder(std::string path) {
  if (path.empty() || path.back() != '/') path += '/';
  return path;
}

bool inside(const std::string& path, const std::vector<std::string>& folders) {
  return std::any_of(folders.begin(), folders.end(), [&](const std::string& folder) {
    return path.compare(0, folder.size(), folder) == 0 || path + "/" == folder;
  });
}

// A file read in full when opened: what clang then asks of it comes from memory.
class LoadedFile : public llvm::vfs::File {
 public:
  LoadedFile(llvm::vfs::Status status, std::string text)
      : status_(std::move(status)), text_(std::move(text)) {}
  llvm::ErrorOr<llvm::vfs::Status> status() override { return status_; }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> getBuffer(const llvm::Twine& name, int64_t,
                                                                bool, bool) override {
    return llvm::MemoryBuffer::getMemBufferCopy(text_, name);
  }
  std::error_code close() override { return {}; }

 private:
  llvm::vfs::Status status_;
  std::string text_;
};

}  // namespace

IncludeFileSystem::IncludeFileSystem(const std::vector<std::string>& folders, std::string ignored,
                                     bool strict)
    : llvm::vfs::ProxyFileSystem(llvm::vfs::getRealFileSystem()),
      ignored_(asFolder(withoutDots(ignored))),
      strict_(strict) {
  for (const std::string& folder : folders) {
    if (folder.empty() || folder[0] != '/') continue;
    // A folder that does not exist stays a root: clang's probes there are absences, not refusals.
    roots_.push_back(asFolder(withoutDots(folder)));
    llvm::SmallString<256> real;
    if (!llvm::sys::fs::real_path(folder, real)) realRoots_.push_back(asFolder(std::string(real)));
  }
}

void IncludeFileSystem::refuse(const std::string& path, const std::string& why) {
  for (const auto& r : refused_)
    if (r.first == path) return;
  refused_.emplace_back(path, why);
}

bool IncludeFileSystem::allowed(const std::string& given) {
  std::string path = withoutDots(given);
  if (path.empty() || path[0] != '/') return false;  // clang asks for absolute paths only
  if (inside(path, {ignored_})) return false;        // the in-memory inputs' folder
  if (!strict_) return true;
  if (!inside(path, roots_) && !inside(path, realRoots_)) {
    refuse(given, "is outside the folders a program may include from");
    return false;
  }
  llvm::SmallString<256> real;
  if (llvm::sys::fs::real_path(path, real)) return false;  // absent
  if (!inside(std::string(real), realRoots_)) {
    refuse(given, "leads (through a symbolic link) outside the folders a program may include from");
    return false;
  }
  return true;
}

llvm::ErrorOr<llvm::vfs::Status> IncludeFileSystem::status(const llvm::Twine& twine) {
  // The folders that lead to a root (clang looks at the parents of an -I folder that is missing):
  // their status says nothing of any file's contents.
  std::string path = asFolder(withoutDots(twine.str()));
  for (const std::string& root : roots_)
    if (root.compare(0, path.size(), path) == 0) return ProxyFileSystem::status(twine);
  if (!allowed(twine.str())) return std::make_error_code(std::errc::no_such_file_or_directory);
  return ProxyFileSystem::status(twine);
}

llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> IncludeFileSystem::openFileForRead(
    const llvm::Twine& twine) {
  std::string path = twine.str();
  if (!allowed(path)) return std::make_error_code(std::errc::no_such_file_or_directory);
  llvm::ErrorOr<llvm::vfs::Status> st = ProxyFileSystem::status(path);
  if (!st) return st.getError();
  std::string text, why;
  if (!support::readRegularFile(path.c_str(), kMaxIncludeBytes, text, why)) {
    refuse(path, why);
    return std::make_error_code(std::errc::permission_denied);
  }
  // Under the preprocessor's rule, a file whose real path is outside the folders (a link out of
  // one included) is not covered by the frontend cache's key.
  llvm::SmallString<256> real;
  if (!strict_ && (llvm::sys::fs::real_path(path, real) || !inside(std::string(real), realRoots_)))
    readOutside_ = true;
  llvm::vfs::Status status = llvm::vfs::Status::copyWithNewSize(*st, text.size());
  return std::unique_ptr<llvm::vfs::File>(new LoadedFile(status, std::move(text)));
}

llvm::vfs::directory_iterator IncludeFileSystem::dir_begin(const llvm::Twine& dir,
                                                           std::error_code& ec) {
  if (!allowed(dir.str())) {
    ec = std::make_error_code(std::errc::no_such_file_or_directory);
    return {};
  }
  return ProxyFileSystem::dir_begin(dir, ec);
}

std::string IncludeFileSystem::refusals() const {
  std::string log;
  for (const auto& [path, why] : refused_) {
    log += "error: '" + path + "' " + why +
           ": the compiler reads only the -I folders of the build options, existing folders the "
           "options give by absolute path as a macro's value (-D NAME=/folder), the input headers "
           "of clCompileProgram and the OpenCL headers; not read\n";
  }
  return log;
}

}  // namespace tessera::spirv
