// Device entry points: discovery, queries and fission (OpenCL 1.2 and cl_ext_device_fission).
#include "cl_shim/api.h"
#include "cl_shim/api_support.h"
#include "cl_shim/device.h"
#include "cl_shim/platform.h"

namespace tessera::cl::api {

cl_int clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type, cl_uint num_entries,
                      cl_device_id* devices, cl_uint* num_devices) {
  return guarded([&] {
    Platform* p = platform ? Platform::from(platform) : Platform::get();
    if (!p) return CL_INVALID_PLATFORM;
    const cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                                 CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
    // No type at all is "not a valid value" either (OpenCL-CTS negative_get_device_ids).
    if (device_type == 0 || (device_type != CL_DEVICE_TYPE_ALL && (device_type & ~known)))
      return CL_INVALID_DEVICE_TYPE;
    if ((num_entries == 0 && devices) || (!devices && !num_devices)) return CL_INVALID_VALUE;
    // cl_ext_device_fission: "Only root level devices shall be returned by this function."
    bool match = device_type == CL_DEVICE_TYPE_ALL ||
                 (device_type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT));
    std::vector<Device*> list;
    if (match) list = p->rootDevices();
    // CL_DEVICE_TYPE_DEFAULT: the first device only.
    if (match && device_type == CL_DEVICE_TYPE_DEFAULT && list.size() > 1) list.resize(1);
    if (num_devices) *num_devices = cl_uint(list.size());
    if (list.empty()) return CL_DEVICE_NOT_FOUND;
    if (devices)
      for (cl_uint i = 0; i < num_entries && i < list.size(); ++i) devices[i] = list[i]->handle();
    return CL_SUCCESS;
  });
}

cl_int clGetDeviceInfo(cl_device_id device, cl_device_info param_name, size_t param_value_size,
                       void* param_value, size_t* param_value_size_ret) {
  return guarded([&] {
    Device* d = Device::from(device);
    if (!d) return CL_INVALID_DEVICE;
    return d->info(param_name, param_value_size, param_value, param_value_size_ret);
  });
}

cl_int clCreateSubDevices(cl_device_id in_device, const cl_device_partition_property* properties,
                          cl_uint num_devices, cl_device_id* out_devices,
                          cl_uint* num_devices_ret) {
  return guarded([&] {
    Device* d = Device::from(in_device);
    if (!d) return CL_INVALID_DEVICE;
    return createSubDevices(*d, properties, num_devices, out_devices, num_devices_ret);
  });
}

cl_int clCreateSubDevicesEXT(cl_device_id in_device,
                             const cl_device_partition_property_ext* properties,
                             cl_uint num_entries, cl_device_id* out_devices,
                             cl_uint* num_devices) {
  return guarded([&] {
    Device* d = Device::from(in_device);
    if (!d) return CL_INVALID_DEVICE;
    return createSubDevicesExt(*d, properties, num_entries, out_devices, num_devices);
  });
}

// "clRetainDevice ... increments the device reference count if device is a valid sub-device
// created by a call to clCreateSubDevices. If device is a root level device i.e. a cl_device_id
// returned by clGetDeviceIDs, the device reference count remains unchanged."
cl_int clRetainDevice(cl_device_id device) {
  Device* d = Device::from(device);
  if (!d) return CL_INVALID_DEVICE;
  if (!d->isRoot()) d->retainApi();
  return CL_SUCCESS;
}

cl_int clReleaseDevice(cl_device_id device) {
  Device* d = Device::from(device);
  if (!d) return CL_INVALID_DEVICE;
  if (!d->isRoot()) d->releaseApi();
  return CL_SUCCESS;
}

cl_int clRetainDeviceEXT(cl_device_id device) { return api::clRetainDevice(device); }
cl_int clReleaseDeviceEXT(cl_device_id device) { return api::clReleaseDevice(device); }

}  // namespace tessera::cl::api
