// A cl_sampler: addressing, filtering and coordinates, over one Level Zero sampler per root device
// of its context (zeSamplerCreate: the ze sampler is what a sampler_t kernel argument is given).
#pragma once

#include <level_zero/ze_api.h>

#include <vector>

#include "cl_shim/context.h"
#include "cl_shim/image.h"
#include "cl_shim/object.h"

namespace tessera::cl {

class Sampler : public Object<_cl_sampler, 0x534d5031 /* "SMP1" */> {
 public:
  // clCreateSampler / clCreateSamplerWithProperties once the values are checked; `properties` is
  // what CL_SAMPLER_PROPERTIES returns.
  static Sampler* create(Context& context, cl_bool normalized, cl_addressing_mode addressing,
                         cl_filter_mode filter, std::vector<cl_sampler_properties> properties,
                         cl_int& err);
  static Sampler* from(cl_sampler h) { return Object::from<Sampler>(h); }

  Context& context() const { return *context_; }
  ze_sampler_handle_t zeFor(const Device& d) const { return ze_.forDevice(d); }
  cl_int info(cl_sampler_info param, size_t size, void* value, size_t* sizeRet);

 protected:
  ~Sampler() override;

 private:
  Sampler() = default;

  Ref<Context> context_;
  cl_bool normalized_ = CL_TRUE;
  cl_addressing_mode addressing_ = CL_ADDRESS_CLAMP;
  cl_filter_mode filter_ = CL_FILTER_NEAREST;
  std::vector<cl_sampler_properties> properties_;
  PerRoot<ze_sampler_handle_t> ze_;
};

// The values clCreateSampler takes: "CL_INVALID_VALUE if addressing_mode, filter_mode,
// normalized_coords or a combination of these arguments are not valid".
bool validSampler(cl_bool normalized, cl_addressing_mode addressing, cl_filter_mode filter);

}  // namespace tessera::cl
