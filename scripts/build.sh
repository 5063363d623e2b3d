#!/usr/bin/env bash
# Configures and builds Tessera. Usage: scripts/build.sh [build-dir] [build-type] [cmake-args...]
# Extra arguments go to cmake's configure step (e.g. -DTESSERA_SANITIZE=address,undefined); with
# them, an existing build directory is configured again. TESSERA_TARGETS (space-separated) builds only
# those targets.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-"$root/build"}
type=${2:-Release}
shift $(( $# < 2 ? $# : 2 ))
jobs=${TESSERA_JOBS:-$(nproc)}

launcher=()
# Paths under the checkout hash relative to the build directory, so that another clone of the same
# tree (CI's fresh clone) reuses the objects of this one; the build directory is left out of the
# hash of debug builds for the same reason (their DWARF then names the first clone's directory).
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache); fi
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE="$type" "${launcher[@]}" "$@"
elif [ $# -gt 0 ]; then
  cmake -S "$root" -B "$build" "$@"
fi
targets=()
for t in ${TESSERA_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$build" -j "$jobs" "${targets[@]}"
