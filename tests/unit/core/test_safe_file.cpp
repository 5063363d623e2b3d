// support/safe_file.h: a ReplacingFile replaces only a regular file or nothing. A device, FIFO,
// directory or symbolic link at the name is refused and left as it was (issue 28 item 1: as root,
// TESSERA_TRACE=/dev/null replaced the machine's /dev/null with a regular file).
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "support/safe_file.h"

namespace {

struct ScratchDir {
  std::string path;
  ScratchDir() {
    char name[] = "/tmp/tessera-safe-file-XXXXXX";
    REQUIRE(mkdtemp(name) != nullptr);
    path = name;
  }
  ~ScratchDir() { std::system(("rm -rf " + path).c_str()); }
};

bool write(const std::string& path, const char* text, std::string& why) {
  tessera::support::ReplacingFile out(path);
  std::FILE* f = out.open(why);
  if (!f) return false;
  std::fputs(text, f);
  return out.commit(why);
}

mode_t kindOf(const std::string& path) {
  struct stat st{};
  REQUIRE(lstat(path.c_str(), &st) == 0);
  return st.st_mode & S_IFMT;
}

}  // namespace

TEST_CASE("safe_file: a regular file or nothing is replaced", "[safe_file]") {
  ScratchDir dir;
  std::string why;
  const std::string file = dir.path + "/out.json";
  CHECK(write(file, "one", why));
  std::string text;
  CHECK(tessera::support::readRegularFile(file.c_str(), 100, text, why));
  CHECK(text == "one");
  CHECK(write(file, "two", why));
  CHECK(tessera::support::readRegularFile(file.c_str(), 100, text, why));
  CHECK(text == "two");
}

TEST_CASE("safe_file: devices, FIFOs, directories and links are refused, never replaced",
          "[safe_file]") {
  ScratchDir dir;
  std::string why;
  const std::string fifo = dir.path + "/fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_FALSE(write(fifo, "x", why));
  CHECK(why.find("FIFO") != std::string::npos);
  CHECK(kindOf(fifo) == S_IFIFO);

  const std::string target = dir.path + "/target";
  REQUIRE(write(target, "kept", why));
  const std::string link = dir.path + "/link";
  REQUIRE(symlink(target.c_str(), link.c_str()) == 0);
  CHECK_FALSE(write(link, "x", why));
  CHECK(why.find("symbolic link") != std::string::npos);
  CHECK(kindOf(link) == S_IFLNK);
  std::string text;
  CHECK(tessera::support::readRegularFile(target.c_str(), 100, text, why));
  CHECK(text == "kept");

  CHECK_FALSE(write(dir.path, "x", why));
  CHECK(kindOf(dir.path) == S_IFDIR);

  // /dev/null, as root or not: refused, still a character device.
  CHECK_FALSE(write("/dev/null", "x", why));
  CHECK(why.find("device") != std::string::npos);
  CHECK(kindOf("/dev/null") == S_IFCHR);
  // No temporary file left beside any of them.
  CHECK(std::system(("test -z \"$(ls " + dir.path + " | grep tmp)\"").c_str()) == 0);
}
