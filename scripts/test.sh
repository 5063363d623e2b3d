#!/usr/bin/env bash
# The test command: installs what Tessera needs, builds it in Release and runs the whole test suite.
# Exits non-zero on any failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$root/build" Release
cd "$root/build"
ctest --output-on-failure -j "${TESSERA_JOBS:-$(nproc)}"
