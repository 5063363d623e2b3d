#include "backends/cpu/kernel_stack.h"

#include <sys/mman.h>
#include <unistd.h>

#include <exception>
#include <new>
#include <stdexcept>

#include "backends/cpu/memory_spaces.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TESSERA_KERNEL_STACK_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TESSERA_KERNEL_STACK_ASAN 1
#endif
#if TESSERA_KERNEL_STACK_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#if defined(__x86_64__)
// tessera_call_on_stack(arg, fn, top): calls fn(arg) with the stack pointer at `top` (16-byte
// aligned) and returns on the caller's stack. The caller's stack pointer is kept in %rbp, which
// also serves as the frame's CFA, so debuggers and unwinders walk from the kernel stack back to the
// thread's.
extern "C" void tessera_call_on_stack(void* arg, void (*fn)(void*), void* top);
asm(R"(
  .text
  .p2align 4
  .globl tessera_call_on_stack
  .hidden tessera_call_on_stack
  .type tessera_call_on_stack, @function
tessera_call_on_stack:
  .cfi_startproc
  pushq %rbp
  .cfi_def_cfa_offset 16
  .cfi_offset %rbp, -16
  movq %rsp, %rbp
  .cfi_def_cfa_register %rbp
  movq %rdx, %rsp
  callq *%rsi
  movq %rbp, %rsp
  popq %rbp
  .cfi_def_cfa %rsp, 8
  retq
  .cfi_endproc
  .size tessera_call_on_stack, .-tessera_call_on_stack
)");
#endif

namespace tessera::backends::cpu {
namespace {

class KernelStack {
 public:
  ~KernelStack() { release(); }

  // The stack grown to `usable` bytes (rounded up to pages).
  void reserve(uint64_t usable) {
    if (usable <= usable_) return;  // every launch asks: the usual answer costs one compare
    static const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
    usable = (usable + page - 1) / page * page;
    release();
    // MAP_NORESERVE: address space only; pages are committed as kernel frames touch them.
    void* p = mmap(nullptr, usable + kKernelStackGuard, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    if (mprotect(p, kKernelStackGuard, PROT_NONE) != 0) {
      munmap(p, usable + kKernelStackGuard);
      throw std::bad_alloc();
    }
    base_ = static_cast<uint8_t*>(p);
    usable_ = usable;
    // A running kernel's private variables are here (memory_spaces.h).
    addSpaceRange(bottom(), usable_, MemorySpace::Private);
  }

  uint8_t* bottom() const { return base_ + kKernelStackGuard; }
  uint8_t* top() const { return bottom() + usable_; }
  uint64_t usable() const { return usable_; }

 private:
  void release() {
    if (base_) {
      removeSpaceRange(bottom());
      munmap(base_, usable_ + kKernelStackGuard);
    }
    base_ = nullptr;
    usable_ = 0;
  }
  uint8_t* base_ = nullptr;
  uint64_t usable_ = 0;
};

thread_local KernelStack tlsStack;

// What runs first and last on the kernel stack: the sanitizer's view of the switch
// (AddressSanitizer must know which stack is current, or its reports and its cleanup after a
// fault's long jump look at the wrong one), the callee, and an exception caught to be rethrown on
// the thread's own stack.
struct Switch {
  void (*fn)(void*);
  void* arg;
  std::exception_ptr error;
#if TESSERA_KERNEL_STACK_ASAN
  void* fakeStack = nullptr;
  const void* threadBottom = nullptr;
  size_t threadSize = 0;
#endif
};

void onKernelStack(void* p) {
  auto* s = static_cast<Switch*>(p);
#if TESSERA_KERNEL_STACK_ASAN
  __sanitizer_finish_switch_fiber(nullptr, &s->threadBottom, &s->threadSize);
#endif
  try {
    s->fn(s->arg);
  } catch (...) {
    s->error = std::current_exception();
  }
#if TESSERA_KERNEL_STACK_ASAN
  __sanitizer_start_switch_fiber(nullptr, s->threadBottom, s->threadSize);
#endif
}

}  // namespace

void runOnKernelStack(uint64_t need, void (*fn)(void*), void* arg) {
  if (need > kMaxKernelStackNeed) throw std::length_error("kernel stack need beyond the limit");
#if defined(__x86_64__)
  tlsStack.reserve(need + kKernelStackReserve);
  Switch s{fn, arg, nullptr};
#if TESSERA_KERNEL_STACK_ASAN
  __sanitizer_start_switch_fiber(&s.fakeStack, tlsStack.bottom(), tlsStack.usable());
#endif
  tessera_call_on_stack(&s, &onKernelStack, tlsStack.top());
#if TESSERA_KERNEL_STACK_ASAN
  __sanitizer_finish_switch_fiber(s.fakeStack, nullptr, nullptr);
  // A fault's long jump skipped the epilogues of instrumented host functions the kernel called
  // (printf's runtime): their redzones would stay poisoned for the next frames there.
  ASAN_UNPOISON_MEMORY_REGION(tlsStack.bottom(), tlsStack.usable());
#endif
  if (s.error) std::rethrow_exception(s.error);
#else
  // No stack switch on this architecture: the thread's own stack, guarded by the probes only.
  (void)need;
  fn(arg);
#endif
}

uint64_t kernelStackSize() {
  return tlsStack.usable();
}

}  // namespace tessera::backends::cpu
