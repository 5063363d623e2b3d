// Kernels that take one argument of each OpenCL C type by value and write it back, generated for
// the tests of both APIs (tests/api/cl/test_kernel_values.cpp,
// tests/api/ze/test_kernel_values.cpp): every scalar and vector width (2, 3, 4, 8, 16) of
// char..ulong, half, float and double, and structs holding wide vectors (or halves). Each kernel is
//   __kernel void take_<type>(__global <type>* out, __global char* tails, char pad, <type> v,
//                             char tail)
// and writes v to out[gid] and pad + tail to tails[gid], so the argument slots around v are
// checked too. The host compares the bytes a type defines (not a 3-vector's fourth element, nor
// a struct's padding).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tessera::test {

struct ByValueType {
  std::string name;                                // OpenCL C type name (the kernel is take_<name>)
  size_t size;                                     // sizeof in OpenCL C
  std::vector<std::pair<size_t, size_t>> defined;  // [begin, end) byte ranges the value defines
};

inline std::vector<ByValueType> byValueTypes() {
  std::vector<ByValueType> types;
  const std::pair<const char*, size_t> scalars[] = {
      {"char", 1}, {"uchar", 1}, {"short", 2}, {"ushort", 2}, {"int", 4},   {"uint", 4},
      {"long", 8}, {"ulong", 8}, {"half", 2},  {"float", 4},  {"double", 8}};
  for (auto [name, bytes] : scalars) {
    types.push_back({name, bytes, {{0, bytes}}});
    for (unsigned n : {2u, 3u, 4u, 8u, 16u}) {
      size_t stored = n == 3 ? 4 : n;  // "the size of the data type is 4 * sizeof(component)"
      types.push_back({name + std::to_string(n), stored * bytes, {{0, n * bytes}}});
    }
  }
  // Structs (declared in byValueSource): offsets as OpenCL C lays them out.
  types.push_back({"S_char_int16", 128, {{0, 1}, {64, 128}}});
  types.push_back({"S_long16_char", 256, {{0, 129}}});
  types.push_back({"S_mixed", 32, {{0, 12}, {16, 26}}});
  types.push_back({"S_array", 64, {{0, 50}}});
  types.push_back({"S_half", 24, {{0, 1}, {2, 4}, {8, 14}, {16, 20}}});
  return types;
}

inline std::string byValueSource() {
  std::string s =
      "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
      "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
      "typedef struct { char c; int16 v; } S_char_int16;\n"
      "typedef struct { long16 v; char c; } S_long16_char;\n"
      "typedef struct { float3 f; double d; uchar2 u; } S_mixed;\n"
      "typedef struct { int4 a[3]; short s; } S_array;\n"
      "typedef struct { char c; half h; half3 v; float f; } S_half;\n";
  for (const ByValueType& t : byValueTypes()) {
    s += "__kernel void take_" + t.name + "(__global " + t.name +
         "* out, __global char* tails, char pad, " + t.name +
         " v, char tail) {\n"
         "  size_t i = get_global_id(0);\n"
         "  out[i] = v;\n"
         "  tails[i] = pad + tail;\n"
         "}\n";
  }
  return s;
}

// The value passed for type number `index`: distinct bytes, none of them zero.
inline std::vector<uint8_t> byValueBytes(size_t index, size_t size) {
  std::vector<uint8_t> v(size);
  for (size_t b = 0; b < size; ++b) v[b] = static_cast<uint8_t>(1 + (b * 7 + index * 13) % 251);
  return v;
}

}  // namespace tessera::test
