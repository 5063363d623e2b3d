#include "cl_shim/kernel_arg_types.h"

#include <functional>
#include <map>

#include "spirv/instructions.h"

namespace tessera::cl {
namespace {

using spirv::ArgKind;

// OpTypeImage's operands after its result: sampled type, Dim, Depth, Arrayed, MS, Sampled, Format
// [, access qualifier]. Dim: 0 1D, 1 2D, 2 3D, 5 Buffer.
enum { kDim = 1, kDepth = 2, kArrayed = 3 };

std::string imageTypeName(const std::vector<uint32_t>& ops) {
  if (ops.size() <= kArrayed) return "";
  const bool arrayed = ops[kArrayed] == 1, depth = ops[kDepth] == 1;
  switch (ops[kDim]) {
    case 0: return arrayed ? "image1d_array_t" : "image1d_t";
    case 1:
      return std::string(arrayed ? "image2d_array" : "image2d") + (depth ? "_depth_t" : "_t");
    case 2: return "image3d_t";
    case 5: return "image1d_buffer_t";
    default: return "";
  }
}

cl_mem_object_type imageObjectType(const std::vector<uint32_t>& ops) {
  if (ops.size() <= kArrayed) return 0;
  const bool arrayed = ops[kArrayed] == 1;
  switch (ops[kDim]) {
    case 0: return arrayed ? CL_MEM_OBJECT_IMAGE1D_ARRAY : CL_MEM_OBJECT_IMAGE1D;
    case 1: return arrayed ? CL_MEM_OBJECT_IMAGE2D_ARRAY : CL_MEM_OBJECT_IMAGE2D;
    case 2: return CL_MEM_OBJECT_IMAGE3D;
    case 5: return CL_MEM_OBJECT_IMAGE1D_BUFFER;
    default: return 0;
  }
}

// An argument's qualifiers: `words` as the source spelled them ("const volatile"), `decorated` as
// the module's decorations say, both for pointers only; a pointer to __constant is const.
cl_kernel_arg_type_qualifier qualifiersOf(const std::string& words,
                                          cl_kernel_arg_type_qualifier decorated, ArgKind kind) {
  cl_kernel_arg_type_qualifier q = decorated;
  if (words.find("const") != std::string::npos) q |= CL_KERNEL_ARG_TYPE_CONST;
  if (words.find("restrict") != std::string::npos) q |= CL_KERNEL_ARG_TYPE_RESTRICT;
  if (words.find("volatile") != std::string::npos) q |= CL_KERNEL_ARG_TYPE_VOLATILE;
  if (words.find("pipe") != std::string::npos) q |= CL_KERNEL_ARG_TYPE_PIPE;
  if (!isPointer(kind) && kind != ArgKind::LocalPointer) q = CL_KERNEL_ARG_TYPE_NONE;
  // "CL_KERNEL_ARG_TYPE_CONST is returned ... if the argument is a pointer to constant".
  if (kind == ArgKind::ConstantPointer) q |= CL_KERNEL_ARG_TYPE_CONST;
  return q;
}

// The memory object an image argument of OpenCL C type `name` takes ("image2d_array_t").
cl_mem_object_type imageObjectTypeOf(const std::string& name) {
  static const std::map<std::string, cl_mem_object_type> types = {
      {"image1d_t", CL_MEM_OBJECT_IMAGE1D},
      {"image1d_array_t", CL_MEM_OBJECT_IMAGE1D_ARRAY},
      {"image1d_buffer_t", CL_MEM_OBJECT_IMAGE1D_BUFFER},
      {"image2d_t", CL_MEM_OBJECT_IMAGE2D},
      {"image2d_depth_t", CL_MEM_OBJECT_IMAGE2D},
      {"image2d_array_t", CL_MEM_OBJECT_IMAGE2D_ARRAY},
      {"image2d_array_depth_t", CL_MEM_OBJECT_IMAGE2D_ARRAY},
      {"image3d_t", CL_MEM_OBJECT_IMAGE3D}};
  auto it = types.find(name);
  return it == types.end() ? 0 : it->second;
}

}  // namespace

ArgTypeInfo argTypeInfo(const spirv::KernelInfo& k) {
  ArgTypeInfo out;
  for (const spirv::KernelArg& arg : k.args) {
    out.typeNames.push_back(arg.typeName);
    out.qualifiers.push_back(qualifiersOf(arg.typeQualifier, CL_KERNEL_ARG_TYPE_NONE, arg.kind));
    out.imageTypes.push_back(arg.kind == ArgKind::Image ? imageObjectTypeOf(arg.typeName) : 0);
  }
  return out;
}

ArgTypeInfo argTypeInfo(const std::vector<uint8_t>& bytes, const spirv::KernelInfo& k) {
  ArgTypeInfo out;
  std::vector<uint32_t> w = spirv::toWords(bytes);
  struct Type { uint32_t op = 0; std::vector<uint32_t> ops; };
  std::map<uint32_t, Type> types;
  std::map<uint32_t, std::string> names;
  std::map<uint32_t, cl_kernel_arg_type_qualifier> decorations;
  std::vector<uint32_t> params;
  // The front end's exact spellings, when it kept them: OpString "kernel_arg_type.<kernel>.<t>,<t>,"
  // and "kernel_arg_type_qual.<kernel>.<q>,<q>," (the translator's kernel-argument metadata).
  std::vector<std::string> keptTypes, keptQualifiers;
  auto splitList = [](const std::string& list) {
    std::vector<std::string> items;
    size_t start = 0;
    for (size_t comma; (comma = list.find(',', start)) != std::string::npos; start = comma + 1)
      items.push_back(list.substr(start, comma - start));
    return items;
  };
  bool inKernel = false;
  auto str = [&](size_t at, size_t end) {
    std::string s;
    for (size_t i = at; i < end; ++i)
      for (int b = 0; b < 4; ++b) {
        char c = char((w[i] >> (8 * b)) & 0xff);
        if (!c) return s;
        s += c;
      }
    return s;
  };
  for (const spirv::Instruction& inst : spirv::Instructions(w)) {
    const size_t i = inst.offset;
    const uint32_t n = inst.wordCount(), op = inst.opcode();
    const uint32_t* a = inst.words.data() + 1;
    switch (op) {
      case 5: if (n >= 3) names[a[0]] = str(i + 2, i + n); break;  // OpName
      case 7: {                                                     // OpString
        std::string text = str(i + 2, i + n);
        const std::string typePrefix = "kernel_arg_type." + k.name + ".";
        const std::string qualPrefix = "kernel_arg_type_qual." + k.name + ".";
        if (text.rfind(typePrefix, 0) == 0) keptTypes = splitList(text.substr(typePrefix.size()));
        if (text.rfind(qualPrefix, 0) == 0) keptQualifiers = splitList(text.substr(qualPrefix.size()));
        break;
      }
      case 71:                                                     // OpDecorate
        if (n >= 3) {
          if (a[1] == 38 && n >= 4 && a[2] == 6) decorations[a[0]] |= CL_KERNEL_ARG_TYPE_CONST;     // NoWrite
          if (a[1] == 38 && n >= 4 && a[2] == 4) decorations[a[0]] |= CL_KERNEL_ARG_TYPE_RESTRICT;  // NoAlias
          if (a[1] == 21) decorations[a[0]] |= CL_KERNEL_ARG_TYPE_VOLATILE;                        // Volatile
        }
        break;
      case 54: inKernel = n >= 2 && a[1] == k.functionId; break;  // OpFunction
      case 55: if (inKernel && n >= 3) params.push_back(a[1]); break;  // OpFunctionParameter
      case 56: inKernel = false; break;                               // OpFunctionEnd
      default:
        if (op >= 19 && op <= 39 && n >= 2) {  // OpType*
          Type t{op, {}};
          for (uint32_t j = 1; j + 1 < n; ++j) t.ops.push_back(a[j]);
          types[a[0]] = std::move(t);
        }
    }
  }
  std::function<std::string(uint32_t, int)> name = [&](uint32_t id, int depth) -> std::string {
    auto it = types.find(id);
    if (it == types.end() || depth > 8) return "";
    const Type& t = it->second;
    switch (t.op) {
      case 19: return "void";
      case 20: return "bool";
      case 21: {  // OpTypeInt: SPIR-V kernels do not keep signedness
        uint32_t width = t.ops.empty() ? 32 : t.ops[0];
        return width == 8 ? "char" : width == 16 ? "short" : width == 64 ? "long" : "int";
      }
      case 22: {
        uint32_t width = t.ops.empty() ? 32 : t.ops[0];
        return width == 16 ? "half" : width == 64 ? "double" : "float";
      }
      case 23: return t.ops.size() >= 2 ? name(t.ops[0], depth + 1) + std::to_string(t.ops[1]) : "";
      case 30: {  // OpTypeStruct: "struct.Params" from the translator
        std::string s = names.count(id) ? names[id] : "struct";
        if (s.rfind("struct.", 0) == 0) s = s.substr(7);
        return s;
      }
      case 32: return t.ops.size() >= 2 ? name(t.ops[1], depth + 1) + "*" : "";  // OpTypePointer
      case 26: return "sampler_t";
      case 25: return imageTypeName(t.ops);
      default: return "";
    }
  };
  for (size_t i = 0; i < k.args.size(); ++i) {
    const spirv::KernelArg& arg = k.args[i];
    auto image = types.find(arg.typeId);
    out.imageTypes.push_back(arg.kind == ArgKind::Image && image != types.end() && image->second.op == 25
                                 ? imageObjectType(image->second.ops)
                                 : 0);
    std::string n = name(arg.typeId, 0);
    if (arg.kind == ArgKind::ByValue) {
      // ByVal structs arrive as pointers: the reflected typeId is the pointee; keep it unstarred.
      if (!n.empty() && n.back() == '*') n.pop_back();
    }
    if (arg.kind == ArgKind::LocalPointer || isPointer(arg.kind)) {
      if (n.empty() || n.back() != '*') n += "*";
    }
    if (keptTypes.size() == k.args.size() && !keptTypes[i].empty()) n = keptTypes[i];
    out.typeNames.push_back(n);
    cl_kernel_arg_type_qualifier q = CL_KERNEL_ARG_TYPE_NONE;
    if (i < params.size() && decorations.count(params[i])) q = decorations[params[i]];
    out.qualifiers.push_back(
        qualifiersOf(keptQualifiers.size() == k.args.size() ? keptQualifiers[i] : "", q, arg.kind));
  }
  return out;
}

}  // namespace tessera::cl
