#!/usr/bin/env bash
# No two folders of the tree include each other, directly or through others (issue 31 item 3):
# the folders' include edges (every #include "<folder>/<file>" naming a tracked file, from the
# headers and sources of every folder but third_party/) must sort topologically. core/'s folders,
# spirv/ and spirv/clc, backends/cpu and backends/cpu/jit are folders like the others. Prints the
# loop and fails otherwise.
# Also (issue 31 item 2): core/ and compiler/ reach the kinds of device only through their
# interface, the headers directly in backends/ (device_kind.h: launches, executors, traits;
# code_generator.h: code generation); any #include of a kind's folder (backends/<kind>/...) from
# core/ or compiler/ fails, with the lines named.
# Usage: scripts/check_include_cycles.sh [root]
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
edges=$(git ls-files | grep -E '\.(h|cpp)$' | grep -v '^third_party/' |
  xargs grep -H -oE '^#include "[^"]+"' | sed -E 's|:#include "| |; s|"$||' |
  awk 'NR == FNR { tracked[$0] = 1; next }
       ($2 in tracked) { a = $1; sub(/\/[^\/]*$/, "", a); b = $2; sub(/\/[^\/]*$/, "", b);
                         if (a != b) print a " " b }' <(git ls-files) - | sort -u)
if ! out=$(echo "$edges" | tsort 2>&1 >/dev/null) || [ -n "$out" ]; then
  echo "folders include each other (tsort: a loop):" >&2
  echo "$out" >&2
  exit 1
fi
interface=$(git ls-files 'backends/*.h' | grep -E '^backends/[^/]+\.h$' | paste -sd ' ')
leaks=$(git ls-files core compiler | grep -E '\.(h|cpp)$' | xargs grep -nE '^#include "backends/' |
  grep -E '#include "backends/[^"/]+/' || true)
if [ -n "$leaks" ]; then
  echo "core/ or compiler/ includes backends/ other than through its interface ($interface):" >&2
  echo "$leaks" >&2
  exit 1
fi
echo "$(echo "$edges" | grep -c .) include edges between $(echo "$edges" | tr ' ' '\n' | sort -u | grep -c .) folders, no cycle; core/ and compiler/ include backends/ only through $interface"
