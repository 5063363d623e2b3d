#!/usr/bin/env bash
# Every environment variable Tessera's code reads is declared in config/settings.def: the names in
# getenv("TESSERA_...") / getenv("ZE_...") calls of the source tree, against what
# tessera-config-doc --names lists. Usage: scripts/check_config_declared.sh <tessera-config-doc>
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tool=$1
declared=$("$tool" --names | sort -u)
# (No match is fine: every reader may go through config::var.)
read=$({ grep -rhoE 'getenv\("(TESSERA|ZE)_[A-Z0-9_]+"' \
           "$root"/{config,support,trace,spirv,backends,compiler,core,level_zero,cl_shim,tools} ||
         true; } | sed -E 's/getenv\("//; s/"$//' | sort -u)
missing=$(comm -23 <(echo "$read") <(echo "$declared"))
if [ -n "$missing" ]; then
  echo "read but not declared in config/settings.def:" >&2
  echo "$missing" >&2
  exit 1
fi
echo "every variable read is declared ($(echo "$read" | grep -c . || true) read by getenv, $(echo "$declared" | wc -l) declared)"
