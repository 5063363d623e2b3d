#!/usr/bin/env bash
# Runs a chosen set of the Khronos OpenCL conformance suite's (OpenCL-CTS) binaries, from a build
# of the suite made outside this repository, against Tessera and PoCL, one sub-test status each,
# into a markdown table (docs/conformance.md, "OpenCL-CTS", quotes the last run). The project
# carries no recipe for building the suite (its sources are fetched, not ours to build from here);
# without a build this script says so and exits 0. Not run by ctest.
#
# Usage: scripts/conformance/opencl_cts.sh [options]
#   --cts-src DIR        the suite's sources, only for its version (env CTS_SRC; default
#                        <repo>/../cts-src; DIR/.cts-version or git describe)
#   --cts-build DIR      a build of the CTS (test_conformance/<area>/test_<area>, spirv_bin/ with
#                        spirv_new's assembled binaries); the results go there too (env CTS_BUILD;
#                        default <repo>/build-cts)
#   --tessera-build DIR  Tessera's Release build (env TESSERA_BUILD; default <repo>/build); the
#                        libraries and the ICD are built there first when absent
#   --platforms "A B"    tessera and/or pocl (env CTS_PLATFORMS; default both)
#   --only NAME          run only this binary (repeatable, or comma-separated), e.g. test_basic;
#                        the other binaries' last results stay in the table
#   --budget S           time cap per binary and platform, seconds (env CTS_BUDGET; default 900)
#   --idle S             no output for S seconds is a hang (env CTS_IDLE; default 300)
#   --results FILE       the markdown table (default <cts-build>/results.md)
#   --no-build           do not build Tessera's libraries when they are absent
#   --list               print the binaries and how each is run, then exit
# Env: CTS_VERSION names the CTS version in the table (default: the file <cts-src>/.cts-version, else
# git describe in <cts-src>, else "unknown"); CTS_JOBS Tessera's build parallelism (default 2).
#
# Each binary runs in the platform's own directory under <cts-build>/results/<platform>/, with
# CL_DEVICE_TYPE=cpu (both platforms expose one CPU device; the harness accepts "cpu" or
# "CL_DEVICE_TYPE_CPU", any other spelling aborts) and only that platform's ICD visible
# (OCL_ICD_VENDORS). opencl_cts_run.py (beside this script) runs it under a watchdog: a crash or a
# hang is recorded against the sub-test in progress and the binary restarts on the sub-tests after
# it. Logs: <cts-build>/results/<platform>/<binary>.log; statuses: <binary>.json.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

cts_src=${CTS_SRC:-"$root/../cts-src"}
cts_build=${CTS_BUILD:-"$root/build-cts"}
tessera_build=${TESSERA_BUILD:-"$root/build"}
platforms=${CTS_PLATFORMS:-"tessera pocl"}
budget=${CTS_BUDGET:-900}
idle=${CTS_IDLE:-300}
jobs=${CTS_JOBS:-2}
results=""
only=()
build=1
list=0
while [ $# -gt 0 ]; do
  case $1 in
    --cts-src) cts_src=$2; shift 2 ;;
    --cts-build) cts_build=$2; shift 2 ;;
    --tessera-build) tessera_build=$2; shift 2 ;;
    --platforms) platforms=$2; shift 2 ;;
    --only) IFS=, read -r -a more <<< "$2"; only+=("${more[@]}"); shift 2 ;;
    --budget) budget=$2; shift 2 ;;
    --idle) idle=$2; shift 2 ;;
    --results) results=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    --list) list=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "opencl_cts.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
results=${results:-"$cts_build/results.md"}

# The binaries, in the order they run: name | path under test_conformance | fixed arguments |
# sub-test selection (the harness's wildcards; empty = all). Quick modes where the suite has them:
# math (-w: wimpy, every 32nd input), conversions (-w -[1024]: wimpy, every 1024th input; its default
# factor 128 takes about 30 minutes on 2 busy cores), thread_dimensions (quick*, the
# full* variants take hours on a CPU), as in the suite's opencl_conformance_tests_quick.csv;
# integer_ops without its 32 full-size operator tests ({char..ulong}_{math,logic,shift,compare}:
# more than 15 minutes on 2 cores), whose quick_* twins test the same operators on fewer inputs.
spirv_bin="$cts_build/spirv_bin"
binaries=(
  "test_api|api/test_api||"
  "test_basic|basic/test_basic||"
  "test_atomics|atomics/test_atomics||"
  "test_compiler|compiler/test_compiler|--spirv-binaries-path $cts_build/test_conformance/compiler/spirv_bin|"
  "test_geometrics|geometrics/test_geometrics||"
  "test_relationals|relationals/test_relationals||"
  "test_integer_ops|integer_ops/test_integer_ops||integer_* unary_ops_* extended_bit_ops_* popcount quick_* vector_scalar"
  "test_vectors|vectors/test_vectors||"
  "test_printf|printf/test_printf||"
  "test_events|events/test_events||"
  "test_buffers|buffers/test_buffers||"
  "test_profiling|profiling/test_profiling||"
  "test_device_partition|device_partition/test_device_partition||"
  "test_thread_dimensions|thread_dimensions/test_thread_dimensions||quick*"
  "test_commonfns|commonfns/test_commonfns||"
  "test_bruteforce|math_brute_force/test_bruteforce|-w|"
  "test_conversions|conversions/test_conversions|-w -[1024]|"
  "test_spirv_new|spirv_new/test_spirv_new|--spirv-binaries-path $spirv_bin|"
  "test_subgroups|subgroups/test_subgroups||"
  "test_half|half/test_half||"
)

if [ $list = 1 ]; then
  printf '%s\n' "${binaries[@]}" | column -t -s'|'
  exit 0
fi
if [ ! -d "$cts_build/test_conformance" ]; then
  echo "opencl_cts.sh: no OpenCL-CTS build in $cts_build (set --cts-build or CTS_BUILD); nothing to do."
  exit 0
fi

# Packages: the ICD loader the binaries use, PoCL.
packages=(python3 ocl-icd-libopencl1)
case " $platforms " in *" pocl "*) packages+=(pocl-opencl-icd) ;; esac
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "opencl_cts.sh: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

selected=()
for entry in "${binaries[@]}"; do
  name=${entry%%|*}
  if [ ${#only[@]} -gt 0 ]; then
    keep=0
    for o in "${only[@]}"; do [ "$o" = "$name" ] && keep=1; done
    [ $keep = 1 ] || continue
  fi
  selected+=("$entry")
done
if [ ${#selected[@]} -eq 0 ]; then
  echo "opencl_cts.sh: --only ${only[*]} names no binary (see --list)" >&2
  exit 2
fi

if [ $build = 1 ]; then
  case " $platforms " in
    *" tessera "*)
      if [ ! -f "$tessera_build/icd/tessera.icd" ] || [ ! -e "$tessera_build/lib/libze_tessera.so.1" ]
      then
        TESSERA_TARGETS="ze_tessera tessera_opencl tessera-clc" \
          TESSERA_JOBS=$jobs "$root/scripts/build.sh" "$tessera_build" Release
      fi ;;
  esac
fi

# The CTS version the table names.
version=${CTS_VERSION:-}
if [ -z "$version" ] && [ -f "$cts_src/.cts-version" ]; then version=$(cat "$cts_src/.cts-version"); fi
if [ -z "$version" ]; then
  version=$(git -C "$cts_src" describe --tags --always 2>/dev/null || echo unknown)
fi

platform_env() { # prints the env assignments that make platform $1 the only one visible
  case $1 in
    tessera)
      echo "OCL_ICD_VENDORS=$tessera_build/icd LD_LIBRARY_PATH=$tessera_build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1" ;;
    pocl) echo "OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd" ;;
    *) echo "opencl_cts.sh: unknown platform $1 (tessera, pocl)" >&2; exit 2 ;;
  esac
}

for platform in $platforms; do
  out="$cts_build/results/$platform"
  mkdir -p "$out"
  penv=$(platform_env "$platform")
  # shellcheck disable=SC2086  # penv is a list of VAR=value words
  env $penv clinfo --raw 2>/dev/null |
    grep -E "CL_PLATFORM_VERSION|CL_DEVICE_NAME" | head -2 > "$out/platform.txt" || true
  for entry in "${selected[@]}"; do
    IFS='|' read -r name path fixed sel <<< "$entry"
    binary="$cts_build/test_conformance/$path"
    if [ ! -x "$binary" ]; then
      echo "opencl_cts.sh: $binary is not built (run without --no-build)" >&2
      exit 1
    fi
    args=()
    read -r -a words <<< "$fixed"  # read: no pathname expansion of "-[1024]"
    for a in "${words[@]}"; do args+=(--arg="$a"); done
    read -r -a words <<< "$sel"
    for s in "${words[@]}"; do args+=(--select="$s"); done
    echo "=== $platform: $name"
    # shellcheck disable=SC2086
    (cd "$out" && env $penv CL_DEVICE_TYPE=cpu python3 "$here/opencl_cts_run.py" run --name "$name" \
      --binary "$binary" --out "$out" --budget "$budget" --idle "$idle" "${args[@]}")
  done
done

python3 "$here/opencl_cts_report.py" --results "$cts_build/results" --out "$results" \
  --cts-version "$version" --binaries "$(printf '%s\n' "${binaries[@]}")"
echo "opencl_cts.sh: results in $results"
