// Program entry points: creation from IL, source, binaries; build, compile, link; queries.
#include <string>

#include "cl_shim/api.h"
#include "cl_shim/api_support.h"
#include "cl_shim/program.h"

namespace tessera::cl::api {
namespace {

// A device list given to clBuildProgram / clCompileProgram / clLinkProgram: "CL_INVALID_VALUE if
// device_list is NULL and num_devices is greater than zero, or if device_list is not NULL and
// num_devices is zero"; NULL means every device of the program. Each device must be the program's
// (cl_ext_device_fission: it or an ancestor was used to create the context).
cl_int deviceList(Program& p, cl_uint n, const cl_device_id* list, std::vector<Device*>& out) {
  if ((list == nullptr) != (n == 0)) return CL_INVALID_VALUE;
  if (!list) {
    out = p.baseDevices();
    return CL_SUCCESS;
  }
  for (cl_uint i = 0; i < n; ++i) {
    Device* d = Device::from(list[i]);
    if (!d || !p.knowsDevice(d)) return CL_INVALID_DEVICE;
    out.push_back(d);
  }
  return CL_SUCCESS;
}

}  // namespace

cl_program clCreateProgramWithIL(cl_context context, const void* il, size_t length,
                                 cl_int* errcode_ret) {
  return guardedCreate(errcode_ret, [&](cl_int& err) -> cl_program {
    Context* c = Context::from(context);
    if (!c) { err = CL_INVALID_CONTEXT; return nullptr; }
    Program* p = Program::createWithIL(*c, il, length, err);
    return p ? p->handle() : nullptr;
  });
}

cl_program clCreateProgramWithSource(cl_context context, cl_uint count, const char** strings,
                                     const size_t* lengths, cl_int* errcode_ret) {
  return guardedCreate(errcode_ret, [&](cl_int& err) -> cl_program {
    Context* c = Context::from(context);
    if (!c) { err = CL_INVALID_CONTEXT; return nullptr; }
    // "CL_INVALID_VALUE if count is zero or if strings or any entry in strings is NULL."
    if (count == 0 || !strings) { err = CL_INVALID_VALUE; return nullptr; }
    std::string source;
    for (cl_uint i = 0; i < count; ++i) {
      if (!strings[i]) { err = CL_INVALID_VALUE; return nullptr; }
      // "If an element in lengths is zero, its accompanying string is null-terminated. If lengths
      // is NULL, all strings in the strings argument are considered null-terminated."
      if (lengths && lengths[i])
        source.append(strings[i], lengths[i]);
      else
        source.append(strings[i]);
    }
    return Program::createWithSource(*c, std::move(source))->handle();
  });
}

cl_program clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                     const cl_device_id* device_list, const size_t* lengths,
                                     const unsigned char** binaries, cl_int* binary_status,
                                     cl_int* errcode_ret) {
  return guardedCreate(errcode_ret, [&](cl_int& err) -> cl_program {
    Context* c = Context::from(context);
    if (!c) { err = CL_INVALID_CONTEXT; return nullptr; }
    // "CL_INVALID_VALUE if device_list is NULL or num_devices is zero."
    if (!device_list || num_devices == 0) { err = CL_INVALID_VALUE; return nullptr; }
    std::vector<Device*> devices;
    for (cl_uint i = 0; i < num_devices; ++i) {
      Device* d = Device::from(device_list[i]);
      // cl_ext_device_fission, 5.4.1: "CL_INVALID_DEVICE if a device or one of its ancestors was
      // not used to create the programs context."
      if (!d || !c->allows(d)) { err = CL_INVALID_DEVICE; return nullptr; }
      devices.push_back(d);
    }
    if (!lengths || !binaries) { err = CL_INVALID_VALUE; return nullptr; }
    Program* p = Program::createWithBinary(*c, devices, lengths, binaries, binary_status, err);
    return p ? p->handle() : nullptr;
  });
}

cl_program clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                             const cl_device_id* device_list,
                                             const char* kernel_names, cl_int* errcode_ret) {
  return guardedCreate(errcode_ret, [&](cl_int& err) -> cl_program {
    Context* c = Context::from(context);
    if (!c) { err = CL_INVALID_CONTEXT; return nullptr; }
    if (!device_list || num_devices == 0) { err = CL_INVALID_VALUE; return nullptr; }
    for (cl_uint i = 0; i < num_devices; ++i) {
      Device* d = Device::from(device_list[i]);
      if (!d || !c->allows(d)) { err = CL_INVALID_DEVICE; return nullptr; }
    }
    // "CL_INVALID_VALUE if kernel_names is NULL or kernel_names contains a kernel name that is not
    // supported by any of the devices in device_list": the device has no built-in kernels
    // (CL_DEVICE_BUILT_IN_KERNELS is empty).
    err = CL_INVALID_VALUE;
    return nullptr;
  });
}

cl_int clRetainProgram(cl_program program) {
  Program* p = Program::from(program);
  if (!p) return CL_INVALID_PROGRAM;
  p->retainApi();
  return CL_SUCCESS;
}

cl_int clReleaseProgram(cl_program program) {
  Program* p = Program::from(program);
  if (!p) return CL_INVALID_PROGRAM;
  return guarded([&] {
    p->releaseApi();
    return CL_SUCCESS;
  });
}

cl_int clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                      const char* options, void(CL_CALLBACK* pfn_notify)(cl_program, void*),
                      void* user_data) {
  return guarded([&]() -> cl_int {
    Program* p = Program::from(program);
    if (!p) return CL_INVALID_PROGRAM;
    std::vector<Device*> devices;
    if (cl_int err = deviceList(*p, num_devices, device_list, devices); err != CL_SUCCESS)
      return err;
    // "CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL."
    if (!pfn_notify && user_data) return CL_INVALID_VALUE;
    // "CL_INVALID_OPERATION if there are kernel objects attached to program."
    if (p->attachedKernels.load() > 0) return CL_INVALID_OPERATION;
    // "CL_INVALID_OPERATION if program was not created with clCreateProgramWithSource,
    // clCreateProgramWithIL or clCreateProgramWithBinary."
    if (p->origin() == Program::Origin::Linked) return CL_INVALID_OPERATION;
    cl_int err = p->build(devices, options ? options : "");
    // "If pfn_notify is not NULL, clBuildProgram does not need to wait for the build to complete
    // ... The notification routine is a callback function that an application can register and
    // which will be called when the program executable has been built (successfully or
    // unsuccessfully)." The build is synchronous; the callback runs before returning.
    if (pfn_notify) pfn_notify(program, user_data);
    return err;
  });
}

cl_int clCompileProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                        const char* options, cl_uint num_input_headers,
                        const cl_program* input_headers, const char** header_include_names,
                        void(CL_CALLBACK* pfn_notify)(cl_program, void*), void* user_data) {
  return guarded([&]() -> cl_int {
    Program* p = Program::from(program);
    if (!p) return CL_INVALID_PROGRAM;
    std::vector<Device*> devices;
    if (cl_int err = deviceList(*p, num_devices, device_list, devices); err != CL_SUCCESS)
      return err;
    // "CL_INVALID_VALUE if num_input_headers is zero and header_include_names or input_headers
    // are not NULL or if num_input_headers is not zero and header_include_names or input_headers
    // are NULL."
    if (num_input_headers == 0 ? (header_include_names || input_headers)
                               : (!header_include_names || !input_headers))
      return CL_INVALID_VALUE;
    if (!pfn_notify && user_data) return CL_INVALID_VALUE;
    std::vector<std::pair<std::string, std::string>> headers;
    for (cl_uint i = 0; i < num_input_headers; ++i) {
      Program* h = Program::from(input_headers[i]);
      if (!h || !header_include_names[i]) return CL_INVALID_VALUE;
      size_t n = 0;
      h->info(CL_PROGRAM_SOURCE, 0, nullptr, &n);
      std::string text(n, '\0');
      h->info(CL_PROGRAM_SOURCE, n, text.data(), nullptr);
      if (!text.empty() && text.back() == '\0') text.pop_back();
      headers.emplace_back(header_include_names[i], std::move(text));
    }
    if (p->attachedKernels.load() > 0) return CL_INVALID_OPERATION;
    // "CL_INVALID_OPERATION if program has no source or IL available, i.e. it has not been
    // created with clCreateProgramWithSource or clCreateProgramWithIL."
    if (p->origin() != Program::Origin::Source && p->origin() != Program::Origin::IL)
      return CL_INVALID_OPERATION;
    cl_int err = p->compile(devices, options ? options : "", headers);
    if (pfn_notify) pfn_notify(program, user_data);
    return err;
  });
}

cl_program clLinkProgram(cl_context context, cl_uint num_devices, const cl_device_id* device_list,
                         const char* options, cl_uint num_input_programs,
                         const cl_program* input_programs,
                         void(CL_CALLBACK* pfn_notify)(cl_program, void*), void* user_data,
                         cl_int* errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_program result = nullptr;
  err = guarded([&]() -> cl_int {
    Context* c = Context::from(context);
    if (!c) return CL_INVALID_CONTEXT;
    if ((device_list == nullptr) != (num_devices == 0)) return CL_INVALID_VALUE;
    // "CL_INVALID_VALUE if num_input_programs is zero and input_programs is NULL or if
    // num_input_programs is zero and input_programs is not NULL or if num_input_programs is not
    // zero and input_programs is NULL."
    if (num_input_programs == 0 || !input_programs) return CL_INVALID_VALUE;
    if (!pfn_notify && user_data) return CL_INVALID_VALUE;
    std::vector<Device*> devices;
    if (device_list) {
      for (cl_uint i = 0; i < num_devices; ++i) {
        Device* d = Device::from(device_list[i]);
        if (!d || !c->allows(d)) return CL_INVALID_DEVICE;
        devices.push_back(d);
      }
    } else {
      for (const auto& d : c->devices()) devices.push_back(d.get());
    }
    std::vector<Program*> inputs;
    for (cl_uint i = 0; i < num_input_programs; ++i) {
      Program* in = Program::from(input_programs[i]);
      // "CL_INVALID_PROGRAM if programs specified in input_programs are not valid program
      // objects."
      if (!in || &in->context() != c) return CL_INVALID_PROGRAM;
      // "CL_INVALID_OPERATION if the compilation or build of a program executable for any of the
      // devices listed in device_list by a previous call to clCompileProgram or clBuildProgram for
      // program has not completed" / inputs must be compiled objects or libraries.
      for (Device* d : devices) {
        cl_program_binary_type type = CL_PROGRAM_BINARY_TYPE_NONE;
        in->buildInfo(*d, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr);
        if (type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT && type != CL_PROGRAM_BINARY_TYPE_LIBRARY)
          return CL_INVALID_OPERATION;
      }
      inputs.push_back(in);
    }
    cl_int linkErr = CL_SUCCESS;
    Program* p = Program::link(*c, devices, options ? options : "", inputs, linkErr);
    if (!p) return linkErr;  // CL_INVALID_LINKER_OPTIONS: no program
    result = p->handle();
    if (pfn_notify) pfn_notify(result, user_data);
    return linkErr;
  });
  // A failed link still returns its program, so that the application can read the build log
  // ("CL_LINK_PROGRAM_FAILURE if there is a failure to link the compiled binaries and/or
  // libraries"); any other error returns NULL.
  if (err != CL_SUCCESS && err != CL_LINK_PROGRAM_FAILURE && result) {
    api::clReleaseProgram(result);
    result = nullptr;
  }
  if (errcode_ret) *errcode_ret = err;
  return result;
}

cl_int clGetProgramInfo(cl_program program, cl_program_info param_name, size_t param_value_size,
                        void* param_value, size_t* param_value_size_ret) {
  return guarded([&] {
    Program* p = Program::from(program);
    if (!p) return CL_INVALID_PROGRAM;
    return p->info(param_name, param_value_size, param_value, param_value_size_ret);
  });
}

cl_int clGetProgramBuildInfo(cl_program program, cl_device_id device,
                             cl_program_build_info param_name, size_t param_value_size,
                             void* param_value, size_t* param_value_size_ret) {
  return guarded([&] {
    Program* p = Program::from(program);
    if (!p) return CL_INVALID_PROGRAM;
    Device* d = Device::from(device);
    // "CL_INVALID_DEVICE if device is not in the list of devices associated with program."
    if (!d || !p->context().allows(d)) return CL_INVALID_DEVICE;
    return p->buildInfo(*d, param_name, param_value_size, param_value, param_value_size_ret);
  });
}

cl_int clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id, size_t spec_size,
                                          const void* spec_value) {
  return guarded([&] {
    Program* p = Program::from(program);
    if (!p) return CL_INVALID_PROGRAM;
    return p->setSpecializationConstant(spec_id, spec_size, spec_value);
  });
}

cl_int clSetProgramReleaseCallback(cl_program program,
                                   void(CL_CALLBACK* pfn_notify)(cl_program, void*),
                                   void* user_data) {
  Program* p = Program::from(program);
  if (!p) return CL_INVALID_PROGRAM;
  if (!pfn_notify) return CL_INVALID_VALUE;
  // "CL_INVALID_OPERATION if no devices in the context associated with program support destructors
  // or constructors for program scope global variables." (CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT /
  // DTORS_PRESENT are CL_FALSE.)
  (void)user_data;
  return CL_INVALID_OPERATION;
}

}  // namespace tessera::cl::api
