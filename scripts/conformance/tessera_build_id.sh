# Sourced by the conformance scripts: sets `tessera` to what the summary names as the Tessera under
# test: the commit of the tree TESSERA_BUILD's directory belongs to (TESSERA_COMMIT overrides it)
# and the library's time, since a build directory can be rebuilt, or its tree move on, between
# two runs. Needs `build` (the build directory).
tessera=$(git -C "$build" rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -z "${TESSERA_COMMIT:-}" ] || tessera=$TESSERA_COMMIT
libtime=$(date -u -r "$build/lib/libze_tessera.so.1" '+%Y-%m-%d %H:%M UTC' 2>/dev/null || echo unknown)
tessera="$tessera ($libtime)"
