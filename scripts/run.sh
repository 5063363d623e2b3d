#!/usr/bin/env bash
# The run command: installs what Tessera needs, builds in Release what it runs (the libraries, the
# compiler process, tessera-info and the samples: CMake's tessera_run target; the tests are
# test.sh's) and prints the device tree through the official Level Zero loader. Extra arguments go
# to tessera-info (e.g. --json). Each step says how long it took; the build prints a progress line
# per step with its elapsed time.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

step() {  # step <what> <command...>: runs it, then prints its duration on stderr
  local what=$1 start=$SECONDS
  shift
  echo "run.sh: $what ..." >&2
  "$@"
  echo "run.sh: $what took $((SECONDS - start)) s" >&2
}

step "installing the Debian packages" "$root/scripts/setup.sh"
export NINJA_STATUS=${NINJA_STATUS:-"[%f/%t, %e s] "}
step "building Tessera (target tessera_run) in build/" \
  env TESSERA_TARGETS=tessera_run "$root/scripts/build.sh" "$root/build" Release >&2
export LD_LIBRARY_PATH="$root/build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1
"$root/build/bin/tessera-info" "$@"
if [ $# -eq 0 ]; then
  echo
  "$root/build/bin/ze_vector_add"
  "$root/build/bin/ze_subdevices"
fi
