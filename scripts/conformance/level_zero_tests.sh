#!/usr/bin/env bash
# Runs oneAPI level-zero-tests' conformance core binaries against Tessera through the official loader
# and writes a summary: passed / failed / skipped / not run per binary and the name of every case
# that did not pass. Results go into docs/conformance.md by hand.
#
# Usage: scripts/conformance/level_zero_tests.sh [SUITE_DIR]
#   SUITE_DIR (or LZT_DIR): the built conformance core binaries with their kernels (*.spv) and helper
#   programs beside them, as the suite's install step lays them out: the helpers the tests start
#   by path in folders of their own (device/test_affinity_helper, device/test_device_hierarchy_helper,
#   device/test_pci_device_order_helper, memory/test_import_helper, fabric/test_fabric_helper; the
#   tests look in current_path()/device and so on, and test_device crashes when they are missing). The suite is not part of this
#   repository and CI cannot fetch it: without SUITE_DIR the script says so and exits 0. It is not
#   run by ctest. docs/conformance.md says which suite commit was used and how it was built.
# Environment:
#   LZT_BINARIES  the binaries to run (default: the core driver's, below)
#   LZT_TIMEOUT   seconds one run of a binary may take (default 1800)
#   LZT_OUT       where logs and summary.txt go (default build/conformance/level_zero_tests)
#   LZT_COMMIT    the suite's commit, for the summary (default: SUITE_DIR/COMMIT when present)
#   LZT_LOADER    the folder of the loader (libze_loader.so.1) the suite was built against, put first
#                 in LD_LIBRARY_PATH (default: SUITE_DIR/../l0/lib when it holds one, else the
#                 system's). It must come first: a newer loader otherwise loads Debian's 1.8 tracing
#                 layer from /lib and zeInit fails with ZE_RESULT_ERROR_UNSUPPORTED_VERSION
#   TESSERA_BUILD Tessera's build directory (default build; scripts/build.sh makes it)
#   TESSERA_COMMIT  Tessera's commit, for the summary (default: git of TESSERA_BUILD's tree, with
#                 the library's time)
#   LZT_SUMMARY_ONLY=1  runs nothing: summarizes the logs already in LZT_OUT
# A binary that crashes or times out is run again suite by suite (gtest filter "Suite.*") on the
# cases it had not reached, so one crash does not hide the rest; the case that was running is
# counted as failed ("crashed" or "timed out").
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
suite=${1:-${LZT_DIR:-}}
if [ -z "$suite" ] || [ ! -d "$suite" ]; then
  echo "level_zero_tests: no suite directory given (argument or LZT_DIR), or it does not exist:" \
    "nothing to run. See docs/conformance.md, \"oneAPI level-zero-tests\"."
  exit 0
fi
suite=$(cd "$suite" && pwd)
build=${TESSERA_BUILD:-$root/build}
out=${LZT_OUT:-$root/build/conformance/level_zero_tests}
timeout_s=${LZT_TIMEOUT:-1800}
commit=${LZT_COMMIT:-$(cat "$suite/COMMIT" 2>/dev/null || echo unknown)}
default_binaries="test_driver test_device test_context test_cmdqueue test_cmdlist test_barrier
  test_copy test_event test_fence test_memory test_module test_usm test_residency test_fabric
  test_ipc test_ipc_memory test_ipc_multidevice test_ipc_multisubdevice test_ipc_p2p_memory
  test_multithread test_multiprocess test_driver_init_flag_none"
binaries=${LZT_BINARIES:-$default_binaries}

if [ ! -e "$build/lib/libze_tessera.so.1" ]; then
  echo "level_zero_tests: $build/lib/libze_tessera.so.1 is missing: build Tessera first" \
    "(scripts/build.sh)" >&2
  exit 1
fi
# The suite's binaries need only the loader (libze1) and libpng at run time (Boost and gtest are
# linked in); say which library is missing rather than failing every binary.
for name in $binaries; do
  [ -x "$suite/$name" ] || continue
  if missing=$(LD_LIBRARY_PATH="$build/lib" ldd "$suite/$name" | grep "not found"); then
    echo "level_zero_tests: $name lacks shared libraries (Debian: libze1, libpng16-16):" >&2
    echo "$missing" >&2
    exit 1
  fi
  break
done
mkdir -p "$out"
summary_only=${LZT_SUMMARY_ONLY:-0}
[ "$summary_only" = 1 ] || rm -f "$out"/*.log "$out"/*.list "$out"/*.status "$out"/*.missing

loader=${LZT_LOADER:-}
[ -n "$loader" ] || [ ! -e "$suite/../l0/lib/libze_loader.so.1" ] || loader=$(cd "$suite/../l0/lib" && pwd)
export LD_LIBRARY_PATH="${loader:+$loader:}$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1

# run_binary NAME LOG [FILTER]: one run, its exit status appended to NAME.status. gtest's own lines
# are all kept; other output is cut after 200 lines per case (a failing check in a loop over a
# buffer prints millions of lines). The run has a process group of its own (timeout makes one):
# whatever it forked and left behind (an IPC test's child still waiting for its peer) is killed
# when it ends.
run_binary() {
  local name=$1 log=$2 filter=${3:-*} status=0 tpid apid fifo="$out/$name.fifo"
  rm -f "$fifo"
  mkfifo "$fifo"
  awk '/^\[ +(RUN|OK|FAILED|SKIPPED|PASSED) +\]|^\[(==========|----------)\]/ {
         if ($2 == "RUN") n = 0
         print; next }
       n++ < 200 { print; next }
       n == 201 { print "(further output of this case cut)" }' <"$fifo" >>"$log" &
  apid=$!
  (cd "$suite" && exec timeout -k 10 "$timeout_s" "./$name" --gtest_filter="$filter" \
    --gtest_color=no) >"$fifo" 2>&1 &
  tpid=$!
  wait "$tpid" || status=$?
  kill -KILL -- "-$tpid" 2>/dev/null || true
  wait "$apid" || true
  rm -f "$fifo"
  echo "$filter $status" >>"$out/$name.status"
}

# The cases of LOG that have started; those that never ended are printed by the summary below.
seen_cases() { sed -n 's/^\[ RUN      \] \([^ ]*\).*/\1/p' "$1" | sort -u; }

for name in $binaries; do
  [ "$summary_only" = 1 ] && break
  if [ ! -x "$suite/$name" ]; then
    echo "$name: not built" >"$out/$name.missing"
    continue
  fi
  echo "level_zero_tests: $name"
  # Every case, as Suite.Name (gtest prints suites unindented and cases indented below them).
  (cd "$suite" && "./$name" --gtest_list_tests 2>/dev/null) |
    awk '/^[^ ]/ {s=$1} /^  / {print s $1}' >"$out/$name.list" || true
  log="$out/$name.log"
  run_binary "$name" "$log"
  last=$(tail -n1 "$out/$name.status" | awk '{print $2}')
  if [ "$last" != 0 ] && [ "$last" != 1 ]; then
    # Crashed or timed out: the suites it had not finished, one run each, on the cases not seen.
    for s in $(sed 's/\..*//' "$out/$name.list" | sort -u); do
      todo=$(comm -23 <(grep "^$s\." "$out/$name.list" | sort -u) <(seen_cases "$log") | wc -l)
      [ "$todo" -gt 0 ] || continue
      skip=$(comm -12 <(grep "^$s\." "$out/$name.list" | sort -u) <(seen_cases "$log") | paste -sd:)
      run_binary "$name" "$log" "$s.*${skip:+-$skip}"
    done
  fi
done

source "$root/scripts/conformance/tessera_build_id.sh"
python3 - "$out" "$commit" "$binaries" "$timeout_s" "$tessera" <<'EOF'
import os, platform, re, sys, datetime
out, commit, binaries, timeout_s, tessera = sys.argv[1:6]
binaries = binaries.split()
# Anywhere in a line: a forked child's output may share the line with the test's.
run = re.compile(r'\[ RUN      \] (\S+)')
end = re.compile(r'\[ +(OK|FAILED|SKIPPED) +\] (\S+?)(,| \(|$)')
lines, totals, failures = [], [0, 0, 0, 0, 0], []
for name in binaries:
    if os.path.exists(f'{out}/{name}.missing'):
        lines.append(f'{name:28} not built')
        continue
    if not os.path.exists(f'{out}/{name}.log'):
        lines.append(f'{name:28} not run')
        continue
    listed = [l.strip() for l in open(f'{out}/{name}.list') if l.strip()]
    result, running = {}, None
    for line in open(f'{out}/{name}.log', errors='replace'):
        m = run.search(line)
        if m:
            if running and running not in result:
                result[running] = 'crashed'
            running = m.group(1)
            continue
        m = end.search(line)
        if m and m.group(2) == running and running not in result:
            result[running] = {'OK': 'passed', 'FAILED': 'failed', 'SKIPPED': 'skipped'}[m.group(1)]
            running = None
    statuses = [l.split()[-1] for l in open(f'{out}/{name}.status')]
    if running and running not in result:  # the last run ended inside this case
        result[running] = 'timed out' if statuses[-1] in ('124', '137') else 'crashed'
    passed = sum(v == 'passed' for v in result.values())
    skipped = sum(v == 'skipped' for v in result.values())
    failed = len(result) - passed - skipped
    notrun = len([c for c in listed if c not in result])
    total = max(len(listed), len(result))
    for i, v in enumerate((passed, failed, skipped, notrun, total)):
        totals[i] += v
    note = '' if statuses[0] in ('0', '1') else f'  (first run ended with status {statuses[0]})'
    lines.append(f'{name:28} {passed:6} {failed:6} {skipped:7} {notrun:7} {total:6}{note}')
    failures += [f'{name}: {case} ({v})' for case, v in sorted(result.items())
                 if v not in ('passed', 'skipped')]
model = ''
for l in open('/proc/cpuinfo'):
    if l.startswith('model name'):
        model = l.split(':', 1)[1].strip()
        break
loader = next((d for d in os.environ.get('LD_LIBRARY_PATH', '').split(':')
               if os.path.exists(f'{d}/libze_loader.so.1')), 'the system\'s')
head = [f'level-zero-tests {commit} against Tessera {tessera}, through libze_loader of {loader} '
        f'(ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1), {datetime.date.today()}',
        f'machine: {model}, {os.cpu_count()} CPUs, {platform.release()}; '
        f'timeout {timeout_s} s per run',
        '',
        f'{"binary":28} {"passed":>6} {"failed":>6} {"skipped":>7} {"not run":>7} {"cases":>6}']
lines.append(f'{"total":28} {totals[0]:6} {totals[1]:6} {totals[2]:7} {totals[3]:7} {totals[4]:6}')
text = '\n'.join(head + lines + ['', 'Cases that did not pass:'] + (failures or ['(none)'])) + '\n'
open(f'{out}/summary.txt', 'w').write(text)
print(text, end='')
print(f'{totals[0]} passed, {totals[1]} failed, {totals[2]} skipped')
EOF
