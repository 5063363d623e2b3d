// The shape of a kernel launch as core records it: group counts, group size, global offset and
// get_work_dim(). core's own type (backends/cpu has its own, which core/queue/kernel_launch.cpp
// fills from this one), so the commands' header names no backend type. Counts are the ones a client
// gave: the products below are overflow-checked (support/checked_math.h).
#pragma once

#include <level_zero/ze_api.h>

#include <array>
#include <cstdint>

#include "support/checked_math.h"

namespace tessera::core {

struct LaunchDims {
  std::array<uint32_t, 3> groupCount{1, 1, 1};
  std::array<uint32_t, 3> groupSize{1, 1, 1};
  // Non-uniform work-groups (ZE_tessera_launch_shape 1.1, OpenCL 2.0+): the last group's size in
  // each dimension, 1 to groupSize; 0: uniform (Level Zero's own launches always are).
  std::array<uint32_t, 3> lastGroupSize{0, 0, 0};
  std::array<uint64_t, 3> globalOffset{0, 0, 0};
  // What get_work_dim() returns; 0: decided when the launch runs (the highest dimension with
  // more than one work-item).
  uint32_t workDim = 1;

  void setGroupCount(const ze_group_count_t& c) {
    groupCount = {c.groupCountX, c.groupCountY, c.groupCountZ};
  }
  // The work-groups of the launch in all; false when the product does not fit in 64 bits.
  [[nodiscard]] bool groups(uint64_t& out) const {
    return support::checkedProduct({groupCount[0], groupCount[1], groupCount[2]}, out);
  }
  // The work-items of the launch in all (groups times group size); false when the product does
  // not fit in 64 bits (group counts of an indirect launch are the application's to choose).
  [[nodiscard]] bool items(uint64_t& out) const {
    return support::checkedProduct(
        {groupCount[0], groupCount[1], groupCount[2], groupSize[0], groupSize[1], groupSize[2]},
        out);
  }
};

// Whether `counts` names at most `most` work-groups in all; a product that does not fit in 64 bits
// (2^22 * 2^21 * 2^21 wraps to 0) is more than that too.
inline bool groupCountWithin(const ze_group_count_t& counts, uint64_t most) {
  uint64_t groups = 0;
  return support::checkedProduct({counts.groupCountX, counts.groupCountY, counts.groupCountZ},
                                 groups) &&
         groups <= most;
}

}  // namespace tessera::core
