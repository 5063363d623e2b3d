#!/usr/bin/env bash
# Writes docs/api-coverage.md from the two negative-case generators (the same ones the tests build).
# Usage: scripts/api_coverage.sh [build-dir] [--check]   (the build dir must hold libze_tessera)
# --check writes nothing and fails when docs/api-coverage.md is not what the generators say.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-"$root/build"}
check=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$root/tests/api/ze/negative/generate.py" /usr/include/level_zero/ze_api.h \
  "$build/lib/libze_tessera.so.1" "$tmp/ze.cpp" "$tmp/ze.md" >/dev/null
python3 "$root/scripts/api_coverage_current.py" "$root/docs/api-coverage.ze-current.tsv" \
  "$build/lib/libze_tessera.so.1" "$tmp/ze-current.md" "$root/level_zero/ze_driver_api.cpp"
python3 "$root/tests/api/cl/negative/generate.py" "$root/cl_shim/api.h" "$tmp/cl.cpp" \
  --coverage "$tmp/cl.md" /usr/include/CL/cl.h /usr/include/CL/cl_ext.h /usr/include/CL/cl_gl.h \
  /usr/include/CL/cl_egl.h >/dev/null
{
  cat "$root/docs/api-coverage.head.md"
  echo
  echo "## Level Zero (ze_api.h)"
  echo
  cat "$tmp/ze.md"
  echo
  echo "## Level Zero after 1.4 (the public ze_api.h, 1.17)"
  echo
  cat "$tmp/ze-current.md"
  echo
  echo "## OpenCL (the ICD dispatch table)"
  echo
  cat "$tmp/cl.md"
} > "$tmp/api-coverage.md"
if [ "$check" = "--check" ]; then
  diff -u "$root/docs/api-coverage.md" "$tmp/api-coverage.md" ||
    { echo "docs/api-coverage.md is stale: run scripts/api_coverage.sh"; exit 1; }
  echo "docs/api-coverage.md is current"
else
  cp "$tmp/api-coverage.md" "$root/docs/api-coverage.md"
  echo "wrote docs/api-coverage.md"
fi
