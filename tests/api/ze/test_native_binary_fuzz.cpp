// Corrupt native binaries (issue 28, item 2): a few hundred deterministic mutations of a real
// binary (zeModuleGetNativeBinary of tests/kernels/native_fuzz.cl), each with its checksum
// recomputed so that it gets past the checksum, are given to zeModuleCreate(NATIVE) in a watched
// child. Every one must end as SUCCESS (and then kernel creation, arguments and, where the code is
// untouched, a launch that computes the right values) or as ZE_RESULT_ERROR_INVALID_NATIVE_BINARY
// (MODULE_BUILD_FAILURE where a table asks for more static __local memory than the device has):
// the child must never abort, crash or hang. Mutated: every integer and length of the format's
// tables and of the object's ELF header, section headers, symbols and relocations (set to 0, to
// all ones, to the top bit, to one more), bit flips anywhere but inside executable code (a changed
// instruction is the CPU's business, not the loader's), and truncations.
#include <elf.h>
#include <level_zero/ze_api.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "kernel_test_support.h"
#include "watched_child.h"

namespace {

constexpr const char* kBinaryVar = "TESSERA_TEST_FUZZ_BINARY";

struct Field {
  size_t at, width;
  const char* what;
};

// Where the fields of a native binary (compiler/native_binary.h's format) and of its
// object lie; `code` holds the byte ranges of executable sections.
struct Layout {
  std::vector<Field> fields;
  std::vector<std::pair<size_t, size_t>> code;
  size_t objectBegin = 0, objectEnd = 0;
};

class Walker {
 public:
  Walker(const std::vector<uint8_t>& b, Layout& l) : b_(b), l_(l) {}
  uint64_t num(size_t width, const char* what) {
    REQUIRE(at_ + width <= b_.size());
    l_.fields.push_back({at_, width, what});
    uint64_t v = 0;
    std::memcpy(&v, b_.data() + at_, width);
    at_ += width;
    return v;
  }
  size_t bytes(const char* what) {
    size_t n = num(4, what);
    size_t begin = at_;
    at_ += n;
    return begin;
  }
  size_t at() const { return at_; }
  void skip(size_t n) { at_ += n; }

 private:
  const std::vector<uint8_t>& b_;
  Layout& l_;
  size_t at_ = 8;  // after "TESSNAT1"
};

void addElfFields(const std::vector<uint8_t>& b, size_t base, size_t size, Layout& l) {
  REQUIRE(size >= sizeof(Elf64_Ehdr));
  Elf64_Ehdr eh;
  std::memcpy(&eh, b.data() + base, sizeof eh);
  auto field = [&](size_t offset, size_t width, const char* what) {
    l.fields.push_back({base + offset, width, what});
  };
  field(offsetof(Elf64_Ehdr, e_type), 2, "e_type");
  field(offsetof(Elf64_Ehdr, e_machine), 2, "e_machine");
  field(offsetof(Elf64_Ehdr, e_shoff), 8, "e_shoff");
  field(offsetof(Elf64_Ehdr, e_shentsize), 2, "e_shentsize");
  field(offsetof(Elf64_Ehdr, e_shnum), 2, "e_shnum");
  field(offsetof(Elf64_Ehdr, e_shstrndx), 2, "e_shstrndx");
  field(EI_CLASS, 1, "ei_class");
  REQUIRE(eh.e_shoff + size_t{eh.e_shnum} * sizeof(Elf64_Shdr) <= size);
  for (size_t i = 0; i < eh.e_shnum; ++i) {
    const size_t at = eh.e_shoff + i * sizeof(Elf64_Shdr);
    Elf64_Shdr sh;
    std::memcpy(&sh, b.data() + base + at, sizeof sh);
    field(at + offsetof(Elf64_Shdr, sh_name), 4, "sh_name");
    field(at + offsetof(Elf64_Shdr, sh_type), 4, "sh_type");
    field(at + offsetof(Elf64_Shdr, sh_flags), 8, "sh_flags");
    field(at + offsetof(Elf64_Shdr, sh_offset), 8, "sh_offset");
    field(at + offsetof(Elf64_Shdr, sh_size), 8, "sh_size");
    field(at + offsetof(Elf64_Shdr, sh_link), 4, "sh_link");
    field(at + offsetof(Elf64_Shdr, sh_info), 4, "sh_info");
    field(at + offsetof(Elf64_Shdr, sh_addralign), 8, "sh_addralign");
    field(at + offsetof(Elf64_Shdr, sh_entsize), 8, "sh_entsize");
    REQUIRE(sh.sh_offset + (sh.sh_type == SHT_NOBITS ? 0 : sh.sh_size) <= size);
    if (sh.sh_flags & SHF_EXECINSTR)
      l.code.push_back({base + sh.sh_offset, base + sh.sh_offset + sh.sh_size});
    if (sh.sh_type == SHT_SYMTAB) {
      for (size_t s = sh.sh_offset; s + sizeof(Elf64_Sym) <= sh.sh_offset + sh.sh_size;
           s += sizeof(Elf64_Sym)) {
        field(s + offsetof(Elf64_Sym, st_name), 4, "st_name");
        field(s + offsetof(Elf64_Sym, st_info), 1, "st_info");
        field(s + offsetof(Elf64_Sym, st_shndx), 2, "st_shndx");
        field(s + offsetof(Elf64_Sym, st_value), 8, "st_value");
        field(s + offsetof(Elf64_Sym, st_size), 8, "st_size");
      }
    }
    if (sh.sh_type == SHT_RELA) {
      for (size_t r = sh.sh_offset; r + sizeof(Elf64_Rela) <= sh.sh_offset + sh.sh_size;
           r += sizeof(Elf64_Rela)) {
        field(r + offsetof(Elf64_Rela, r_offset), 8, "r_offset");
        field(r + offsetof(Elf64_Rela, r_info), 4, "r_info type");
        field(r + offsetof(Elf64_Rela, r_info) + 4, 4, "r_info symbol");
        field(r + offsetof(Elf64_Rela, r_addend), 8, "r_addend");
      }
    }
  }
}

Layout layoutOf(const std::vector<uint8_t>& b) {
  Layout l;
  Walker w(b, l);
  // (Versions 4 to 6 are laid out alike and 7 adds a field to each kernel: the test runs against
  // a driver without the checks, too.)
  const uint64_t version = w.num(4, "version");
  REQUIRE((version >= 4 && version <= 7));
  w.bytes("cpu length");
  w.bytes("features length");
  w.bytes("spirv length");
  w.num(4, "optLevel");
  for (uint64_t i = 0, n = w.num(4, "constants"); i < n; ++i) {
    w.num(4, "specId");
    w.num(8, "spec value");
  }
  REQUIRE(w.num(1, "hasCode") == 1);
  for (uint64_t u = 0, units = w.num(4, "units"); u < units; ++u) {
    for (uint64_t k = 0, kernels = w.num(4, "kernels"); k < kernels; ++k) {
      w.bytes("kernel name length");
      w.bytes("kernel symbol length");
      for (uint64_t a = 0, args = w.num(4, "arguments"); a < args; ++a) {
        w.num(1, "argument kind");
        w.num(4, "argument size");
        w.num(4, "argument offset");
      }
      for (const char* what :
           {"argBufferSize", "staticLocalBytes", "scratchBytesPerWorkItem", "stackBytes",
            "barrierCount", "subgroupSize", "requiredSubgroupSize"})
        w.num(4, what);
      if (version >= 7) w.num(4, "streamBytesPerItem");
    }
    for (uint64_t g = 0, globals = w.num(4, "globals"); g < globals; ++g) {
      w.bytes("global name length");
      w.num(8, "global size");
    }
    for (uint64_t f = 0, functions = w.num(4, "functions"); f < functions; ++f)
      w.bytes("function name length");
    size_t object = w.bytes("object length");
    l.objectBegin = object;
    l.objectEnd = w.at();
    addElfFields(b, object, l.objectEnd - object, l);
  }
  REQUIRE(w.at() + 8 == b.size());
  return l;
}

void sealChecksum(std::vector<uint8_t>& b) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < b.size() - 8; ++i) {
    h ^= b[i];
    h *= 0x100000001b3ull;
  }
  std::memcpy(b.data() + b.size() - 8, &h, 8);
}

struct Mutation {
  std::vector<uint8_t> bytes;
  std::string what;
  bool codeUntouched;  // the object is as compiled: a successful load must compute right
};

std::vector<Mutation> mutations(const std::vector<uint8_t>& original) {
  const Layout l = layoutOf(original);
  std::vector<Mutation> out;
  auto inObject = [&](size_t at) { return at >= l.objectBegin && at < l.objectEnd; };
  auto inCode = [&](size_t at) {
    for (auto [b, e] : l.code)
      if (at >= b && at < e) return true;
    return false;
  };
  // Every field: 0, all ones, the top bit set, one more.
  for (const Field& f : l.fields) {
    uint64_t v = 0;
    std::memcpy(&v, original.data() + f.at, f.width);
    const uint64_t ones = f.width == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * f.width)) - 1;
    const uint64_t values[] = {0, ones, v | (uint64_t{1} << (8 * f.width - 1)), (v + 1) & ones};
    for (uint64_t value : values) {
      if (value == v) continue;
      Mutation m{
          original,
          std::string(f.what) + " at " + std::to_string(f.at) + " = " + std::to_string(value),
          !inObject(f.at)};
      std::memcpy(m.bytes.data() + f.at, &value, f.width);
      sealChecksum(m.bytes);
      out.push_back(std::move(m));
    }
  }
  // Bit flips outside executable code, at places a fixed generator picks.
  uint64_t state = 0x2545f4914f6cdd1dull;
  for (int i = 0; i < 80;) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const size_t at = 8 + (state >> 33) % (original.size() - 16);
    if (inCode(at)) continue;
    Mutation m{
        original,
        "bit " + std::to_string((state >> 20) & 7) + " of byte " + std::to_string(at) + " flipped",
        !inObject(at)};
    m.bytes[at] ^= uint8_t(1u << ((state >> 20) & 7));
    sealChecksum(m.bytes);
    out.push_back(std::move(m));
    ++i;
  }
  // Truncations: the first n bytes of the body, then a checksum of them.
  for (size_t n = 12; n + 8 < original.size(); n += (original.size() / 24) | 1) {
    Mutation m{std::vector<uint8_t>(original.begin(), original.begin() + n),
               "truncated to " + std::to_string(n), false};
    m.bytes.resize(n + 8);
    sealChecksum(m.bytes);
    out.push_back(std::move(m));
  }
  return out;
}

std::vector<uint8_t> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  return {std::istreambuf_iterator<char>(in), {}};
}

struct FuzzTriple {
  int a;
  float b;
  long c;
};

// Kernel creation, every argument and, where the code is as compiled, a launch of one group of 4
// whose values are checked: what a successful load promises.
void exercise(tessera::test::KernelFixture& fx, ze_module_handle_t m, bool launch) {
  ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "fuzz_args"};
  ze_kernel_handle_t k = nullptr;
  REQUIRE(zeKernelCreate(m, &kd, &k) == ZE_RESULT_SUCCESS);
  ze_host_mem_alloc_desc_t hd{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
  void* out = nullptr;
  void* in = nullptr;
  REQUIRE(zeMemAllocHost(fx.context, &hd, 64, 64, &out) == ZE_RESULT_SUCCESS);
  REQUIRE(zeMemAllocHost(fx.context, &hd, 64, 64, &in) == ZE_RESULT_SUCCESS);
  for (int i = 0; i < 4; ++i) static_cast<int*>(in)[i] = 10 * i;
  const int add = 100;
  const FuzzTriple t{1000, 0.5f, 20000};
  CHECK(zeKernelSetArgumentValue(k, 0, sizeof out, &out) == ZE_RESULT_SUCCESS);
  CHECK(zeKernelSetArgumentValue(k, 1, sizeof add, &add) == ZE_RESULT_SUCCESS);
  CHECK(zeKernelSetArgumentValue(k, 2, sizeof t, &t) == ZE_RESULT_SUCCESS);
  CHECK(zeKernelSetArgumentValue(k, 3, sizeof in, &in) == ZE_RESULT_SUCCESS);
  CHECK(zeKernelSetArgumentValue(k, 4, 4 * sizeof(int), nullptr) == ZE_RESULT_SUCCESS);
  CHECK(zeKernelSetGroupSize(k, 4, 1, 1) == ZE_RESULT_SUCCESS);
  if (launch) {
    ze_command_list_handle_t list = fx.immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
    ze_group_count_t groups{1, 1, 1};
    // A table may claim more stack than the code needs: more than a work-item may have is the
    // launch's OUT_OF_DEVICE_MEMORY, as for a kernel built from SPIR-V that needs it
    // (core/module/kernel.cpp; the stack a kernel needs is not in the object, object_check.h).
    const ze_result_t r = zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 0, nullptr);
    CHECK((r == ZE_RESULT_SUCCESS || r == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY));
    for (int i = 0; r == ZE_RESULT_SUCCESS && i < 4; ++i)
      CHECK(static_cast<int*>(out)[i] == 10 * ((i + 1) % 4) + 100 + 1000 + 20000 + 3);
  }
  zeMemFree(fx.context, out);
  zeMemFree(fx.context, in);
  zeKernelDestroy(k);
}

}  // namespace

TEST_CASE("native binary fuzz child", "[.native_fuzz_child]") {
  if (!tessera::test::inWatchedChild()) return;
  tessera::test::armWatchdog(240);
  const char* path = std::getenv(kBinaryVar);
  REQUIRE(path);
  const std::vector<uint8_t> original = readFile(path);
  tessera::test::KernelFixture fx;
  const std::vector<Mutation> all = mutations(original);
  size_t loaded = 0, refused = 0, launched = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    const Mutation& mu = all[i];
    // The last line before an abort names the mutation that caused it.
    std::printf("mutation %zu: %s\n", i, mu.what.c_str());
    std::fflush(stdout);
    INFO("mutation " << i << ": " << mu.what);
    ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC,
                          nullptr,
                          ZE_MODULE_FORMAT_NATIVE,
                          mu.bytes.size(),
                          mu.bytes.data(),
                          "",
                          nullptr};
    ze_module_handle_t m = nullptr;
    const ze_result_t r = zeModuleCreate(fx.context, fx.device, &desc, &m, nullptr);
    CHECK((r == ZE_RESULT_SUCCESS || r == ZE_RESULT_ERROR_INVALID_NATIVE_BINARY ||
           r == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE));
    if (r != ZE_RESULT_SUCCESS) {
      ++refused;
      continue;
    }
    ++loaded;
    launched += mu.codeUntouched;
    exercise(fx, m, mu.codeUntouched);
    REQUIRE(zeModuleDestroy(m) == ZE_RESULT_SUCCESS);
  }
  std::printf("%zu mutations: %zu loaded (%zu of them launched), %zu refused\n", all.size(), loaded,
              launched, refused);
}

TEST_CASE(
    "Given corrupt native binaries with valid checksums, when zeModuleCreate loads them, "
    "then each loads and runs or is refused with INVALID_NATIVE_BINARY, never ending the "
    "process",
    "[module][native][fuzz]") {
  tessera::test::KernelFixture fx;
  ze_module_handle_t m = fx.module("native_fuzz");
  size_t size = 0;
  REQUIRE(zeModuleGetNativeBinary(m, &size, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<uint8_t> binary(size);
  REQUIRE(zeModuleGetNativeBinary(m, &size, binary.data()) == ZE_RESULT_SUCCESS);
  // The unmutated binary loads and runs here, and the mutations are many.
  {
    ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC,
                          nullptr,
                          ZE_MODULE_FORMAT_NATIVE,
                          binary.size(),
                          binary.data(),
                          "",
                          nullptr};
    ze_module_handle_t again = nullptr;
    REQUIRE(zeModuleCreate(fx.context, fx.device, &desc, &again, nullptr) == ZE_RESULT_SUCCESS);
    exercise(fx, again, true);
    REQUIRE(zeModuleDestroy(again) == ZE_RESULT_SUCCESS);
    CHECK(mutations(binary).size() >= 300);
  }
  char path[] = "/tmp/tessera-native-fuzz-XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  REQUIRE(write(fd, binary.data(), binary.size()) == static_cast<ssize_t>(binary.size()));
  close(fd);
  tessera::test::runWatchedChild("native binary fuzz child", {{kBinaryVar, path}});
  unlink(path);
}
