// A sampler: how kernels read an image through it (addressing, filtering, coordinates), held as the
// value its kernel arguments carry: OpenCL's sampler_t bits (backends/device_kind.h,
// sampler_bits), so samplers given as arguments and those written in a kernel are one thing.
#pragma once

#include <level_zero/ze_api.h>

#include <cstdint>
#include <memory>

#include "core/common/object.h"

namespace tessera::core {

class Context;
class Device;

// The sampler value of `desc`: INVALID_ENUMERATION for an address mode past MIRROR or a filter
// mode past LINEAR ("::ZE_SAMPLER_ADDRESS_MODE_MIRROR < desc->addressMode").
ze_result_t samplerValue(const ze_sampler_desc_t& desc, uint64_t& value);

class Sampler : public Object<_ze_sampler_handle_t, 0x74657373536d7031ull /* "tessSmp1" */> {
 public:
  // zeSamplerCreate after the handles and the stype were checked: samplerValue's errors.
  static ze_result_t create(Context& context, Device& device, const ze_sampler_desc_t& desc,
                            std::unique_ptr<Sampler>& out);
  static Sampler* fromHandle(ze_sampler_handle_t h) { return Object::fromHandle<Sampler>(h); }

  // What a sampler argument's slot holds (ArgKind::Sampler).
  uint64_t value() const { return value_; }
  Context* context() const { return context_; }  // compared, never followed
  Device& device() const { return device_; }

 private:
  Sampler(Context& context, Device& device, uint64_t value)
      : context_(&context), device_(device), value_(value) {}

  Context* context_;
  Device& device_;
  uint64_t value_;
};

}  // namespace tessera::core
