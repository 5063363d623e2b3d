#!/usr/bin/env bash
# Builds and runs scripts/apps/ze_current_loader_probe.cpp against a current Level Zero SDK (headers
# and libze_loader), with Tessera from a build directory as the loader's driver. Outside ctest: CI
# has no current loader (Debian's is 1.8.12).
# Usage: scripts/apps/ze_current_loader_probe.sh <sdk-dir> [build-dir]
#   <sdk-dir> holds <sdk-dir>/include/level_zero/ze_api.h and lib/x64/libze_loader.so (intel/compute-benchmarks
#   ships one as third_party/level-zero-sdk; docs/conformance.md names the loader version used).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
sdk=${1:?usage: $0 <sdk-dir> [build-dir]}
build=${2:-"$root/build"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
lib="$sdk/lib/x64"
[ -d "$lib" ] || lib="$sdk/lib"
g++ -std=c++17 -O1 -I"$sdk/include" "$root/scripts/apps/ze_current_loader_probe.cpp" \
  -L"$lib" -lze_loader -Wl,-rpath,"$lib" -o "$tmp/probe"
LD_LIBRARY_PATH="$build/lib:$lib" ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1 "$tmp/probe"
