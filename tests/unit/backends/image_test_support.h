// Helpers of the image tests: OpenCL C compiled through the real path (spirv::compileOpenCLC in the
// compiler process, then the compiler facade: validation, translation, the JIT), images made here
// over a byte vector in image_abi.h's layout (with padded rows and slices, so pitches matter), and
// the test's own reading of a pixel's components (the reference the kernels are checked against).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/runtime/image_abi.h"
#include "backends/cpu/runtime/image_runtime.h"
#include "jit_test_support.h"

namespace tessera::backends::cpu::test {

// `source` compiled as OpenCL C (`options` are build options), widened as TESSERA_WIDEN=`widen`
// would (1: the default plan), with the module build flags `zeFlags` (zeModuleCreate's, such as
// -ze-opt-disable). Fails the test on a build error, with the log.
std::shared_ptr<const CompiledModule> buildOpenCL(const std::string& source, int widen = 1,
                                                  const std::string& options = "",
                                                  const char* zeFlags = nullptr);
// `source` built, written as a native binary (zeModuleGetNativeBinary's format) and loaded by
// another compiler, which compiles nothing: the loaded code.
std::shared_ptr<const CompiledModule> buildThroughNativeBinary(const std::string& source);
// The log of a build that must fail (empty when it did not fail).
std::string buildFailure(const std::string& source);
const CompiledKernel& kernelOf(const std::shared_ptr<const CompiledModule>& m,
                               const std::string& name);

// ze's numbers (image_abi.h): image types, swizzles, and image_runtime.h's layouts (kLayout8 ...)
// and format types (kUint ...).
namespace ze {
using namespace jit::image_format;
enum ImageType : uint32_t { k1D = 0, k1DArray = 1, k2D = 2, k2DArray = 3, k3D = 4, kBuffer = 5 };
enum Swizzle : uint8_t { R = 0, G = 1, B = 2, A = 3, Zero = 4, One = 5 };
}  // namespace ze

struct Format {
  uint32_t layout = ze::kLayout8_8_8_8;
  uint32_t type = ze::kUnorm;
  std::array<uint8_t, 4> swizzle = {ze::R, ze::G, ze::B, ze::A};
  std::string name;  // for messages
};

// The component widths of a layout, lowest bits first, and its pixel size.
struct LayoutBits {
  std::vector<uint32_t> bits;
  uint32_t bytes;
};
LayoutBits layoutBits(uint32_t layout);

class TestImage {
 public:
  // extent as image_abi.h counts it: {width, height or layers, depth or layers}.
  TestImage(uint32_t imageType, const Format& format, std::array<uint64_t, 3> extent);
  const ImageView* view() const { return &view_; }
  uint8_t* pixel(uint64_t x, uint64_t y = 0, uint64_t z = 0);
  uint32_t pixelBytes() const { return view_.pixelBytes; }
  const Format& format() const { return format_; }
  std::array<uint64_t, 3> extent() const {
    return {view_.extent[0], view_.extent[1], view_.extent[2]};
  }
  // Every byte of every pixel from a generator seeded with `seed` (padding stays 0xCD).
  void fillRandom(uint32_t seed);
  std::vector<uint8_t>& bytes() { return bytes_; }

 private:
  Format format_;
  ImageView view_;
  std::vector<uint8_t> bytes_;
};

// The test's reading of pixel (x, y, z): each component as a double (integers exactly; UNORM,
// SNORM and FLOAT converted as the spec's rules say, then rounded to float), before the swizzle.
std::array<double, 4> referenceComponents(TestImage& image, uint64_t x, uint64_t y, uint64_t z);
// The swizzle applied: (r, g, b, a) as read_image* returns them.
std::array<double, 4> applySwizzle(const Format& f, const std::array<double, 4>& components);

// The stored bits of value `v` in a component of `bits` bits of `type` (write_image*'s rules).
uint64_t referenceEncode(double v, uint32_t bits, uint32_t type);

inline float toFloat(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
inline uint32_t toBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

}  // namespace tessera::backends::cpu::test
