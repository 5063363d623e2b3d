// Every extension the device advertises works: the list is read from CL_DEVICE_EXTENSIONS, and each
// name needs an entry below (a kernel that enables and uses a language extension, built and run;
// a use of an API extension). A name without an entry fails, so a new extension needs its test.
#include <CL/cl_ext_qcom.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <sstream>

#include "cl_program_support.h"
#include "command_buffer_support.h"
#include "subgroup_extension_uses.h"

using namespace tessera::cltest;

namespace {

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// A language extension: `source` enables it and uses it in kernel `k(__global long* out)`, run as
// one work-group of `items` work-items; out[0] must then hold `expected`.
struct LanguageUse {
  const char* source;
  size_t items;
  cl_long expected;
};

double sqrtTwo() {
  return std::sqrt(2.0);
}

const std::map<std::string, LanguageUse>& languageUses() {
  static const std::map<std::string, LanguageUse> uses = {
      {"cl_khr_global_int32_base_atomics",
       {R"(#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable
__kernel void k(__global long* out) {
  __global int* p = (__global int*)out;
  atom_add(p, 5);
  atom_inc(p);
})",
        8, 48}},
      {"cl_khr_global_int32_extended_atomics",
       {R"(#pragma OPENCL EXTENSION cl_khr_global_int32_extended_atomics : enable
__kernel void k(__global long* out) {
  __global int* p = (__global int*)out;
  atom_max(&p[2], (int)get_global_id(0));
  atom_or(&p[3], 1 << get_global_id(0));
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) out[0] = p[2] + 1000 * p[3];
})",
        8, 7 + 1000 * 0xff}},
      {"cl_khr_local_int32_base_atomics",
       {R"(#pragma OPENCL EXTENSION cl_khr_local_int32_base_atomics : enable
__kernel void k(__global long* out) {
  __local int l;
  if (get_local_id(0) == 0) l = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atom_add(&l, 4);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) out[0] = l;
})",
        8, 32}},
      {"cl_khr_local_int32_extended_atomics",
       {R"(#pragma OPENCL EXTENSION cl_khr_local_int32_extended_atomics : enable
__kernel void k(__global long* out) {
  __local int l;
  if (get_local_id(0) == 0) l = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atom_max(&l, 3 * (int)get_local_id(0));
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) out[0] = l;
})",
        8, 21}},
      {"cl_khr_int64_base_atomics",
       {R"(#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
__kernel void k(__global long* out) {
  __local long l;
  if (get_local_id(0) == 0) l = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atom_add(&l, 0x100000000L);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) atom_xchg(&out[1], l);
  atom_inc(&out[0]);
  atom_cmpxchg(&out[2], 0L, 1L);
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) atom_add(&out[0], out[1] + out[2]);
})",
        8, (cl_long{8} << 32) + 8 + 1}},
      {"cl_khr_int64_extended_atomics",
       {R"(#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
__kernel void k(__global long* out) {
  atom_max(&out[1], (long)get_global_id(0) << 40);
  atom_xor(&out[2], 1L << get_global_id(0));
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) out[0] = out[1] + out[2];
})",
        8, (cl_long{7} << 40) + 0xff}},
      {"cl_khr_byte_addressable_store",
       {R"(#pragma OPENCL EXTENSION cl_khr_byte_addressable_store : enable
__kernel void k(__global long* out) {
  __global char* c = (__global char*)out;
  c[get_global_id(0)] = (char)(get_global_id(0) + 1);
})",
        3, 0x030201}},
      {"cl_khr_fp64",
       {R"(#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void k(__global long* out) {
  double d = 2.0 + (double)get_global_id(0);
  out[0] = as_long(sqrt(d));
})",
        1, 0}},  // expected: the host's sqrt(2.0), set below
      // fma(1.5, 3, 0.25) = 4.75 (0x44C0); 65535 rounded toward zero is the largest half (0x7BFF).
      {"cl_khr_fp16",
       {R"(#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void k(__global long* out) {
  half2 v = (half2)((half)1.5, (half)get_global_id(0) + (half)3);
  half s = fma(v.x, v.y, (half)0.25);
  out[0] = (long)as_ushort(s) | ((long)as_ushort(convert_half_rtz(65535)) << 16);
})",
        1, 0x7BFF44C0}},
  };
  return uses;
}

cl_long runLanguageUse(ClFixture& fx, const std::string& name, const LanguageUse& use,
                       const char* options) {
  const char* source = use.source;
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(fx.ctx, 1, &source, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_int built = clBuildProgram(p, 1, &fx.dev, options, nullptr, nullptr);
  INFO(name << " with options '" << options << "', build log:\n" << buildLog(p, fx.dev));
  REQUIRE(built == CL_SUCCESS);
  cl_kernel k = makeKernel(p, "k");
  cl_long out[4] = {};
  cl_mem buf =
      clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof out, out, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 0, sizeof buf, &buf) == CL_SUCCESS);
  size_t items = use.items;
  REQUIRE(clEnqueueNDRangeKernel(fx.queue, k, 1, nullptr, &items, &items, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(fx.queue, buf, CL_TRUE, 0, sizeof out, out, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseProgram(p);
  return out[0];
}

void* platformFunction(const char* name) {
  return clGetExtensionFunctionAddressForPlatform(platform(), name);
}

// Records out[i] = 2 * out[i] into a command buffer and runs it; with `mutate`, runs it again after
// pointing the launch at a second buffer.
void useCommandBuffer(bool mutate) {
  CbFixture fx;
  cl_mem a = fx.buffer(4, {1, 2, 3, 4}), b = fx.buffer(4, {5, 6, 7, 8});
  cl_kernel k = fx.kernel("twice");
  REQUIRE(clSetKernelArg(k, 0, sizeof a, &a) == CL_SUCCESS);
  cl_command_buffer_khr cb = fx.newBuffer(mutate ? CL_COMMAND_BUFFER_MUTABLE_KHR : 0);
  cl_mutable_command_khr cmd = nullptr;
  size_t g = 4;
  REQUIRE(fx.cb.ndrange(cb, nullptr, nullptr, k, 1, nullptr, &g, nullptr, 0, nullptr, nullptr,
                        mutate ? &cmd : nullptr) == CL_SUCCESS);
  REQUIRE(fx.cb.finalize(cb) == CL_SUCCESS);
  fx.run(cb);
  CHECK(fx.read(a, 4) == std::vector<cl_int>{2, 4, 6, 8});
  if (mutate) {
    REQUIRE(fx.updateArg(cb, cmd, 0, sizeof b, &b) == CL_SUCCESS);
    fx.run(cb);
    CHECK(fx.read(b, 4) == std::vector<cl_int>{10, 12, 14, 16});
    CHECK(fx.read(a, 4) == std::vector<cl_int>{2, 4, 6, 8});
  }
  REQUIRE(fx.cb.release(cb) == CL_SUCCESS);
}

// API extensions: a use of each through the API.
const std::map<std::string, std::function<void(ClFixture&)>>& apiUses() {
  static const std::map<std::string, std::function<void(ClFixture&)>> uses = {
      {"cl_khr_icd",
       [](ClFixture&) {
         // The loader found the platform through it; the suffix must answer.
         char suffix[64] = {};
         REQUIRE(clGetPlatformInfo(platform(), CL_PLATFORM_ICD_SUFFIX_KHR, sizeof suffix, suffix,
                                   nullptr) == CL_SUCCESS);
         CHECK(std::strlen(suffix) > 0);
       }},
      {"cl_khr_il_program",
       [](ClFixture& fx) {
         auto spv = corpusSpirv("vector_add");
         using CreateWithIL = cl_program(CL_API_CALL*)(cl_context, const void*, size_t, cl_int*);
         auto create = reinterpret_cast<CreateWithIL>(platformFunction("clCreateProgramWithILKHR"));
         REQUIRE(create != nullptr);
         cl_int err = CL_SUCCESS;
         cl_program p = create(fx.ctx, spv.data(), spv.size(), &err);
         REQUIRE(err == CL_SUCCESS);
         CHECK(clBuildProgram(p, 1, &fx.dev, nullptr, nullptr, nullptr) == CL_SUCCESS);
         cl_kernel k = makeKernel(p, "vector_add");
         clReleaseKernel(k);
         clReleaseProgram(p);
       }},
      {"cl_ext_device_fission",
       [](ClFixture& fx) {
         using Create = cl_int(CL_API_CALL*)(cl_device_id, const cl_device_partition_property_ext*,
                                             cl_uint, cl_device_id*, cl_uint*);
         using Release = cl_int(CL_API_CALL*)(cl_device_id);
         auto create = reinterpret_cast<Create>(platformFunction("clCreateSubDevicesEXT"));
         auto release = reinterpret_cast<Release>(platformFunction("clReleaseDeviceEXT"));
         REQUIRE(create != nullptr);
         REQUIRE(release != nullptr);
         cl_device_partition_property_ext props[] = {CL_DEVICE_PARTITION_EQUALLY_EXT, 1,
                                                     CL_PROPERTIES_LIST_END_EXT};
         cl_device_id sub = nullptr;
         cl_uint n = 0;
         REQUIRE(create(fx.dev, props, 1, &sub, &n) == CL_SUCCESS);
         CHECK(n >= 1);
         CHECK(deviceInfo<cl_uint>(sub, CL_DEVICE_MAX_COMPUTE_UNITS) == 1);
         CHECK(release(sub) == CL_SUCCESS);
       }},
      {"cl_intel_device_partition_by_names",
       [](ClFixture& fx) {
         cl_device_partition_property props[] = {CL_DEVICE_PARTITION_BY_NAMES_INTEL, 0,
                                                 CL_PARTITION_BY_NAMES_LIST_END_INTEL, 0};
         cl_device_id sub = nullptr;
         cl_uint n = 0;
         REQUIRE(clCreateSubDevices(fx.dev, props, 1, &sub, &n) == CL_SUCCESS);
         CHECK(n == 1);
         CHECK(deviceInfo<cl_uint>(sub, CL_DEVICE_MAX_COMPUTE_UNITS) == 1);
         CHECK(clReleaseDevice(sub) == CL_SUCCESS);
       }},
      {"cl_khr_3d_image_writes",
       [](ClFixture& fx) {
         // A kernel writes every pixel of a 3D image, under each -cl-std.
         const char* source = R"(#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable
__kernel void k(write_only image3d_t img) {
  int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  write_imageui(img, p, (uint4)(p.x, p.y, p.z, p.x + p.y + p.z));
})";
         for (const char* options : {"", "-cl-std=CL1.2", "-cl-std=CL3.0"}) {
           INFO(options);
           cl_int err = CL_SUCCESS;
           cl_program p = clCreateProgramWithSource(fx.ctx, 1, &source, nullptr, &err);
           REQUIRE(clBuildProgram(p, 1, &fx.dev, options, nullptr, nullptr) == CL_SUCCESS);
           cl_kernel k = makeKernel(p, "k");
           const cl_image_format f{CL_RGBA, CL_UNSIGNED_INT8};
           cl_image_desc d{};
           d.image_type = CL_MEM_OBJECT_IMAGE3D;
           d.image_width = 4, d.image_height = 3, d.image_depth = 2;
           cl_mem img = clCreateImage(fx.ctx, CL_MEM_WRITE_ONLY, &f, &d, nullptr, &err);
           REQUIRE(err == CL_SUCCESS);
           REQUIRE(clSetKernelArg(k, 0, sizeof img, &img) == CL_SUCCESS);
           size_t global[3] = {4, 3, 2}, origin[3] = {0, 0, 0};
           runKernel(fx.queue, k, 3, global);
           unsigned char px[2][3][4][4];
           REQUIRE(clEnqueueReadImage(fx.queue, img, CL_TRUE, origin, global, 0, 0, px, 0, nullptr,
                                      nullptr) == CL_SUCCESS);
           for (int z = 0; z < 2; ++z)
             for (int y = 0; y < 3; ++y)
               for (int x = 0; x < 4; ++x) {
                 unsigned char want[4] = {static_cast<unsigned char>(x), static_cast<unsigned char>(y),
                                          static_cast<unsigned char>(z),
                                          static_cast<unsigned char>(x + y + z)};
                 CHECK(std::memcmp(px[z][y][x], want, 4) == 0);
               }
           clReleaseMemObject(img);
           clReleaseKernel(k);
           clReleaseProgram(p);
         }
       }},
      {"cl_khr_image2d_from_buffer",
       [](ClFixture& fx) {
         // A 2D image over a buffer at a row pitch of the device's alignment shows its rows.
         const size_t align = deviceInfo<cl_uint>(fx.dev, CL_DEVICE_IMAGE_PITCH_ALIGNMENT_KHR);
         const size_t width = 5, height = 3, pitch = ((width + align) / align) * align;  // > width
         std::vector<unsigned char> bytes(pitch * height);
         for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<unsigned char>(i * 3);
         cl_int err = CL_SUCCESS;
         cl_mem buf = clCreateBuffer(fx.ctx, CL_MEM_COPY_HOST_PTR, bytes.size(), bytes.data(), &err);
         REQUIRE(err == CL_SUCCESS);
         const cl_image_format f{CL_R, CL_UNSIGNED_INT8};
         cl_image_desc d{};
         d.image_type = CL_MEM_OBJECT_IMAGE2D;
         d.image_width = width, d.image_height = height, d.image_row_pitch = pitch;
         d.mem_object = buf;
         cl_mem img = clCreateImage(fx.ctx, 0, &f, &d, nullptr, &err);
         REQUIRE(err == CL_SUCCESS);
         unsigned char got[3][5];
         size_t origin[3] = {0, 0, 0}, region[3] = {width, height, 1};
         REQUIRE(clEnqueueReadImage(fx.queue, img, CL_TRUE, origin, region, 0, 0, got, 0, nullptr,
                                    nullptr) == CL_SUCCESS);
         for (size_t y = 0; y < height; ++y)
           for (size_t x = 0; x < width; ++x) CHECK(got[y][x] == bytes[y * pitch + x]);
         clReleaseMemObject(img);
         clReleaseMemObject(buf);
       }},
      // A buffer of one launch, replayed after an argument update (test_command_buffer*.cpp
      // test everything else).
      {"cl_khr_command_buffer", [](ClFixture&) { useCommandBuffer(false); }},
      {"cl_khr_command_buffer_mutable_dispatch", [](ClFixture&) { useCommandBuffer(true); }},
      {"cl_qcom_recordable_queues",
       [](ClFixture&) {
         for (const char* f : {"clNewRecordingQCOM", "clEndRecordingQCOM", "clReleaseRecordingQCOM",
                               "clRetainRecordingQCOM", "clEnqueueRecordingQCOM"}) {
           INFO(f);
           CHECK(platformFunction(f) != nullptr);
         }
         CHECK(deviceInfo<cl_uint>(device(), CL_DEVICE_RECORDABLE_QUEUE_MAX_SIZE_QCOM) > 0);
       }},
  };
  return uses;
}

}  // namespace

TEST_CASE(
    "Given CL_DEVICE_EXTENSIONS, when each extension is used, then every one builds and works "
    "and none is unknown",
    "[cl][extensions]") {
  ClFixture fx;
  std::vector<std::string> names = words(deviceString(fx.dev, CL_DEVICE_EXTENSIONS));
  REQUIRE(!names.empty());
  for (const std::string& name : names) {
    INFO("extension " << name);
    auto language = languageUses().find(name);
    auto api = apiUses().find(name);
    auto subgroups = subgroupExtensionUses().find(name);  // subgroup_extension_uses.cpp
    if (subgroups != subgroupExtensionUses().end()) {
      subgroups->second(fx);
    } else if (language != languageUses().end()) {
      LanguageUse use = language->second;
      cl_long expected = use.expected;
      if (name == "cl_khr_fp64") {
        double root = sqrtTwo();
        std::memcpy(&expected, &root, sizeof expected);
      }
      for (const char* options : {"", "-cl-std=CL1.2", "-cl-std=CL3.0"}) {
        CHECK(runLanguageUse(fx, name, use, options) == expected);
      }
    } else if (api != apiUses().end()) {
      api->second(fx);
    } else {
      FAIL("the device advertises " << name
                                    << " but no test uses it: add one to test_extensions.cpp");
    }
  }
}

TEST_CASE("Given the platform's and the device's extension lists, then they agree in both forms",
          "[cl][extensions]") {
  cl_device_id d = device();
  std::vector<std::string> names = words(deviceString(d, CL_DEVICE_EXTENSIONS));
  size_t n = 0;
  REQUIRE(clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, nullptr, &n) == CL_SUCCESS);
  std::vector<cl_name_version> versioned(n / sizeof(cl_name_version));
  REQUIRE(clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS_WITH_VERSION, n, versioned.data(), nullptr) ==
          CL_SUCCESS);
  REQUIRE(versioned.size() == names.size());
  for (size_t i = 0; i < names.size(); ++i) CHECK(names[i] == versioned[i].name);
  size_t pn = 0;
  REQUIRE(clGetPlatformInfo(platform(), CL_PLATFORM_EXTENSIONS, 0, nullptr, &pn) == CL_SUCCESS);
  std::string platformList(pn, '\0');
  REQUIRE(clGetPlatformInfo(platform(), CL_PLATFORM_EXTENSIONS, pn, platformList.data(), nullptr) ==
          CL_SUCCESS);
  CHECK(words(platformList.c_str()) == names);
}
