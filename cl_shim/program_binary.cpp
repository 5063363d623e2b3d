#include "cl_shim/program_binary.h"

#include <cstring>

namespace tessera::cl {
namespace {

constexpr char kMagic[8] = {'T', 'S', 'R', 'C', 'L', 'O', 'B', 'J'};
constexpr uint32_t kFormatVersion = 1;
constexpr size_t kHeaderSize = sizeof kMagic + 4 * sizeof(uint32_t);

void put32(std::vector<uint8_t>& out, uint32_t v) {
  for (int b = 0; b < 4; ++b) out.push_back(static_cast<uint8_t>(v >> (8 * b)));
}

uint32_t get32(std::span<const uint8_t> in, size_t at) {
  uint32_t v = 0;
  for (int b = 0; b < 4; ++b) v |= uint32_t{in[at + b]} << (8 * b);
  return v;
}

}  // namespace

std::vector<uint8_t> encodeObjectBinary(const ObjectBinary& binary) {
  std::vector<uint8_t> out(kMagic, kMagic + sizeof kMagic);
  put32(out, kFormatVersion);
  put32(out, static_cast<uint32_t>(binary.type));
  put32(out, static_cast<uint32_t>(binary.options.size()));
  put32(out, static_cast<uint32_t>(binary.units.size()));
  out.insert(out.end(), binary.options.begin(), binary.options.end());
  for (const std::vector<uint8_t>& unit : binary.units) {
    put32(out, static_cast<uint32_t>(unit.size()));
    out.insert(out.end(), unit.begin(), unit.end());
  }
  return out;
}

bool looksLikeObjectBinary(std::span<const uint8_t> bytes) {
  return bytes.size() >= sizeof kMagic && std::memcmp(bytes.data(), kMagic, sizeof kMagic) == 0;
}

std::optional<ObjectBinary> decodeObjectBinary(std::span<const uint8_t> bytes) {
  if (!looksLikeObjectBinary(bytes) || bytes.size() < kHeaderSize) return std::nullopt;
  if (get32(bytes, 8) != kFormatVersion) return std::nullopt;
  ObjectBinary b;
  b.type = get32(bytes, 12);
  if (b.type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
      b.type != CL_PROGRAM_BINARY_TYPE_LIBRARY && b.type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE)
    return std::nullopt;
  uint64_t optionsSize = get32(bytes, 16), count = get32(bytes, 20);
  if (count == 0 || optionsSize > bytes.size() - kHeaderSize) return std::nullopt;
  size_t at = kHeaderSize;
  b.options.assign(reinterpret_cast<const char*>(bytes.data() + at), optionsSize);
  at += optionsSize;
  for (uint64_t i = 0; i < count; ++i) {
    if (bytes.size() - at < 4) return std::nullopt;
    uint64_t size = get32(bytes, at);
    at += 4;
    if (size == 0 || size % 4 != 0 || size > bytes.size() - at) return std::nullopt;
    b.units.emplace_back(bytes.begin() + at, bytes.begin() + at + size);
    at += size;
  }
  if (at != bytes.size()) return std::nullopt;
  return b;
}

}  // namespace tessera::cl
