#!/usr/bin/env bash
# Runs AdaptiveCpp's own SYCL test suite (its tests/sycl, target sycl_tests, built with
# `acpp --acpp-targets=generic`) on Tessera, each of its suites in a process of its own (a suite
# that aborts does not end the others), and prints one line per suite with Boost.Test's counts.
# Outside ctest: CI has no AdaptiveCpp. docs/conformance.md, "SYCL: AdaptiveCpp", says how it was
# built and the local edits its run needs (the wait-event fix; a default selector that picks a
# Level Zero CPU device before the OpenMP host device).
# Usage: scripts/apps/sycl_suite.sh <sycl_tests binary> <loader-lib-dir> <out-dir> [build-dir]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tests=${1:?usage: $0 <sycl_tests> <loader-lib-dir> <out-dir> [build-dir]}
loader=${2:?usage: $0 <sycl_tests> <loader-lib-dir> <out-dir> [build-dir]}
out=${3:?usage: $0 <sycl_tests> <loader-lib-dir> <out-dir> [build-dir]}
build=${4:-"$root/build"}
mkdir -p "$out"
export LD_LIBRARY_PATH="$loader:$build/lib" ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1
cd "$(dirname "$tests")"
for suite in $("$tests" --list_content 2>&1 | grep -v '^    ' | tr -d '*'); do
  status=0
  timeout 300 "$tests" --run_test="$suite" --report_level=short > "$out/$suite.log" 2>&1 || status=$?
  echo "$suite exit=$status $(grep -a -E 'test cases? out of' "$out/$suite.log" | tr -s ' \n' ' ')"
done
