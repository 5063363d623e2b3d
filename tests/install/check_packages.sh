#!/bin/sh
# Builds the Debian packages (cpack, cmake/packaging.cmake) and uses only what they install:
#   check_packages.sh BUILD_DIR WORK_DIR
# 1. cpack writes the five packages; each has the files it should, and every package its Depends
#    name is installed here (or is one of these packages): they would install on this machine;
# 2. dpkg -x unpacks them all into WORK/root (no maintainer scripts run: nothing is registered);
# 3. the Level Zero loader, with no ZE_ENABLE_ALT_DRIVERS, loads Tessera by the name it searches
#    (tessera-ze-loader-link's libze_intel_gpu.so.1, found through LD_LIBRARY_PATH=root's libdir
#    since ld.so's cache does not know the scratch root): the unpacked tessera-info and the
#    ze_vector_add sample run;
# 4. the unpacked .icd, its path moved into the root, makes clinfo list Tessera, the cl_fission
#    sample runs, and a build from source (pyopencl, when present) starts the unpacked tessera-clc.
# Exits 77 (skipped) where there is no dpkg-deb (not a Debian system).
set -eu
build=$1 work=$2
command -v dpkg-deb >/dev/null || { echo "no dpkg-deb: skipped"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
root=$work/root

(cd "$build" && rm -rf packages && cpack >"$work/cpack.log" 2>&1) ||
  { cat "$work/cpack.log"; exit 1; }
debs=$(ls "$build"/packages/*.deb)
ours=""
for deb in $debs; do ours="$ours $(dpkg-deb -f "$deb" Package)"; done
echo "packages:$ours"
for p in libze-tessera1 tessera-opencl-icd tessera-tools libze-tessera-dev tessera-ze-loader-link; do
  case " $ours " in *" $p "*) ;; *) echo "missing package: $p"; exit 1 ;; esac
done

# Each dependency (one alternative of each) is installed here or is one of ours.
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for deb in $debs; do
  dpkg-deb -f "$deb" Depends | tr ',' '\n' | while read -r alternatives; do
    [ -n "$alternatives" ] || continue
    ok=no
    for alt in $(echo "$alternatives" | sed 's/([^)]*)//g' | tr '|' ' '); do
      case " $ours " in *" $alt "*) ok=yes ;; esac
      if installed "$alt"; then ok=yes; fi
    done
    [ $ok = yes ] || { echo "$(dpkg-deb -f "$deb" Package): no package installed for '$alternatives'"; exit 1; }
  done
done
dpkg-deb -f "$build"/packages/libze-tessera1_*.deb Depends | grep -q "libllvm15"
dpkg-deb -f "$build"/packages/libze-tessera1_*.deb Depends | grep -q "libhwloc15"
dpkg-deb -f "$build"/packages/libze-tessera1_*.deb Depends | grep -q "libclang-cpp15"
dpkg-deb -f "$build"/packages/tessera-opencl-icd_*.deb Depends | grep -q "ocl-icd-libopencl1"
dpkg-deb -f "$build"/packages/tessera-tools_*.deb Depends | grep -q "libze1"

for deb in $debs; do dpkg -x "$deb" "$root"; done
icd=$root/etc/OpenCL/vendors/tessera.icd
lib=$(cat "$icd")           # e.g. /usr/lib/libtessera_opencl.so.1
libdir=$root$(dirname "$lib")
for f in "$root$lib" "$libdir/libze_tessera.so.1" "$libdir/tessera/tessera-clc" \
         "$libdir/libze_intel_gpu.so.1" "$root/usr/bin/tessera-info" \
         "$root/usr/include/tessera/ze_tessera.h" "$libdir/pkgconfig/tessera-ze.pc"; do
  [ -e "$f" ] || { echo "missing after dpkg -x: $f"; exit 1; }
done
[ "$(readlink "$libdir/libze_intel_gpu.so.1")" = libze_tessera.so.1 ]

# Level Zero: no ZE_ENABLE_ALT_DRIVERS; the loader opens libze_intel_gpu.so.1, which is Tessera.
unset ZE_ENABLE_ALT_DRIVERS OCL_ICD_VENDORS TESSERA_CLC
LD_LIBRARY_PATH=$libdir "$root/usr/bin/tessera-info" | tee "$work/info.txt" | head -n 5
grep -q "Device 0:" "$work/info.txt"
LD_LIBRARY_PATH=$libdir ldd "$root/usr/bin/tessera-info" | grep -q "libze_loader.so.1 => /"
LD_LIBRARY_PATH=$libdir "$build/bin/ze_vector_add" 4096 | tee "$work/ze_vector_add.txt"
grep -q "correct" "$work/ze_vector_add.txt"

# OpenCL: the packaged .icd, naming the library inside the scratch root.
mkdir -p "$work/icd"
echo "$root$lib" > "$work/icd/tessera.icd"
export OCL_ICD_VENDORS="$work/icd"
if command -v clinfo >/dev/null; then
  clinfo -l | tee "$work/clinfo.txt"
  grep -q "Tessera" "$work/clinfo.txt"
fi
TESSERA_CACHE=0 "$build/bin/cl_fission" | tee "$work/cl_fission.txt"
grep -q "each part ran on its own PUs" "$work/cl_fission.txt"
if /usr/bin/python3 -c "import pyopencl" 2>/dev/null; then
  PYOPENCL_NO_CACHE=1 TESSERA_CACHE=0 /usr/bin/python3 - "$libdir/tessera/tessera-clc" <<'PY'
import os, sys
import pyopencl as cl
platform = next(p for p in cl.get_platforms() if "Tessera" in p.name)
ctx = cl.Context(platform.get_devices())
cl.Program(ctx, "__kernel void k(__global int* o) { o[0] = 1; }").build()
# The compiler process stays for the next build, as a child of the thread that built.
children = open(f"/proc/self/task/{os.getpid()}/children").read().split()
exes = [os.readlink(f"/proc/{c}/exe") for c in children]
print("compiler processes:", exes)
assert os.path.realpath(sys.argv[1]) in [os.path.realpath(e) for e in exes], exes
PY
fi
echo "packages ok: $root"
