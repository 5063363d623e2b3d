// Sampler entry points. The objects are in sampler.h.
#include "cl_shim/api.h"
#include "cl_shim/api_support.h"
#include "cl_shim/sampler.h"

namespace tessera::cl::api {
namespace {

cl_sampler createSampler(cl_context context, cl_bool normalized, cl_addressing_mode addressing,
                         cl_filter_mode filter, std::vector<cl_sampler_properties> props,
                         cl_int& err) {
  Context* c = Context::from(context);
  if (!c) { err = CL_INVALID_CONTEXT; return nullptr; }
  if (!validSampler(normalized, addressing, filter)) { err = CL_INVALID_VALUE; return nullptr; }
  Sampler* s = Sampler::create(*c, normalized, addressing, filter, std::move(props), err);
  return s ? s->handle() : nullptr;
}

}  // namespace

cl_sampler clCreateSampler(cl_context context, cl_bool normalized_coords,
                           cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
                           cl_int* errcode_ret) {
  return guardedCreate(errcode_ret, [&](cl_int& err) {
    return createSampler(context, normalized_coords, addressing_mode, filter_mode, {}, err);
  });
}

cl_sampler clCreateSamplerWithProperties(cl_context context,
                                         const cl_sampler_properties* sampler_properties,
                                         cl_int* errcode_ret) {
  return guardedCreate(errcode_ret, [&](cl_int& err) -> cl_sampler {
    if (!Context::from(context)) { err = CL_INVALID_CONTEXT; return nullptr; }
    // "If a supported property and its value is not specified in sampler_properties, its default
    // value will be used": CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST. "CL_INVALID_VALUE if the
    // property name in sampler_properties is not a supported property name, if the value
    // specified for a supported property name is not valid, or if the same property name is
    // specified more than once."
    cl_sampler_properties values[3] = {CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST};
    bool seen[3] = {false, false, false};
    std::vector<cl_sampler_properties> props;
    if (sampler_properties) {
      const cl_sampler_properties* p = sampler_properties;
      for (; *p; p += 2) {
        int i = p[0] == CL_SAMPLER_NORMALIZED_COORDS  ? 0
                : p[0] == CL_SAMPLER_ADDRESSING_MODE ? 1
                : p[0] == CL_SAMPLER_FILTER_MODE     ? 2
                                                     : -1;
        if (i < 0 || seen[i]) { err = CL_INVALID_VALUE; return nullptr; }
        seen[i] = true;
        values[i] = p[1];
      }
      // CL_SAMPLER_PROPERTIES: "the values specified in the properties argument in the same order".
      props.assign(sampler_properties, p + 1);
    }
    return createSampler(context, cl_bool(values[0]), cl_addressing_mode(values[1]),
                         cl_filter_mode(values[2]), std::move(props), err);
  });
}

cl_int clRetainSampler(cl_sampler sampler) {
  Sampler* s = Sampler::from(sampler);
  if (!s) return CL_INVALID_SAMPLER;
  s->retainApi();
  return CL_SUCCESS;
}

cl_int clReleaseSampler(cl_sampler sampler) {
  Sampler* s = Sampler::from(sampler);
  if (!s) return CL_INVALID_SAMPLER;
  // Kernels whose arguments name the sampler, and launches of them, hold it.
  return guarded([&] {
    s->releaseApi();
    return CL_SUCCESS;
  });
}

cl_int clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name, size_t param_value_size,
                        void* param_value, size_t* param_value_size_ret) {
  return guarded([&] {
    Sampler* s = Sampler::from(sampler);
    if (!s) return CL_INVALID_SAMPLER;
    return s->info(param_name, param_value_size, param_value, param_value_size_ret);
  });
}

}  // namespace tessera::cl::api
