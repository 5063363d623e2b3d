#!/usr/bin/env bash
# Compiles scripts/apps/sycl_battery.cpp with AdaptiveCpp's generic (SSCP) flow and runs it on
# Tessera through a Level Zero loader, then on AdaptiveCpp's OpenMP host device for comparison.
# Outside ctest: CI has no AdaptiveCpp (docs/conformance.md, "SYCL: AdaptiveCpp", says how it was
# built here: Debian 12's LLVM 15, Boost and libomp, the Level Zero backend).
# Usage: scripts/apps/sycl_check.sh <acpp-install-dir> <loader-lib-dir> [build-dir]
#   <loader-lib-dir> holds libze_loader.so.1 (Debian's libze1 is enough: AdaptiveCpp's Level Zero
#   backend calls only 1.0-1.4 functions).
# AdaptiveCpp 49544a4 appends every command without its wait events (docs/conformance.md, "SYCL:
# AdaptiveCpp"): build it with evts.reserve changed to evts.resize in src/runtime/ze/ze_queue.cpp.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
acpp=${1:?usage: $0 <acpp-install-dir> <loader-lib-dir> [build-dir]}
loader=${2:?usage: $0 <acpp-install-dir> <loader-lib-dir> [build-dir]}
build=${3:-"$root/build"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$acpp/bin/acpp" --acpp-targets=generic -O2 "$root/scripts/apps/sycl_battery.cpp" -o "$tmp/battery"
export LD_LIBRARY_PATH="$loader:$build/lib" ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1
echo "== acpp-info -l"
"$acpp/bin/acpp-info" -l
echo "== Tessera (Level Zero)"
status=0
"$tmp/battery" || status=$?
echo "== AdaptiveCpp's OpenMP host device"
"$tmp/battery" omp || true
exit $status
