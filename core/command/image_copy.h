// Image copies as the copies a command list already runs: an image is linear memory (image.h), so
// a box of its pixels is a box of bytes, and every image copy is a RegionCopyOp (run like buffer
// copies, on any engine, under the fault guard: core/queue/run_command.cpp).
//
// Regions (ze_image_region_t) are in pixels with the coordinates a kernel uses: a 1D array's
// layers are y (originY, height), a 2D array's z (originZ, depth). A null region is the whole
// image; height and depth 0 count as 1 ("For 1D or 2D images, set this to 1"; the guide's
// examples pass 0).
//
// Memory on the other side of zeCommandListAppendImageCopyToMemory / FromMemory is tightly packed;
// the Ext variants take its pitches ("If rowPitch is set to 0, the appropriate row pitch is
// calculated based on the size of each element in bytes multiplied by width"; "If slicePitch is
// set to 0, the appropriate slice pitch is calculated based on the rowPitch x height"). A 1D
// array's layers are spaced by the slice pitch in memory ("each image of a 1D or 2D image array"),
// or by the row pitch when only that is given.
//
// Errors, in order: INVALID_ARGUMENT for a region reaching past its image or images of different
// pixel sizes ("the image format descriptors for both source and destination images are the
// same"); INVALID_SIZE for regions of different sizes or a memory pitch smaller than what it
// steps over; OVERLAPPING_REGIONS for regions of one image's memory that overlap ("The src and dst
// regions cannot be overlapping").
#pragma once

#include <level_zero/ze_api.h>

#include <cstdint>

#include "core/command/command.h"

namespace tessera::core {

class Image;

// zeCommandListAppendImageCopy (both regions null) and zeCommandListAppendImageCopyRegion.
ze_result_t imageCopyOp(const Image& dst, const ze_image_region_t* dstRegion, const Image& src,
                        const ze_image_region_t* srcRegion, RegionCopyOp& out);
// zeCommandListAppendImageCopyToMemory(Ext): pitches 0 are tight.
ze_result_t imageToMemoryOp(void* dst, uint64_t rowPitch, uint64_t slicePitch, const Image& src,
                            const ze_image_region_t* srcRegion, RegionCopyOp& out);
// zeCommandListAppendImageCopyFromMemory(Ext): pitches 0 are tight.
ze_result_t memoryToImageOp(const Image& dst, const ze_image_region_t* dstRegion, const void* src,
                            uint64_t rowPitch, uint64_t slicePitch, RegionCopyOp& out);

}  // namespace tessera::core
