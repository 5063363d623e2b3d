#include "spirv/function_pointers.h"

#include <spirv/unified1/spirv.hpp>

#include <cstring>
#include <map>
#include <set>
#include <string>

#include "spirv/instructions.h"

namespace tessera::spirv {
namespace {

std::string literalString(const Instruction& i, size_t first) {
  const char* text = reinterpret_cast<const char*>(i.words.data() + first);
  return std::string(text, strnlen(text, (i.wordCount() - first) * 4));
}

}  // namespace

FunctionPointerShadow functionPointerShadow(std::span<const uint32_t> w) {
  FunctionPointerShadow out;
  if (w.size() < kHeaderWords) return out;
  Instructions walk(w);
  std::set<uint32_t> functionTypes;
  std::map<uint32_t, uint32_t> functionPointerTypes;  // pointer type -> its OpTypeFunction
  std::map<uint32_t, uint32_t> functionTypeOf;  // OpFunction id -> its OpTypeFunction
  bool capability = false, extension = false;
  for (const Instruction& i : walk) {
    const uint32_t op = i.opcode(), n = i.wordCount();
    if (op == spv::OpCapability && n > 1 && i[1] == spv::CapabilityFunctionPointersINTEL)
      capability = true;
    else if (op == spv::OpExtension && n > 1 && literalString(i, 1) == "SPV_INTEL_function_pointers")
      extension = true;
    else if (op == spv::OpTypeFunction && n > 1)
      functionTypes.insert(i[1]);
    else if (op == spv::OpTypePointer && n > 3 && functionTypes.count(i[3]))
      functionPointerTypes[i[1]] = i[3];
    else if (op == spv::OpFunction && n > 4)
      functionTypeOf[i[2]] = i[4];
    if (op == spv::OpConstantFunctionPointerINTEL || op == spv::OpFunctionPointerCallINTEL)
      out.needed = true;
  }
  if (walk.malformed()) return {};
  out.needed |= !functionPointerTypes.empty();
  if (!out.needed) return out;
  if (!capability || !extension) {
    out.error =
        "pointers to functions need capability FunctionPointersINTEL and extension "
        "SPV_INTEL_function_pointers";
    return out;
  }
  // The shadow: new ids from the module's bound on.
  out.words.assign(w.begin(), w.begin() + kHeaderWords);
  uint32_t bound = w[3];
  for (const Instruction& i : Instructions(w)) {
    const uint32_t op = i.opcode(), n = i.wordCount();
    if (op == spv::OpTypePointer && n > 3 && functionPointerTypes.count(i[1])) {
      const uint32_t pointee = bound++;
      out.words.insert(out.words.end(), {(2u << 16) | spv::OpTypeStruct, pointee});
      const uint32_t storage =
          i[2] == spv::StorageClassCodeSectionINTEL ? uint32_t(spv::StorageClassFunction) : i[2];
      out.words.insert(out.words.end(), {(4u << 16) | spv::OpTypePointer, i[1], storage, pointee});
      continue;
    }
    if (op == spv::OpConstantFunctionPointerINTEL) {
      // Result type, result, the function: an OpFunction of this module, of the pointee's type.
      auto type = functionPointerTypes.find(i[1]);
      auto function = functionTypeOf.find(n == 4 ? i[3] : 0);
      if (type == functionPointerTypes.end() || function == functionTypeOf.end() ||
          function->second != type->second) {
        out.error =
            "OpConstantFunctionPointerINTEL must name a function of the module and have the type "
            "of a pointer to that function's type";
        return out;
      }
      out.words.insert(out.words.end(), {(3u << 16) | spv::OpConstantNull, i[1], i[2]});
      continue;
    }
    out.words.insert(out.words.end(), i.words.begin(), i.words.end());
  }
  out.words[3] = bound;
  return out;
}

}  // namespace tessera::spirv
