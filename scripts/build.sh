#!/usr/bin/env bash
# Configures and builds Tessera. Usage: scripts/build.sh [build-dir] [build-type]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-"$root/build"}
type=${2:-Release}
jobs=${TESSERA_JOBS:-$(nproc)}

launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache); fi
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE="$type" "${launcher[@]}"
fi
cmake --build "$build" -j "$jobs"
