#include "cl_shim/image_copy.h"

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace tessera::cl {
namespace {

using Ze = ze_command_list_handle_t;
using U128 = unsigned __int128;

// Appends `count` commands made by `one(i)` as one command: a barrier waits for `waits`, the
// commands run, a barrier signals `signal`. A single command takes the waits and signal itself.
ze_result_t appendSequence(Ze l, size_t count, const std::function<ze_result_t(size_t, ze_event_handle_t,
                                                                                uint32_t, ze_event_handle_t*)>& one,
                           ze_event_handle_t signal, uint32_t nw, ze_event_handle_t* w) {
  if (count == 1) return one(0, signal, nw, w);
  if (ze_result_t r = zeCommandListAppendBarrier(l, nullptr, nw, w); r != ZE_RESULT_SUCCESS) return r;
  for (size_t i = 0; i < count; ++i)
    if (ze_result_t r = one(i, nullptr, 0, nullptr); r != ZE_RESULT_SUCCESS) return r;
  return zeCommandListAppendBarrier(l, signal, 0, nullptr);
}

}  // namespace

bool hostLayout(const Image& image, const size_t* region, size_t rowPitch, size_t slicePitch,
                HostLayout& out) {
  const U128 rowBytes = U128(region[0]) * image.pixelBytes();
  if (rowPitch == 0) rowPitch = size_t(rowBytes);
  // "This value must be greater than or equal to the element size in bytes x width."
  if (rowBytes > SIZE_MAX || rowPitch < rowBytes) return false;
  U128 bytes = 0;
  switch (image.type()) {
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: {
      // "the size in bytes of ... each image of a 1D or 2D image array": the layers; at least a row.
      size_t layer = slicePitch ? slicePitch : rowPitch;
      if (layer < rowPitch) return false;
      out.yPitch = layer;
      out.zPitch = 0;
      bytes = U128(layer) * (region[1] - 1) + rowBytes;
      break;
    }
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    case CL_MEM_OBJECT_IMAGE3D: {
      // "Otherwise this value must be greater than or equal to row_pitch x height."
      U128 least = U128(rowPitch) * region[1];
      if (least > SIZE_MAX) return false;
      size_t slice = slicePitch ? slicePitch : size_t(least);
      if (slice < least) return false;
      out.yPitch = rowPitch;
      out.zPitch = slice;
      bytes = U128(slice) * (region[2] - 1) + U128(rowPitch) * (region[1] - 1) + rowBytes;
      break;
    }
    default:
      // "This must be 0 if image is a 1D or 2D image."
      if (slicePitch != 0) return false;
      out.yPitch = rowPitch;
      out.zPitch = 0;
      bytes = U128(rowPitch) * (region[1] - 1) + rowBytes;
      break;
  }
  if (bytes > SIZE_MAX) return false;
  out.bytes = size_t(bytes);
  return true;
}

ze_image_region_t zeRegion(const size_t* origin, const size_t* region) {
  // Within the image limits every value fits in 32 bits.
  return {uint32_t(origin[0]), uint32_t(origin[1]), uint32_t(origin[2]),
          uint32_t(region[0]), uint32_t(region[1]), uint32_t(region[2])};
}

ze_result_t appendHostCopy(Ze l, bool toImage, ze_image_handle_t zi, const Image& image, char* host,
                           const size_t* origin, const size_t* region, const HostLayout& layout,
                           ze_event_handle_t signal, uint32_t nw, ze_event_handle_t* w) {
  auto copy = [&](const size_t* o, const size_t* r, char* p, uint32_t rowPitch,
                  uint32_t slicePitch, ze_event_handle_t s, uint32_t n, ze_event_handle_t* ws) {
    ze_image_region_t zr = zeRegion(o, r);
    return toImage ? zeCommandListAppendImageCopyFromMemoryExt(l, zi, p, &zr, rowPitch, slicePitch,
                                                               s, n, ws)
                   : zeCommandListAppendImageCopyToMemoryExt(l, p, zi, &zr, rowPitch, slicePitch,
                                                             s, n, ws);
  };
  // The pitches as Level Zero takes them: "rowPitch is set to 0 if image is a 1D image";
  // "slicePitch is set to 0 if image is a 1D or 2D image"; a 1D array's layers are spaced by the
  // slice pitch (ze_tessera.h), given as both.
  const cl_mem_object_type t = image.type();
  size_t rowPitch = layout.yPitch, slicePitch = layout.zPitch;
  if (t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER) rowPitch = slicePitch = 0;
  if (t == CL_MEM_OBJECT_IMAGE1D_ARRAY) slicePitch = layout.yPitch;
  if (rowPitch <= UINT32_MAX && slicePitch <= UINT32_MAX)
    return copy(origin, region, host, uint32_t(rowPitch), uint32_t(slicePitch), signal, nw, w);
  // Wider pitches: a row at a time, each tightly packed.
  const size_t rows = region[1] * region[2];
  return appendSequence(
      l, rows,
      [&](size_t i, ze_event_handle_t s, uint32_t n, ze_event_handle_t* ws) {
        size_t y = i % region[1], z = i / region[1];
        size_t o[3] = {origin[0], origin[1] + y, origin[2] + z}, r[3] = {region[0], 1, 1};
        return copy(o, r, host + z * layout.zPitch + y * layout.yPitch, 0, 0, s, n, ws);
      },
      signal, nw, w);
}

ze_result_t appendPixelFill(Ze l, const Image& image, char* base, const size_t* origin,
                            const size_t* region, const uint8_t* pixel, ze_event_handle_t signal,
                            uint32_t nw, ze_event_handle_t* w) {
  // The box's rows, those that follow each other in memory merged.
  const size_t rowBytes = region[0] * image.pixelBytes();
  std::vector<std::pair<char*, size_t>> spans;
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y) {
      size_t o[3] = {origin[0], origin[1] + y, origin[2] + z};
      char* p = base + image.offsetOf(o);
      if (!spans.empty() && spans.back().first + spans.back().second == p)
        spans.back().second += rowBytes;
      else
        spans.emplace_back(p, rowBytes);
    }
  return appendSequence(
      l, spans.size(),
      [&](size_t i, ze_event_handle_t s, uint32_t n, ze_event_handle_t* ws) {
        return zeCommandListAppendMemoryFill(l, spans[i].first, pixel, image.pixelBytes(),
                                             spans[i].second, s, n, ws);
      },
      signal, nw, w);
}

}  // namespace tessera::cl
