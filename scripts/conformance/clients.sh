#!/usr/bin/env bash
# Runs real OpenCL clients nobody on the team wrote against Tessera and against PoCL on the same
# machine, and prints a summary table (Markdown) of both side by side:
#   clblast   CLBlast 1.5.3's correctness tests (clblast-tests) for the routines below, and CLBlast's
#             SGEMM timed through its C API (clblast_sgemm.c: Debian ships no clblast_client_*)
#   hashcat   hashcat 6.2.6's benchmarks -b -m 0 (MD5) and -b -m 1400 (SHA2-256) on the CPU device
#   pyopencl  pyopencl's own test suite at the tag matching Debian's python3-pyopencl, per file
#             (python3-scipy lets its Bessel-function tests run)
#   clpeak    one clpeak run, its summary figures
# Usage: scripts/conformance/clients.sh BUILD_DIR [--only clblast|hashcat|pyopencl|clpeak]...
#                                       [--out DIR] [--no-pocl] [--no-install] [--report]
# Logs go to DIR (default BUILD_DIR/conformance/clients), one folder per implementation; the table
# is also written to DIR/summary.md; --report only makes the table from DIR's logs. Every client run gets a fresh XDG cache (Tessera's module
# cache, hashcat's kernels, pyopencl's and PoCL's binaries), so a re-run against a newer build
# compiles everything again. pyopencl's tests come from PYOPENCL_SRC: a git directory holding the
# tag v<Debian's version>, or a folder with test/ (default /work/.mirror/inducer+pyopencl/repo);
# without it that client is reported as absent. Long: about an hour on 2 cores; not run by ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)

usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 1 ] || usage
build=$(cd "$1" && pwd)
shift
only=() out="" pocl=1 install=1 report=0
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only+=("$2"); shift 2 ;;
    --out) out=$2; shift 2 ;;
    --no-pocl) pocl=0; shift ;;
    --no-install) install=0; shift ;;
    --report) report=1 install=0; shift ;;
    *) usage ;;
  esac
done
[ ${#only[@]} -gt 0 ] || only=(clblast hashcat pyopencl clpeak)
for c in "${only[@]}"; do
  case "$c" in clblast | hashcat | pyopencl | clpeak) ;; *) usage ;; esac
done
out=${out:-$build/conformance/clients}
mkdir -p "$out"
out=$(cd "$out" && pwd)
[ -f "$build/icd/tessera.icd" ] || { echo "clients: no $build/icd/tessera.icd (build first)"; exit 1; }

# --- packages --------------------------------------------------------------------------------------
if [ "$install" = 1 ]; then
  packages=(clblast-tests libclblast-dev hashcat python3-pytest python3-pytest-timeout
    python3-pyopencl python3-numpy python3-scipy clpeak pocl-opencl-icd ocl-icd-opencl-dev gcc git)
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    # To stderr: stdout is the table.
    $sudo apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends \
      "${missing[@]}" >&2
  fi
fi

impls=(tessera)
[ "$pocl" = 1 ] && [ -f /etc/OpenCL/vendors/pocl.icd ] && impls+=(pocl)

# run IMPL NAME TIMEOUT CMD...: runs CMD against IMPL with a fresh cache; output to
# $out/IMPL/NAME.log, exit code (124: timed out) to $out/IMPL/NAME.rc.
run() {
  local impl=$1 name=$2 limit=$3
  shift 3
  local dir=$out/$impl cache=$out/$impl/cache.$name rc=0
  mkdir -p "$dir"
  rm -rf "$cache"
  mkdir -p "$cache"
  local envs=(XDG_CACHE_HOME="$cache" XDG_DATA_HOME="$cache/data" XDG_CONFIG_HOME="$cache/config"
    PYOPENCL_NO_CACHE=1)
  if [ "$impl" = tessera ]; then
    envs+=(OCL_ICD_VENDORS="$build/icd" LD_LIBRARY_PATH="$build/lib"
      ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1)
  else
    envs+=(OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd LD_LIBRARY_PATH=)
  fi
  echo "clients: [$impl] $name ($*)" >&2
  # The machine's load when it started: speeds measured on a busy machine say little.
  cut -d' ' -f1 /proc/loadavg >"$dir/$name.load"
  local start=$SECONDS
  env "${envs[@]}" timeout -k 10 "$limit" "$@" >"$dir/$name.log" 2>&1 </dev/null || rc=$?
  echo "$rc" >"$dir/$name.rc"
  echo "clients: [$impl] $name: exit $rc after $((SECONDS - start)) s" >&2
  rm -rf "$cache"
}

# The table is made from the logs in $out, so a re-run of one client or of Tessera alone
# (--no-pocl) keeps the other figures of the last run.
declare -A result seen # result: "row|impl" -> cell
rows=()
put() { # put ROW IMPL CELL
  [ -n "${seen["$1"]:-}" ] || { seen["$1"]=1; rows+=("$1"); }
  result["$1|$2"]=$3
}
rc_of() { cat "$out/$1/$2.rc" 2>/dev/null || echo "?"; } # rc_of IMPL NAME
status_of() {                                            # a cell for an exit code alone
  case "$1" in 0) echo ok ;; 124 | 137) echo "timeout" ;; *) echo "exit $1" ;; esac
}
strip() { sed 's/\x1b\[[0-9;]*m//g' "$1"; }
logged() { [ -f "$out/$1/$2.log" ]; } # logged IMPL NAME
load_of() { # load_of IMPL NAME: " (load L)" when the run started with a load above 1.5 per core
  local l
  l=$(cat "$out/$1/$2.load" 2>/dev/null) || return 0
  awk -v l="$l" -v n="$(nproc)" 'BEGIN { if (l > 1.5 * n) printf " (load %s)", l }'
}

# --- CLBlast ---------------------------------------------------------------------------------------
clblast_routines=(xgemv xgemm xsymm xtrsv xtrsm xgemmbatched xomatcopy xaxpy xdot xnrm2 xamax xger)
run_clblast() {
  local impl r n sgemm=$out/clblast_sgemm
  gcc -O2 -o "$sgemm" "$root/scripts/conformance/clblast_sgemm.c" -lclblast -lOpenCL -lm -ldl
  for impl in "${impls[@]}"; do
    for r in "${clblast_routines[@]}"; do
      run "$impl" "clblast_$r" "${CLBLAST_TIMEOUT:-2400}" "/usr/bin/clblast_test_$r"
    done
    for n in 256 1024; do run "$impl" "clblast_sgemm_$n" 900 "$sgemm" "$n" 5; done
  done
}
parse_clblast() {
  local impl=$1 r n log p s f e cell rc
  for r in "${clblast_routines[@]}"; do
    logged "$impl" "clblast_$r" || continue
    log=$out/$impl/clblast_$r.log rc=$(rc_of "$impl" "clblast_$r")
    # Every precision prints "N test(s) passed/skipped/failed"; '\' marks a case whose kernel did
    # not compile (counted by CLBlast as skipped).
    p=$(strip "$log" | awk '/test\(s\) passed/ {n += $1} END {print n + 0}')
    s=$(strip "$log" | awk '/test\(s\) skipped/ {n += $1} END {print n + 0}')
    f=$(strip "$log" | awk '/test\(s\) failed/ {n += $1} END {print n + 0}')
    e=$(strip "$log" | { grep -E '^   [:.X/\\o-]+$' || true; } | tr -cd '\\' | wc -c)
    cell="$p/$s/$f"
    [ "$e" = 0 ] || cell+=" ($e not built)"
    [ "$rc" = 0 ] || [ "$f" != 0 ] || cell+=" $(status_of "$rc")"
    put "CLBlast $r pass/skip/fail" "$impl" "$cell"
  done
  for n in 256 1024; do
    logged "$impl" "clblast_sgemm_$n" || continue
    cell=$(grep -oE '[0-9.]+ GFLOPS|error: .*' "$out/$impl/clblast_sgemm_$n.log" | head -1 || true)
    cell=${cell:-$(status_of "$(rc_of "$impl" "clblast_sgemm_$n")")}
    put "CLBlast SGEMM n=$n" "$impl" "$cell$(load_of "$impl" "clblast_sgemm_$n")"
  done
}

# --- hashcat ---------------------------------------------------------------------------------------
run_hashcat() {
  local impl m
  for impl in "${impls[@]}"; do
    for m in 0 1400; do
      # -D 1: CPU devices (hashcat skips them by default); --force: hashcat refuses CPU OpenCL
      # runtimes it does not know otherwise. A kernel that fails to build prints its build log.
      # Then again with the work per launch fixed (-n accel, -u loops; the kernel is cached by
      # then): hashcat's own tuning settles on other values from run to run on a busy machine.
      run "$impl" "hashcat_m$m" "${HASHCAT_TIMEOUT:-1800}" sh -c "hashcat -b -m $m -D 1 --force &&
        hashcat -b -m $m -D 1 --force -n 1024 -u 1024"
    done
  done
}
parse_hashcat() {
  local impl=$1 m log cell
  for m in 0 1400; do
    logged "$impl" "hashcat_m$m" || continue
    log=$out/$impl/hashcat_m$m.log
    # hashcat tunes the work per launch (Accel, Loops) on the device first: shown, since a tuning
    # thrown off by one slow launch changes the speed more than the kernel does.
    # The first "Speed" line is the tuned run's, the second the fixed one's.
    local speeds=()
    mapfile -t speeds < <(awk '/^Speed.#/ {v = $2; u = $3; if (u == "kH/s") v *= 1e3
      else if (u == "MH/s") v *= 1e6; else if (u == "GH/s") v *= 1e9; printf "%.1f MH/s", v / 1e6
      for (i = 6; i <= NF; i++) if ($i ~ /^(Accel|Loops):/) printf " %s", $i; printf "\n"}' "$log")
    cell=${speeds[0]:-}
    if [ -z "$cell" ]; then
      cell=$(grep -m1 -iE 'error|fail' "$log" | cut -c1-80 || true)
      cell=${cell:-$(status_of "$(rc_of "$impl" "hashcat_m$m")")}
    fi
    put "hashcat -b -m $m" "$impl" "$cell$(load_of "$impl" "hashcat_m$m")"
    [ -z "${speeds[1]:-}" ] || put "hashcat -b -m $m -n 1024 -u 1024" "$impl" "${speeds[1]}"
  done
}

# --- pyopencl --------------------------------------------------------------------------------------
pyopencl_version=$(/usr/bin/python3 -c 'import pyopencl; print(pyopencl.VERSION_TEXT)' 2>/dev/null ||
  echo "?")
run_pyopencl() {
  local src tests impl
  src=${PYOPENCL_SRC:-/work/.mirror/inducer+pyopencl/repo}
  tests=$out/pyopencl-$pyopencl_version
  rm -rf "$tests"
  mkdir -p "$tests"
  if [ -d "$src/test" ]; then
    cp -r "$src/test" "$tests/"
  elif git --git-dir="$src" rev-parse -q --verify "v$pyopencl_version^{commit}" >/dev/null 2>&1; then
    git --git-dir="$src" archive "v$pyopencl_version" test | tar -x -C "$tests"
  else
    echo "clients: pyopencl $pyopencl_version's test sources are not in $src" >&2
    for impl in "${impls[@]}"; do
      mkdir -p "$out/$impl"
      rm -f "$out/$impl/pyopencl.xml"
      echo "sources absent" >"$out/$impl/pyopencl.log"
    done
    return
  fi
  for impl in "${impls[@]}"; do
    # PYOPENCL_TEST=0: every device of the only platform the ICD loader sees.
    rm -f "$out/$impl/pyopencl.xml"
    pushd "$tests/test" >/dev/null
    run "$impl" pyopencl "${PYOPENCL_TIMEOUT:-5400}" env PYOPENCL_TEST=0 /usr/bin/python3 -m pytest \
      -q -p no:cacheprovider --timeout=600 -rfE --junitxml="$out/$impl/pyopencl.xml" .
    popd >/dev/null
  done
}
parse_pyopencl() {
  local impl=$1 file cell
  logged "$impl" pyopencl || return 0
  if [ ! -f "$out/$impl/pyopencl.xml" ]; then
    cell=$(head -c 60 "$out/$impl/pyopencl.log")
    put "pyopencl $pyopencl_version" "$impl" "${cell:-$(status_of "$(rc_of "$impl" pyopencl)")}"
    return 0
  fi
  while IFS='|' read -r file cell; do
    put "pyopencl $file pass/fail/skip" "$impl" "$cell"
  done < <(/usr/bin/python3 "$root/scripts/conformance/pyopencl_results.py" counts \
    "$out/$impl/pyopencl.xml")
}

# --- clpeak ----------------------------------------------------------------------------------------
run_clpeak() {
  local impl
  for impl in "${impls[@]}"; do run "$impl" clpeak "${CLPEAK_TIMEOUT:-1800}" clpeak -p 0 -d 0; done
}
parse_clpeak() {
  local impl=$1 log name value
  logged "$impl" clpeak || return 0
  log=$out/$impl/clpeak.log
  if ! grep -q 'Global memory bandwidth' "$log"; then
    put "clpeak" "$impl" "$(status_of "$(rc_of "$impl" clpeak)")"
    return 0
  fi
  # Each compute and bandwidth section's best figure over the vector widths (and its width); of
  # the transfers, the blocking write and read (a map is no copy on a CPU); the launch latency.
  while IFS='|' read -r name value; do
    put "clpeak $name" "$impl" "$value$(load_of "$impl" clpeak)"
  done < <(awk '
    function trim(x) { gsub(/^ +| +$/, "", x); return x }
    /^ *Kernel launch latency/ { split($0, a, ":"); lat = trim(a[2]); next }
    /^ *Transfer bandwidth/ { section = "transfer"; next }
    section == "transfer" && /^ *enqueue(Write|Read)Buffer +:/ {
      split($0, a, ":"); rows[++n] = "Transfer " trim(a[1]) " (GBPS)"; val[n] = trim(a[2]); next }
    /^ *[A-Z].*\((GBPS|GFLOPS|GIOPS)\)/ {
      section = trim($0); rows[++n] = section; best[n] = -1; cur = n; next }
    section != "" && section != "transfer" && /:/ {
      split($0, a, ":"); v = a[2] + 0
      if (v > best[cur]) { best[cur] = v; val[cur] = sprintf("%.2f (%s)", v, trim(a[1])) }
      next }
    /^ *$/ { section = "" }
    END { for (i = 1; i <= n; i++) printf "%s|%s\n", rows[i], val[i]
          if (lat != "") printf "Kernel launch latency|%s\n", lat }' "$log")
}

if [ "$report" = 0 ]; then
  for c in "${only[@]}"; do "run_$c"; done
fi

# --- summary ---------------------------------------------------------------------------------------
shown=()
for impl in tessera pocl; do [ -d "$out/$impl" ] && shown+=("$impl"); done
for c in "${only[@]}"; do
  for impl in "${shown[@]}"; do "parse_$c" "$impl"; done
done
if [[ " ${only[*]} " == *" pyopencl "* ]] && [ -f "$out/tessera/pyopencl.xml" ] &&
  [ -f "$out/pocl/pyopencl.xml" ]; then
  /usr/bin/python3 "$root/scripts/conformance/pyopencl_results.py" tessera-only \
    "$out/tessera/pyopencl.xml" "$out/pocl/pyopencl.xml" >"$out/pyopencl_tessera_only.txt"
  echo "clients: pyopencl cases Tessera fails and PoCL passes: $out/pyopencl_tessera_only.txt" >&2
fi
{
  echo "Clients run on $(date -u +%Y-%m-%d) against $build (commit $(git -C "$root" rev-parse --short HEAD));"
  echo "logs in $out"
  echo
  printf '| client |'
  printf ' %s |' "${shown[@]}"
  printf '\n|---|'
  printf -- '---|%.0s' "${shown[@]}"
  printf '\n'
  for row in "${rows[@]}"; do
    line="| $row |"
    for impl in "${shown[@]}"; do line+=" ${result["$row|$impl"]:-} |"; done
    echo "$line"
  done
} | tee "$out/summary.md"
