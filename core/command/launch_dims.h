// The shape of a kernel launch as core records it: group counts, group size, global offset and
// get_work_dim(): the interface's type (backends/device_kind.h), the only header of backends/ core
// includes. Counts are the ones a client gave: its products are overflow-checked.
#pragma once

#include <level_zero/ze_api.h>

#include <cstdint>

#include "backends/device_kind.h"
#include "support/checked_math.h"

namespace tessera::core {

// One type with the device kinds' (backends/device_kind.h): a launch goes to the executor as
// recorded, without a copy.
using LaunchDims = backends::LaunchDims;

inline void setGroupCount(LaunchDims& dims, const ze_group_count_t& c) {
  dims.groupCount = {c.groupCountX, c.groupCountY, c.groupCountZ};
}

// Whether `counts` names at most `most` work-groups in all; a product that does not fit in 64 bits
// (2^22 * 2^21 * 2^21 wraps to 0) is more than that too.
inline bool groupCountWithin(const ze_group_count_t& counts, uint64_t most) {
  uint64_t groups = 0;
  return support::checkedProduct({counts.groupCountX, counts.groupCountY, counts.groupCountZ},
                                 groups) &&
         groups <= most;
}

}  // namespace tessera::core
