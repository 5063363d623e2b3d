#!/usr/bin/env bash
# No two folders of core/ include each other, directly or through others: the folders' include
# edges (every #include "core/<folder>/..." of core/<folder>/*.{h,cpp}, headers and sources alike)
# must sort topologically. Prints the loop and fails otherwise.
# Usage: scripts/check_include_cycles.sh [root]
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
edges=$(for f in "$root"/core/*/*.h "$root"/core/*/*.cpp; do
  from=$(basename "$(dirname "$f")")
  { grep -oE '^#include "core/[a-z_]+/' "$f" || true; } | sed -E 's|#include "core/||; s|/$||' |
    sort -u | while read -r to; do if [ "$to" != "$from" ]; then echo "$from $to"; fi; done
done | sort -u)
if ! out=$(echo "$edges" | tsort 2>&1 >/dev/null) || [ -n "$out" ]; then
  echo "core/ folders include each other (tsort: a loop):" >&2
  echo "$out" >&2
  exit 1
fi
echo "core/: $(echo "$edges" | grep -c .) include edges between folders, no cycle"
