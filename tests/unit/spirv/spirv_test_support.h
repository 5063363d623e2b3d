// Loading the kernel corpus (tests/kernels, compiled at build time into TESSERA_TEST_KERNELS).
#pragma once

#include <cstdint>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::spirv::test {

inline std::vector<uint8_t> loadKernel(const std::string& name) {
  std::string path = std::string(TESSERA_TEST_KERNELS) + "/" + name + ".spv";
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

// Every binary of the corpus.
inline const std::vector<std::string>& corpusNames() {
  static const std::vector<std::string> names = {
      "vector_add",      "saxpy",         "local_reduce",   "static_local",
      "struct_by_value", "reqd_size",     "printf_kernel",  "export_lib",
      "import_user",     "sampler_image", "spec_constants", "local_size_id"};
  return names;
}

inline std::vector<uint32_t> asWords(const std::vector<uint8_t>& bytes) {
  std::vector<uint32_t> words(bytes.size() / 4);
  for (size_t i = 0; i < words.size(); ++i) {
    words[i] = uint32_t{bytes[4 * i]} | uint32_t{bytes[4 * i + 1]} << 8 |
               uint32_t{bytes[4 * i + 2]} << 16 | uint32_t{bytes[4 * i + 3]} << 24;
  }
  return words;
}

inline std::vector<uint8_t> asBytes(const std::vector<uint32_t>& words) {
  std::vector<uint8_t> bytes(words.size() * 4);
  for (size_t i = 0; i < words.size(); ++i) {
    for (int b = 0; b < 4; ++b) bytes[4 * i + b] = static_cast<uint8_t>(words[i] >> (8 * b));
  }
  return bytes;
}

}  // namespace tessera::spirv::test
