// The Level Zero side of image commands: host (or buffer) memory <-> image copies with the host's
// pitches, and fills of a box of pixels. Regions are OpenCL's, which are Level Zero's coordinates
// (a 1D array's layer is y, a 2D array's z).
#pragma once

#include <level_zero/ze_api.h>

#include "cl_shim/image.h"

namespace tessera::cl {

// The memory side of a copy of `region`: bytes between rows (a 1D array's layers) and slices (a
// 2D array's layers), and the bytes the region spans there.
struct HostLayout {
  size_t yPitch = 0, zPitch = 0;
  size_t bytes = 0;
};

// clEnqueueReadImage / WriteImage's row_pitch and slice_pitch for `region` of `image` ("If
// row_pitch is set to 0, the appropriate row pitch is calculated based on the size of each element
// in bytes multiplied by width"; the slice pitch likewise from the row pitch and height, a 1D
// array's from the row pitch). False for a pitch the spec refuses (CL_INVALID_VALUE): a row pitch
// below the row, a slice pitch below what it steps over, or any slice pitch for a 1D or 2D image.
// Pitches of 0 give the tight layout of image <-> buffer copies.
bool hostLayout(const Image& image, const size_t* region, size_t rowPitch, size_t slicePitch,
                HostLayout& out);

ze_image_region_t zeRegion(const size_t* origin, const size_t* region);

// Appends the copy of `region` at `origin` between `image` (its ze image `zi`) and memory at
// `host` laid out as `layout`: into the image when `toImage`. Pitches beyond Level Zero's 32 bits
// are copied a slice or a row at a time.
ze_result_t appendHostCopy(ze_command_list_handle_t l, bool toImage, ze_image_handle_t zi,
                           const Image& image, char* host, const size_t* origin,
                           const size_t* region, const HostLayout& layout,
                           ze_event_handle_t signal, uint32_t numWaits, ze_event_handle_t* waits);

// Appends memory fills of `pixel` (image.pixelBytes() bytes) over the box, the image's pixels
// starting at `base`: one fill per run of contiguous rows.
ze_result_t appendPixelFill(ze_command_list_handle_t l, const Image& image, char* base,
                            const size_t* origin, const size_t* region, const uint8_t* pixel,
                            ze_event_handle_t signal, uint32_t numWaits, ze_event_handle_t* waits);

}  // namespace tessera::cl
