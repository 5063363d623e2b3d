// Image objects through ocl-icd: the device's image limits, clGetSupportedImageFormats, every
// format and image type created and read back, clGetImageInfo and clGetMemObjectInfo, the host
// pointer flags with their pitches, images over buffers, the 1.1 creators and every refusal of
// image creation the spec names.
#include <algorithm>
#include <cstring>
#include <vector>

#include "image_test_support.h"

using namespace tessera::cltest;

namespace {

std::vector<cl_image_format> listed(cl_context ctx, cl_mem_flags flags, cl_mem_object_type t) {
  cl_uint n = 0;
  REQUIRE(clGetSupportedImageFormats(ctx, flags, t, 0, nullptr, &n) == CL_SUCCESS);
  std::vector<cl_image_format> v(n);
  if (n) REQUIRE(clGetSupportedImageFormats(ctx, flags, t, n, v.data(), nullptr) == CL_SUCCESS);
  return v;
}

bool contains(const std::vector<cl_image_format>& v, const cl_image_format& f) {
  return std::any_of(v.begin(), v.end(), [&](const cl_image_format& x) {
    return x.image_channel_order == f.image_channel_order &&
           x.image_channel_data_type == f.image_channel_data_type;
  });
}

}  // namespace

TEST_CASE("Given the device, then it reports images with at least the FULL_PROFILE limits",
          "[cl][image]") {
  cl_device_id d = device();
  TESSERA_REQUIRE_IMAGES(d);
  // The Device Queries table's minimums "if CL_DEVICE_IMAGE_SUPPORT is CL_TRUE".
  CHECK(deviceInfo<size_t>(d, CL_DEVICE_IMAGE2D_MAX_WIDTH) >= 16384);
  CHECK(deviceInfo<size_t>(d, CL_DEVICE_IMAGE2D_MAX_HEIGHT) >= 16384);
  CHECK(deviceInfo<size_t>(d, CL_DEVICE_IMAGE3D_MAX_WIDTH) >= 2048);
  CHECK(deviceInfo<size_t>(d, CL_DEVICE_IMAGE3D_MAX_HEIGHT) >= 2048);
  CHECK(deviceInfo<size_t>(d, CL_DEVICE_IMAGE3D_MAX_DEPTH) >= 2048);
  CHECK(deviceInfo<size_t>(d, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE) >= 65536);
  CHECK(deviceInfo<size_t>(d, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE) >= 2048);
  CHECK(deviceInfo<cl_uint>(d, CL_DEVICE_MAX_READ_IMAGE_ARGS) >= 128);
  CHECK(deviceInfo<cl_uint>(d, CL_DEVICE_MAX_WRITE_IMAGE_ARGS) >= 64);
  CHECK(deviceInfo<cl_uint>(d, CL_DEVICE_MAX_SAMPLERS) >= 16);
  // "The minimum value is 64 if the device supports read-write images arguments, and must be 0
  // for devices that do not support read-write images."
  cl_uint rw = deviceInfo<cl_uint>(d, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS);
  CHECK((rw == 0 || rw >= 64));
  // 2D images from buffers (cl_khr_image2d_from_buffer): "The value returned must be a power of 2."
  for (cl_device_info q : {CL_DEVICE_IMAGE_PITCH_ALIGNMENT, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT}) {
    cl_uint a = deviceInfo<cl_uint>(d, q);
    CHECK(a != 0);
    CHECK((a & (a - 1)) == 0);
  }
  CHECK(deviceString(d, CL_DEVICE_EXTENSIONS).find("cl_khr_image2d_from_buffer") !=
        std::string::npos);
}

TEST_CASE("Given every image type and kernel access, then clGetSupportedImageFormats lists every "
          "required format and refuses bad arguments",
          "[cl][image][formats]") {
  ClFixture fx;
  TESSERA_REQUIRE_IMAGES(fx.dev);
  const bool readWrite = deviceInfo<cl_uint>(fx.dev, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS) > 0;
  for (cl_mem_object_type t : imageTypes()) {
    for (cl_mem_flags flags : {CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY,
                               CL_MEM_KERNEL_READ_AND_WRITE, CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
                               CL_MEM_WRITE_ONLY | CL_MEM_ALLOC_HOST_PTR}) {
      INFO(imageTypeName(t) << " flags " << flags);
      std::vector<cl_image_format> v = listed(fx.ctx, flags, t);
      if (flags == CL_MEM_KERNEL_READ_AND_WRITE && !readWrite) {
        CHECK(v.empty());
        continue;
      }
      for (const cl_image_format& f : requiredFormats(flags == CL_MEM_KERNEL_READ_AND_WRITE)) {
        INFO(formatName(f));
        CHECK(contains(v, f));
      }
      // Every format listed can be created with those flags.
      CHECK(v.size() == allFormats().size());
      for (const cl_image_format& f : allFormats()) CHECK(contains(v, f));
    }
  }
  // num_entries smaller than the list: that many are written, the count is the whole list's.
  cl_image_format two[3] = {};
  two[2].image_channel_order = 0x1234;
  cl_uint n = 0;
  REQUIRE(clGetSupportedImageFormats(fx.ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 2, two, &n) ==
          CL_SUCCESS);
  CHECK(n == allFormats().size());
  CHECK(two[2].image_channel_order == 0x1234);
  CHECK(contains(allFormats(), two[0]));
  // "CL_INVALID_VALUE if flags or image_type are not valid, or if num_entries is 0 and
  // image_formats is not NULL."
  CHECK(clGetSupportedImageFormats(fx.ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_BUFFER, 0, nullptr,
                                   &n) == CL_INVALID_VALUE);
  CHECK(clGetSupportedImageFormats(fx.ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_PIPE, 0, nullptr, &n) ==
        CL_INVALID_VALUE);
  CHECK(clGetSupportedImageFormats(fx.ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, two, &n) ==
        CL_INVALID_VALUE);
  CHECK(clGetSupportedImageFormats(fx.ctx, cl_mem_flags(1) << 40, CL_MEM_OBJECT_IMAGE2D, 0,
                                   nullptr, &n) == CL_INVALID_VALUE);
  CHECK(clGetSupportedImageFormats(fx.ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
                                   CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &n) == CL_INVALID_VALUE);
  CHECK(clGetSupportedImageFormats(reinterpret_cast<cl_context>(fx.queue), 0,
                                   CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &n) == CL_INVALID_CONTEXT);
  // Null outputs are ignored.
  CHECK(clGetSupportedImageFormats(fx.ctx, 0, CL_MEM_OBJECT_IMAGE3D, 0, nullptr, nullptr) ==
        CL_SUCCESS);
}

TEST_CASE("Given every format and image type, when an image is written and read whole, then the "
          "bytes come back and every query answers its description",
          "[cl][image][formats]") {
  ClFixture fx;
  TESSERA_REQUIRE_IMAGES(fx.dev);
  unsigned seed = 0;
  for (cl_mem_object_type t : imageTypes()) {
    const Shape s = smallShape(t);
    for (const cl_image_format& f : allFormats()) {
      INFO(imageTypeName(t) << " " << formatName(f));
      const size_t pb = pixelSize(f);
      cl_mem m = makeImage(fx.ctx, CL_MEM_READ_WRITE, f, s);
      std::vector<unsigned char> data = pattern(s.pixels() * pb, ++seed);
      clearUndefinedBits(f, data);
      size_t origin[3] = {0, 0, 0}, region[3] = {s.extent(0), s.extent(1), s.extent(2)};
      REQUIRE(clEnqueueWriteImage(fx.queue, m, CL_TRUE, origin, region, 0, 0, data.data(), 0,
                                  nullptr, nullptr) == CL_SUCCESS);
      std::vector<unsigned char> back = readWholeImage(fx.queue, m, s, pb);
      clearUndefinedBits(f, back);
      CHECK(back == data);

      cl_image_format got = imageInfo<cl_image_format>(m, CL_IMAGE_FORMAT);
      CHECK(got.image_channel_order == f.image_channel_order);
      CHECK(got.image_channel_data_type == f.image_channel_data_type);
      CHECK(imageInfo<size_t>(m, CL_IMAGE_ELEMENT_SIZE) == pb);
      CHECK(imageInfo<size_t>(m, CL_IMAGE_WIDTH) == s.width);
      CHECK(imageInfo<size_t>(m, CL_IMAGE_HEIGHT) == s.height);
      CHECK(imageInfo<size_t>(m, CL_IMAGE_DEPTH) == s.depth);
      CHECK(imageInfo<size_t>(m, CL_IMAGE_ARRAY_SIZE) == s.layers);
      CHECK(imageInfo<size_t>(m, CL_IMAGE_ROW_PITCH) == s.width * pb);
      // "calculated as: CL_IMAGE_ROW_PITCH for 1D image arrays. CL_IMAGE_HEIGHT x
      // CL_IMAGE_ROW_PITCH for 3D images and 2D image arrays. For a 1D image, 1D image buffer and
      // 2D image object return 0."
      size_t slice = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? s.width * pb
                     : t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D
                         ? s.width * pb * s.height
                         : 0;
      CHECK(imageInfo<size_t>(m, CL_IMAGE_SLICE_PITCH) == slice);
      CHECK(imageInfo<cl_uint>(m, CL_IMAGE_NUM_MIP_LEVELS) == 0);
      CHECK(imageInfo<cl_uint>(m, CL_IMAGE_NUM_SAMPLES) == 0);
      cl_mem buffer = imageInfo<cl_mem>(m, CL_IMAGE_BUFFER);
      CHECK((buffer != nullptr) == (t == CL_MEM_OBJECT_IMAGE1D_BUFFER));
      CHECK(memObjectInfo<cl_mem>(m, CL_MEM_ASSOCIATED_MEMOBJECT) == buffer);
      CHECK(memObjectInfo<cl_mem_object_type>(m, CL_MEM_TYPE) == t);
      CHECK(memObjectInfo<cl_mem_flags>(m, CL_MEM_FLAGS) == CL_MEM_READ_WRITE);
      CHECK(memObjectInfo<size_t>(m, CL_MEM_SIZE) >= s.pixels() * pb);
      CHECK(memObjectInfo<void*>(m, CL_MEM_HOST_PTR) == nullptr);
      CHECK(memObjectInfo<cl_context>(m, CL_MEM_CONTEXT) == fx.ctx);
      CHECK(memObjectInfo<size_t>(m, CL_MEM_OFFSET) == 0);
      CHECK(memObjectInfo<cl_uint>(m, CL_MEM_REFERENCE_COUNT) == 1);
      CHECK(memObjectInfo<cl_uint>(m, CL_MEM_MAP_COUNT) == 0);
      CHECK(memObjectInfo<cl_bool>(m, CL_MEM_USES_SVM_POINTER) == CL_FALSE);
      size_t propsSize = 99;
      CHECK(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, nullptr, &propsSize) == CL_SUCCESS);
      CHECK(propsSize == 0);
      clReleaseMemObject(m);
    }
  }
}

TEST_CASE("Given clGetImageInfo, then a buffer or a bad query is refused and sizes are checked",
          "[cl][image]") {
  ClFixture fx;
  TESSERA_REQUIRE_IMAGES(fx.dev);
  cl_image_format f{CL_RGBA, CL_UNORM_INT8};
  cl_mem m = makeImage(fx.ctx, 0, f, smallShape(CL_MEM_OBJECT_IMAGE2D));
  cl_int err = CL_SUCCESS;
  cl_mem buf = clCreateBuffer(fx.ctx, 0, 64, nullptr, &err);
  size_t v = 0, size = 0;
  // "CL_INVALID_MEM_OBJECT if image is a not a valid image object": a buffer is not one.
  CHECK(clGetImageInfo(buf, CL_IMAGE_WIDTH, sizeof v, &v, nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clGetImageInfo(reinterpret_cast<cl_mem>(fx.ctx), CL_IMAGE_WIDTH, sizeof v, &v, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  CHECK(clGetImageInfo(m, 0x4242, sizeof v, &v, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetImageInfo(m, CL_IMAGE_WIDTH, sizeof v - 1, &v, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetImageInfo(m, CL_IMAGE_FORMAT, 0, nullptr, &size) == CL_SUCCESS);
  CHECK(size == sizeof(cl_image_format));
  // The default flags: "CL_MEM_READ_WRITE".
  CHECK(memObjectInfo<cl_mem_flags>(m, CL_MEM_FLAGS) == CL_MEM_READ_WRITE);
  // A buffer is refused where an image is asked for, and an image where a buffer is.
  cl_buffer_region r{0, 16};
  CHECK(clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) == nullptr);
  CHECK(err == CL_INVALID_MEM_OBJECT);
  unsigned char bytes[64];
  CHECK(clEnqueueReadBuffer(fx.queue, m, CL_TRUE, 0, 4, bytes, 0, nullptr, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  CHECK(clEnqueueFillBuffer(fx.queue, m, bytes, 4, 0, 4, 0, nullptr, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  CHECK(clEnqueueMapBuffer(fx.queue, m, CL_TRUE, CL_MAP_READ, 0, 4, 0, nullptr, nullptr, &err) ==
        nullptr);
  CHECK(err == CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(buf);
  clReleaseMemObject(m);
}
