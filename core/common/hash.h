// Core's names for support/hash.h (uuids of drivers, devices and kernels).
#pragma once

#include "support/hash.h"

namespace tessera::core {

using support::fnv1a64;
using support::mix64;
using support::stableUuid;

}  // namespace tessera::core
