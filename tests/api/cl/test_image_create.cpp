// Image creation through ocl-icd: the host pointer flags with their pitches, images over buffers
// (image1d_buffer_t, cl_khr_image2d_from_buffer), the 1.1 creators, clCreateImageWithProperties,
// and every refusal the spec names for them.
#include <cstring>
#include <vector>

#include "image_test_support.h"

using namespace tessera::cltest;

namespace {

const cl_image_format kRgba8{CL_RGBA, CL_UNORM_INT8};

// Pixel (x, y, z) of `s` in memory whose rows (a 1D array's layers) are `yStep` apart and slices
// (a 2D array's layers) `zStep` apart.
size_t at(size_t x, size_t y, size_t z, size_t pb, size_t yStep, size_t zStep) {
  return z * zStep + y * yStep + x * pb;
}

}  // namespace

TEST_CASE("Given host memory with padded pitches, when images are made with CL_MEM_COPY_HOST_PTR "
          "or CL_MEM_USE_HOST_PTR, then they hold its pixels and report the pitches given",
          "[cl][image][hostptr]") {
  ClFixture fx;
  TESSERA_REQUIRE_IMAGES(fx.dev);
  const cl_image_format f{CL_RGBA, CL_UNSIGNED_INT16};
  const size_t pb = 8;
  for (cl_mem_object_type t : imageTypes()) {
    if (t == CL_MEM_OBJECT_IMAGE1D_BUFFER) continue;  // made from a buffer, never a host_ptr
    const Shape s = smallShape(t);
    const bool sliced = t != CL_MEM_OBJECT_IMAGE1D && t != CL_MEM_OBJECT_IMAGE2D;
    // Rows padded by 3 pixels, slices (a 1D array's layers) by 2 more rows.
    const size_t rowPitch = (s.width + 3) * pb;
    const size_t slicePitch = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? rowPitch * 2
                              : sliced                         ? rowPitch * (s.height + 2)
                                                               : 0;
    const size_t yStep = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slicePitch : rowPitch;
    const size_t planes = s.extent(2);
    std::vector<unsigned char> host = pattern(
        sliced ? slicePitch * (t == CL_MEM_OBJECT_IMAGE3D ? s.depth : s.layers)
               : rowPitch * (s.height ? s.height : 1),
        unsigned(t));
    std::vector<unsigned char> expect;
    for (size_t z = 0; z < planes; ++z)
      for (size_t y = 0; y < s.extent(1); ++y)
        for (size_t x = 0; x < s.width; ++x) {
          size_t o = at(x, y, z, pb, yStep, slicePitch);
          expect.insert(expect.end(), host.begin() + o, host.begin() + o + pb);
        }
    for (cl_mem_flags hostFlag : {CL_MEM_COPY_HOST_PTR, CL_MEM_USE_HOST_PTR}) {
      INFO(imageTypeName(t) << (hostFlag == CL_MEM_USE_HOST_PTR ? " use" : " copy"));
      std::vector<unsigned char> mine = host;
      cl_mem m = makeImage(fx.ctx, CL_MEM_READ_WRITE | hostFlag, f, s, mine.data(), rowPitch,
                           slicePitch);
      CHECK(readWholeImage(fx.queue, m, s, pb) == expect);
      // "If image was created with a non-zero value for image_row_pitch, then the value provided
      // for image_row_pitch by the application is returned" (and the slice pitch likewise).
      CHECK(imageInfo<size_t>(m, CL_IMAGE_ROW_PITCH) == rowPitch);
      CHECK(imageInfo<size_t>(m, CL_IMAGE_SLICE_PITCH) == slicePitch);
      CHECK(memObjectInfo<void*>(m, CL_MEM_HOST_PTR) ==
            (hostFlag == CL_MEM_USE_HOST_PTR ? mine.data() : nullptr));
      CHECK(memObjectInfo<cl_mem_flags>(m, CL_MEM_FLAGS) == (CL_MEM_READ_WRITE | hostFlag));
      // A write of pixel (1, last row, last plane) lands in the application's memory for
      // CL_MEM_USE_HOST_PTR, at its pitches; a copy leaves it alone.
      const unsigned char px[8] = {1, 2, 3, 4, 5, 6, 7, 8};
      size_t origin[3] = {1, s.extent(1) - 1, planes - 1}, region[3] = {1, 1, 1};
      REQUIRE(clEnqueueWriteImage(fx.queue, m, CL_TRUE, origin, region, 0, 0, px, 0, nullptr,
                                  nullptr) == CL_SUCCESS);
      size_t o = at(1, s.extent(1) - 1, planes - 1, pb, yStep, slicePitch);
      CHECK((std::memcmp(&mine[o], px, pb) == 0) == (hostFlag == CL_MEM_USE_HOST_PTR));
      // Mapping a CL_MEM_USE_HOST_PTR image gives the application's memory back.
      size_t mapRow = 0, mapSlice = 0;
      cl_int err = CL_SUCCESS;
      size_t zero[3] = {0, 0, 0}, one[3] = {1, 1, 1};
      void* p = clEnqueueMapImage(fx.queue, m, CL_TRUE, CL_MAP_READ, zero, one, &mapRow,
                                  &mapSlice, 0, nullptr, nullptr, &err);
      REQUIRE(err == CL_SUCCESS);
      if (hostFlag == CL_MEM_USE_HOST_PTR) {
        CHECK(p == mine.data());
        CHECK(mapRow == yStep);
      }
      REQUIRE(clEnqueueUnmapMemObject(fx.queue, m, p, 0, nullptr, nullptr) == CL_SUCCESS);
      clFinish(fx.queue);
      clReleaseMemObject(m);
    }
  }
  // CL_MEM_ALLOC_HOST_PTR alone, and with CL_MEM_COPY_HOST_PTR.
  const Shape s = smallShape(CL_MEM_OBJECT_IMAGE2D);
  std::vector<unsigned char> host = pattern(s.pixels() * pb, 77);
  cl_mem a = makeImage(fx.ctx, CL_MEM_ALLOC_HOST_PTR, f, s);
  CHECK(memObjectInfo<cl_mem_flags>(a, CL_MEM_FLAGS) == (CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE));
  cl_mem b = makeImage(fx.ctx, CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, f, s, host.data());
  CHECK(readWholeImage(fx.queue, b, s, pb) == host);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
}

TEST_CASE("Given a buffer, when 1D buffer images and 2D images are made over it, then they share "
          "its memory, inherit its flags and refuse what the spec refuses",
          "[cl][image][buffer]") {
  ClFixture fx;
  TESSERA_REQUIRE_IMAGES(fx.dev);
  cl_int err = CL_SUCCESS;
  const size_t pixels = 64;
  cl_mem buf = clCreateBuffer(fx.ctx, CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY, pixels * 4,
                              nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  std::vector<unsigned char> bytes = pattern(pixels * 4, 5);
  REQUIRE(clEnqueueWriteBuffer(fx.queue, buf, CL_TRUE, 0, bytes.size(), bytes.data(), 0, nullptr,
                               nullptr) == CL_SUCCESS);
  cl_image_desc d = describe({CL_MEM_OBJECT_IMAGE1D_BUFFER, pixels, 0, 0, 0}, 0, 0, buf);
  cl_mem img = clCreateImage(fx.ctx, 0, &kRgba8, &d, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  // "For CL_MEM_OBJECT_IMAGE1D_BUFFER image type ... if the CL_MEM_READ_WRITE, CL_MEM_READ_ONLY
  // or CL_MEM_WRITE_ONLY values are not specified in flags, they are inherited".
  CHECK(memObjectInfo<cl_mem_flags>(img, CL_MEM_FLAGS) ==
        (CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY));
  CHECK(imageInfo<cl_mem>(img, CL_IMAGE_BUFFER) == buf);
  CHECK(memObjectInfo<cl_mem>(img, CL_MEM_ASSOCIATED_MEMOBJECT) == buf);
  // The buffer's bytes are the image's pixels; the image is host-write-only like its buffer.
  std::vector<unsigned char> back(bytes.size());
  size_t origin[3] = {0, 0, 0}, region[3] = {pixels, 1, 1};
  CHECK(clEnqueueReadImage(fx.queue, img, CL_TRUE, origin, region, 0, 0, back.data(), 0, nullptr,
                           nullptr) == CL_INVALID_OPERATION);
  cl_mem other = clCreateBuffer(fx.ctx, 0, bytes.size(), nullptr, &err);
  REQUIRE(clEnqueueCopyImageToBuffer(fx.queue, img, other, origin, region, 0, 0, nullptr,
                                     nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(fx.queue, other, CL_TRUE, 0, back.size(), back.data(), 0, nullptr,
                              nullptr) == CL_SUCCESS);
  CHECK(back == bytes);
  // "CL_INVALID_MEM_OBJECT if src_image is a 1D image buffer object created from dst_buffer".
  CHECK(clEnqueueCopyImageToBuffer(fx.queue, img, buf, origin, region, 0, 0, nullptr, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  CHECK(clEnqueueCopyBufferToImage(fx.queue, buf, img, 0, origin, region, 0, nullptr, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  // The image keeps its buffer alive.
  clReleaseMemObject(buf);
  CHECK(clEnqueueCopyImageToBuffer(fx.queue, img, other, origin, region, 0, 0, nullptr,
                                   nullptr) == CL_SUCCESS);
  clFinish(fx.queue);
  clReleaseMemObject(img);

  // Flags against the buffer's: "mem_object was created with CL_MEM_READ_ONLY and flags specifies
  // CL_MEM_READ_WRITE or CL_MEM_WRITE_ONLY", "flags specifies CL_MEM_USE_HOST_PTR or
  // CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR", the host access flags likewise.
  cl_mem ro = clCreateBuffer(fx.ctx, CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 256, nullptr, &err);
  d = describe({CL_MEM_OBJECT_IMAGE1D_BUFFER, 64, 0, 0, 0}, 0, 0, ro);
  CHECK(imageCreateError(fx.ctx, CL_MEM_READ_WRITE, &kRgba8, &d) == CL_INVALID_VALUE);
  CHECK(imageCreateError(fx.ctx, CL_MEM_WRITE_ONLY, &kRgba8, &d) == CL_INVALID_VALUE);
  CHECK(imageCreateError(fx.ctx, CL_MEM_ALLOC_HOST_PTR, &kRgba8, &d) == CL_INVALID_VALUE);
  CHECK(imageCreateError(fx.ctx, CL_MEM_HOST_READ_ONLY, &kRgba8, &d) == CL_INVALID_VALUE);
  CHECK(imageCreateError(fx.ctx, CL_MEM_READ_ONLY, &kRgba8, &d) == CL_SUCCESS);
  // "image_width x size of element in bytes must be <= size of the buffer object".
  d.image_width = 65;
  CHECK(imageCreateError(fx.ctx, 0, &kRgba8, &d) == CL_INVALID_IMAGE_SIZE);
  // A host_ptr with an image made from a buffer.
  d.image_width = 64;
  unsigned char host[256];
  CHECK(imageCreateError(fx.ctx, 0, &kRgba8, &d, host) == CL_INVALID_HOST_PTR);
  // A 1D buffer image needs a buffer; other types take none but 2D; an image is not a buffer.
  d.mem_object = nullptr;
  CHECK(imageCreateError(fx.ctx, 0, &kRgba8, &d) == CL_INVALID_IMAGE_DESCRIPTOR);
  cl_mem image2d = makeImage(fx.ctx, 0, kRgba8, smallShape(CL_MEM_OBJECT_IMAGE2D));
  d.mem_object = image2d;
  CHECK(imageCreateError(fx.ctx, 0, &kRgba8, &d) == CL_INVALID_IMAGE_DESCRIPTOR);
  cl_image_desc d3 = describe(smallShape(CL_MEM_OBJECT_IMAGE3D), 0, 0, ro);
  CHECK(imageCreateError(fx.ctx, 0, &kRgba8, &d3) == CL_INVALID_IMAGE_DESCRIPTOR);
  ClFixture otherContext;
  cl_mem foreign = clCreateBuffer(otherContext.ctx, 0, 256, nullptr, &err);
  d.mem_object = foreign;
  CHECK(imageCreateError(fx.ctx, 0, &kRgba8, &d) == CL_INVALID_IMAGE_DESCRIPTOR);
  clReleaseMemObject(foreign);
  clReleaseMemObject(image2d);
  clReleaseMemObject(ro);
  clReleaseMemObject(other);
}

TEST_CASE("Given cl_khr_image2d_from_buffer, when a 2D image is made over a buffer with a row "
          "pitch, then its rows are the buffer's at that pitch",
          "[cl][image][buffer]") {
  ClFixture fx;
  TESSERA_REQUIRE_IMAGES(fx.dev);
  const cl_image_format f{CL_R, CL_FLOAT};
  const size_t width = 10, height = 6, align = deviceInfo<cl_uint>(fx.dev, CL_DEVICE_IMAGE_PITCH_ALIGNMENT);
  const size_t pitch = ((width + 5 + align - 1) / align) * align * 4;
  cl_int err = CL_SUCCESS;
  cl_mem buf = clCreateBuffer(fx.ctx, 0, pitch * height, nullptr, &err);
  std::vector<float> rows(pitch / 4 * height);
  for (size_t i = 0; i < rows.size(); ++i) rows[i] = float(i) * 0.5f;
  REQUIRE(clEnqueueWriteBuffer(fx.queue, buf, CL_TRUE, 0, pitch * height, rows.data(), 0, nullptr,
                               nullptr) == CL_SUCCESS);
  cl_image_desc d = describe({CL_MEM_OBJECT_IMAGE2D, width, height, 0, 0}, pitch, 0, buf);
  cl_mem img = clCreateImage(fx.ctx, CL_MEM_READ_ONLY, &f, &d, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(imageInfo<size_t>(img, CL_IMAGE_ROW_PITCH) == pitch);
  CHECK(imageInfo<cl_mem>(img, CL_IMAGE_BUFFER) == buf);
  std::vector<float> got(width * height);
  size_t origin[3] = {0, 0, 0}, region[3] = {width, height, 1};
  REQUIRE(clEnqueueReadImage(fx.queue, img, CL_TRUE, origin, region, 0, 0, got.data(), 0, nullptr,
                             nullptr) == CL_SUCCESS);
  for (size_t y = 0; y < height; ++y)
    for (size_t x = 0; x < width; ++x) CHECK(got[y * width + x] == rows[y * pitch / 4 + x]);
  clReleaseMemObject(img);
  // "the image_row_pitch x image_height must be <= size of the buffer object".
  d.image_height = height + 1;
  CHECK(imageCreateError(fx.ctx, 0, &f, &d) == CL_INVALID_IMAGE_SIZE);
  // A pitch below the row or not a multiple of the pixel.
  d.image_height = height;
  d.image_row_pitch = width * 4 - 4;
  CHECK(imageCreateError(fx.ctx, 0, &f, &d) == CL_INVALID_IMAGE_DESCRIPTOR);
  d.image_row_pitch = width * 4 + 2;
  CHECK(imageCreateError(fx.ctx, 0, &f, &d) == CL_INVALID_IMAGE_DESCRIPTOR);
  clReleaseMemObject(buf);
}

TEST_CASE("Given bad arguments, then image creation returns the spec's error for each",
          "[cl][image][errors]") {
  ClFixture fx;
  TESSERA_REQUIRE_IMAGES(fx.dev);
  cl_image_desc d = describe(smallShape(CL_MEM_OBJECT_IMAGE2D));
  unsigned char host[11 * 7 * 16] = {};
  // "CL_INVALID_CONTEXT if context is not a valid context".
  cl_int err = CL_SUCCESS;
  CHECK(clCreateImage(reinterpret_cast<cl_context>(fx.queue), 0, &kRgba8, &d, nullptr, &err) ==
        nullptr);
  CHECK(err == CL_INVALID_CONTEXT);
  // "CL_INVALID_VALUE if values specified in flags are not valid".
  CHECK(imageCreateError(fx.ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &kRgba8, &d) == CL_INVALID_VALUE);
  CHECK(imageCreateError(fx.ctx, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, &kRgba8, &d) ==
        CL_INVALID_VALUE);
  CHECK(imageCreateError(fx.ctx, CL_MEM_KERNEL_READ_AND_WRITE, &kRgba8, &d) == CL_INVALID_VALUE);
  CHECK(imageCreateError(fx.ctx, cl_mem_flags(1) << 40, &kRgba8, &d) == CL_INVALID_VALUE);
  CHECK(imageCreateError(fx.ctx, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, &kRgba8, &d, host) ==
        CL_INVALID_VALUE);
  // "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if values specified in image_format are not valid or if
  // image_format is NULL": unknown values, packed types with other orders than CL_RGB / CL_RGBx,
  // and element sizes that are not a power of two bits.
  CHECK(imageCreateError(fx.ctx, 0, nullptr, &d) == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  // Formats the spec allows that the device does not list: "CL_IMAGE_FORMAT_NOT_SUPPORTED if there
  // are no devices in context that support image_format".
  const std::pair<cl_image_format, cl_int> formats[] = {
      {{0x1234, CL_UNORM_INT8}, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR},
      {{CL_RGBA, 0x1234}, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR},
      {{CL_RGBA, CL_UNORM_SHORT_565}, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR},
      {{CL_R, CL_UNORM_INT_101010}, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR},
      {{CL_RGB, CL_UNORM_INT8}, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR},
      {{CL_RGB, CL_FLOAT}, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR},
      {{CL_BGRA, CL_UNORM_INT_101010_2}, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR},
      {{CL_sRGBA, CL_UNORM_INT8}, CL_IMAGE_FORMAT_NOT_SUPPORTED},
      {{CL_DEPTH, CL_FLOAT}, CL_IMAGE_FORMAT_NOT_SUPPORTED},
      {{CL_RGBx, CL_UNORM_SHORT_565}, CL_IMAGE_FORMAT_NOT_SUPPORTED},
      {{CL_INTENSITY, CL_UNSIGNED_INT8}, CL_IMAGE_FORMAT_NOT_SUPPORTED},
      {{CL_BGRA, CL_UNORM_INT16}, CL_IMAGE_FORMAT_NOT_SUPPORTED},
      {{CL_RGBA, CL_UNORM_INT_101010_2}, CL_IMAGE_FORMAT_NOT_SUPPORTED}};
  for (const auto& [format, code] : formats) {
    INFO(formatName(format));
    CHECK(imageCreateError(fx.ctx, 0, &format, &d) == code);
  }
  // "CL_INVALID_IMAGE_DESCRIPTOR if values specified in image_desc are not valid or if image_desc
  // is NULL".
  CHECK(imageCreateError(fx.ctx, 0, &kRgba8, nullptr) == CL_INVALID_IMAGE_DESCRIPTOR);
  auto bad = [&](auto change, void* hostPtr = nullptr, cl_mem_flags flags = 0) {
    cl_image_desc x = describe(smallShape(CL_MEM_OBJECT_IMAGE2D));
    change(x);
    return imageCreateError(fx.ctx, flags, &kRgba8, &x, hostPtr);
  };
  CHECK(bad([](cl_image_desc& x) { x.image_type = CL_MEM_OBJECT_BUFFER; }) ==
        CL_INVALID_IMAGE_DESCRIPTOR);
  CHECK(bad([](cl_image_desc& x) { x.image_width = 0; }) == CL_INVALID_IMAGE_DESCRIPTOR);
  CHECK(bad([](cl_image_desc& x) { x.image_height = 0; }) == CL_INVALID_IMAGE_DESCRIPTOR);
  CHECK(bad([](cl_image_desc& x) { x.num_mip_levels = 2; }) == CL_INVALID_IMAGE_DESCRIPTOR);
  CHECK(bad([](cl_image_desc& x) { x.num_samples = 4; }) == CL_INVALID_IMAGE_DESCRIPTOR);
  // "The image_row_pitch must be zero if host_ptr is NULL"; at least width x element size and a
  // multiple of it with one.
  CHECK(bad([](cl_image_desc& x) { x.image_row_pitch = 11 * 4; }) == CL_INVALID_IMAGE_DESCRIPTOR);
  CHECK(bad([](cl_image_desc& x) { x.image_row_pitch = 10 * 4; }, host, CL_MEM_COPY_HOST_PTR) ==
        CL_INVALID_IMAGE_DESCRIPTOR);
  CHECK(bad([](cl_image_desc& x) { x.image_row_pitch = 11 * 4 + 2; }, host,
            CL_MEM_COPY_HOST_PTR) == CL_INVALID_IMAGE_DESCRIPTOR);
  CHECK(bad([](cl_image_desc& x) { x.image_row_pitch = 12 * 4; }, host, CL_MEM_COPY_HOST_PTR) ==
        CL_SUCCESS);
  // Slice pitches: below row pitch x height (or a 1D array's row pitch), not a multiple of it.
  auto badArray = [&](cl_mem_object_type t, size_t slice) {
    cl_image_desc x = describe(smallShape(t));
    x.image_slice_pitch = slice;
    return imageCreateError(fx.ctx, CL_MEM_COPY_HOST_PTR, &kRgba8, &x, host);
  };
  CHECK(badArray(CL_MEM_OBJECT_IMAGE3D, 7 * 4 * 5 - 28) == CL_INVALID_IMAGE_DESCRIPTOR);
  CHECK(badArray(CL_MEM_OBJECT_IMAGE3D, 7 * 4 * 5 + 4) == CL_INVALID_IMAGE_DESCRIPTOR);
  CHECK(badArray(CL_MEM_OBJECT_IMAGE2D_ARRAY, 9 * 4 * 5 - 36) == CL_INVALID_IMAGE_DESCRIPTOR);
  CHECK(badArray(CL_MEM_OBJECT_IMAGE1D_ARRAY, 13 * 4 - 4) == CL_INVALID_IMAGE_DESCRIPTOR);
  CHECK(badArray(CL_MEM_OBJECT_IMAGE1D_ARRAY, 13 * 4 * 2) == CL_SUCCESS);
  CHECK(bad([](cl_image_desc& x) { x.image_type = CL_MEM_OBJECT_IMAGE3D; x.image_depth = 0; }) ==
        CL_INVALID_IMAGE_DESCRIPTOR);
  CHECK(bad([](cl_image_desc& x) {
          x.image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY;
          x.image_array_size = 0;
        }) == CL_INVALID_IMAGE_DESCRIPTOR);
  // "CL_INVALID_IMAGE_SIZE if image dimensions specified in image_desc exceed the maximum image
  // dimensions described in the Device Queries table for all devices in context".
  const size_t w2 = deviceInfo<size_t>(fx.dev, CL_DEVICE_IMAGE2D_MAX_WIDTH);
  const size_t d3 = deviceInfo<size_t>(fx.dev, CL_DEVICE_IMAGE3D_MAX_DEPTH);
  const size_t layers = deviceInfo<size_t>(fx.dev, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE);
  const size_t pixels = deviceInfo<size_t>(fx.dev, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE);
  CHECK(bad([&](cl_image_desc& x) { x.image_width = w2 + 1; }) == CL_INVALID_IMAGE_SIZE);
  CHECK(bad([&](cl_image_desc& x) { x.image_height = w2 * 4; }) == CL_INVALID_IMAGE_SIZE);
  CHECK(bad([&](cl_image_desc& x) {
          x.image_type = CL_MEM_OBJECT_IMAGE1D;
          x.image_width = w2 + 1;
        }) == CL_INVALID_IMAGE_SIZE);
  CHECK(bad([&](cl_image_desc& x) {
          x.image_type = CL_MEM_OBJECT_IMAGE3D;
          x.image_depth = d3 + 1;
        }) == CL_INVALID_IMAGE_SIZE);
  CHECK(bad([&](cl_image_desc& x) {
          x.image_type = CL_MEM_OBJECT_IMAGE1D_ARRAY;
          x.image_array_size = layers + 1;
        }) == CL_INVALID_IMAGE_SIZE);
  cl_mem big = clCreateBuffer(fx.ctx, 0, 64, nullptr, &err);
  CHECK(bad([&](cl_image_desc& x) {
          x.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
          x.image_width = pixels + 1;
          x.mem_object = big;
        }) == CL_INVALID_IMAGE_SIZE);
  clReleaseMemObject(big);
  // "CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR are
  // set in flags or if host_ptr is not NULL but CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are
  // not set in flags."
  CHECK(imageCreateError(fx.ctx, CL_MEM_USE_HOST_PTR, &kRgba8, &d) == CL_INVALID_HOST_PTR);
  CHECK(imageCreateError(fx.ctx, CL_MEM_COPY_HOST_PTR, &kRgba8, &d) == CL_INVALID_HOST_PTR);
  CHECK(imageCreateError(fx.ctx, CL_MEM_READ_WRITE, &kRgba8, &d, host) == CL_INVALID_HOST_PTR);
  // "CL_INVALID_PROPERTY if a property name in properties is not a supported property name":
  // OpenCL defines none for images. An empty list is kept (CL_MEM_PROPERTIES).
  cl_mem_properties props[] = {0x4242, 1, 0};
  CHECK(clCreateImageWithProperties(fx.ctx, props, 0, &kRgba8, &d, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_PROPERTY);
  cl_mem_properties empty[] = {0};
  cl_mem m = clCreateImageWithProperties(fx.ctx, empty, CL_MEM_WRITE_ONLY, &kRgba8, &d, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem_properties got[2] = {7, 7};
  size_t n = 0;
  REQUIRE(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, sizeof got, got, &n) == CL_SUCCESS);
  CHECK(n == sizeof(cl_mem_properties));
  CHECK(got[0] == 0);
  clReleaseMemObject(m);
}

TEST_CASE("Given the OpenCL 1.1 creators, then clCreateImage2D and clCreateImage3D make the same "
          "images and name bad sizes and pitches CL_INVALID_IMAGE_SIZE",
          "[cl][image][errors]") {
  ClFixture fx;
  TESSERA_REQUIRE_IMAGES(fx.dev);
  cl_int err = CL_SUCCESS;
  std::vector<unsigned char> host = pattern(16 * 8 * 3 * 4, 9);
  cl_mem m2 = clCreateImage2D(fx.ctx, CL_MEM_COPY_HOST_PTR, &kRgba8, 16, 8, 16 * 4 * 2,
                              host.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(memObjectInfo<cl_mem_object_type>(m2, CL_MEM_TYPE) == CL_MEM_OBJECT_IMAGE2D);
  CHECK(imageInfo<size_t>(m2, CL_IMAGE_ROW_PITCH) == 16 * 4 * 2);
  cl_mem m3 = clCreateImage3D(fx.ctx, 0, &kRgba8, 16, 8, 3, 0, 0, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(memObjectInfo<cl_mem_object_type>(m3, CL_MEM_TYPE) == CL_MEM_OBJECT_IMAGE3D);
  CHECK(imageInfo<size_t>(m3, CL_IMAGE_DEPTH) == 3);
  clReleaseMemObject(m2);
  clReleaseMemObject(m3);
  // "CL_INVALID_IMAGE_SIZE if image_width or image_height are 0 ... or if values specified by
  // image_row_pitch do not follow rules described in the argument description above"; for 3D also
  // "if image_depth <= 1".
  CHECK(clCreateImage2D(fx.ctx, 0, &kRgba8, 0, 8, 0, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_IMAGE_SIZE);
  CHECK(clCreateImage2D(fx.ctx, 0, &kRgba8, 16, 8, 64, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_IMAGE_SIZE);
  CHECK(clCreateImage2D(fx.ctx, CL_MEM_COPY_HOST_PTR, &kRgba8, 16, 8, 60, host.data(), &err) ==
        nullptr);
  CHECK(err == CL_INVALID_IMAGE_SIZE);
  for (size_t depth : {0, 1}) {
    CHECK(clCreateImage3D(fx.ctx, 0, &kRgba8, 16, 8, depth, 0, 0, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_IMAGE_SIZE);
  }
  CHECK(clCreateImage3D(fx.ctx, CL_MEM_COPY_HOST_PTR, &kRgba8, 16, 8, 3, 64, 64 * 7, host.data(),
                        &err) == nullptr);
  CHECK(err == CL_INVALID_IMAGE_SIZE);
  CHECK(clCreateImage2D(fx.ctx, 0, nullptr, 16, 8, 0, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  CHECK(clCreateImage3D(fx.ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &kRgba8, 16, 8, 3, 0, 0,
                        nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
}
