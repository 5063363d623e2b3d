// LeakSanitizer's scan must survive a dynamic TLS block that glibc (>= 2.25) allocates with malloc
// at 16 bytes past a page boundary. The sanitizer runtimes here (GCC 12's libasan, clang 15's) take
// such a block for a glibc 2.19 signal-safe block and read a "header" from the 16 bytes before it:
// ASan's own chunk header, whose words become the range scanned, and the stop-the-world tracer
// faults ("Tracer caught signal 11" then "LeakSanitizer has encountered a fatal error";
// google/sanitizers#1322, fixed in LLVM 17's runtime). Tessera's libraries (dlopen'ed by the
// loaders) and libLLVM have such blocks on every thread that touches their TLS, so the failure
// struck tests at exit and fuzzers' leak checks by chance. scripts/sanitizers/env.sh sets
// intercept_tls_get_addr=0; this program builds the case deterministically and fails under options
// without it.
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <sanitizer/lsan_interface.h>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s dynamic_tls_module.so\n", argv[0]);
    return 2;
  }
  void* module = dlopen(argv[1], RTLD_NOW);
  if (!module) {
    std::fprintf(stderr, "dlopen: %s\n", dlerror());
    return 2;
  }
  auto slot = reinterpret_cast<void** (*)()>(dlsym(module, "tesseraDynamicTlsSlot"));
  if (!slot) return 2;
  // Small blocks are laid out back to back in ASan's size class (16 bytes of chunk header, then the
  // user's bytes): allocate until the next one starts 16 bytes past a page, where glibc's malloc
  // for this thread's TLS block of the module then lands.
  std::vector<void*> held;
  held.reserve(1 << 16);
  bool placed = false;
  while (!placed && held.size() < held.capacity()) {
    held.push_back(std::malloc(sizeof(void*)));
    placed = (reinterpret_cast<uintptr_t>(held.back()) & 4095) == 4096 - 16;
  }
  void** tls = slot();     // the first access on this thread allocates the block
  *tls = std::malloc(64);  // reachable only through the block
  std::printf("dynamic TLS block at %p\n", static_cast<void*>(tls));
  if ((reinterpret_cast<uintptr_t>(tls) & 4095) != 16) {
    // The allocator placed it elsewhere: the case was not built, so nothing was shown.
    std::fprintf(stderr, "the block is not 16 bytes past a page; the allocator changed\n");
    return 1;
  }
  // The scan that faulted: a leak check with the block registered. Without the interception the
  // block must still be scanned, so the allocation it holds is not a leak.
  if (__lsan_do_recoverable_leak_check() != 0) {
    std::fprintf(stderr, "LeakSanitizer reported the allocation held in dynamic TLS\n");
    return 1;
  }
  for (void* p : held) std::free(p);
  std::free(*tls);
  std::printf("LeakSanitizer's scan completed\n");
  return 0;
}
