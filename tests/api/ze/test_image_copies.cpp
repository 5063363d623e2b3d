// Image copies through the API: whole images and regions, to and from memory with and without
// pitches, image to image, on a compute queue, the copy engine and immediate lists; each result
// checked against a reference computed here from the image layout (image_abi.h: pixel (x, y, z) at
// x * pixel bytes + y * rowPitch + z * slicePitch, a 1D array's layers being y); events, errors,
// and a copy from memory that went away losing the context, not the process.
#include <sys/mman.h>

#include <cstring>
#include <vector>

#include "image_test_support.h"
#include "tessera/ze_tessera.h"

using namespace tessera::test;

namespace {

// One image's shape in pixels as the kernel indexes it.
struct Shape {
  ze_image_type_t type;
  uint64_t w, rows, slices;
};

const Shape kShapes[] = {
    {ZE_IMAGE_TYPE_1D, 37, 1, 1},      {ZE_IMAGE_TYPE_BUFFER, 53, 1, 1},
    {ZE_IMAGE_TYPE_1DARRAY, 19, 5, 1}, {ZE_IMAGE_TYPE_2D, 17, 9, 1},
    {ZE_IMAGE_TYPE_2DARRAY, 11, 7, 4}, {ZE_IMAGE_TYPE_3D, 13, 6, 5},
};

ze_image_desc_t descOf(const Shape& s, ze_image_format_t f) {
  switch (s.type) {
    case ZE_IMAGE_TYPE_1DARRAY:
      return imageDesc(s.type, f, s.w, 1, 1, uint32_t(s.rows));
    case ZE_IMAGE_TYPE_2DARRAY:
      return imageDesc(s.type, f, s.w, uint32_t(s.rows), 1, uint32_t(s.slices));
    default:
      return imageDesc(s.type, f, s.w, uint32_t(s.rows), uint32_t(s.slices));
  }
}

// The image's bytes, tightly packed, as the reference keeps them.
struct Reference {
  Shape s;
  uint32_t pb;
  std::vector<uint8_t> bytes;
  Reference(const Shape& shape, uint32_t pixelBytes, uint8_t seed)
      : s(shape), pb(pixelBytes), bytes(shape.w * shape.rows * shape.slices * pixelBytes) {
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(i * 7 + seed + (i >> 8));
  }
  uint8_t* pixel(uint64_t x, uint64_t y, uint64_t z) {
    return bytes.data() + ((z * s.rows + y) * s.w + x) * pb;
  }
};

// Where pixel (x, y, z) of a region lies in memory with the pitches a ...MemoryExt call is given
// (0: tight), by the rule the image tests assert: a 1D array's layers step by the slice pitch.
struct MemoryLayout {
  uint64_t yStep, zStep;
  MemoryLayout(ze_image_type_t t, uint64_t rowBytes, uint64_t rows, uint64_t rowPitch,
               uint64_t slicePitch) {
    if (t == ZE_IMAGE_TYPE_1DARRAY) {
      yStep = slicePitch ? slicePitch : rowPitch ? rowPitch : rowBytes;
      zStep = yStep * rows;
    } else {
      yStep = rowPitch ? rowPitch : rowBytes;
      zStep = slicePitch ? slicePitch : yStep * rows;
    }
  }
};

// How the copies run.
enum class Path { ComputeQueue, CopyQueue, Immediate };

class CopyFixture : public ImageFixture {
 public:
  explicit CopyFixture(Path path) : path_(path) {
    if (path == Path::Immediate) {
      list_ = immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
    } else {
      uint32_t ordinal = path == Path::CopyQueue ? 1 : 0;
      queue_ = queue(ordinal);
      list_ = list(ordinal);
    }
  }
  ze_command_list_handle_t cmdList() const { return list_; }
  // Runs what was appended (an immediate list already did).
  void flush() {
    if (path_ == Path::Immediate) return;
    run(queue_, list_);
    REQUIRE(zeCommandListReset(list_) == ZE_RESULT_SUCCESS);
  }
  void upload(ze_image_handle_t image, const void* src) {
    REQUIRE(zeCommandListAppendImageCopyFromMemory(list_, image, src, nullptr, nullptr, 0,
                                                   nullptr) == ZE_RESULT_SUCCESS);
    flush();
  }
  std::vector<uint8_t> download(ze_image_handle_t image, size_t bytes) {
    std::vector<uint8_t> out(bytes, 0xEE);
    REQUIRE(zeCommandListAppendImageCopyToMemory(list_, out.data(), image, nullptr, nullptr, 0,
                                                 nullptr) == ZE_RESULT_SUCCESS);
    flush();
    return out;
  }

 private:
  Path path_;
  ze_command_queue_handle_t queue_ = nullptr;
  ze_command_list_handle_t list_ = nullptr;
};

const char* nameOf(Path p) {
  return p == Path::ComputeQueue ? "compute queue"
         : p == Path::CopyQueue  ? "copy queue"
                                 : "immediate list";
}

}  // namespace

TEST_CASE(
    "Given each image type, when whole images and regions are copied to and from memory "
    "with and without pitches and between images, then every byte is the reference's",
    "[image][copy]") {
  for (Path path : {Path::ComputeQueue, Path::CopyQueue, Path::Immediate})
    for (const Shape& s : kShapes)
      for (auto [layout, pb] : {std::pair{ZE_IMAGE_FORMAT_LAYOUT_8, 1u},
                                {ZE_IMAGE_FORMAT_LAYOUT_5_6_5, 2u},
                                {ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16, 8u},
                                {ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32, 16u}}) {
        INFO(nameOf(path) << ", image type " << s.type << ", " << pb << "-byte pixels");
        CopyFixture fx(path);
        auto type = layout == ZE_IMAGE_FORMAT_LAYOUT_5_6_5 ? ZE_IMAGE_FORMAT_TYPE_UNORM
                                                           : ZE_IMAGE_FORMAT_TYPE_UINT;
        auto desc = descOf(s, imageFormat(layout, type));
        Reference ref(s, pb, 3);
        ze_image_handle_t a = fx.image(desc), b = fx.image(desc), c = fx.image(desc);

        // Whole image in and out; the layout as the kernel sees it.
        fx.upload(a, ref.bytes.data());
        CHECK(fx.download(a, ref.bytes.size()) == ref.bytes);
        auto getMemory =
            extensionFunction<ze_pfnTesseraImageGetMemory_t>(fx.driver, "zeTesseraImageGetMemory");
        void* data = nullptr;
        size_t row = 0, slice = 0;
        REQUIRE(getMemory(a, &data, &row, &slice) == ZE_RESULT_SUCCESS);
        for (uint64_t z = 0; z < s.slices; ++z)
          for (uint64_t y = 0; y < s.rows; ++y)
            CHECK(std::memcmp(static_cast<uint8_t*>(data) + y * row + z * slice, ref.pixel(0, y, z),
                              s.w * pb) == 0);

        // A region to memory with padded pitches: the padding stays untouched.
        ze_image_region_t region{2,
                                 uint32_t(s.rows > 2),
                                 uint32_t(s.slices > 2),
                                 uint32_t(s.w - 4),
                                 uint32_t(s.rows > 2 ? s.rows - 2 : s.rows),
                                 uint32_t(s.slices > 2 ? s.slices - 2 : s.slices)};
        const uint64_t rowBytes = region.width * pb;
        const uint32_t rowPitch = uint32_t(rowBytes + 24),
                       slicePitch = uint32_t((rowBytes + 24) * region.height + 40);
        MemoryLayout mem(s.type, rowBytes, region.height, rowPitch, slicePitch);
        std::vector<uint8_t> out(mem.zStep * region.depth + mem.yStep * region.height, 0xEE);
        REQUIRE(zeCommandListAppendImageCopyToMemoryExt(fx.cmdList(), out.data(), a, &region,
                                                        rowPitch, slicePitch, nullptr, 0,
                                                        nullptr) == ZE_RESULT_SUCCESS);
        fx.flush();
        std::vector<uint8_t> expected(out.size(), 0xEE);
        for (uint32_t z = 0; z < region.depth; ++z)
          for (uint32_t y = 0; y < region.height; ++y)
            std::memcpy(expected.data() + z * mem.zStep + y * mem.yStep,
                        ref.pixel(region.originX, region.originY + y, region.originZ + z),
                        rowBytes);
        CHECK(out == expected);

        // The same bytes back into a fresh image at another origin, from padded memory.
        std::vector<uint8_t> zeros(ref.bytes.size(), 0);
        fx.upload(b, zeros.data());
        ze_image_region_t at = region;
        at.originX = 1;
        REQUIRE(zeCommandListAppendImageCopyFromMemoryExt(fx.cmdList(), b, out.data(), &at,
                                                          rowPitch, slicePitch, nullptr, 0,
                                                          nullptr) == ZE_RESULT_SUCCESS);
        fx.flush();
        Reference bRef(s, pb, 0);
        std::fill(bRef.bytes.begin(), bRef.bytes.end(), 0);
        for (uint32_t z = 0; z < region.depth; ++z)
          for (uint32_t y = 0; y < region.height; ++y)
            std::memcpy(bRef.pixel(at.originX, at.originY + y, at.originZ + z),
                        ref.pixel(region.originX, region.originY + y, region.originZ + z),
                        rowBytes);
        CHECK(fx.download(b, ref.bytes.size()) == bRef.bytes);

        // Image to image: a region, then the whole image.
        ze_image_region_t src{0, 0, 0, 3, uint32_t(s.rows), uint32_t(s.slices)};
        ze_image_region_t dst{uint32_t(s.w - 3), 0, 0, 3, uint32_t(s.rows), uint32_t(s.slices)};
        REQUIRE(zeCommandListAppendImageCopyRegion(fx.cmdList(), b, a, &dst, &src, nullptr, 0,
                                                   nullptr) == ZE_RESULT_SUCCESS);
        REQUIRE(zeCommandListAppendImageCopy(fx.cmdList(), c, a, nullptr, 0, nullptr) ==
                ZE_RESULT_SUCCESS);
        fx.flush();
        for (uint64_t z = 0; z < s.slices; ++z)
          for (uint64_t y = 0; y < s.rows; ++y)
            std::memcpy(bRef.pixel(s.w - 3, y, z), ref.pixel(0, y, z), 3 * pb);
        CHECK(fx.download(b, ref.bytes.size()) == bRef.bytes);
        CHECK(fx.download(c, ref.bytes.size()) == ref.bytes);
      }
}

TEST_CASE("Given a 1D array, when memory gives only a row pitch, then the layers step by it",
          "[image][copy]") {
  CopyFixture fx(Path::Immediate);
  Shape s{ZE_IMAGE_TYPE_1DARRAY, 8, 3, 1};
  auto image =
      fx.image(descOf(s, imageFormat(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UINT)));
  Reference ref(s, 4, 9);
  fx.upload(image, ref.bytes.data());
  std::vector<uint8_t> out(3 * 48, 0xEE);
  REQUIRE(zeCommandListAppendImageCopyToMemoryExt(fx.cmdList(), out.data(), image, nullptr, 48, 0,
                                                  nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  for (uint64_t layer = 0; layer < 3; ++layer)
    CHECK(std::memcmp(out.data() + layer * 48, ref.pixel(0, layer, 0), 32) == 0);
}

TEST_CASE(
    "Given an asynchronous immediate list, when an image copy waits on an event and signals "
    "another, then it runs only after the wait and signals when done",
    "[image][copy]") {
  ImageFixture fx;
  auto list = fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  auto events = fx.events(2);
  ze_image_handle_t image = fx.rgba8(16, 16);
  std::vector<uint8_t> src(16 * 16 * 4, 0x11), out(src.size(), 0);
  REQUIRE(zeCommandListAppendImageCopyFromMemory(list, image, src.data(), nullptr, nullptr, 1,
                                                 &events[0]) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendImageCopyToMemory(list, out.data(), image, nullptr, events[1], 0,
                                               nullptr) == ZE_RESULT_SUCCESS);
  // The source changes before the wait is released: the copy must see the new bytes.
  std::fill(src.begin(), src.end(), 0x77);
  CHECK(zeEventQueryStatus(events[1]) == ZE_RESULT_NOT_READY);
  REQUIRE(zeEventHostSignal(events[0]) == ZE_RESULT_SUCCESS);
  REQUIRE(zeEventHostSynchronize(events[1], kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(out == src);
}

TEST_CASE(
    "Given image copies that do not fit, then each is refused with its code and nothing is "
    "appended",
    "[image][copy]") {
  ImageFixture fx;
  auto l = fx.list();
  ze_image_handle_t a = fx.rgba8(8, 8), b = fx.rgba8(8, 8), big = fx.rgba8(16, 8);
  ze_image_handle_t r16 = fx.image(imageDesc(
      ZE_IMAGE_TYPE_2D, imageFormat(ZE_IMAGE_FORMAT_LAYOUT_16, ZE_IMAGE_FORMAT_TYPE_UINT), 8, 8));
  std::vector<uint8_t> mem(1024);
  ze_image_region_t inside{4, 4, 0, 4, 4, 1}, past{5, 4, 0, 4, 4, 1}, deep{0, 0, 1, 4, 4, 1};
  CHECK(zeCommandListAppendImageCopyRegion(l, b, a, &past, &inside, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeCommandListAppendImageCopyRegion(l, b, a, &inside, &deep, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeCommandListAppendImageCopyToMemory(l, mem.data(), a, &past, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeCommandListAppendImageCopyFromMemory(l, a, mem.data(), &past, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  // Pixel sizes differ (4 and 2 bytes).
  CHECK(zeCommandListAppendImageCopy(l, r16, a, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  // Regions (or whole images) of different sizes.
  ze_image_region_t small{0, 0, 0, 2, 2, 1};
  CHECK(zeCommandListAppendImageCopyRegion(l, b, a, &inside, &small, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_SIZE);
  CHECK(zeCommandListAppendImageCopy(l, big, a, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_SIZE);
  // Overlapping regions of one image; beside each other they are fine.
  ze_image_region_t shifted{2, 2, 0, 4, 4, 1}, beside{0, 0, 0, 4, 4, 1};
  CHECK(zeCommandListAppendImageCopyRegion(l, a, a, &shifted, &inside, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_OVERLAPPING_REGIONS);
  CHECK(zeCommandListAppendImageCopyRegion(l, a, a, &beside, &inside, nullptr, 0, nullptr) ==
        ZE_RESULT_SUCCESS);
  // Memory pitches smaller than a row (or a slice) of the region.
  CHECK(zeCommandListAppendImageCopyToMemoryExt(l, mem.data(), a, &inside, 12, 0, nullptr, 0,
                                                nullptr) == ZE_RESULT_ERROR_INVALID_SIZE);
  ze_image_handle_t cube = fx.image(imageDesc(
      ZE_IMAGE_TYPE_3D, imageFormat(ZE_IMAGE_FORMAT_LAYOUT_8, ZE_IMAGE_FORMAT_TYPE_UINT), 4, 4, 4));
  CHECK(zeCommandListAppendImageCopyFromMemoryExt(l, cube, mem.data(), nullptr, 4, 12, nullptr, 0,
                                                  nullptr) == ZE_RESULT_ERROR_INVALID_SIZE);
  CHECK(zeCommandListAppendImageCopyToMemory(l, nullptr, a, nullptr, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeCommandListAppendImageCopyFromMemory(l, a, nullptr, nullptr, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
}

TEST_CASE(
    "Given an image over memory the caller took away, when it is copied, then the context "
    "is lost and the process lives",
    "[image][copy][containment]") {
  ImageFixture fx;
  const size_t bytes = 64 * 64 * 4;
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(p != MAP_FAILED);
  ze_tessera_image_memory_desc_t mem{ZE_STRUCTURE_TYPE_TESSERA_IMAGE_MEMORY_DESC, nullptr, p, 0, 0};
  auto d =
      imageDesc(ZE_IMAGE_TYPE_2D,
                imageFormat(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM), 64, 64);
  d.pNext = &mem;
  ze_image_handle_t image = fx.image(d);
  std::vector<uint8_t> out(bytes);
  auto q = fx.queue();
  auto l = fx.list();
  REQUIRE(zeCommandListAppendImageCopyToMemory(l, out.data(), image, nullptr, nullptr, 0,
                                               nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  // Inaccessible but still reserved, so nothing else can be mapped there meanwhile.
  REQUIRE(mprotect(p, bytes, PROT_NONE) == 0);
  REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandQueueSynchronize(q, kPatienceNs) == ZE_RESULT_ERROR_DEVICE_LOST);
  CHECK(zeContextGetStatus(fx.context) == ZE_RESULT_ERROR_DEVICE_LOST);
  munmap(p, bytes);
}
