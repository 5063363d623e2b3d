// What every cl* entry point shares: the exception barrier, errcode_ret, and the clGet*Info
// protocol. Entry points stay thin: validate, call one method, return.
#pragma once

#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "cl_shim/cl_headers.h"

namespace tessera::cl {

// No exception crosses the C ABI.
template <typename F>
cl_int guarded(F&& f) noexcept {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return CL_OUT_OF_HOST_MEMORY;
  } catch (...) {
    return CL_OUT_OF_RESOURCES;
  }
}

// For clCreate*: f(cl_int& err) returns the handle; err goes to errcode_ret when given.
template <typename F>
auto guardedCreate(cl_int* errcode_ret, F&& f) noexcept -> decltype(f(*errcode_ret)) {
  cl_int err = CL_SUCCESS;
  decltype(f(err)) result = nullptr;
  try {
    result = f(err);
  } catch (const std::bad_alloc&) {
    err = CL_OUT_OF_HOST_MEMORY;
    result = nullptr;
  } catch (...) {
    err = CL_OUT_OF_RESOURCES;
    result = nullptr;
  }
  if (err != CL_SUCCESS) result = nullptr;
  if (errcode_ret) *errcode_ret = err;
  return result;
}

// clGet*Info: "CL_INVALID_VALUE if ... size in bytes specified by param_value_size is < size of
// return type ... and param_value is not NULL".
class InfoWriter {
 public:
  InfoWriter(size_t size, void* value, size_t* sizeRet) : size_(size), value_(value), ret_(sizeRet) {}

  cl_int bytes(const void* data, size_t n) {
    if (value_) {
      if (size_ < n) return CL_INVALID_VALUE;
      if (n) std::memcpy(value_, data, n);
    }
    if (ret_) *ret_ = n;
    return CL_SUCCESS;
  }
  template <typename T>
  cl_int scalar(const T& v) { return bytes(&v, sizeof v); }
  cl_int string(const std::string& s) { return bytes(s.c_str(), s.size() + 1); }
  template <typename T>
  cl_int array(const std::vector<T>& v) { return bytes(v.data(), v.size() * sizeof(T)); }

 private:
  size_t size_;
  void* value_;
  size_t* ret_;
};

// A wait list's shape: "CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and
// num_events_in_wait_list > 0, or event_wait_list is not NULL and num_events_in_wait_list is 0".
inline bool waitListShapeOk(cl_uint n, const cl_event* list) { return (n == 0) == (list == nullptr); }

}  // namespace tessera::cl
