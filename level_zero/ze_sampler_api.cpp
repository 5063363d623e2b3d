// The sampler entry points: handles, pointers and the structure type checked here, the descriptor
// turned into a sampler value by core (core/image/sampler.h).
#include <memory>

#include "core/context/context.h"
#include "core/image/sampler.h"
#include "level_zero/api_support.h"

using tessera::core::Context;
using tessera::core::Device;
using tessera::core::Sampler;

ZE_APIEXPORT ze_result_t ZE_APICALL zeSamplerCreate(ze_context_handle_t hContext,
                                                    ze_device_handle_t hDevice,
                                                    const ze_sampler_desc_t* desc,
                                                    ze_sampler_handle_t* phSampler) {
  Context* context = Context::fromHandle(hContext);
  Device* device = Device::fromHandle(hDevice);
  if (!context || !device || !context->hasDevice(device))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !phSampler) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!tessera::ze::isStructType(desc->stype, ZE_STRUCTURE_TYPE_SAMPLER_DESC))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  return tessera::ze::guarded([&] {
    std::unique_ptr<Sampler> sampler;
    ze_result_t r = Sampler::create(*context, *device, *desc, sampler);
    if (r == ZE_RESULT_SUCCESS) *phSampler = sampler.release()->toHandle();
    return r;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeSamplerDestroy(ze_sampler_handle_t hSampler) {
  Sampler* sampler = Sampler::fromHandle(hSampler);
  if (!sampler) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete sampler;
  return ZE_RESULT_SUCCESS;
}
