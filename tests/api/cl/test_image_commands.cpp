// Image commands through ocl-icd: read and write of boxes with the host's pitches, copies between
// images of every type and to and from buffers, fills converted to each format, maps, events and
// wait lists, against references computed here; and each command's refusals.
#include <cstring>
#include <vector>

#include "image_test_support.h"

using namespace tessera::cltest;

namespace {

// An image's pixels on the host, tightly packed, with the box operations the commands perform.
struct Pixels {
  Shape shape;
  size_t pb;
  std::vector<unsigned char> bytes;

  Pixels(const Shape& s, size_t pixelBytes, unsigned seed)
      : shape(s), pb(pixelBytes), bytes(pattern(s.pixels() * pixelBytes, seed)) {}
  unsigned char* at(size_t x, size_t y, size_t z) {
    return &bytes[((z * shape.extent(1) + y) * shape.extent(0) + x) * pb];
  }
};

// The box `region` at `origin` copied between `host` (rows yStep apart, slices zStep) and `img`.
void boxCopy(Pixels& img, const size_t* origin, const size_t* region, unsigned char* host,
             size_t yStep, size_t zStep, bool toImage) {
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y) {
      unsigned char* h = host + z * zStep + y * yStep;
      unsigned char* i = img.at(origin[0], origin[1] + y, origin[2] + z);
      if (toImage)
        std::memcpy(i, h, region[0] * img.pb);
      else
        std::memcpy(h, i, region[0] * img.pb);
    }
}

cl_mem imageWith(ClFixture& fx, const cl_image_format& f, const Pixels& p,
                 cl_mem_flags flags = CL_MEM_READ_WRITE) {
  cl_mem m = makeImage(fx.ctx, flags, f, p.shape);
  size_t origin[3] = {0, 0, 0}, region[3] = {p.shape.extent(0), p.shape.extent(1), p.shape.extent(2)};
  REQUIRE(clEnqueueWriteImage(fx.queue, m, CL_TRUE, origin, region, 0, 0, p.bytes.data(), 0,
                              nullptr, nullptr) == CL_SUCCESS);
  return m;
}


// For each image type: `body(type, shape, reference, image)` with an image of `f` holding the
// reference's pixels (released after).
template <typename Body>
void forEachImage(ClFixture& fx, const cl_image_format& f, unsigned seed, Body body) {
  for (cl_mem_object_type t : imageTypes()) {
    INFO(imageTypeName(t));
    const Shape s = smallShape(t);
    Pixels ref(s, pixelSize(f), seed);
    cl_mem m = imageWith(fx, f, ref);
    body(t, s, ref, m);
    clReleaseMemObject(m);
  }
}

}  // namespace

TEST_CASE("Given every image type, when boxes are written and read with the host's pitches, then "
          "the image and the host memory hold what a reference copy says",
          "[cl][image][readwrite]") {
  ClFixture fx;
  TESSERA_REQUIRE_IMAGES(fx.dev);
  const cl_image_format f{CL_RGBA, CL_UNSIGNED_INT8};
  const size_t pb = 4;
  forEachImage(fx, f, 11, [&](cl_mem_object_type t, const Shape& s, Pixels& ref, cl_mem m) {
    // A box inside the image: at (2, 1, 1) where the type has those coordinates.
    size_t origin[3], region[3];
    innerBox(s, 2, 1, 0, origin, region);
    const bool sliced = t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                        t == CL_MEM_OBJECT_IMAGE3D;
    // Host rows padded by 5 pixels; slices (a 1D array's layers) by one more row.
    const size_t rowPitch = (region[0] + 5) * pb;
    const size_t slicePitch = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? rowPitch + 8
                              : sliced                         ? rowPitch * (region[1] + 1)
                                                               : 0;
    const size_t yStep = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slicePitch : rowPitch;
    const size_t zStep = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 0 : slicePitch;
    const size_t hostBytes = (region[2] - 1) * zStep + (region[1] - 1) * yStep + region[0] * pb;
    std::vector<unsigned char> block = pattern(hostBytes, 23);
    REQUIRE(clEnqueueWriteImage(fx.queue, m, CL_TRUE, origin, region, rowPitch, slicePitch,
                                block.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    boxCopy(ref, origin, region, block.data(), yStep, zStep, true);
    CHECK(readWholeImage(fx.queue, m, s, pb) == ref.bytes);
    // Read back into padded memory: the padding stays as it was.
    std::vector<unsigned char> back(hostBytes, 0x77), expect(hostBytes, 0x77);
    boxCopy(ref, origin, region, expect.data(), yStep, zStep, false);
    cl_event e = nullptr;
    REQUIRE(clEnqueueReadImage(fx.queue, m, CL_FALSE, origin, region, rowPitch, slicePitch,
                               back.data(), 0, nullptr, &e) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &e) == CL_SUCCESS);
    CHECK(eventValue<cl_command_type>(e, CL_EVENT_COMMAND_TYPE) == CL_COMMAND_READ_IMAGE);
    CHECK(back == expect);
    clReleaseEvent(e);
  });
}

TEST_CASE("Given images of every type, when boxes are copied between them, then the destination "
          "holds the source's pixels, also across types",
          "[cl][image][copy]") {
  ClFixture fx;
  TESSERA_REQUIRE_IMAGES(fx.dev);
  const cl_image_format f{CL_RG, CL_HALF_FLOAT};
  const size_t pb = 4;
  struct Case {
    cl_mem_object_type src, dst;
    size_t srcOrigin[3], dstOrigin[3], region[3];
  };
  const Case cases[] = {
      {CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D, {1, 2, 0}, {3, 0, 0}, {6, 4, 1}},
      {CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE3D, {0, 1, 0}, {1, 0, 2}, {5, 4, 1}},
      {CL_MEM_OBJECT_IMAGE3D, CL_MEM_OBJECT_IMAGE2D_ARRAY, {1, 1, 1}, {0, 0, 0}, {5, 3, 3}},
      {CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D, {4, 0, 0}, {0, 3, 0}, {9, 3, 1}},
      {CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE2D, {0, 0, 2}, {2, 2, 0}, {9, 5, 1}},
      {CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER, {5, 0, 0}, {1, 0, 0}, {30, 1, 1}},
      {CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE1D_ARRAY, {0, 0, 0}, {0, 2, 0}, {13, 1, 1}},
  };
  for (const Case& c : cases) {
    INFO(imageTypeName(c.src) << " -> " << imageTypeName(c.dst));
    Pixels src(smallShape(c.src), pb, 1), dst(smallShape(c.dst), pb, 2);
    cl_mem ms = imageWith(fx, f, src), md = imageWith(fx, f, dst);
    cl_event e = nullptr;
    REQUIRE(clEnqueueCopyImage(fx.queue, ms, md, c.srcOrigin, c.dstOrigin, c.region, 0, nullptr,
                               &e) == CL_SUCCESS);
    // The reference: through a tight host box.
    std::vector<unsigned char> box(c.region[0] * c.region[1] * c.region[2] * pb);
    boxCopy(src, c.srcOrigin, c.region, box.data(), c.region[0] * pb,
            c.region[0] * c.region[1] * pb, false);
    boxCopy(dst, c.dstOrigin, c.region, box.data(), c.region[0] * pb,
            c.region[0] * c.region[1] * pb, true);
    CHECK(readWholeImage(fx.queue, md, dst.shape, pb) == dst.bytes);
    CHECK(eventValue<cl_command_type>(e, CL_EVENT_COMMAND_TYPE) == CL_COMMAND_COPY_IMAGE);
    clReleaseEvent(e);
    clReleaseMemObject(ms);
    clReleaseMemObject(md);
  }
  // Within one image, boxes that do not overlap copy; those that do are refused.
  const Shape s = smallShape(CL_MEM_OBJECT_IMAGE2D);
  Pixels p(s, pb, 3);
  cl_mem m = imageWith(fx, f, p);
  size_t a[3] = {0, 0, 0}, b[3] = {5, 3, 0}, region[3] = {5, 3, 1}, c2[3] = {4, 2, 0};
  REQUIRE(clEnqueueCopyImage(fx.queue, m, m, a, b, region, 0, nullptr, nullptr) == CL_SUCCESS);
  std::vector<unsigned char> box(5 * 3 * pb);
  boxCopy(p, a, region, box.data(), 5 * pb, 0, false);
  boxCopy(p, b, region, box.data(), 5 * pb, 0, true);
  CHECK(readWholeImage(fx.queue, m, s, pb) == p.bytes);
  // "CL_MEM_COPY_OVERLAP if src_image and dst_image are the same image object and the source and
  // destination regions overlap."
  CHECK(clEnqueueCopyImage(fx.queue, m, m, a, c2, region, 0, nullptr, nullptr) ==
        CL_MEM_COPY_OVERLAP);
  // "CL_IMAGE_FORMAT_MISMATCH if src_image and dst_image do not use the same image format", even
  // of the same size.
  const cl_image_format other{CL_RGBA, CL_UNSIGNED_INT8};
  cl_mem o = makeImage(fx.ctx, 0, other, s);
  CHECK(clEnqueueCopyImage(fx.queue, m, o, a, b, region, 0, nullptr, nullptr) ==
        CL_IMAGE_FORMAT_MISMATCH);
  // Origins and regions by each image's rules and bounds.
  size_t deep[3] = {5, 3, 2}, far[3] = {7, 0, 0}, z1[3] = {0, 0, 1}, zero[3] = {0, 3, 1};
  CHECK(clEnqueueCopyImage(fx.queue, m, m, a, b, deep, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueCopyImage(fx.queue, m, m, a, far, region, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueCopyImage(fx.queue, m, m, z1, b, region, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueCopyImage(fx.queue, m, m, a, b, zero, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueCopyImage(fx.queue, m, m, nullptr, b, region, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueCopyImage(fx.queue, m, m, a, b, nullptr, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  cl_int err = CL_SUCCESS;
  cl_mem buf = clCreateBuffer(fx.ctx, 0, 1024, nullptr, &err);
  CHECK(clEnqueueCopyImage(fx.queue, buf, m, a, b, region, 0, nullptr, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  CHECK(clEnqueueCopyImage(fx.queue, m, m, a, b, region, 1, nullptr, nullptr) ==
        CL_INVALID_EVENT_WAIT_LIST);
  clReleaseMemObject(buf);
  clReleaseMemObject(o);
  clReleaseMemObject(m);
}

TEST_CASE("Given every format, when a box is filled, then its pixels are the colour converted by "
          "the spec's rules and the rest is untouched",
          "[cl][image][fill]") {
  ClFixture fx;
  TESSERA_REQUIRE_IMAGES(fx.dev);
  const float colorF[4] = {0.25f, -0.5f, 1.5f, 0.7f};
  const float colorF2[4] = {0.3f, 0.123456f, -2.0f, -1.0039f};  // SNORM8: -128 (saturated), -127
  const int32_t colorI[4] = {-200, 70000, 5, -1};
  const uint32_t colorU[4] = {300, 70000, 5, 0};
  for (cl_mem_object_type t : {CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE3D,
                               CL_MEM_OBJECT_IMAGE1D_ARRAY}) {
    const Shape s = smallShape(t);
    for (const cl_image_format& f : allFormats()) {
      INFO(imageTypeName(t) << " " << formatName(f));
      const cl_channel_type dt = f.image_channel_data_type;
      const void* colors[2] = {isSigned(dt) ? static_cast<const void*>(colorI)
                               : isUnsigned(dt) ? static_cast<const void*>(colorU)
                                                : static_cast<const void*>(colorF),
                               isSigned(dt) || isUnsigned(dt) ? nullptr : colorF2};
      for (const void* color : colors) {
        if (!color) continue;
        const size_t pb = pixelSize(f);
        Pixels ref(s, pb, 5);
        clearUndefinedBits(f, ref.bytes);
        cl_mem m = imageWith(fx, f, ref);
        size_t origin[3], region[3];
        innerBox(s, 1, 1, 1, origin, region);
        REQUIRE(clEnqueueFillImage(fx.queue, m, color, origin, region, 0, nullptr, nullptr) ==
                CL_SUCCESS);
        std::vector<unsigned char> px = convertedPixel(f, color);
        REQUIRE(px.size() == pb);
        for (size_t z = 0; z < region[2]; ++z)
          for (size_t y = 0; y < region[1]; ++y)
            for (size_t x = 0; x < region[0]; ++x)
              std::memcpy(ref.at(origin[0] + x, origin[1] + y, origin[2] + z), px.data(), pb);
        std::vector<unsigned char> got = readWholeImage(fx.queue, m, s, pb);
        clearUndefinedBits(f, got);
        CHECK(got == ref.bytes);
        clReleaseMemObject(m);
      }
    }
  }
  // A whole image of each other type, and the refusals.
  const cl_image_format f{CL_RGBA, CL_FLOAT};
  for (cl_mem_object_type t : {CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER,
                               CL_MEM_OBJECT_IMAGE2D_ARRAY}) {
    INFO(imageTypeName(t));
    const Shape s = smallShape(t);
    cl_mem m = makeImage(fx.ctx, CL_MEM_HOST_READ_ONLY, f, s);  // "usage information ... ignored"
    size_t origin[3] = {0, 0, 0}, region[3] = {s.extent(0), s.extent(1), s.extent(2)};
    cl_event e = nullptr;
    REQUIRE(clEnqueueFillImage(fx.queue, m, colorF, origin, region, 0, nullptr, &e) == CL_SUCCESS);
    std::vector<float> got(s.pixels() * 4);
    REQUIRE(clEnqueueReadImage(fx.queue, m, CL_TRUE, origin, region, 0, 0, got.data(), 1, &e,
                               nullptr) == CL_SUCCESS);
    for (size_t i = 0; i < got.size(); ++i) CHECK(got[i] == colorF[i % 4]);
    CHECK(eventValue<cl_command_type>(e, CL_EVENT_COMMAND_TYPE) == CL_COMMAND_FILL_IMAGE);
    clReleaseEvent(e);
    // "CL_INVALID_VALUE if fill_color is NULL, if origin is NULL, if region is NULL, if the region
    // being filled specified by origin and region is out of bounds".
    CHECK(clEnqueueFillImage(fx.queue, m, nullptr, origin, region, 0, nullptr, nullptr) ==
          CL_INVALID_VALUE);
    CHECK(clEnqueueFillImage(fx.queue, m, colorF, nullptr, region, 0, nullptr, nullptr) ==
          CL_INVALID_VALUE);
    CHECK(clEnqueueFillImage(fx.queue, m, colorF, origin, nullptr, 0, nullptr, nullptr) ==
          CL_INVALID_VALUE);
    size_t past[3] = {s.extent(0) + 1, s.extent(1), s.extent(2)};
    CHECK(clEnqueueFillImage(fx.queue, m, colorF, origin, past, 0, nullptr, nullptr) ==
          CL_INVALID_VALUE);
    clReleaseMemObject(m);
  }
}

TEST_CASE("Given an image and a buffer, when boxes are copied between them at offsets, then the "
          "buffer holds them tightly packed",
          "[cl][image][copy][buffer]") {
  ClFixture fx;
  TESSERA_REQUIRE_IMAGES(fx.dev);
  const cl_image_format f{CL_R, CL_SIGNED_INT16};
  const size_t pb = 2, offset = 6;
  cl_int err = CL_SUCCESS;
  forEachImage(fx, f, 8, [&](cl_mem_object_type, const Shape& s, Pixels& ref, cl_mem m) {
    size_t origin[3], region[3];
    innerBox(s, 1, 0, 0, origin, region);
    const size_t cb = region[0] * region[1] * region[2] * pb;
    cl_mem buf = clCreateBuffer(fx.ctx, 0, offset + cb, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_event e = nullptr;
    REQUIRE(clEnqueueCopyImageToBuffer(fx.queue, m, buf, origin, region, offset, 0, nullptr, &e) ==
            CL_SUCCESS);
    std::vector<unsigned char> got(cb), expect(cb);
    REQUIRE(clEnqueueReadBuffer(fx.queue, buf, CL_TRUE, offset, cb, got.data(), 1, &e, nullptr) ==
            CL_SUCCESS);
    boxCopy(ref, origin, region, expect.data(), region[0] * pb, region[0] * region[1] * pb, false);
    CHECK(got == expect);
    CHECK(eventValue<cl_command_type>(e, CL_EVENT_COMMAND_TYPE) == CL_COMMAND_COPY_IMAGE_TO_BUFFER);
    clReleaseEvent(e);
    // And back into the image at the origin, from new bytes.
    std::vector<unsigned char> fresh = pattern(cb, 31);
    REQUIRE(clEnqueueWriteBuffer(fx.queue, buf, CL_TRUE, offset, cb, fresh.data(), 0, nullptr,
                                 nullptr) == CL_SUCCESS);
    size_t zero[3] = {0, 0, 0};
    REQUIRE(clEnqueueCopyBufferToImage(fx.queue, buf, m, offset, zero, region, 0, nullptr, &e) ==
            CL_SUCCESS);
    CHECK(eventValue<cl_command_type>(e, CL_EVENT_COMMAND_TYPE) == CL_COMMAND_COPY_BUFFER_TO_IMAGE);
    clReleaseEvent(e);
    boxCopy(ref, zero, region, fresh.data(), region[0] * pb, region[0] * region[1] * pb, true);
    CHECK(readWholeImage(fx.queue, m, s, pb) == ref.bytes);
    // "CL_INVALID_VALUE if the region specified by dst_offset and the computed dst_cb is out of
    // bounds of dst_buffer" (and src_offset / src_cb).
    CHECK(clEnqueueCopyImageToBuffer(fx.queue, m, buf, origin, region, offset + 1, 0, nullptr,
                                     nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueCopyBufferToImage(fx.queue, buf, m, offset + 2, origin, region, 0, nullptr,
                                     nullptr) == CL_INVALID_VALUE);
    size_t bad[3] = {region[0], region[1], 2};
    if (s.extent(2) == 1)
      CHECK(clEnqueueCopyImageToBuffer(fx.queue, m, buf, origin, bad, 0, 0, nullptr, nullptr) ==
            CL_INVALID_VALUE);
    // A buffer where the image goes, an image where the buffer goes.
    CHECK(clEnqueueCopyImageToBuffer(fx.queue, buf, buf, origin, region, 0, 0, nullptr, nullptr) ==
          CL_INVALID_MEM_OBJECT);
    CHECK(clEnqueueCopyImageToBuffer(fx.queue, m, m, origin, region, 0, 0, nullptr, nullptr) ==
          CL_INVALID_MEM_OBJECT);
    CHECK(clEnqueueCopyBufferToImage(fx.queue, m, m, 0, origin, region, 0, nullptr, nullptr) ==
          CL_INVALID_MEM_OBJECT);
    clReleaseMemObject(buf);
  });
}

TEST_CASE("Given images of every type, when boxes are mapped, written through the map and "
          "unmapped, then the image holds the writes at the pitches the map returned",
          "[cl][image][map]") {
  ClFixture fx;
  TESSERA_REQUIRE_IMAGES(fx.dev);
  const cl_image_format f{CL_RGBA, CL_UNSIGNED_INT8};
  const size_t pb = 4;
  forEachImage(fx, f, 21, [&](cl_mem_object_type t, const Shape& s, Pixels& ref, cl_mem m) {
    size_t origin[3], region[3];
    innerBox(s, 1, 1, 0, origin, region);
    size_t rowPitch = 0, slicePitch = 77;
    cl_int err = CL_SUCCESS;
    cl_event e = nullptr;
    auto* p = static_cast<unsigned char*>(clEnqueueMapImage(fx.queue, m, CL_FALSE,
                                                            CL_MAP_READ | CL_MAP_WRITE, origin,
                                                            region, &rowPitch, &slicePitch, 0,
                                                            nullptr, &e, &err));
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &e) == CL_SUCCESS);
    CHECK(eventValue<cl_command_type>(e, CL_EVENT_COMMAND_TYPE) == CL_COMMAND_MAP_IMAGE);
    clReleaseEvent(e);
    CHECK(memObjectInfo<cl_uint>(m, CL_MEM_MAP_COUNT) == 1);
    // "For a 1D and 2D image, zero is returned" as the slice pitch; a 1D array's layers are
    // "the size of each 1D or 2D image in a 1D or 2D image array".
    const bool sliced = t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                        t == CL_MEM_OBJECT_IMAGE3D;
    CHECK((slicePitch == 0) == !sliced);
    CHECK(rowPitch >= s.extent(0) * pb);
    const size_t yStep = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slicePitch : rowPitch;
    // The map shows the image's pixels; writes through it land in the image.
    std::vector<unsigned char> seen(region[0] * region[1] * region[2] * pb);
    boxCopy(ref, origin, region, seen.data(), region[0] * pb, region[0] * region[1] * pb, false);
    std::vector<unsigned char> mapped(seen.size());
    std::vector<unsigned char> writes = pattern(seen.size(), 55);
    for (size_t z = 0; z < region[2]; ++z)
      for (size_t y = 0; y < region[1]; ++y) {
        unsigned char* row = p + z * (t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 0 : slicePitch) + y * yStep;
        size_t at = (z * region[1] + y) * region[0] * pb;
        std::memcpy(&mapped[at], row, region[0] * pb);
        std::memcpy(row, &writes[at], region[0] * pb);
      }
    CHECK(mapped == seen);
    REQUIRE(clEnqueueUnmapMemObject(fx.queue, m, p, 0, nullptr, &e) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &e) == CL_SUCCESS);
    CHECK(eventValue<cl_command_type>(e, CL_EVENT_COMMAND_TYPE) == CL_COMMAND_UNMAP_MEM_OBJECT);
    clReleaseEvent(e);
    CHECK(memObjectInfo<cl_uint>(m, CL_MEM_MAP_COUNT) == 0);
    boxCopy(ref, origin, region, writes.data(), region[0] * pb, region[0] * region[1] * pb, true);
    CHECK(readWholeImage(fx.queue, m, s, pb) == ref.bytes);
    // "CL_INVALID_VALUE if mapped_ptr is not a valid pointer returned by clEnqueueMapBuffer or
    // clEnqueueMapImage for memobj" (it was unmapped).
    CHECK(clEnqueueUnmapMemObject(fx.queue, m, p, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    // "CL_INVALID_VALUE if image_row_pitch is NULL, if image is a 1D or 2D image array object and
    // image_slice_pitch is NULL, if image is a 3D and image_slice_pitch is NULL".
    CHECK(clEnqueueMapImage(fx.queue, m, CL_TRUE, CL_MAP_READ, origin, region, nullptr,
                            &slicePitch, 0, nullptr, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);
    void* q = clEnqueueMapImage(fx.queue, m, CL_TRUE, CL_MAP_READ, origin, region, &rowPitch,
                                nullptr, 0, nullptr, nullptr, &err);
    CHECK(err == (sliced ? CL_INVALID_VALUE : CL_SUCCESS));
    if (q) clEnqueueUnmapMemObject(fx.queue, m, q, 0, nullptr, nullptr);
    // Bad flags and boxes.
    CHECK(clEnqueueMapImage(fx.queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION,
                            origin, region, &rowPitch, &slicePitch, 0, nullptr, nullptr,
                            &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);
    size_t past[3] = {s.extent(0), region[1], region[2]};
    CHECK(clEnqueueMapImage(fx.queue, m, CL_TRUE, CL_MAP_READ, origin, past, &rowPitch,
                            &slicePitch, 0, nullptr, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);
    clFinish(fx.queue);
  });
  // The host access flags: "CL_INVALID_OPERATION if image has been created with
  // CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set in map_flags" (and the
  // write's converse).
  const Shape s = smallShape(CL_MEM_OBJECT_IMAGE2D);
  cl_mem wo = makeImage(fx.ctx, CL_MEM_HOST_WRITE_ONLY, f, s);
  cl_mem ro = makeImage(fx.ctx, CL_MEM_HOST_READ_ONLY, f, s);
  size_t origin[3] = {0, 0, 0}, region[3] = {1, 1, 1}, pitch = 0;
  cl_int err = CL_SUCCESS;
  CHECK(clEnqueueMapImage(fx.queue, wo, CL_TRUE, CL_MAP_READ, origin, region, &pitch, nullptr, 0,
                          nullptr, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_OPERATION);
  CHECK(clEnqueueMapImage(fx.queue, ro, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, origin, region,
                          &pitch, nullptr, 0, nullptr, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_OPERATION);
  clReleaseMemObject(wo);
  clReleaseMemObject(ro);
}

TEST_CASE("Given image commands waiting on a user event, then none runs before it completes and "
          "each then runs in order; and each command refuses bad arguments",
          "[cl][image][events]") {
  ClFixture fx;
  TESSERA_REQUIRE_IMAGES(fx.dev);
  const cl_image_format f{CL_RGBA, CL_FLOAT};
  const Shape s = smallShape(CL_MEM_OBJECT_IMAGE2D);
  const size_t pb = 16;
  cl_mem m = makeImage(fx.ctx, 0, f, s);
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(fx.ctx, &err);
  size_t origin[3] = {0, 0, 0}, region[3] = {s.width, s.height, 1};
  const float red[4] = {1, 0, 0, 1};
  std::vector<unsigned char> host = pattern(s.pixels() * pb, 3), back(s.pixels() * pb, 0);
  cl_event filled = nullptr, written = nullptr, read = nullptr;
  REQUIRE(clEnqueueFillImage(fx.queue, m, red, origin, region, 1, &gate, &filled) == CL_SUCCESS);
  REQUIRE(clEnqueueWriteImage(fx.queue, m, CL_FALSE, origin, region, 0, 0, host.data(), 1, &filled,
                              &written) == CL_SUCCESS);
  REQUIRE(clEnqueueReadImage(fx.queue, m, CL_FALSE, origin, region, 0, 0, back.data(), 1, &written,
                             &read) == CL_SUCCESS);
  CHECK(eventValue<cl_int>(filled, CL_EVENT_COMMAND_EXECUTION_STATUS) > CL_COMPLETE);
  CHECK(eventValue<cl_int>(read, CL_EVENT_COMMAND_EXECUTION_STATUS) > CL_COMPLETE);
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &read) == CL_SUCCESS);
  CHECK(back == host);
  CHECK(eventValue<cl_command_type>(written, CL_EVENT_COMMAND_TYPE) == CL_COMMAND_WRITE_IMAGE);
  for (cl_event e : {gate, filled, written, read}) clReleaseEvent(e);

  // Read and write: "CL_INVALID_VALUE if origin is NULL, if region is NULL, if ... out of bounds,
  // if values in origin and region do not follow the rules ..., if image is a 1D or 2D image and
  // slice_pitch or input_slice_pitch is not zero, if ptr is NULL"; the row pitch below a row.
  auto read2 = [&](const size_t* o, const size_t* r, size_t rp, size_t sp, void* ptr) {
    return clEnqueueReadImage(fx.queue, m, CL_TRUE, o, r, rp, sp, ptr, 0, nullptr, nullptr);
  };
  size_t z1[3] = {0, 0, 1}, r2[3] = {s.width, s.height, 2}, r0[3] = {0, 1, 1},
         wide[3] = {s.width + 1, 1, 1};
  CHECK(read2(nullptr, region, 0, 0, back.data()) == CL_INVALID_VALUE);
  CHECK(read2(origin, nullptr, 0, 0, back.data()) == CL_INVALID_VALUE);
  CHECK(read2(origin, region, 0, 0, nullptr) == CL_INVALID_VALUE);
  CHECK(read2(z1, region, 0, 0, back.data()) == CL_INVALID_VALUE);
  CHECK(read2(origin, r2, 0, 0, back.data()) == CL_INVALID_VALUE);
  CHECK(read2(origin, r0, 0, 0, back.data()) == CL_INVALID_VALUE);
  CHECK(read2(origin, wide, 0, 0, back.data()) == CL_INVALID_VALUE);
  CHECK(read2(origin, region, 0, s.width * pb * s.height, back.data()) == CL_INVALID_VALUE);
  CHECK(read2(origin, region, s.width * pb - 1, 0, back.data()) == CL_INVALID_VALUE);
  CHECK(clEnqueueWriteImage(fx.queue, m, CL_TRUE, origin, region, 0, 0, host.data(), 1, nullptr,
                            nullptr) == CL_INVALID_EVENT_WAIT_LIST);
  CHECK(clEnqueueWriteImage(fx.queue, m, CL_TRUE, origin, region, 0, 0, nullptr, 0, nullptr,
                            nullptr) == CL_INVALID_VALUE);
  // 3D: the slice pitch below row pitch x height.
  const Shape s3 = smallShape(CL_MEM_OBJECT_IMAGE3D);
  cl_mem m3 = makeImage(fx.ctx, 0, f, s3);
  size_t all3[3] = {s3.width, s3.height, s3.depth};
  std::vector<unsigned char> big(s3.pixels() * pb * 2);
  CHECK(clEnqueueReadImage(fx.queue, m3, CL_TRUE, origin, all3, 0, s3.width * pb * s3.height - 1,
                           big.data(), 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueReadImage(fx.queue, m3, CL_TRUE, origin, all3, 0, s3.width * pb * (s3.height + 1),
                           big.data(), 0, nullptr, nullptr) == CL_SUCCESS);
  // A wait-list event of another context: CL_INVALID_CONTEXT.
  ClFixture other;
  cl_event foreign = clCreateUserEvent(other.ctx, &err);
  CHECK(clEnqueueReadImage(fx.queue, m, CL_TRUE, origin, region, 0, 0, back.data(), 1, &foreign,
                           nullptr) == CL_INVALID_CONTEXT);
  clSetUserEventStatus(foreign, CL_COMPLETE);
  clReleaseEvent(foreign);
  // Host access flags: "CL_INVALID_OPERATION if clEnqueueReadImage is called on image which has
  // been created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS" and the write's converse.
  cl_mem none = makeImage(fx.ctx, CL_MEM_HOST_NO_ACCESS, f, s);
  CHECK(clEnqueueReadImage(fx.queue, none, CL_TRUE, origin, region, 0, 0, back.data(), 0, nullptr,
                           nullptr) == CL_INVALID_OPERATION);
  CHECK(clEnqueueWriteImage(fx.queue, none, CL_TRUE, origin, region, 0, 0, host.data(), 0, nullptr,
                            nullptr) == CL_INVALID_OPERATION);
  // Handles: a buffer is not an image; a queue of another context.
  cl_mem buf = clCreateBuffer(fx.ctx, 0, 64, nullptr, &err);
  CHECK(clEnqueueReadImage(fx.queue, buf, CL_TRUE, origin, region, 0, 0, back.data(), 0, nullptr,
                           nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clEnqueueReadImage(other.queue, m, CL_TRUE, origin, region, 0, 0, back.data(), 0, nullptr,
                           nullptr) == CL_INVALID_CONTEXT);
  CHECK(clEnqueueReadImage(reinterpret_cast<cl_command_queue>(fx.ctx), m, CL_TRUE, origin, region,
                           0, 0, back.data(), 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clFinish(fx.queue) == CL_SUCCESS);
  clReleaseMemObject(buf);
  clReleaseMemObject(none);
  clReleaseMemObject(m3);
  clReleaseMemObject(m);
}
