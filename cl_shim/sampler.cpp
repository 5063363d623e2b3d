#include "cl_shim/sampler.h"

#include "cl_shim/api_support.h"
#include "cl_shim/device.h"
#include "cl_shim/errors.h"

namespace tessera::cl {
namespace {

// OpenCL's addressing modes in Level Zero's terms (backends/cpu/runtime/image_abi.h): CLAMP is "clamped
// to edge", CLAMP_TO_BORDER is OpenCL's CL_ADDRESS_CLAMP ("assigned a border color value").
ze_sampler_address_mode_t zeAddressing(cl_addressing_mode m) {
  switch (m) {
    case CL_ADDRESS_CLAMP_TO_EDGE: return ZE_SAMPLER_ADDRESS_MODE_CLAMP;
    case CL_ADDRESS_CLAMP: return ZE_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
    case CL_ADDRESS_REPEAT: return ZE_SAMPLER_ADDRESS_MODE_REPEAT;
    case CL_ADDRESS_MIRRORED_REPEAT: return ZE_SAMPLER_ADDRESS_MODE_MIRROR;
    default: return ZE_SAMPLER_ADDRESS_MODE_NONE;
  }
}

}  // namespace

bool validSampler(cl_bool normalized, cl_addressing_mode addressing, cl_filter_mode filter) {
  // CL_ADDRESS_REPEAT and CL_ADDRESS_MIRRORED_REPEAT with unnormalized coordinates are allowed:
  // "If normalized coordinates are not used, this addressing mode may generate image coordinates
  // that are undefined".
  bool a = addressing == CL_ADDRESS_NONE || addressing == CL_ADDRESS_CLAMP_TO_EDGE ||
           addressing == CL_ADDRESS_CLAMP || addressing == CL_ADDRESS_REPEAT ||
           addressing == CL_ADDRESS_MIRRORED_REPEAT;
  bool f = filter == CL_FILTER_NEAREST || filter == CL_FILTER_LINEAR;
  return a && f && (normalized == CL_TRUE || normalized == CL_FALSE);
}

Sampler* Sampler::create(Context& context, cl_bool normalized, cl_addressing_mode addressing,
                         cl_filter_mode filter, std::vector<cl_sampler_properties> properties,
                         cl_int& err) {
  // "CL_INVALID_OPERATION if images are not supported by any device associated with context".
  bool images = false;
  for (const Ref<Device>& d : context.devices()) images |= d->imageSupport();
  if (!images) { err = CL_INVALID_OPERATION; return nullptr; }
  auto* s = new Sampler;
  s->context_ = Ref<Context>(&context);
  s->normalized_ = normalized;
  s->addressing_ = addressing;
  s->filter_ = filter;
  s->properties_ = std::move(properties);
  ze_sampler_desc_t desc{ZE_STRUCTURE_TYPE_SAMPLER_DESC};
  desc.addressMode = zeAddressing(addressing);
  desc.filterMode =
      filter == CL_FILTER_LINEAR ? ZE_SAMPLER_FILTER_MODE_LINEAR : ZE_SAMPLER_FILTER_MODE_NEAREST;
  desc.isNormalized = normalized == CL_TRUE;
  for (const Device* root : contextRoots(context)) {
    ze_sampler_handle_t h = nullptr;
    if (ze_result_t r = zeSamplerCreate(context.ze(), root->ze(), &desc, &h); r != ZE_RESULT_SUCCESS) {
      s->releaseApi();
      err = fromZe(r);
      return nullptr;
    }
    s->ze_.add(root, h);
  }
  err = CL_SUCCESS;
  return s;
}

Sampler::~Sampler() {
  for (const auto& [root, h] : ze_.items()) zeSamplerDestroy(h);
}

cl_int Sampler::info(cl_sampler_info param, size_t size, void* value, size_t* sizeRet) {
  InfoWriter out(size, value, sizeRet);
  switch (param) {
    case CL_SAMPLER_REFERENCE_COUNT: return out.scalar<cl_uint>(apiRefs());
    case CL_SAMPLER_CONTEXT: return out.scalar<cl_context>(context_->handle());
    case CL_SAMPLER_NORMALIZED_COORDS: return out.scalar(normalized_);
    case CL_SAMPLER_ADDRESSING_MODE: return out.scalar(addressing_);
    case CL_SAMPLER_FILTER_MODE: return out.scalar(filter_);
    // "If sampler was created using clCreateSampler, or if the properties argument specified in
    // clCreateSamplerWithProperties was NULL, the implementation must return param_value_size_ret
    // equal to 0".
    case CL_SAMPLER_PROPERTIES: return out.array(properties_);
    default: return CL_INVALID_VALUE;
  }
}

}  // namespace tessera::cl
