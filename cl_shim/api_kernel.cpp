// Kernel entry points: creation, arguments, queries.
#include "cl_shim/api.h"
#include "cl_shim/api_support.h"
#include "cl_shim/kernel.h"

namespace tessera::cl::api {

cl_kernel clCreateKernel(cl_program program, const char* kernel_name, cl_int* errcode_ret) {
  return guardedCreate(errcode_ret, [&](cl_int& err) -> cl_kernel {
    Program* p = Program::from(program);
    if (!p) { err = CL_INVALID_PROGRAM; return nullptr; }
    // "CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built executable for program."
    if (p->executableDevices().empty()) { err = CL_INVALID_PROGRAM_EXECUTABLE; return nullptr; }
    // "CL_INVALID_VALUE if kernel_name is NULL."
    if (!kernel_name) { err = CL_INVALID_VALUE; return nullptr; }
    Kernel* k = Kernel::create(*p, kernel_name, err);
    return k ? k->handle() : nullptr;
  });
}

cl_int clCreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel* kernels,
                                cl_uint* num_kernels_ret) {
  return guarded([&]() -> cl_int {
    Program* p = Program::from(program);
    if (!p) return CL_INVALID_PROGRAM;
    if (p->executableDevices().empty()) return CL_INVALID_PROGRAM_EXECUTABLE;
    auto list = p->kernels();
    // "CL_INVALID_VALUE if kernels is not NULL and num_kernels is less than the number of kernels
    // in program."
    if (kernels && num_kernels < list.size()) return CL_INVALID_VALUE;
    if (kernels) {
      // Every kernel is needed now: compiled several at once first.
      p->compileAllKernels();
      std::vector<Kernel*> made;
      for (auto& [unit, info] : list) {
        cl_int err = CL_SUCCESS;
        Kernel* k = Kernel::create(*p, info->name, err);
        if (!k) {
          for (Kernel* m : made) m->releaseApi();
          return err;
        }
        made.push_back(k);
      }
      for (size_t i = 0; i < made.size(); ++i) kernels[i] = made[i]->handle();
    }
    if (num_kernels_ret) *num_kernels_ret = cl_uint(list.size());
    return CL_SUCCESS;
  });
}

cl_kernel clCloneKernel(cl_kernel source_kernel, cl_int* errcode_ret) {
  return guardedCreate(errcode_ret, [&](cl_int& err) -> cl_kernel {
    Kernel* k = Kernel::from(source_kernel);
    if (!k) { err = CL_INVALID_KERNEL; return nullptr; }
    Kernel* c = k->clone(err);
    return c ? c->handle() : nullptr;
  });
}

cl_int clRetainKernel(cl_kernel kernel) {
  Kernel* k = Kernel::from(kernel);
  if (!k) return CL_INVALID_KERNEL;
  k->retainApi();
  return CL_SUCCESS;
}

cl_int clReleaseKernel(cl_kernel kernel) {
  Kernel* k = Kernel::from(kernel);
  if (!k) return CL_INVALID_KERNEL;
  return guarded([&] {
    k->releaseApi();
    return CL_SUCCESS;
  });
}

cl_int clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size, const void* arg_value) {
  return guarded([&] {
    Kernel* k = Kernel::from(kernel);
    if (!k) return CL_INVALID_KERNEL;
    return k->setArg(arg_index, arg_size, arg_value);
  });
}

cl_int clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void* arg_value) {
  return guarded([&] {
    Kernel* k = Kernel::from(kernel);
    if (!k) return CL_INVALID_KERNEL;
    return k->setArgSVMPointer(arg_index, arg_value);
  });
}

cl_int clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name,
                           size_t param_value_size, const void* param_value) {
  return guarded([&] {
    Kernel* k = Kernel::from(kernel);
    if (!k) return CL_INVALID_KERNEL;
    return k->setExecInfo(param_name, param_value_size, param_value);
  });
}

cl_int clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name, size_t param_value_size,
                       void* param_value, size_t* param_value_size_ret) {
  return guarded([&] {
    Kernel* k = Kernel::from(kernel);
    if (!k) return CL_INVALID_KERNEL;
    return k->info(param_name, param_value_size, param_value, param_value_size_ret);
  });
}

cl_int clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_index, cl_kernel_arg_info param_name,
                          size_t param_value_size, void* param_value,
                          size_t* param_value_size_ret) {
  return guarded([&] {
    Kernel* k = Kernel::from(kernel);
    if (!k) return CL_INVALID_KERNEL;
    return k->argInfo(arg_index, param_name, param_value_size, param_value, param_value_size_ret);
  });
}

cl_int clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                cl_kernel_work_group_info param_name, size_t param_value_size,
                                void* param_value, size_t* param_value_size_ret) {
  return guarded([&] {
    Kernel* k = Kernel::from(kernel);
    if (!k) return CL_INVALID_KERNEL;
    Device* d = nullptr;
    if (device) {
      d = Device::from(device);
      if (!d) return CL_INVALID_DEVICE;
    }
    return k->workGroupInfo(d, param_name, param_value_size, param_value, param_value_size_ret);
  });
}

namespace {

cl_int subGroupInfo(cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param_name,
                    size_t input_value_size, const void* input_value, size_t param_value_size,
                    void* param_value, size_t* param_value_size_ret, bool khr) {
  return guarded([&] {
    Kernel* k = Kernel::from(kernel);
    // "CL_INVALID_KERNEL if kernel is a not a valid kernel object."
    if (!k) return CL_INVALID_KERNEL;
    Device* d = nullptr;
    if (device) {
      d = Device::from(device);
      if (!d) return CL_INVALID_DEVICE;
    }
    return k->subGroupInfo(d, param_name, input_value_size, input_value, param_value_size,
                           param_value, param_value_size_ret, khr);
  });
}

}  // namespace

cl_int clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                               cl_kernel_sub_group_info param_name, size_t input_value_size,
                               const void* input_value, size_t param_value_size, void* param_value,
                               size_t* param_value_size_ret) {
  return subGroupInfo(kernel, device, param_name, input_value_size, input_value, param_value_size,
                      param_value, param_value_size_ret, false);
}

cl_int clGetKernelSubGroupInfoKHR(cl_kernel kernel, cl_device_id device,
                                  cl_kernel_sub_group_info param_name, size_t input_value_size,
                                  const void* input_value, size_t param_value_size,
                                  void* param_value, size_t* param_value_size_ret) {
  return subGroupInfo(kernel, device, param_name, input_value_size, input_value, param_value_size,
                      param_value, param_value_size_ret, true);
}

}  // namespace tessera::cl::api
