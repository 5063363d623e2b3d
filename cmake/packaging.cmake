# Debian packages of the installed tree, one per install component (`cpack` in the build directory
# writes them there; docs/usage.md, "Debian packages"):
#   libze-tessera1           driver      libze_tessera.so.1 and the compiler process lib/tessera/tessera-clc
#                                        (zeModuleCreate translates SPIR-V in it; OpenCL C builds too)
#   tessera-opencl-icd       opencl      libtessera_opencl.so.1 and /etc/OpenCL/vendors/tessera.icd
#   tessera-tools            tools       tessera-info
#   libze-tessera-dev        dev         headers, the libraries' .so links, pkg-config files
#   tessera-ze-loader-link   loaderlink  libze_intel_gpu.so.1 -> libze_tessera.so.1: the name Debian's
#                                        Level Zero loader (libze1 1.8) opens when ZE_ENABLE_ALT_DRIVERS
#                                        is unset, so that it loads Tessera with no environment
# Files go under /usr: the libraries in /usr/${CMAKE_INSTALL_LIBDIR} (lib/<multiarch> when the build
# was configured with -DCMAKE_INSTALL_PREFIX=/usr, else lib). Dependencies on Debian's libraries come
# from dpkg-shlibdeps; those it cannot see (the clang headers OpenCL C builds read, the ICD loader,
# the Level Zero loader tessera-info needs a driver through) are named here.
set(TESSERA_DEB_PREFIX /usr)
set(TESSERA_DEB_LIBDIR ${TESSERA_DEB_PREFIX}/${CMAKE_INSTALL_LIBDIR})

# The package's .icd names the library where the package puts it (the build's own icd/tessera.icd
# names the build tree's; TESSERA_INSTALL_ICD's names the configured prefix's).
file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/packaging/tessera.icd
  CONTENT "${TESSERA_DEB_LIBDIR}/$<TARGET_SONAME_FILE_NAME:tessera_opencl>\n")
install(FILES ${CMAKE_BINARY_DIR}/packaging/tessera.icd DESTINATION /etc/OpenCL/vendors
  COMPONENT opencl EXCLUDE_FROM_ALL)
file(WRITE ${CMAKE_BINARY_DIR}/packaging/opencl/conffiles "/etc/OpenCL/vendors/tessera.icd\n")

# The loader's search name, a link beside the driver.
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/packaging/loaderlink)
file(CREATE_LINK libze_tessera.so.1 ${CMAKE_BINARY_DIR}/packaging/loaderlink/libze_intel_gpu.so.1
  SYMBOLIC)
install(FILES ${CMAKE_BINARY_DIR}/packaging/loaderlink/libze_intel_gpu.so.1
  DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT loaderlink EXCLUDE_FROM_ALL)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tessera)
set(CPACK_PACKAGE_VENDOR "Tessera")
set(CPACK_PACKAGE_CONTACT "Tessera maintainers <maintainers@tessera.invalid>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX ${TESSERA_DEB_PREFIX})
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/packages)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL driver opencl tools dev loaderlink)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)  # a shlibs file for the libraries' users
set(CPACK_STRIP_FILES ON)
# libtessera_opencl links libze_tessera.so.1, which no installed package has yet: dpkg-shlibdeps
# finds it in the driver's staging folder (named when cpack runs: `cpack -B dir` moves it), and the
# dependency is named below.
file(WRITE ${CMAKE_BINARY_DIR}/packaging/cpack_project.cmake
  "set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS \"\${CPACK_PACKAGE_DIRECTORY}/_CPack_Packages/"
  "\${CPACK_SYSTEM_NAME}/DEB/\${CPACK_PACKAGE_FILE_NAME}/driver${TESSERA_DEB_LIBDIR}\")\n")
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_BINARY_DIR}/packaging/cpack_project.cmake)
set(TESSERA_DEB_VERSION "${PROJECT_VERSION}-1")

set(CPACK_DEBIAN_DRIVER_PACKAGE_NAME libze-tessera1)
set(CPACK_DEBIAN_DRIVER_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_DRIVER_PACKAGE_SUGGESTS "libze1, tessera-ze-loader-link, tessera-tools")
set(CPACK_COMPONENT_DRIVER_DESCRIPTION "Tessera: a Level Zero driver for the host CPU
Tessera is a Level Zero driver whose device is the host machine as hwloc sees it: its
sub-devices are the packages, NUMA nodes and caches, kernels arrive as SPIR-V and run
JIT-compiled on worker threads pinned to each device's processing units.
.
This package has the driver, libze_tessera.so.1, and its compiler process. Applications
link it directly or reach it through the Level Zero loader (libze1) with
ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1, or with no variable once
tessera-ze-loader-link is installed.")

set(CPACK_DEBIAN_OPENCL_PACKAGE_NAME tessera-opencl-icd)
set(CPACK_DEBIAN_OPENCL_PACKAGE_SECTION libs)
# clang's resource headers (opencl-c-base.h) come with libclang-common-15-dev; OpenCL C builds
# from source read them (TESSERA_CLANG_RESOURCE_DIR).
set(CPACK_DEBIAN_OPENCL_PACKAGE_DEPENDS
  "libze-tessera1 (= ${TESSERA_DEB_VERSION}), ocl-icd-libopencl1 | libopencl1, libclang-common-15-dev")
set(CPACK_DEBIAN_OPENCL_PACKAGE_PROVIDES "opencl-icd")
set(CPACK_DEBIAN_OPENCL_PACKAGE_SUGGESTS "clinfo")
set(CPACK_DEBIAN_OPENCL_PACKAGE_CONTROL_EXTRA ${CMAKE_BINARY_DIR}/packaging/opencl/conffiles)
set(CPACK_COMPONENT_OPENCL_DESCRIPTION "Tessera: OpenCL ICD for the host CPU
An OpenCL 3.0 platform (OpenCL C 1.2, SPIR-V, device fission in every scheme) over the
Tessera Level Zero driver, for the OpenCL ICD loader: its .icd file is in
/etc/OpenCL/vendors, so clinfo and every OpenCL program see the platform.")

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME tessera-tools)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_TOOLS_PACKAGE_DEPENDS "libze-tessera1 (= ${TESSERA_DEB_VERSION})")
set(CPACK_DEBIAN_TOOLS_PACKAGE_RECOMMENDS "tessera-ze-loader-link")
set(CPACK_DEBIAN_TOOLS_PACKAGE_SUGGESTS "graphviz")
set(CPACK_COMPONENT_TOOLS_DESCRIPTION "Tessera: tools
tessera-info prints the Tessera driver's device tree (text, JSON, Graphviz, SVG) through
the Level Zero loader.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libze-tessera-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
  "libze-tessera1 (= ${TESSERA_DEB_VERSION}), tessera-opencl-icd (= ${TESSERA_DEB_VERSION}), libze-dev")
set(CPACK_COMPONENT_DEV_DESCRIPTION "Tessera: development files
Tessera's Level Zero extensions (tessera/ze_tessera.h), CL/cl_ext_qcom.h, the .so links
and the pkg-config files tessera-ze and tessera-opencl.")

set(CPACK_DEBIAN_LOADERLINK_PACKAGE_NAME tessera-ze-loader-link)
set(CPACK_DEBIAN_LOADERLINK_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_LOADERLINK_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_LOADERLINK_PACKAGE_DEPENDS "libze-tessera1 (= ${TESSERA_DEB_VERSION}), libze1")
# Intel's GPU driver has the same file name (intel-level-zero-gpu, libze-intel-gpu1 in later Debian).
set(CPACK_DEBIAN_LOADERLINK_PACKAGE_CONFLICTS "intel-level-zero-gpu, libze-intel-gpu1")
set(CPACK_COMPONENT_LOADERLINK_DESCRIPTION "Tessera: default Level Zero driver for the loader
The Level Zero loader (libze1 1.8) opens the drivers it knows by name, libze_intel_gpu.so.1
and libze_intel_vpu.so.1, unless ZE_ENABLE_ALT_DRIVERS names others. This package links
libze_intel_gpu.so.1 to libze_tessera.so.1, so that the loader loads Tessera with no
environment variable. It cannot be installed beside Intel's GPU driver, which has that name.")

include(CPack)
