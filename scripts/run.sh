#!/usr/bin/env bash
# The run command: installs what Tessera needs, builds it in Release and prints the device tree through
# the official Level Zero loader. Extra arguments go to tessera-info (e.g. --json).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$root/build" Release >&2
export LD_LIBRARY_PATH="$root/build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1
"$root/build/bin/tessera-info" "$@"
if [ $# -eq 0 ]; then
  echo
  "$root/build/bin/ze_vector_add"
  "$root/build/bin/ze_subdevices"
fi
