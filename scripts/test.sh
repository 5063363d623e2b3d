#!/usr/bin/env bash
# The test command: installs what Tessera needs, then builds and tests each configuration in its own
# build directory (docs/reliability.md):
#   release  Release (build/): the whole test suite
#   asan     ASan + LeakSanitizer + UBSan (build-asan/): the whole test suite
#   tsan     ThreadSanitizer (build-tsan/): the threading tests (ctest -L threading)
#   fuzz     the libFuzzer targets with clang-15 (build-fuzz/): 30 s each from the seed corpora
# TESSERA_STAGES picks some of them (default: all four, in that order); TESSERA_JOBS sets the
# parallelism (default nproc); TESSERA_FUZZ_SECONDS the fuzz time per target. Exits non-zero on any
# failure; prints the time each stage took.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${TESSERA_JOBS:-$(nproc)}
stages=${TESSERA_STAGES:-release asan tsan fuzz}
"$root/scripts/setup.sh"

times=()
stage_start=0
begin() { stage_start=$(date +%s); echo "=== test.sh: $1 ==="; }
end() { times+=("$1: $(( $(date +%s) - stage_start )) s"); }

for stage in $stages; do
  case $stage in
    release)
      begin release
      "$root/scripts/build.sh" "$root/build" Release
      (cd "$root/build" && ctest --output-on-failure -j "$jobs")
      end release ;;
    asan)
      begin asan
      "$root/scripts/build.sh" "$root/build-asan" RelWithDebInfo -DTESSERA_SANITIZE=address,undefined
      # clpeak measures peak throughput for minutes; under ASan it proves nothing the API tests do not.
      (source "$root/scripts/sanitizers/env.sh" && cd "$root/build-asan" &&
        ctest --output-on-failure -j "$jobs" -E '^clients\.clpeak$')
      end asan ;;
    tsan)
      begin tsan
      TESSERA_TARGETS="tessera_ze_direct_tests tessera_unit_backend_tests tessera_unit_core_tests tessera_cl_tests" \
        "$root/scripts/build.sh" "$root/build-tsan" RelWithDebInfo -DTESSERA_SANITIZE=thread
      (source "$root/scripts/sanitizers/env.sh" && cd "$root/build-tsan" &&
        ctest --output-on-failure -j "$jobs" -L threading)
      end tsan ;;
    fuzz)
      begin fuzz
      "$root/scripts/fuzz.sh" "${TESSERA_FUZZ_SECONDS:-30}"
      end fuzz ;;
    *) echo "test.sh: unknown stage $stage" >&2; exit 2 ;;
  esac
done
echo "=== test.sh: all stages passed ==="
for t in "${times[@]}"; do echo "  $t"; done
