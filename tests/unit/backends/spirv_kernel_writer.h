// A SPIR-V module with one kernel, written word by word, for tests that need instructions no
// OpenCL C source produces on demand (test_jit_builtin_coverage.cpp): types and kernel parameters
// are made as operands need them.
#pragma once

#include <spirv/unified1/spirv.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tessera::backends::cpu::test {

enum class Scalar { kI8, kI16, kI32, kI64, kHalf, kFloat, kDouble };

class SpirvKernel {
 public:
  uint32_t type(Scalar s, unsigned lanes = 1) {
    uint32_t scalar = scalarType(s);
    if (lanes == 1) return scalar;
    return cached("v" + std::to_string(scalar) + "x" + std::to_string(lanes), [&](uint32_t id) {
      emit(types_, SpvOpTypeVector, {id, scalar, lanes});
    });
  }
  uint32_t pointer(uint32_t pointee, SpvStorageClass storage = SpvStorageClassCrossWorkgroup) {
    return cached("p" + std::to_string(storage) + ":" + std::to_string(pointee), [&](uint32_t id) {
      emit(types_, SpvOpTypePointer, {id, uint32_t(storage), pointee});
    });
  }
  uint32_t undef(uint32_t type) {
    return cached("u" + std::to_string(type), [&](uint32_t id) {
      emit(types_, SpvOpUndef, {type, id});
    });
  }
  // A kernel parameter of `type` (one per type): values the lowerings cannot fold away.
  uint32_t value(uint32_t type) {
    return cached("a" + std::to_string(type), [&](uint32_t id) {
      emit(params_, SpvOpFunctionParameter, {type, id});
      paramTypes_.push_back(type);
    });
  }
  uint32_t voidType() {
    return cached("void", [&](uint32_t id) { emit(types_, SpvOpTypeVoid, {id}); });
  }
  // result = OpExtInst OpenCL.std `op` (operands); `literals` follow the ids as they are.
  void call(uint32_t result, uint32_t op, const std::vector<uint32_t>& ids,
            const std::vector<uint32_t>& literals = {}) {
    std::vector<uint32_t> words = {result, next_++, kExtSet, op};
    words.insert(words.end(), ids.begin(), ids.end());
    words.insert(words.end(), literals.begin(), literals.end());
    emit(body_, SpvOpExtInst, words);
  }

  std::vector<uint32_t> finish() {
    uint32_t voidId = voidType();
    uint32_t fnType = next_++;
    std::vector<uint32_t> signature = {fnType, voidId};
    signature.insert(signature.end(), paramTypes_.begin(), paramTypes_.end());
    emit(types_, SpvOpTypeFunction, signature);
    uint32_t fn = next_++, label = next_++;
    std::vector<uint32_t> m = {0x07230203u, 0x00010000u, 0, 0, 0};
    for (SpvCapability c : {SpvCapabilityAddresses, SpvCapabilityKernel, SpvCapabilityInt8,
                            SpvCapabilityInt16, SpvCapabilityInt64, SpvCapabilityFloat64,
                            SpvCapabilityFloat16Buffer, SpvCapabilityVector16}) {
      emit(m, SpvOpCapability, {uint32_t(c)});
    }
    std::vector<uint32_t> import = {kExtSet};
    appendString(import, "OpenCL.std");
    emit(m, SpvOpExtInstImport, import);
    emit(m, SpvOpMemoryModel, {SpvAddressingModelPhysical64, SpvMemoryModelOpenCL});
    std::vector<uint32_t> entry = {SpvExecutionModelKernel, fn};
    appendString(entry, "k");
    emit(m, SpvOpEntryPoint, entry);
    m.insert(m.end(), types_.begin(), types_.end());
    emit(m, SpvOpFunction, {voidId, fn, SpvFunctionControlMaskNone, fnType});
    m.insert(m.end(), params_.begin(), params_.end());
    emit(m, SpvOpLabel, {label});
    m.insert(m.end(), body_.begin(), body_.end());
    emit(m, SpvOpReturn, {});
    emit(m, SpvOpFunctionEnd, {});
    m[3] = next_;  // the bound
    return m;
  }

 private:
  static constexpr uint32_t kExtSet = 1;

  uint32_t scalarType(Scalar s) {
    switch (s) {
      case Scalar::kI8:
        return integer(8);
      case Scalar::kI16:
        return integer(16);
      case Scalar::kI32:
        return integer(32);
      case Scalar::kI64:
        return integer(64);
      case Scalar::kHalf:
        return floating(16);
      case Scalar::kFloat:
        return floating(32);
      case Scalar::kDouble:
        return floating(64);
    }
    return 0;
  }
  uint32_t integer(uint32_t bits) {
    return cached("i" + std::to_string(bits), [&](uint32_t id) {
      emit(types_, SpvOpTypeInt, {id, bits, 0});
    });
  }
  uint32_t floating(uint32_t bits) {
    return cached("f" + std::to_string(bits), [&](uint32_t id) {
      emit(types_, SpvOpTypeFloat, {id, bits});
    });
  }
  uint32_t cached(const std::string& key, const std::function<void(uint32_t)>& make) {
    auto it = ids_.find(key);
    if (it != ids_.end()) return it->second;
    uint32_t id = next_++;
    make(id);
    return ids_[key] = id;
  }
  static void emit(std::vector<uint32_t>& out, SpvOp op, const std::vector<uint32_t>& operands) {
    out.push_back(uint32_t(operands.size() + 1) << 16 | uint32_t(op));
    out.insert(out.end(), operands.begin(), operands.end());
  }
  static void appendString(std::vector<uint32_t>& out, const std::string& s) {
    for (size_t i = 0; i <= s.size(); i += 4) {
      uint32_t w = 0;
      for (size_t j = 0; j < 4 && i + j < s.size(); ++j)
        w |= uint32_t(uint8_t(s[i + j])) << (8 * j);
      out.push_back(w);
    }
  }

  uint32_t next_ = kExtSet + 1;
  std::map<std::string, uint32_t> ids_;
  std::vector<uint32_t> types_, params_, body_, paramTypes_;
};

}  // namespace tessera::backends::cpu::test
