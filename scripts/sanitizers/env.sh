# Run-time options of the sanitizer builds; sourced by scripts/test.sh and scripts/fuzz.sh.
# handle_segv/handle_sigbus=0: the virtual-memory and fault tests prove that a process faults (in a
# child process); ASan's own handler would turn those faults into exit code 1.
# UBSan is built -fno-sanitize-recover=all: any report ends the process with a failure.
sanitizers=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export ASAN_OPTIONS="handle_segv=0:handle_sigbus=0:detect_leaks=1:strict_string_checks=1:check_initialization_order=1:detect_stack_use_after_return=1"
export LSAN_OPTIONS="suppressions=$sanitizers/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export TSAN_OPTIONS="suppressions=$sanitizers/tsan.supp:halt_on_error=0:second_deadlock_stack=1:history_size=4"
