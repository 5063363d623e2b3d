#include "core/image/sampler.h"

#include "backends/device_kind.h"

namespace tessera::core {

ze_result_t samplerValue(const ze_sampler_desc_t& desc, uint64_t& value) {
  namespace bits = backends::sampler_bits;
  uint32_t v = 0;
  // image_abi.h: NONE -> None, REPEAT -> Repeat, CLAMP ("clamped to edge") -> ClampToEdge,
  // CLAMP_TO_BORDER -> Clamp, MIRROR -> MirroredRepeat.
  switch (desc.addressMode) {
    case ZE_SAMPLER_ADDRESS_MODE_NONE:
      v = bits::kAddressNone;
      break;
    case ZE_SAMPLER_ADDRESS_MODE_REPEAT:
      v = bits::kAddressRepeat;
      break;
    case ZE_SAMPLER_ADDRESS_MODE_CLAMP:
      v = bits::kAddressClampToEdge;
      break;
    case ZE_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER:
      v = bits::kAddressClamp;
      break;
    case ZE_SAMPLER_ADDRESS_MODE_MIRROR:
      v = bits::kAddressMirroredRepeat;
      break;
    default:
      return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  }
  switch (desc.filterMode) {
    case ZE_SAMPLER_FILTER_MODE_NEAREST:
      v |= bits::kFilterNearest;
      break;
    case ZE_SAMPLER_FILTER_MODE_LINEAR:
      v |= bits::kFilterLinear;
      break;
    default:
      return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  }
  if (desc.isNormalized) v |= bits::kNormalizedCoords;
  value = v;
  return ZE_RESULT_SUCCESS;
}

ze_result_t Sampler::create(Context& context, Device& device, const ze_sampler_desc_t& desc,
                            std::unique_ptr<Sampler>& out) {
  uint64_t value;
  if (ze_result_t r = samplerValue(desc, value); r != ZE_RESULT_SUCCESS) return r;
  out.reset(new Sampler(context, device, value));
  return ZE_RESULT_SUCCESS;
}

}  // namespace tessera::core
