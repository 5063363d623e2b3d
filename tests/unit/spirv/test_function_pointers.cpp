// Modules with pointers to functions (SPV_INTEL_function_pointers) validate through a copy the
// installed SPIRV-Tools can read (spirv/function_pointers.h), and only when they declare the
// capability and the extension.
#include <catch2/catch.hpp>

#include <spirv/unified1/spirv.hpp>

#include "spirv/function_pointers.h"
#include "spirv/instructions.h"
#include "spirv/validate.h"
#include "spirv_test_support.h"

namespace tessera::spirv::test {
namespace {

// The module without the instructions `drop` selects.
template <typename Drop>
std::vector<uint32_t> without(const std::vector<uint32_t>& words, Drop drop) {
  std::vector<uint32_t> out(words.begin(), words.begin() + kHeaderWords);
  for (const Instruction& i : Instructions(words))
    if (!drop(i)) out.insert(out.end(), i.words.begin(), i.words.end());
  return out;
}

}  // namespace

TEST_CASE("Given a module calling through function pointers, then it validates through its "
          "shadow, and without the capability it is refused",
          "[spirv][validate][function_pointers]") {
  std::vector<uint32_t> words = asWords(loadKernel("function_pointers"));
  ValidationResult ok = validate(asBytes(words));
  INFO(ok.log);
  CHECK(ok.ok);
  CHECK(ok.environment.find("pointers to functions") != std::string::npos);

  FunctionPointerShadow shadow = functionPointerShadow(words);
  REQUIRE(shadow.needed);
  CHECK(shadow.error.empty());
  CHECK(shadow.words[3] == words[3] + 1);  // one empty structure for the one pointer type
  size_t constants = 0;
  for (const Instruction& i : Instructions(shadow.words))
    constants += i.opcode() == spv::OpConstantFunctionPointerINTEL;
  CHECK(constants == 0);

  auto noCapability = without(words, [](const Instruction& i) {
    return i.opcode() == spv::OpCapability && i[1] == spv::CapabilityFunctionPointersINTEL;
  });
  ValidationResult refused = validate(asBytes(noCapability));
  CHECK_FALSE(refused.ok);
  CHECK(refused.log.find("FunctionPointersINTEL") != std::string::npos);

  // A function pointer constant that names something other than a function of the module.
  std::vector<uint32_t> wrong = words;
  for (const Instruction& i : Instructions(words))
    if (i.opcode() == spv::OpConstantFunctionPointerINTEL) {
      wrong[i.offset + 3] = i[1];  // its own type
      break;
    }
  ValidationResult bad = validate(asBytes(wrong));
  CHECK_FALSE(bad.ok);
  CHECK(bad.log.find("OpConstantFunctionPointerINTEL") != std::string::npos);

  // A module without pointers to functions needs no shadow.
  CHECK_FALSE(functionPointerShadow(asWords(loadKernel("vector_add"))).needed);
}

}  // namespace tessera::spirv::test
