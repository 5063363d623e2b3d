// Samplers and image kernel arguments through ocl-icd: clCreateSampler(WithProperties) for every
// mode, their queries, references and refusals; image and sampler values in clSetKernelArg with
// their errors, and what clGetKernelArgInfo says of image arguments.
#include <algorithm>
#include <vector>

#include "cl_program_support.h"
#include "image_test_support.h"

using namespace tessera::cltest;

namespace {

template <typename T>
T samplerInfo(cl_sampler s, cl_sampler_info what) {
  T v{};
  REQUIRE(clGetSamplerInfo(s, what, sizeof v, &v, nullptr) == CL_SUCCESS);
  return v;
}

const cl_addressing_mode kAddressing[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE,
                                          CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT,
                                          CL_ADDRESS_MIRRORED_REPEAT};

const char* kArgs = R"(
__kernel void k(read_only image2d_t a, write_only image3d_t b, read_write image2d_array_t c,
                image1d_buffer_t d, sampler_t s, __global int* out, read_only image1d_array_t e) {
  out[0] = get_image_width(a) + get_image_width(b) + get_image_width(c) + get_image_width(d) +
           get_image_width(e);
}
)";

}  // namespace

TEST_CASE("Given every addressing mode, filter and coordinate kind, then clCreateSampler makes a "
          "sampler that reports them",
          "[cl][sampler]") {
  ClFixture fx;
  TESSERA_REQUIRE_IMAGES(fx.dev);
  for (cl_bool normalized : {CL_FALSE, CL_TRUE})
    for (cl_addressing_mode a : kAddressing)
      for (cl_filter_mode f : {CL_FILTER_NEAREST, CL_FILTER_LINEAR}) {
        INFO(normalized << " " << a << " " << f);
        cl_int err = CL_SUCCESS;
        cl_sampler s = clCreateSampler(fx.ctx, normalized, a, f, &err);
        REQUIRE(err == CL_SUCCESS);
        CHECK(samplerInfo<cl_bool>(s, CL_SAMPLER_NORMALIZED_COORDS) == normalized);
        CHECK(samplerInfo<cl_addressing_mode>(s, CL_SAMPLER_ADDRESSING_MODE) == a);
        CHECK(samplerInfo<cl_filter_mode>(s, CL_SAMPLER_FILTER_MODE) == f);
        CHECK(samplerInfo<cl_context>(s, CL_SAMPLER_CONTEXT) == fx.ctx);
        // "If sampler was created using clCreateSampler ... param_value_size_ret equal to 0".
        size_t n = 99;
        CHECK(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, 0, nullptr, &n) == CL_SUCCESS);
        CHECK(n == 0);
        CHECK(clReleaseSampler(s) == CL_SUCCESS);
      }
}

TEST_CASE("Given sampler properties, then clCreateSamplerWithProperties applies them, defaults the "
          "rest, returns the list and refuses bad lists",
          "[cl][sampler]") {
  ClFixture fx;
  TESSERA_REQUIRE_IMAGES(fx.dev);
  cl_int err = CL_SUCCESS;
  // "sampler_properties can be NULL in which case the default values for supported sampler
  // properties will be used": CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST.
  cl_sampler d = clCreateSamplerWithProperties(fx.ctx, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(samplerInfo<cl_bool>(d, CL_SAMPLER_NORMALIZED_COORDS) == CL_TRUE);
  CHECK(samplerInfo<cl_addressing_mode>(d, CL_SAMPLER_ADDRESSING_MODE) == CL_ADDRESS_CLAMP);
  CHECK(samplerInfo<cl_filter_mode>(d, CL_SAMPLER_FILTER_MODE) == CL_FILTER_NEAREST);
  size_t n = 99;
  CHECK(clGetSamplerInfo(d, CL_SAMPLER_PROPERTIES, 0, nullptr, &n) == CL_SUCCESS);
  CHECK(n == 0);
  // References: retain and release count, the last release retires the handle.
  CHECK(samplerInfo<cl_uint>(d, CL_SAMPLER_REFERENCE_COUNT) == 1);
  CHECK(clRetainSampler(d) == CL_SUCCESS);
  CHECK(samplerInfo<cl_uint>(d, CL_SAMPLER_REFERENCE_COUNT) == 2);
  CHECK(clReleaseSampler(d) == CL_SUCCESS);
  CHECK(clReleaseSampler(d) == CL_SUCCESS);

  const cl_sampler_properties props[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR,
                                         CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, 0};
  cl_sampler s = clCreateSamplerWithProperties(fx.ctx, props, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(samplerInfo<cl_bool>(s, CL_SAMPLER_NORMALIZED_COORDS) == CL_FALSE);
  CHECK(samplerInfo<cl_addressing_mode>(s, CL_SAMPLER_ADDRESSING_MODE) == CL_ADDRESS_CLAMP);
  CHECK(samplerInfo<cl_filter_mode>(s, CL_SAMPLER_FILTER_MODE) == CL_FILTER_LINEAR);
  // "the implementation must return the values specified in the properties argument in the same
  // order and without including additional properties".
  cl_sampler_properties got[5] = {};
  REQUIRE(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, sizeof got, got, &n) == CL_SUCCESS);
  CHECK(n == sizeof props);
  CHECK(std::equal(props, props + 5, got));
  CHECK(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, sizeof got - 1, got, &n) == CL_INVALID_VALUE);
  CHECK(clGetSamplerInfo(s, 0x4242, sizeof got, got, &n) == CL_INVALID_VALUE);
  clReleaseSampler(s);

  // "CL_INVALID_VALUE if the property name in sampler_properties is not a supported property
  // name, if the value specified for a supported property name is not valid, or if the same
  // property name is specified more than once."
  const cl_sampler_properties unknown[] = {0x4242, 1, 0};
  const cl_sampler_properties twice[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR,
                                         CL_SAMPLER_FILTER_MODE, CL_FILTER_NEAREST, 0};
  const cl_sampler_properties badAddress[] = {CL_SAMPLER_ADDRESSING_MODE, 0x4242, 0};
  const cl_sampler_properties badBool[] = {CL_SAMPLER_NORMALIZED_COORDS, 7, 0};
  for (const cl_sampler_properties* bad : {unknown, twice, badAddress, badBool}) {
    err = CL_SUCCESS;
    CHECK(clCreateSamplerWithProperties(fx.ctx, bad, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);
  }
  CHECK(clCreateSamplerWithProperties(reinterpret_cast<cl_context>(fx.queue), nullptr, &err) ==
        nullptr);
  CHECK(err == CL_INVALID_CONTEXT);
  // clCreateSampler: "CL_INVALID_VALUE if addressing_mode, filter_mode, normalized_coords or a
  // combination of these arguments are not valid".
  CHECK(clCreateSampler(fx.ctx, CL_TRUE, 0x4242, CL_FILTER_NEAREST, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clCreateSampler(fx.ctx, CL_TRUE, CL_ADDRESS_CLAMP, 0x4242, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clCreateSampler(fx.ctx, 2, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clCreateSampler(nullptr, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err) == nullptr);
  CHECK(err == CL_INVALID_CONTEXT);
  CHECK(clRetainSampler(nullptr) == CL_INVALID_SAMPLER);
  CHECK(clRetainSampler(reinterpret_cast<cl_sampler>(fx.ctx)) == CL_INVALID_SAMPLER);
  CHECK(clGetSamplerInfo(nullptr, CL_SAMPLER_REFERENCE_COUNT, 0, nullptr, &n) ==
        CL_INVALID_SAMPLER);
}

TEST_CASE("Given image and sampler arguments, then clSetKernelArg takes images of the declared "
          "type and samplers of the kernel's context and refuses everything else",
          "[cl][image][kernel][sampler]") {
  ClFixture fx;
  TESSERA_REQUIRE_IMAGES(fx.dev);
  // read_write images are OpenCL C 2.0 and later (__opencl_c_read_write_images in 3.0).
  cl_program p = builtProgram(fx, kArgs, "-cl-std=CL3.0 -cl-kernel-arg-info");
  cl_kernel k = makeKernel(p, "k");
  const cl_image_format f{CL_RGBA, CL_FLOAT};
  std::vector<cl_mem> images;
  for (cl_mem_object_type t : imageTypes()) images.push_back(makeImage(fx.ctx, 0, f, smallShape(t)));
  cl_mem i1d = images[0], i1dBuffer = images[1], i1dArray = images[2], i2d = images[3],
         i2dArray = images[4], i3d = images[5];
  cl_int err = CL_SUCCESS;
  cl_sampler s = clCreateSampler(fx.ctx, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
  cl_mem out = clCreateBuffer(fx.ctx, 0, 64, nullptr, &err);
  // Each argument takes its own type: "The memory object specified as argument value must be a 2D
  // image object if the argument is declared to be of type image2d_t" and so on.
  CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &i2d) == CL_SUCCESS);
  CHECK(clSetKernelArg(k, 1, sizeof(cl_mem), &i3d) == CL_SUCCESS);
  CHECK(clSetKernelArg(k, 2, sizeof(cl_mem), &i2dArray) == CL_SUCCESS);
  CHECK(clSetKernelArg(k, 3, sizeof(cl_mem), &i1dBuffer) == CL_SUCCESS);
  CHECK(clSetKernelArg(k, 4, sizeof(cl_sampler), &s) == CL_SUCCESS);
  CHECK(clSetKernelArg(k, 5, sizeof(cl_mem), &out) == CL_SUCCESS);
  CHECK(clSetKernelArg(k, 6, sizeof(cl_mem), &i1dArray) == CL_SUCCESS);
  // "CL_INVALID_MEM_OBJECT ... if arg_value points to a valid memory object, but the memory object
  // is not valid for the kernel argument specified by arg_index".
  for (cl_mem wrong : {i1d, i1dArray, i2dArray, i3d, out})
    CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &wrong) == CL_INVALID_MEM_OBJECT);
  CHECK(clSetKernelArg(k, 3, sizeof(cl_mem), &i1d) == CL_INVALID_MEM_OBJECT);
  CHECK(clSetKernelArg(k, 5, sizeof(cl_mem), &i2d) == CL_INVALID_MEM_OBJECT);
  cl_mem none = nullptr;
  CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &none) == CL_INVALID_MEM_OBJECT);
  CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), nullptr) == CL_INVALID_MEM_OBJECT);
  cl_mem notMemory = reinterpret_cast<cl_mem>(fx.queue);
  CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &notMemory) == CL_INVALID_MEM_OBJECT);
  ClFixture other;
  cl_mem foreign = makeImage(other.ctx, 0, f, smallShape(CL_MEM_OBJECT_IMAGE2D));
  CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &foreign) == CL_INVALID_MEM_OBJECT);
  // "CL_INVALID_ARG_SIZE if arg_value points to a memory object and arg_size is not equal to
  // sizeof(cl_mem)".
  CHECK(clSetKernelArg(k, 0, sizeof(cl_mem) - 1, &i2d) == CL_INVALID_ARG_SIZE);
  CHECK(clSetKernelArg(k, 4, sizeof(cl_mem), &i2d) == CL_INVALID_SAMPLER);

  // Argument info: access qualifiers from the SPIR-V, type names of the image types.
  auto access = [&](cl_uint i) {
    cl_kernel_arg_access_qualifier q = 0;
    REQUIRE(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof q, &q, nullptr) ==
            CL_SUCCESS);
    return q;
  };
  CHECK(access(0) == CL_KERNEL_ARG_ACCESS_READ_ONLY);
  CHECK(access(1) == CL_KERNEL_ARG_ACCESS_WRITE_ONLY);
  CHECK(access(2) == CL_KERNEL_ARG_ACCESS_READ_WRITE);
  CHECK(access(3) == CL_KERNEL_ARG_ACCESS_READ_ONLY);  // "read_only" is the default
  CHECK(access(4) == CL_KERNEL_ARG_ACCESS_NONE);
  CHECK(access(5) == CL_KERNEL_ARG_ACCESS_NONE);
  auto typeName = [&](cl_uint i) {
    char name[64] = {};
    REQUIRE(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof name, name, nullptr) ==
            CL_SUCCESS);
    return std::string(name);
  };
  CHECK(typeName(0) == "image2d_t");
  CHECK(typeName(1) == "image3d_t");
  CHECK(typeName(2) == "image2d_array_t");
  CHECK(typeName(3) == "image1d_buffer_t");
  CHECK(typeName(4) == "sampler_t");
  CHECK(typeName(6) == "image1d_array_t");
  cl_kernel_arg_address_qualifier aq = 0;
  REQUIRE(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, nullptr) ==
          CL_SUCCESS);
  CHECK(aq == CL_KERNEL_ARG_ADDRESS_GLOBAL);

  // A launch whose image argument was released since is refused; one with live arguments runs
  // (and holds them: the images may be released right after the enqueue).
  size_t one = 1;
  cl_mem lateImage = makeImage(fx.ctx, 0, f, smallShape(CL_MEM_OBJECT_IMAGE2D));
  REQUIRE(clSetKernelArg(k, 0, sizeof(cl_mem), &lateImage) == CL_SUCCESS);
  clReleaseMemObject(lateImage);
  CHECK(clEnqueueNDRangeKernel(fx.queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr) ==
        CL_INVALID_KERNEL_ARGS);
  REQUIRE(clSetKernelArg(k, 0, sizeof(cl_mem), &i2d) == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(fx.queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  cl_int sum = 0;
  REQUIRE(clEnqueueReadBuffer(fx.queue, out, CL_TRUE, 0, sizeof sum, &sum, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  CHECK(sum == cl_int(smallShape(CL_MEM_OBJECT_IMAGE2D).width +
                      smallShape(CL_MEM_OBJECT_IMAGE3D).width +
                      smallShape(CL_MEM_OBJECT_IMAGE2D_ARRAY).width +
                      smallShape(CL_MEM_OBJECT_IMAGE1D_BUFFER).width +
                      smallShape(CL_MEM_OBJECT_IMAGE1D_ARRAY).width));
  // A cloned kernel keeps the image and sampler arguments.
  cl_kernel c = clCloneKernel(k, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(fx.queue, c, 1, nullptr, &one, nullptr, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  CHECK(clFinish(fx.queue) == CL_SUCCESS);
  clReleaseKernel(c);
  clReleaseMemObject(foreign);
  for (cl_mem m : images) clReleaseMemObject(m);
  clReleaseMemObject(out);
  clReleaseSampler(s);
  clReleaseKernel(k);
  clReleaseProgram(p);
}
