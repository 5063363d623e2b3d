#!/usr/bin/env bash
# Files of pyopencl's own test suite, at the tag matching Debian's python3-pyopencl, over the OpenCL
# platform the environment selects (the only one the ICD loader sees).
# Usage: pyopencl_suite.sh PYTHON SRC WORKDIR [pytest arguments: files, -k ...]
# SRC is a git directory holding the tag v<version> (or a folder with test/). Exits 77 (skipped)
# when the sources of that version are absent. pyopencl's binary cache is off (PYOPENCL_NO_CACHE),
# so each run builds from source with the driver under test.
set -euo pipefail
python=$1 src=$2 work=$3
shift 3
"$python" -c 'import pytest' 2>/dev/null || { echo "no pytest (python3-pytest): skipped"; exit 77; }
version=$("$python" -c 'import pyopencl; print(pyopencl.VERSION_TEXT)') || exit 77
tests=$work/pyopencl-$version
if [ ! -d "$tests/test" ]; then
  mkdir -p "$tests"
  if [ -d "$src/test" ]; then
    cp -r "$src/test" "$tests/"
  elif git --git-dir="$src" rev-parse -q --verify "v$version^{commit}" >/dev/null 2>&1; then
    git --git-dir="$src" archive "v$version" test | tar -x -C "$tests"
  else
    echo "pyopencl $version's test sources are not in $src: skipped"
    rm -rf "$tests"
    exit 77
  fi
fi
timeout=()
"$python" -c 'import pytest_timeout' 2>/dev/null && timeout=(--timeout=300)
cd "$tests/test"
PYOPENCL_NO_CACHE=1 PYOPENCL_TEST=0 exec "$python" -m pytest -q -p no:cacheprovider "${timeout[@]}" \
  -rfE "$@"
