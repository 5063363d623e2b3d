#!/bin/sh
# Installs the build tree into a temporary prefix and uses the installed tree only:
#   check_install.sh BUILD_DIR SOURCE_DIR WORK_DIR
# 1. cmake --install --prefix WORK/prefix; every expected file is there;
# 2. a program built with `pkg-config tessera-ze` against the prefix runs, linked with the installed
#    libze_tessera;
# 3. the installed tessera-info runs through the official loader (ZE_ENABLE_ALT_DRIVERS);
# 4. clinfo (when present) sees the installed OpenCL ICD through an .icd file naming it;
# 5. a program built from OpenCL C source through that ICD (pyopencl, when present) is compiled by
#    the installed compiler process (lib/tessera/tessera-clc), not the build tree's;
# 6. with DESTDIR, an install to /usr/local lands under DESTDIR (the /etc path of the .icd too, when
#    the build was configured with -DTESSERA_INSTALL_ICD=ON).
set -eu
build=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
libdir=$(cd "$prefix" && ls -d lib*/ | head -n1)
libdir=$prefix/${libdir%/}
for f in "$libdir/libze_tessera.so.1" "$libdir/libtessera_opencl.so.1" \
         "$prefix/include/tessera/ze_tessera.h" "$prefix/include/CL/cl_ext_qcom.h" \
         "$libdir/pkgconfig/tessera-ze.pc" "$libdir/pkgconfig/tessera-opencl.pc" \
         "$prefix/bin/tessera-info" "$libdir/tessera/tessera-clc"; do
  [ -e "$f" ] || { echo "missing: $f"; exit 1; }
done
# A multiarch layout (lib/x86_64-linux-gnu) puts the .pc files one level deeper.
pcdir=$(dirname "$(find "$prefix" -name tessera-ze.pc | head -n1)")
export PKG_CONFIG_PATH="$pcdir"
c++ -std=c++17 -o "$work/probe" "$src/tests/install/probe.cpp" $(pkg-config --cflags --libs tessera-ze)
LD_LIBRARY_PATH=$libdir "$work/probe"
# The probe must have used the installed library, not the build tree's.
LD_LIBRARY_PATH=$libdir ldd "$work/probe" | grep -q "$libdir/libze_tessera.so.1"

LD_LIBRARY_PATH=$libdir ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1 "$prefix/bin/tessera-info" | grep "Device 0:"

mkdir -p "$work/icd"
pkg-config --variable=icd tessera-opencl > "$work/icd/tessera.icd"
if command -v clinfo >/dev/null; then
  OCL_ICD_VENDORS=$work/icd clinfo -l | tee "$work/clinfo.txt"
  grep -q "Tessera" "$work/clinfo.txt"
fi
if /usr/bin/python3 -c "import pyopencl" 2>/dev/null; then
  # TESSERA_CACHE=0: ctest's TESSERA_CACHE_DIR keeps the front end's result of this source from the
  # last run, and a cache hit starts no compiler process (as check_packages.sh does).
  PYOPENCL_NO_CACHE=1 TESSERA_CACHE=0 OCL_ICD_VENDORS=$work/icd /usr/bin/python3 - "$libdir/tessera/tessera-clc" <<'PY'
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

DESTDIR=$work/dest cmake --install "$build" --prefix /usr/local >"$work/install-destdir.log"
[ -n "$(find "$work/dest/usr/local" -name libze_tessera.so.1)" ]
if grep -q "TESSERA_INSTALL_ICD:BOOL=ON" "$build/CMakeCache.txt"; then
  [ -f "$work/dest/etc/OpenCL/vendors/tessera.icd" ]
fi
echo "install ok: $prefix"
