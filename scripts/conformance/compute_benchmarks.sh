#!/usr/bin/env bash
# Builds intel/compute-benchmarks' Level Zero binaries (*_benchmark_l0) and runs every one of them
# against Tessera through the loader the benchmarks bundle, with a short configuration, then writes a
# summary: per binary the cases listed, run, failed and skipped, and the name and error of every case
# that failed. Results go into docs/conformance.md by hand ("Level Zero clients: a current loader,
# intel/compute-benchmarks").
#
# Usage: scripts/conformance/compute_benchmarks.sh [CB_SOURCE]
#   CB_SOURCE (or CB_DIR): a checkout of intel/compute-benchmarks with third_party/level-zero-sdk
#   (its loader 1.28 and headers, in the repository itself). The suite is not part of this repository
#   and CI cannot fetch it: without CB_SOURCE the script says so and exits 0. It is not run by ctest.
# The checkout is not modified: its files (without .git) are copied to CB_BUILD/src and built there
# with -DUSE_SYSTEM_LEVEL_ZERO=OFF (its own SDK) -DBUILD_OCL=OFF -DGENERATE_DOCS=OFF -DBUILD_TOOLS=OFF.
# The one change made to the copy: zeInit(ZE_INIT_FLAG_GPU_ONLY) -> zeInit(0) in
# source/framework/l0/levelzero.cpp and source/framework/l0/utility/print_device_info_l0.inl (the
# benchmarks ask for a GPU driver; Tessera is a CPU one). The sed that does it is idempotent. When
# third_party/googletest (a submodule) is empty, Debian's googletest sources (/usr/src/googletest,
# packages googletest and libgtest-dev) stand in for it. Build needs: cmake, a C++20 compiler.
# Environment:
#   CB_BUILD      where the copy and its build go (default build/conformance/compute-benchmarks-build);
#                 built once: delete it to rebuild
#   CB_JOBS       parallel build jobs (default 2)
#   CB_BINARIES   the binaries to run (default: every *_benchmark_l0 built)
#   CB_FILTER     passed to each binary as --testFilter (default: every case): test names such as
#                 SubmitKernel, separated by spaces, all of which a case must match; ^Name excludes
#   CB_ARG_FILTER passed as --argFilter (default "^allocationSize=17179869184": leaves out the 12
#                 cases of memory_benchmark_l0's RandomAccessMemory that allocate 16 GiB, too much
#                 for a shared machine; they count as not run. CB_ARG_FILTER= runs them)
#   CB_ARGS       the run configuration (default: --iterations=1 --warmupIterations=0; for
#                 multiprocess_benchmark_l0 always --iterations=10, the count its workloads run and
#                 synchronize with: any other leaves them waiting forever)
#   CB_TIMEOUT    seconds one run of a binary may take (default 1800)
#   CB_BUDGET     seconds all the runs of one binary may take together (default 3600): a binary
#                 whose cases are merely slow (multitile_memory_benchmark_l0 copies 512 MB in many
#                 of its 1,556 cases) is not run again once it is spent; what is left counts as
#                 not run
#   CB_OUT        where logs and summary.txt go (default build/conformance/compute_benchmarks);
#                 a run replaces only the files of the binaries it runs
#   CB_COMMIT     the suite's commit, for the summary (default: git of CB_SOURCE, else CB_SOURCE/COMMIT)
#   TESSERA_BUILD Tessera's build directory (default build; scripts/build.sh makes it)
#   TESSERA_COMMIT  Tessera's commit, for the summary (default: git of TESSERA_BUILD's tree; the
#                 summary gives the library's time too, as a build directory can be rebuilt)
#   CB_SUMMARY_ONLY=1  runs nothing: summarizes the logs already in CB_OUT
# Each binary first lists its Level Zero cases (--noop), then runs them with --api=l0 --csv
# --printAllResults --interactivePrints --dumpErrorsImmediately=1 (this one takes a value): the
# framework prints a case's name before it runs it, then one CSV row per measurement (the figures,
# or ERROR, VERIF_FAIL, NO_SUPPORT, NO_IMPLEMENT...), and right after a failed case its gtest
# failure ("[  FAILED  ] ..." and the failed check, e.g. "EXPECT_ZE_RESULT_SUCCESS(zeCall(...))"
# with the ze_result_t, or the benchmark's own message). A binary that crashes or times out is run
# again without the tests (benchmark names) it had reached (--testFilter=^Name), so one crash does
# not hide the rest; the case that was running counts as failed ("crashed" or "timed out"), the
# cases of that test after it as not run.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
src_in=${1:-${CB_DIR:-}}
if [ -z "$src_in" ] || [ ! -d "$src_in" ]; then
  echo "compute_benchmarks: no compute-benchmarks checkout given (argument or CB_DIR), or it does" \
    "not exist: nothing to run. See docs/conformance.md, \"Level Zero clients: a current loader," \
    "intel/compute-benchmarks\"."
  exit 0
fi
src_in=$(cd "$src_in" && pwd)
build=${TESSERA_BUILD:-$root/build}
cb_build=${CB_BUILD:-$root/build/conformance/compute-benchmarks-build}
out=${CB_OUT:-$root/build/conformance/compute_benchmarks}
timeout_s=${CB_TIMEOUT:-1800}
budget_s=${CB_BUDGET:-3600}
jobs=${CB_JOBS:-2}
run_args=${CB_ARGS:---iterations=1 --warmupIterations=0}
arg_filter=${CB_ARG_FILTER-^allocationSize=17179869184}
filter=${CB_FILTER:-}
commit=${CB_COMMIT:-$(git -C "$src_in" rev-parse --short HEAD 2>/dev/null ||
  cat "$src_in/COMMIT" 2>/dev/null || echo unknown)}
summary_only=${CB_SUMMARY_ONLY:-0}
sdk=$cb_build/src/third_party/level-zero-sdk
bin=$cb_build/build/bin

if [ ! -d "$src_in/third_party/level-zero-sdk/lib/x64" ]; then
  echo "compute_benchmarks: $src_in/third_party/level-zero-sdk/lib/x64 is missing: the bundled" \
    "loader is needed (it is part of the compute-benchmarks repository)" >&2
  exit 1
fi

# --- Build (once) ---------------------------------------------------------------------------------
if [ "$summary_only" != 1 ] && [ ! -e "$cb_build/build/.built" ]; then
  # Copied once (a build that stopped goes on from the same copy; delete CB_BUILD for a new one).
  if [ ! -e "$cb_build/src/CMakeLists.txt" ]; then
    mkdir -p "$cb_build/src"
    (cd "$src_in" && tar --exclude=./.git -cf - .) | (cd "$cb_build/src" && tar -xf -)
  fi
  # The only change to the suite: zeInit for any driver type, not GPU drivers only.
  for f in source/framework/l0/levelzero.cpp source/framework/l0/utility/print_device_info_l0.inl; do
    ! grep -q 'zeInit(ZE_INIT_FLAG_GPU_ONLY)' "$cb_build/src/$f" ||
      sed -i 's/zeInit(ZE_INIT_FLAG_GPU_ONLY)/zeInit(0)/' "$cb_build/src/$f"
    grep -q 'zeInit(0)' "$cb_build/src/$f" || { echo "compute_benchmarks: no zeInit in $f" >&2; exit 1; }
  done
  if [ ! -e "$cb_build/src/third_party/googletest/CMakeLists.txt" ]; then
    if [ ! -e /usr/src/googletest/CMakeLists.txt ]; then
      echo "compute_benchmarks: third_party/googletest is empty and /usr/src/googletest is missing" \
        "(Debian: apt-get install googletest libgtest-dev)" >&2
      exit 1
    fi
    rm -rf "$cb_build/src/third_party/googletest"
    ln -s /usr/src/googletest "$cb_build/src/third_party/googletest"
  fi
  # The copy is no git checkout: its CMakeLists asks git for the commit (the version string only).
  cmake -G "Unix Makefiles" -S "$cb_build/src" -B "$cb_build/build" -DCMAKE_BUILD_TYPE=Release \
    -DUSE_SYSTEM_LEVEL_ZERO=OFF -DBUILD_L0=ON -DBUILD_OCL=OFF -DGENERATE_DOCS=OFF -DBUILD_TOOLS=OFF \
    -DCCACHE_ALLOWED=OFF >"$cb_build/cmake.log" 2>&1 ||
    { tail -n 30 "$cb_build/cmake.log" >&2; exit 1; }
  # Every target: with BUILD_OCL=OFF they are the *_benchmark_l0 binaries, their framework and the
  # kernels copied beside them. A benchmark that does not build is reported, the others still run.
  cmake --build "$cb_build/build" -j "$jobs" -- -k >"$cb_build/build.log" 2>&1 ||
    echo "compute_benchmarks: some targets did not build, see $cb_build/build.log" >&2
  touch "$cb_build/build/.built"
fi

# --- Run ------------------------------------------------------------------------------------------
if [ "$summary_only" != 1 ] && [ ! -e "$build/lib/libze_tessera.so.1" ]; then
  echo "compute_benchmarks: $build/lib/libze_tessera.so.1 is missing: build Tessera first" \
    "(scripts/build.sh)" >&2
  exit 1
fi
if [ ! -d "$bin" ]; then
  echo "compute_benchmarks: $bin is missing: the build failed, see $cb_build/build.log" >&2
  exit 1
fi
binaries=${CB_BINARIES:-$(cd "$bin" && ls -1 -- *_benchmark_l0 2>/dev/null | tr '\n' ' ')}
mkdir -p "$out"

export LD_LIBRARY_PATH="$sdk/lib/x64:$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1

# run_binary NAME LOG [TESTFILTER]: one run, its exit status appended to NAME.status. The run has a
# process group of its own (timeout makes one): whatever it started and left behind (the
# multiprocess benchmark's workloads) is killed when it ends.
run_binary() {
  local name=$1 log=$2 tfilter=${3:-} status=0 tpid
  local -a args=(--api=l0 --csv --printAllResults --interactivePrints --dumpErrorsImmediately=1 --noHeaders)
  [ -z "$tfilter" ] || args+=("--testFilter=$tfilter")
  [ -z "$arg_filter" ] || args+=("--argFilter=$arg_filter")
  local bargs=$run_args
  # multiprocess_benchmark_l0's workloads (init_workload_l0...) always run their default 10
  # iterations, synchronizing with the benchmark at each: any other count leaves them waiting.
  [ "$name" != multiprocess_benchmark_l0 ] || bargs="--iterations=10 --warmupIterations=0"
  echo "### run: ./$name ${args[*]} $bargs" >>"$log"
  # shellcheck disable=SC2086
  (cd "$bin" && exec timeout -k 10 "$timeout_s" "./$name" "${args[@]}" $bargs) \
    >>"$log" 2>&1 </dev/null &
  tpid=$!
  wait "$tpid" || status=$?
  kill -KILL -- "-$tpid" 2>/dev/null || true
  echo "$status" >>"$out/$name.status"
}

# The names of the tests (benchmarks) whose cases LOG shows started or ended.
seen_tests() {
  sed -n 's/^\([A-Za-z0-9_]*\)(api=l0[ )].*/\1/p' "$1" | sort -u
}

for name in $binaries; do
  [ "$summary_only" = 1 ] && break
  rm -f "$out/$name".{log,list,status,missing}  # only this binary's: CB_BINARIES adds to a run
  if [ ! -x "$bin/$name" ]; then
    echo "$name: not built" >"$out/$name.missing"
    continue
  fi
  echo "compute_benchmarks: $name ($(date -u +%H:%M:%S))"
  # Every Level Zero case (no argument filter: the cases it leaves out count as not run).
  (cd "$bin" && timeout 600 "./$name" --api=l0 --csv --printAllResults --noHeaders --noop \
    ${filter:+"--testFilter=$filter"} 2>/dev/null) |
    grep -oE '^[A-Za-z0-9_]+\(api=l0( [^)]*)?\)' | awk '!seen[$0]++' >"$out/$name.list" || true
  log="$out/$name.log"
  started=$SECONDS
  run_binary "$name" "$log" "$filter"
  tries=0
  while :; do
    last=$(tail -n1 "$out/$name.status")
    [ "$last" != 0 ] && [ "$last" != 1 ] || break
    tries=$((tries + 1))
    [ "$tries" -le 50 ] && [ $((SECONDS - started)) -lt "$budget_s" ] || break
    # Crashed or timed out: again, without every test it had reached.
    excluded=$(seen_tests "$log" | sed 's/^/^/' | tr '\n' ' ')
    todo=$(grep -v -F -f <(seen_tests "$log" | sed 's/$/(/') "$out/$name.list" | wc -l || true)
    [ "$todo" -gt 0 ] || break
    run_binary "$name" "$log" "$filter${filter:+ }$excluded"
  done
done

source "$root/scripts/conformance/tessera_build_id.sh"
python3 - "$out" "$commit" "$binaries" "$timeout_s" "$tessera" "$run_args" "$arg_filter" <<'PYEOF'
import os, platform, re, sys, datetime
out, commit, binaries, timeout_s, tessera, run_args, arg_filter = sys.argv[1:8]
binaries = binaries.split()
FAILED = {'ERROR', 'VERIF_FAIL', 'KERNEL_BUILD_ERROR'}
row = re.compile(r'^([A-Za-z0-9_]+\(api=l0(?: [^)]*)?\)),(.*)$')
named = re.compile(r'^([A-Za-z0-9_]+\(api=l0(?: [^)]*)?\))\s*$')
other_api = re.compile(r'^[A-Za-z0-9_]+\(api=\w+(?: [^)]*)?\),')
check = re.compile(r'FAILED assertion \w+\((.*)\)\s*$')
value = re.compile(r'^\s*value: (-?\d+)(?: \((\w+)\))?')

def ended(status):
    """How a run that stopped inside a case ended: timeout's 124 (137 after its -k), 143 a
    SIGTERM from outside (the run was stopped), else the signal or status of a crash."""
    return {'124': 'timed out', '137': 'timed out', '143': 'stopped'}.get(status, f'crashed ({status})')


def parse(log, statuses):
    """{case: (result, detail)} in the order the cases ran."""
    result, detail = {}, {}
    running = None          # the case whose name was printed and which has no row yet
    last = None             # the case that printed last (a failure block belongs to it)
    in_failure = False
    run_index = -1
    for line in open(log, errors='replace'):
        line = line.rstrip('\n')
        if line.startswith('### run:'):
            if running and running not in result:
                st = statuses[run_index] if 0 <= run_index < len(statuses) else '?'
                result[running] = ended(st)
            run_index += 1
            running = last = None
            in_failure = False
            continue
        if line.startswith('[  FAILED  ]'):
            in_failure = True
            target = running or last
            if target:
                if result.get(target) in (None, 'ran'):
                    result[target] = 'failed'
                detail.setdefault(target, [])
            continue
        m = row.match(line)
        if m:
            in_failure = False
            case, fields = m.group(1), m.group(2).split(',')
            status = fields[0].strip()
            running = None
            last = case
            if status == 'SKIPPED':
                continue
            try:
                float(status)
                result.setdefault(case, 'ran')
            except ValueError:
                if status in FAILED:
                    result[case] = 'failed'
                    detail.setdefault(case, []).append(status)
                elif case not in result:
                    result[case] = 'skipped'
                    detail.setdefault(case, []).append(status)
            continue
        m = named.match(line)
        if m:
            in_failure = False
            running = last = m.group(1)
            continue
        if other_api.match(line):  # another API's case: SKIPPED
            continue
        # What follows a case's name, or belongs to the failure block printed after its row.
        target = running or (last if in_failure else None)
        if target is None:
            continue
        # The failed check and its value (a failure block), or the framework's own error line.
        m = check.search(line)
        if m and in_failure:
            detail.setdefault(target, []).append(m.group(1))
            continue
        m = value.match(line)
        if m and in_failure and detail.get(target):
            detail[target][-1] += ': ' + (m.group(2) or m.group(1))
            continue
        text = line.strip()
        if (not text or text.startswith(('DEVELOPER_WARNING', 'Location:', 'TestCase,'))
                or text.endswith(': Failure')):
            continue
        # Anything else the case printed: the framework's "ERROR: ..." line, gtest's exception
        # note, a benchmark's own check ("at (0), expected ..., but got ..."); two lines a case.
        own = detail.setdefault(target, [])
        if sum(not d.startswith('ze') for d in own) < 3:
            own.append(text[:200])
    if running and running not in result:
        result[running] = ended(statuses[-1] if statuses else '?')
    return result, detail

lines, totals, failures, skips = [], [0] * 6, [], {}
for name in binaries:
    if os.path.exists(f'{out}/{name}.missing'):
        lines.append(f'{name:36} not built')
        continue
    if not os.path.exists(f'{out}/{name}.log'):
        lines.append(f'{name:36} not run')
        continue
    listed = [l.strip() for l in open(f'{out}/{name}.list') if l.strip()]
    statuses = [l.strip() for l in open(f'{out}/{name}.status')]
    result, detail = parse(f'{out}/{name}.log', statuses)
    ran = sum(v == 'ran' for v in result.values())  # ran and did not fail
    failed = sum(v != 'ran' and v != 'skipped' for v in result.values())
    skipped = sum(v == 'skipped' for v in result.values())
    notrun = len([c for c in listed if c not in result])
    total = max(len(listed), len(set(listed) | set(result)))
    for i, v in enumerate((total, ran, failed, skipped, notrun, 0)):
        totals[i] += v
    note = '' if statuses and statuses[0] in ('0', '1') else \
        f'  (first run ended with status {statuses[0] if statuses else "?"}; {len(statuses)} runs)'
    lines.append(f'{name:36} {total:6} {ran:6} {failed:6} {skipped:7} {notrun:7}{note}')
    for case, v in result.items():
        if v == 'skipped':
            why = '; '.join(detail.get(case, [])) or '?'
            skips[(name, why)] = skips.get((name, why), 0) + 1
        elif v != 'ran':
            why = '; '.join(dict.fromkeys(detail.get(case, []))) or v
            failures.append(f'{name}: {case}: {v}: {why}')
    left = [c for c in listed if c not in result]
    if left:
        failures.append(f'{name}: {len(left)} not run, first: {left[0]}')
model = ''
for l in open('/proc/cpuinfo'):
    if l.startswith('model name'):
        model = l.split(':', 1)[1].strip()
        break
head = [f'compute-benchmarks {commit} against Tessera {tessera}, through its bundled loader '
        f'(ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1), {datetime.date.today()}',
        f'machine: {model}, {os.cpu_count()} CPUs, {platform.release()}; timeout {timeout_s} s '
        f'per run; {run_args}; argFilter {arg_filter or "(none)"}',
        '',
        f'{"binary":36} {"cases":>6} {"ran":>6} {"failed":>6} {"skipped":>7} {"not run":>7}']
lines.append(f'{"total":36} {totals[0]:6} {totals[1]:6} {totals[2]:6} {totals[3]:7} {totals[4]:7}')
skiplines = [f'{b}: {n} x {why}' for (b, why), n in sorted(skips.items())]
text = '\n'.join(head + lines + ['', 'Skipped by the benchmark (its reason):'] + (skiplines or ['(none)'])
                 + ['', 'Failed (crashed, timed out) or not run:'] + (failures or ['(none)'])) + '\n'
open(f'{out}/summary.txt', 'w').write(text)
print(text, end='')
PYEOF
