#!/usr/bin/env bash
# Installs every Debian package Tessera needs. Idempotent: when everything is already installed it
# only asks dpkg and returns within a second.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config   # build
  libhwloc-dev hwloc                                     # the device model
  libze-dev libze1                                       # Level Zero headers, loader, validation layer
  llvm-15-dev clang-15 libclang-15-dev                  # the kernel JIT; OpenCL C -> SPIR-V
  libclang-cpp15-dev                                     # clang as a library (OpenCL layer)
  libllvmspirvlib-15-dev llvm-spirv-15                   # the SPIR-V <-> LLVM IR translator
  spirv-tools spirv-headers                              # SPIR-V validation
  ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-headers   # the OpenCL ICD loader and headers
  clinfo clpeak python3-pyopencl python3-numpy           # real OpenCL clients the tests run
  clblast-tests python3-pytest python3-pytest-timeout    # CLBlast's tests, pyopencl's test suite
  catch2                                                 # tests
  python3                                                # test helpers
  graphviz                                               # tessera-info --svg, the DOT tests
  libopenmpi-dev openmpi-bin                             # samples/mpi_subdevices (Open MPI)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
