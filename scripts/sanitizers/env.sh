# Run-time options of the sanitizer builds; sourced by scripts/test.sh and scripts/fuzz.sh.
# handle_segv/handle_sigbus=0: the virtual-memory and fault tests prove that a process faults (in a
# child process); ASan's own handler would turn those faults into exit code 1.
# intercept_tls_get_addr=0: the runtimes here (GCC 12's libasan, clang 15's) mistake a dynamic TLS
# block that glibc >= 2.25 mallocs 16 bytes past a page for a glibc 2.19 block, read ASan's chunk
# header as its bounds, and LeakSanitizer's tracer faults scanning them ("Tracer caught signal 11";
# google/sanitizers#1322, fixed in LLVM 17). Without the interception the blocks are still scanned,
# as heap chunks reachable from each thread's static TLS. tests/sanitizers/lsan_dynamic_tls.cpp
# builds that case and fails under options without it.
# UBSan is built -fno-sanitize-recover=all: any report ends the process with a failure.
sanitizers=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export ASAN_OPTIONS="handle_segv=0:handle_sigbus=0:detect_leaks=1:intercept_tls_get_addr=0:strict_string_checks=1:check_initialization_order=1:detect_stack_use_after_return=1"
export LSAN_OPTIONS="suppressions=$sanitizers/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export TSAN_OPTIONS="suppressions=$sanitizers/tsan.supp:halt_on_error=0:second_deadlock_stack=1:history_size=4"
