#!/usr/bin/env bash
# darktable 4.2 (Debian's package) on Tessera, on PoCL and on its CPU path (issue 27, item 7):
#   1. darktable-cltest on each OpenCL implementation: does darktable accept the device (it builds
#      every stock program, and gives OpenCL up at the first that fails)?
#   2. every program of /usr/share/darktable/kernels/programs.conf built one at a time with
#      darktable's options (the list of failures, which darktable-cltest does not give);
#   3. processing runs: darktable-cli on a generated float image and a generated Bayer raw (DNG)
#      with a history that enables
#      exposure, filmic rgb, color balance rgb, local contrast, sharpen, denoise (profiled), haze
#      removal and contrast equalizer, with OpenCL on Tessera and on PoCL, compared to the CPU path
#      (max/mean absolute difference, NaN count);
#   4. with --each, the same run with one module at a time (the bisection over modules).
# Results go to $DT_CHECK_OUT (default /tmp/darktable_check); the summary to stdout. Not a ctest:
# it needs darktable (apt-get install darktable), Debian's python3 with numpy and pyopencl, sqlite3,
# and takes minutes (darktable builds every program before it processes).
#
# Usage: scripts/apps/darktable_check.sh [--each] [--skip-cltest] [--skip-kernels] [tessera-build-dir]
#
# Notes on the setup (not Tessera's doing):
# - darktable discards CPU devices unless opencl_use_cpu_devices=TRUE, and marks a new CPU device
#   disabled in its cldevice_v4_* entry: the script runs darktable-cltest once to create the entry,
#   then enables the device.
# - darktable passes its kernel folder as -I"/usr/share/darktable/kernels" (quoted). PoCL 3.1 drops a
#   quoted -I, and finds common.h only because darktable runs in the kernel folder (clang's "./"),
#   which is why every darktable command here runs with that folder as its working directory.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
each=0 cltest=1 kernels=1
while [ $# -gt 0 ]; do
  case "$1" in
    --each) each=1 ;;
    --skip-cltest) cltest=0 ;;
    --skip-kernels) kernels=0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done
build=$(cd "${1:-$root/build}" && pwd)
out=${DT_CHECK_OUT:-/tmp/darktable_check}
tools="$root/scripts/apps/darktable_tools.py"
py=/usr/bin/python3
kdir=/usr/share/darktable/kernels

for tool in darktable-cli darktable-cltest sqlite3 $py; do
  command -v "$tool" >/dev/null || { echo "skipped: $tool is not installed"; exit 0; }
done
$py -c "import numpy, pyopencl" 2>/dev/null || { echo "skipped: python3-numpy/pyopencl missing"; exit 0; }
[ -d "$kdir" ] || { echo "skipped: $kdir missing"; exit 0; }
mkdir -p "$out"

# Runs "$@" with the OpenCL implementation $1 (tessera, pocl or cpu) in the kernel folder, with the
# implementation's own kernel cache in $out (emptied at the start, so that every program is
# compiled by the build under test).
with_impl() {
  local impl=$1; shift
  case "$impl" in
    tessera)
      (cd "$kdir" && LD_LIBRARY_PATH="$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1 OCL_ICD_VENDORS="$build/icd" \
        TESSERA_CACHE_DIR="$out/impl-cache-tessera" "$@") ;;
    pocl) (cd "$kdir" && OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd \
        POCL_CACHE_DIR="$out/impl-cache-pocl" "$@") ;;
    cpu) (cd "$kdir" && "$@") ;;
  esac
}

rm -rf "$out"/impl-cache-* "$out"/dt-cache-*
impls=(tessera)
[ -f /etc/OpenCL/vendors/pocl.icd ] && impls+=(pocl)

# A darktable configuration folder per implementation, with its CPU device enabled.
configure() {
  local impl=$1 cfg="$out/config-$1"
  mkdir -p "$cfg"
  grep -q '^opencl_use_cpu_devices=TRUE' "$cfg/darktablerc" 2>/dev/null ||
    echo "opencl_use_cpu_devices=TRUE" >> "$cfg/darktablerc"
  if ! grep -q '^cldevice_v4_' "$cfg/darktablerc"; then
    with_impl "$impl" timeout 600 darktable-cltest --configdir "$cfg" --cachedir "$out/dt-cache-setup" \
      > "$out/cltest-$impl-setup.log" 2>&1
  fi
  # The 8th field of the device entry is "disabled".
  sed -i -E 's/^(cldevice_v4_[a-z0-9]+=([^ ]+ ){7})1 /\10 /' "$cfg/darktablerc"
}

echo "== darktable $(darktable-cli --version 2>/dev/null | grep -o '[0-9][0-9.]*' | head -1), Tessera build $build"
for impl in "${impls[@]}"; do configure "$impl"; done

if [ $cltest = 1 ]; then
  echo "== darktable-cltest"
  for impl in "${impls[@]}"; do
    log="$out/cltest-$impl.log"
    start=$(date +%s)
    with_impl "$impl" timeout 3600 darktable-cltest --configdir "$out/config-$impl" \
      --cachedir "$out/dt-cache-$impl" -d opencl -d verbose > "$log" 2>&1
    built=$(grep -c 'successfully built program' "$log")
    failed=$(grep -o "failed to compile program \`[^']*'" "$log" | sed 's/.*`//' | tr '\n' ' ')
    verdict=$(grep -o 'opencl is [A-Z ]*AVAILABLE' "$log" | tail -1)
    echo "$impl: $built programs built, failed: ${failed:-none}; $verdict ($(( $(date +%s) - start )) s)"
  done
fi

if [ $kernels = 1 ]; then
  echo "== every program of programs.conf, one at a time (darktable's options)"
  for impl in "${impls[@]}"; do
    log="$out/kernels-$impl.log"
    with_impl "$impl" $py "$tools" kernels "$kdir" "-w -cl-fast-relaxed-math -DINTEL=1 -I\"$kdir\"" > "$log" 2>&1
    echo "$impl: $(grep -c '^OK' "$log") built, $(grep -c '^FAIL' "$log") failed"
    grep '^FAIL' "$log" | sed 's/^/  /'
  done
fi

echo "== processing runs (darktable-cli): a generated 640x480 float image (test.pfm), a generated"
echo "   1600x1200 Bayer raw with clipped highlights (test.dng: raw black/white point, white balance,"
echo "   highlight reconstruction and demosaic run too)"
$py "$tools" image "$out/test.pfm"
$py "$tools" dng "$out/test.dng"
db="$out/config-cpu/data.db"
mkdir -p "$out/config-cpu"
# darktable creates data.db (with its built-in presets) on its first start.
[ -f "$db" ] || with_impl cpu timeout 600 darktable-cli "$out/test.pfm" "$out/warmup.pfm" --core \
  --configdir "$out/config-cpu" --conf opencl=FALSE > "$out/warmup.log" 2>&1

# run NAME INPUT MODULE...: INPUT with the history of MODULE... processed on the CPU and with each
# implementation.
run() {
  local name=$1 input=$2; shift 2
  local xmp="$out/$name.xmp"
  $py "$tools" xmp "$db" "$xmp" "$@"
  rm -f "$out/$name-"*.pfm
  with_impl cpu timeout 900 darktable-cli "$input" "$xmp" "$out/$name-cpu.pfm" --core \
    --configdir "$out/config-cpu" --conf opencl=FALSE > "$out/$name-cpu.log" 2>&1
  for impl in "${impls[@]}"; do
    local log="$out/$name-$impl.log" start
    start=$(date +%s)
    with_impl "$impl" timeout 3600 darktable-cli "$input" "$xmp" "$out/$name-$impl.pfm" \
      --core --configdir "$out/config-$impl" --cachedir "$out/dt-cache-$impl" --conf opencl=TRUE \
      -d opencl -d perf > "$log" 2>&1
    # Where darktable processed each module (-d perf: "processed `filmic rgb' on GPU").
    local cl
    if grep -q 'opencl is AVAILABLE' "$log"; then
      local oncpu
      oncpu=$(grep -o "processed \`[^']*' on CPU" "$log" | sed "s/processed \`//; s/' on CPU//" | sort -u | tr '\n' ',')
      cl="$(grep -c "' on GPU" "$log") modules on the device${oncpu:+, on the CPU: ${oncpu%,}}"
    else
      cl="OpenCL NOT available: all on the CPU"
    fi
    if [ -f "$out/$name-$impl.pfm" ]; then
      echo "$name $impl vs cpu: $($py "$tools" compare "$out/$name-cpu.pfm" "$out/$name-$impl.pfm"); $cl; $(( $(date +%s) - start )) s"
    else
      echo "$name $impl: no output ($(tail -1 "$log"))"
    fi
  done
  if [ -f "$out/$name-tessera.pfm" ] && [ -f "$out/$name-pocl.pfm" ]; then
    echo "$name tessera vs pocl: $($py "$tools" compare "$out/$name-pocl.pfm" "$out/$name-tessera.pfm")"
  fi
}

modules="exposure filmicrgb colorbalancergb bilat sharpen denoiseprofile hazeremoval atrous"
run float-all "$out/test.pfm" $modules
run raw-all "$out/test.dng" $modules
if [ $each = 1 ]; then
  for m in $modules; do run "raw-only-$m" "$out/test.dng" "$m"; done
fi
