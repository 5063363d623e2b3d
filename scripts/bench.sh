#!/usr/bin/env bash
# The benchmark suite (issue 8): builds Release and runs the Level Zero part, the OpenCL part on
# Tessera and on every other installed platform matching --platform (PoCL, when installed, side by
# side in the same process, with ratios), OpenCL against Level Zero on Tessera (api_ratio_bench)
# the kernel patterns of issue 29 (cl_pattern_bench) and the recording-replay benchmark. Prints medians with
# [p10, p90] and writes a Markdown report to <build>/bench-results/suite-<date>.md.
#
#   scripts/bench.sh [--build DIR] [--quick] [--platform NAME]...
#
# Default build dir: build/. --platform filters the OpenCL platforms by name (default: all).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build"
quick=()
platforms=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --quick) quick=(--quick); shift ;;
    --platform) platforms+=(--platform "$2"); shift 2 ;;
    *) echo "usage: $0 [--build DIR] [--quick] [--platform NAME]..." >&2; exit 2 ;;
  esac
done

if [ -f "$build/CMakeCache.txt" ] && ! grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$build/CMakeCache.txt"; then
  echo "$build is not a Release build: pass --build DIR for a Release one" >&2
  exit 2
fi
"$root/scripts/build.sh" "$build" Release >/dev/null

work=$(mktemp -d /tmp/tessera-bench-XXXXXX)
trap 'rm -rf "$work"' EXIT
# One ICD folder with Tessera and every system platform, so one process sees them all.
mkdir -p "$work/icd"
cp "$build"/icd/*.icd "$work/icd/"
for f in /etc/OpenCL/vendors/*.icd; do if [ -e "$f" ]; then cp "$f" "$work/icd/"; fi; done
# Fresh caches for this run (no entry of an earlier run answers; nothing goes to $HOME).
export TESSERA_CACHE_DIR="$work/tessera-cache" POCL_CACHE_DIR="$work/pocl-cache"

mkdir -p "$build/bench-results"
out="$build/bench-results/suite-$(date -u +%Y%m%d-%H%M%S).md"
{
  echo "# Tessera benchmark suite, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  echo "- commit: $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet || echo ' (modified)')"
  echo "- CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1); $(nproc) hardware threads;" \
       "$(lscpu | grep -o 'avx512f' | head -1) $(lscpu | grep -ow 'avx2' | head -1)"
  echo "- memory: $(free -g | awk '/Mem:/ {print $2}') GiB; kernel $(uname -r)"
  echo "- PoCL: $(dpkg-query -W -f '${Version}' pocl-opencl-icd 2>/dev/null || echo 'not installed')"
  echo "- load before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
} > "$out"

echo "== Level Zero part"
env LD_LIBRARY_PATH="$build/lib" ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1 \
  "$build/bin/ze_suite_bench" "${quick[@]}" | tee "$work/ze.txt"
echo
echo "== OpenCL part"
OCL_ICD_VENDORS="$work/icd" "$build/bin/cl_suite_bench" "${quick[@]}" "${platforms[@]}" \
  --markdown "$work/cl.md" | tee "$work/cl.txt"
echo
echo "== Kernel patterns (issue 29): every platform, Tessera's widening chosen, off and forced"
# Three rounds (medians over them) unless quick: one platform's minute is not the other's.
rounds=(--rounds 3)
[ ${#quick[@]} -eq 0 ] || rounds=()
OCL_ICD_VENDORS="$work/icd" "$build/bin/cl_pattern_bench" "${quick[@]}" "${rounds[@]}" "${platforms[@]}" \
  --markdown "$work/patterns.md" | tee "$work/patterns.txt"
echo
echo "== OpenCL against Level Zero on Tessera (same kernels and sizes)"
env OCL_ICD_VENDORS="$build/icd" LD_LIBRARY_PATH="$build/lib" ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1 \
  "$build/bin/api_ratio_bench" "${quick[@]}" | tee "$work/ratio.txt"
echo
echo "== Recording replay (cl_qcom_recordable_queues, Tessera only)"
scale=1; [ ${#quick[@]} -gt 0 ] && scale=0.01
BENCH_SCALE=$scale OCL_ICD_VENDORS="$build/icd" "$build/bin/cl_recording_bench" | tee "$work/rec.txt"

{
  echo "## OpenCL part (cl_suite_bench)"
  echo
  cat "$work/cl.md"
  echo
  echo "## Kernel patterns (cl_pattern_bench)"
  echo
  cat "$work/patterns.md"
  echo
  echo "## Level Zero part (ze_suite_bench)"
  echo
  echo '```'
  cat "$work/ze.txt"
  echo '```'
  echo
  echo "## OpenCL against Level Zero (api_ratio_bench)"
  echo
  echo '```'
  cat "$work/ratio.txt"
  echo '```'
  echo
  echo "## Recording replay (cl_recording_bench)"
  echo
  echo '```'
  cat "$work/rec.txt"
  echo '```'
} >> "$out"
echo
echo "Report: $out"
