// The sub-group extensions' entries of test_extensions.cpp (a kernel using each, built under every
// -cl-std and run, its results checked against a reference computed here). They are used only
// when the device advertises the extension; the reference reads the kernel's sub-group size S
// through clGetKernelSubGroupInfo and follows the driver's contract
// (backends/cpu/runtime/kernel_abi.h): sub-group k of a work-group of n work-items holds local linear
// ids [k * S, min((k + 1) * S, n)).
#pragma once

#include <functional>
#include <map>
#include <string>

#include "cl_test_support.h"

namespace tessera::cltest {

const std::map<std::string, std::function<void(ClFixture&)>>& subgroupExtensionUses();

}  // namespace tessera::cltest
