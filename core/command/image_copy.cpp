#include "core/command/image_copy.h"

#include <algorithm>
#include <array>

#include "core/image/image.h"

namespace tessera::core {
namespace {

// A box of pixels: origin and size in x, y, z (the kernel's coordinates).
struct Box {
  std::array<uint64_t, 3> origin{0, 0, 0};
  std::array<uint64_t, 3> size{0, 0, 0};
};

// The box `r` names in `image` (the whole image when null); INVALID_ARGUMENT when it reaches past
// the image. Sums of 32-bit fields cannot wrap in 64 bits.
ze_result_t boxOf(const Image& image, const ze_image_region_t* r, Box& b) {
  const uint64_t* extent = image.view().extent;
  if (!r) {
    b.size = {extent[0], extent[1], extent[2]};
    return ZE_RESULT_SUCCESS;
  }
  b.origin = {r->originX, r->originY, r->originZ};
  b.size = {r->width, std::max(r->height, 1u), std::max(r->depth, 1u)};
  for (int i = 0; i < 3; ++i)
    if (b.origin[i] + b.size[i] > extent[i]) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  return ZE_RESULT_SUCCESS;
}

// The box as a byte region of the image's memory (width and originX in bytes). Within the image
// limits, x in bytes stays below 2^31 (2^27 pixels of at most 16 bytes), so every field fits.
ze_copy_region_t bytesOf(const Image& image, const Box& b) {
  const uint64_t pb = image.pixelBytes();
  return {static_cast<uint32_t>(b.origin[0] * pb), static_cast<uint32_t>(b.origin[1]),
          static_cast<uint32_t>(b.origin[2]),      static_cast<uint32_t>(b.size[0] * pb),
          static_cast<uint32_t>(b.size[1]),        static_cast<uint32_t>(b.size[2])};
}

// The memory side of an image <-> memory copy of box `b`: tightly packed from `ptr`, or with the
// given pitches. A pitch is checked only where it is used (more than one row, layer or slice).
ze_result_t memorySide(const Image& image, const Box& b, uint64_t rowPitch, uint64_t slicePitch,
                       ze_copy_region_t& region, size_t& yPitch, size_t& zPitch) {
  const uint64_t rowBytes = b.size[0] * image.pixelBytes();
  region = {0,
            0,
            0,
            static_cast<uint32_t>(rowBytes),
            static_cast<uint32_t>(b.size[1]),
            static_cast<uint32_t>(b.size[2])};
  if (image.type() == ZE_IMAGE_TYPE_1DARRAY) {
    // Layers are y on the image's side; in memory, "each image of a 1D ... image array" is a slice.
    uint64_t layer = slicePitch ? slicePitch : rowPitch ? rowPitch : rowBytes;
    if (b.size[1] > 1 && layer < rowBytes) return ZE_RESULT_ERROR_INVALID_SIZE;
    yPitch = layer;
    zPitch = layer * b.size[1];
    return ZE_RESULT_SUCCESS;
  }
  uint64_t rp = rowPitch ? rowPitch : rowBytes;
  if (b.size[1] > 1 && rp < rowBytes) return ZE_RESULT_ERROR_INVALID_SIZE;
  uint64_t sp = slicePitch ? slicePitch : rp * b.size[1];
  if (b.size[2] > 1 && sp < rp * b.size[1]) return ZE_RESULT_ERROR_INVALID_SIZE;
  yPitch = rp;
  zPitch = sp;
  return ZE_RESULT_SUCCESS;
}

// Both sides of an image <-> memory copy of `region`: the image's bytes and the memory's, with the
// memory's pitches.
struct MemorySides {
  ze_copy_region_t image, memory;
  size_t yPitch, zPitch;
};

ze_result_t memorySides(const Image& image, const ze_image_region_t* region, uint64_t rowPitch,
                        uint64_t slicePitch, MemorySides& m) {
  Box b;
  if (ze_result_t r = boxOf(image, region, b); r != ZE_RESULT_SUCCESS) return r;
  m.image = bytesOf(image, b);
  return memorySide(image, b, rowPitch, slicePitch, m.memory, m.yPitch, m.zPitch);
}

// The first byte of box `b` in `image` and the bytes up to its last one (0 for an empty box).
void byteSpan(const Image& image, const Box& b, uint64_t& start, uint64_t& span) {
  start = reinterpret_cast<uintptr_t>(image.data()) + b.origin[0] * image.pixelBytes() +
          b.origin[1] * image.rowPitch() + b.origin[2] * image.slicePitch();
  span = b.size[0] == 0 ? 0
                        : (b.size[2] - 1) * image.slicePitch() +
                              (b.size[1] - 1) * image.rowPitch() + b.size[0] * image.pixelBytes();
}

bool overlap(const Image& a, const Box& ab, const Image& b, const Box& bb) {
  if (a.data() == b.data() && a.rowPitch() == b.rowPitch() && a.slicePitch() == b.slicePitch()) {
    // One memory with one layout: the boxes overlap when they do in every dimension.
    for (int i = 0; i < 3; ++i)
      if (ab.origin[i] >= bb.origin[i] + bb.size[i] || bb.origin[i] >= ab.origin[i] + ab.size[i])
        return false;
    return true;
  }
  uint64_t as, al, bs, bl;
  byteSpan(a, ab, as, al);
  byteSpan(b, bb, bs, bl);
  return al && bl && as < bs + bl && bs < as + al;
}

}  // namespace

ze_result_t imageCopyOp(const Image& dst, const ze_image_region_t* dstRegion, const Image& src,
                        const ze_image_region_t* srcRegion, RegionCopyOp& out) {
  Box db, sb;
  if (dst.pixelBytes() != src.pixelBytes()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (ze_result_t r = boxOf(dst, dstRegion, db); r != ZE_RESULT_SUCCESS) return r;
  if (ze_result_t r = boxOf(src, srcRegion, sb); r != ZE_RESULT_SUCCESS) return r;
  if (db.size != sb.size) return ZE_RESULT_ERROR_INVALID_SIZE;
  if (overlap(dst, db, src, sb)) return ZE_RESULT_ERROR_OVERLAPPING_REGIONS;
  out = RegionCopyOp{dst.data(),     src.data(),       bytesOf(dst, db), bytesOf(src, sb),
                     dst.rowPitch(), dst.slicePitch(), src.rowPitch(),   src.slicePitch()};
  return ZE_RESULT_SUCCESS;
}

ze_result_t imageToMemoryOp(void* dst, uint64_t rowPitch, uint64_t slicePitch, const Image& src,
                            const ze_image_region_t* srcRegion, RegionCopyOp& out) {
  MemorySides m;
  if (ze_result_t r = memorySides(src, srcRegion, rowPitch, slicePitch, m); r != ZE_RESULT_SUCCESS)
    return r;
  out = RegionCopyOp{static_cast<uint8_t*>(dst),
                     src.data(),
                     m.memory,
                     m.image,
                     m.yPitch,
                     m.zPitch,
                     src.rowPitch(),
                     src.slicePitch()};
  return ZE_RESULT_SUCCESS;
}

ze_result_t memoryToImageOp(const Image& dst, const ze_image_region_t* dstRegion, const void* src,
                            uint64_t rowPitch, uint64_t slicePitch, RegionCopyOp& out) {
  MemorySides m;
  if (ze_result_t r = memorySides(dst, dstRegion, rowPitch, slicePitch, m); r != ZE_RESULT_SUCCESS)
    return r;
  out = RegionCopyOp{dst.data(),     static_cast<const uint8_t*>(src),
                     m.image,        m.memory,
                     dst.rowPitch(), dst.slicePitch(),
                     m.yPitch,       m.zPitch};
  return ZE_RESULT_SUCCESS;
}

}  // namespace tessera::core
