#!/bin/sh
# What scripts/run.sh builds (CMake's tessera_run target, issue 28 item 9): the two libraries, the
# compiler process, tessera-info and the samples, and no test or bench. Reads the build graph only
# (ninja -t commands): nothing is built. Usage: check_run_target.sh <build-dir>. Skips (77) when the
# build is not Ninja's.
set -eu
build=$1
[ -f "$build/build.ninja" ] || { echo "not a Ninja build: skipped"; exit 77; }
commands=$(ninja -C "$build" -t commands tessera_run)
fail=0
for needed in libze_tessera.so libtessera_opencl.so tessera-clc bin/tessera-info bin/ze_vector_add \
              bin/ze_subdevices bin/cl_fission; do
  if ! printf '%s\n' "$commands" | grep -q -- "-o [^ ]*$needed"; then
    echo "tessera_run does not build $needed"; fail=1
  fi
done
unwanted=$(printf '%s\n' "$commands" | grep -E -o -- "-o (tests|bench)/[^ ]*" | head -3)
if [ -n "$unwanted" ]; then
  echo "tessera_run builds tests or benches: $unwanted"; fail=1
fi
total=$(ninja -C "$build" -t commands all | wc -l)
echo "tessera_run: $(printf '%s\n' "$commands" | wc -l) of $total build commands"
[ $fail -eq 0 ] && echo "run target ok"
