// What clGetKernelArgInfo and image arguments need beyond spirv::reflect: OpenCL C type names
// rebuilt from the module's types, the parameters' FuncParamAttr / Volatile decorations, and the
// image type each image parameter declares. A small walk over the instruction stream,
// bounds-checked like reflect (the module has been built by now anyway).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cl_shim/cl_headers.h"
#include "spirv/reflect.h"

namespace tessera::cl {

// A pointer to global, constant or generic memory: what takes a buffer (or an SVM pointer).
inline bool isPointer(spirv::ArgKind k) {
  return k == spirv::ArgKind::GlobalPointer || k == spirv::ArgKind::ConstantPointer ||
         k == spirv::ArgKind::GenericPointer;
}

struct ArgTypeInfo {
  std::vector<std::string> typeNames;
  std::vector<cl_kernel_arg_type_qualifier> qualifiers;
  // The memory object type an image argument takes (CL_MEM_OBJECT_IMAGE2D for image2d_t, ...); 0
  // for other arguments.
  std::vector<cl_mem_object_type> imageTypes;
};

// A kernel of a SPIR-V module (`spirv`, reflected as `kernel`): names rebuilt from its types.
ArgTypeInfo argTypeInfo(const std::vector<uint8_t>& spirv, const spirv::KernelInfo& kernel);
// A kernel of a Tessera IR module: reflection kept the source's spellings (KernelArg::typeName).
ArgTypeInfo argTypeInfo(const spirv::KernelInfo& kernel);

}  // namespace tessera::cl
