#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz) with clang-15 in build-fuzz and runs each from its seed
# corpus. Usage: scripts/fuzz.sh [seconds-per-target] [target...]
# Seconds default to 30 (the CI smoke run); docs/reliability.md records the longer runs. The growing
# corpus stays in build-fuzz/corpus/<target> (the repository's seeds are only read); a crash leaves
# its input in build-fuzz/artifacts/ and makes the script fail. A summary of executions per target
# goes to build-fuzz/fuzz-summary.txt.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-30}
shift || true
build=${TESSERA_FUZZ_BUILD:-"$root/build-fuzz"}
all=(fuzz_ze_module fuzz_ze_launch fuzz_cl_source fuzz_cl_il fuzz_affinity_mask fuzz_topology)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")

if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=clang-15 CXX=clang++-15 TESSERA_TARGETS=tessera_fuzzers "$root/scripts/build.sh" "$build" \
    RelWithDebInfo -DTESSERA_FUZZ=ON -DTESSERA_BUILD_TESTS=OFF
else
  TESSERA_TARGETS=tessera_fuzzers "$root/scripts/build.sh" "$build"
fi

# shellcheck source=scripts/sanitizers/env.sh
source "$root/scripts/sanitizers/env.sh"
mkdir -p "$build/artifacts"
summary="$build/fuzz-summary.txt"
: > "$summary"
failed=()
for t in "${targets[@]}"; do
  corpus="$build/corpus/$t"
  mkdir -p "$corpus"
  log="$build/$t.log"
  echo "fuzz: $t for ${seconds}s"
  set +e
  seeds=("$root/tests/fuzz/corpus/$t")
  # The OpenCL C test kernels are fuzz_cl_source's seeds too, read where they are.
  [ "$t" = fuzz_cl_source ] && seeds+=("$root/tests/kernels")
  "$build/bin/$t" "$corpus" "${seeds[@]}" -max_total_time="$seconds" -timeout=60 \
    -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/$t-" > "$log" 2>&1
  rc=$?
  set -e
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  line="$t: ${runs:-?} executions in ${seconds}s, corpus $(ls "$corpus" | wc -l) inputs, exit $rc"
  echo "fuzz: $line"
  echo "$line" >> "$summary"
  if [ $rc -ne 0 ]; then
    failed+=("$t")
    grep -m1 -A30 "ERROR:\|==ERROR\|runtime error\|deadly signal" "$log" || tail -30 "$log"
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: FAILED: ${failed[*]} (inputs in $build/artifacts/)"
  exit 1
fi
