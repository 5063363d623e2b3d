// Image and sampler kernel arguments: zeKernelSetArgumentValue takes a ze_image_handle_t /
// ze_sampler_handle_t ("zeKernelSetArgumentValue(hKernel, 0, sizeof(ze_image_handle_t),
// &src_image)" in the guide) and refuses what is not one; mutable argument updates check the same.
// What a kernel reads through them is the JIT's (its image tests).
//
// Until the JIT gives image and sampler parameters ArgKind::Image / ArgKind::Sampler (issue 18's
// JIT part, backends/cpu/jit/workgroup_function.cpp) they are global pointers that take any 8
// bytes; the cases then say so (WARN) and stop. Remove that guard once the JIT's part is merged.
#include <vector>

#include "image_test_support.h"
#include "kernel_test_support.h"

using namespace tessera::test;

namespace {

// image_args(__read_only image2d_t src, sampler_t s, __write_only image2d_t dst, __global int*):
// `image` is made without ZE_IMAGE_FLAG_KERNEL_WRITE (for src), `other` with it (for dst).
struct ArgFixture : KernelFixture {
  ze_kernel_handle_t k = kernel("image_args", "image_args");
  ze_image_handle_t image = nullptr, other = nullptr;
  ze_sampler_handle_t sampler = nullptr;
  ArgFixture() {
    auto d =
        imageDesc(ZE_IMAGE_TYPE_2D,
                  imageFormat(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM), 4, 4);
    REQUIRE(zeImageCreate(context, device, &d, &image) == ZE_RESULT_SUCCESS);
    d.flags = ZE_IMAGE_FLAG_KERNEL_WRITE;
    REQUIRE(zeImageCreate(context, device, &d, &other) == ZE_RESULT_SUCCESS);
    ze_sampler_desc_t sd{ZE_STRUCTURE_TYPE_SAMPLER_DESC, nullptr, ZE_SAMPLER_ADDRESS_MODE_REPEAT,
                         ZE_SAMPLER_FILTER_MODE_LINEAR, 1};
    REQUIRE(zeSamplerCreate(context, device, &sd, &sampler) == ZE_RESULT_SUCCESS);
  }
  // Whether the kernel's image parameters are of kind Image (a null image is refused).
  bool jitKnowsImages() {
    ze_image_handle_t none = nullptr;
    if (zeKernelSetArgumentValue(k, 0, sizeof none, &none) != ZE_RESULT_SUCCESS) return true;
    WARN("image parameters are not of kind Image yet (the JIT's part of issue 18): skipped");
    return false;
  }
  ~ArgFixture() {
    zeImageDestroy(image);
    zeImageDestroy(other);
    zeSamplerDestroy(sampler);
  }
};

}  // namespace

TEST_CASE(
    "Given a kernel with image and sampler arguments, when handles are set, then it "
    "launches; what is not an image or sampler handle is refused",
    "[image][kernel_args]") {
  ArgFixture fx;
  if (!fx.jitKnowsImages()) return;
  std::vector<int> out(64, 0);
  // Sizes other than a handle's.
  CHECK(zeKernelSetArgumentValue(fx.k, 0, 4, &fx.image) ==
        ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
  CHECK(zeKernelSetArgumentValue(fx.k, 1, 16, &fx.sampler) ==
        ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
  // No value, a null handle, a handle of another type, a sampler for an image and back.
  ze_image_handle_t none = nullptr;
  auto foreign = reinterpret_cast<ze_image_handle_t>(fx.context);
  CHECK(zeKernelSetArgumentValue(fx.k, 0, sizeof(ze_image_handle_t), nullptr) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeKernelSetArgumentValue(fx.k, 0, sizeof none, &none) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeKernelSetArgumentValue(fx.k, 0, sizeof foreign, &foreign) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeKernelSetArgumentValue(fx.k, 0, sizeof fx.sampler, &fx.sampler) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeKernelSetArgumentValue(fx.k, 1, sizeof fx.image, &fx.image) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  // A launch needs every argument set: the refused ones were not.
  setArg(fx.k, 3, out.data());
  ze_group_count_t one{1, 1, 1};
  auto l = fx.list();
  CHECK(zeCommandListAppendLaunchKernel(l, fx.k, &one, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);

  setArgs(fx.k, fx.image, fx.sampler, fx.other, out.data());
  setGroupSize(fx.k, 64);
  fx.runOnce([&](ze_command_list_handle_t list) { fx.launch(list, fx.k, one); });
  for (int v : out) CHECK(v == 7);

  // A destroyed image is no image.
  ze_image_handle_t gone = fx.other;
  REQUIRE(zeImageDestroy(gone) == ZE_RESULT_SUCCESS);
  fx.other = nullptr;
  CHECK(zeKernelSetArgumentValue(fx.k, 2, sizeof gone, &gone) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_CASE(
    "Given a mutable launch with image arguments, when they are updated, then images are "
    "taken and other handles refused",
    "[image][kernel_args]") {
  ArgFixture fx;
  if (!fx.jitKnowsImages()) return;
  auto getId = extensionFunction<ze_pfnCommandListGetNextCommandIdExp_t>(
      fx.driver, "zeCommandListGetNextCommandIdExp");
  auto updateCommands = extensionFunction<ze_pfnCommandListUpdateMutableCommandsExp_t>(
      fx.driver, "zeCommandListUpdateMutableCommandsExp");
  REQUIRE(getId);
  REQUIRE(updateCommands);
  std::vector<int> out(64, 0);
  setArgs(fx.k, fx.image, fx.sampler, fx.other, out.data());
  setGroupSize(fx.k, 64);
  ze_mutable_command_list_exp_desc_t m{ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_LIST_EXP_DESC, nullptr, 0};
  ze_command_list_desc_t ld{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, &m, 0, 0};
  ze_command_list_handle_t l = nullptr;
  REQUIRE(zeCommandListCreate(fx.context, fx.device, &ld, &l) == ZE_RESULT_SUCCESS);
  ze_mutable_command_id_exp_desc_t idDesc{ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_ID_EXP_DESC, nullptr,
                                          ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_ARGUMENTS};
  uint64_t id = 0;
  REQUIRE(getId(l, &idDesc, &id) == ZE_RESULT_SUCCESS);
  fx.launch(l, fx.k, {1, 1, 1});
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);

  auto updateArg = [&](uint32_t index, const void* value) {
    ze_mutable_kernel_argument_exp_desc_t a{ZE_STRUCTURE_TYPE_MUTABLE_KERNEL_ARGUMENT_EXP_DESC,
                                            nullptr,
                                            id,
                                            index,
                                            sizeof(void*),
                                            value};
    ze_mutable_commands_exp_desc_t d{ZE_STRUCTURE_TYPE_MUTABLE_COMMANDS_EXP_DESC, &a, 0};
    return updateCommands(l, &d);
  };
  CHECK(updateArg(0, &fx.other) == ZE_RESULT_SUCCESS);
  CHECK(updateArg(1, &fx.image) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(updateArg(2, &fx.sampler) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  auto q = fx.queue();
  REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueSynchronize(q, kPatienceNs) == ZE_RESULT_SUCCESS);
  for (int v : out) CHECK(v == 7);
  zeCommandListDestroy(l);
}

TEST_CASE(
    "Given an image made without ZE_IMAGE_FLAG_KERNEL_WRITE, when it is given to an argument the "
    "kernel writes, then it is refused with INVALID_ARGUMENT; read arguments take either",
    "[image][kernel_args]") {
  ArgFixture fx;
  if (!fx.jitKnowsImages()) return;
  // Argument 2 is __write_only: only the image kernels may write.
  CHECK(zeKernelSetArgumentValue(fx.k, 2, sizeof fx.image, &fx.image) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeKernelSetArgumentValue(fx.k, 2, sizeof fx.other, &fx.other) == ZE_RESULT_SUCCESS);
  // Argument 0 is __read_only: both.
  CHECK(zeKernelSetArgumentValue(fx.k, 0, sizeof fx.image, &fx.image) == ZE_RESULT_SUCCESS);
  CHECK(zeKernelSetArgumentValue(fx.k, 0, sizeof fx.other, &fx.other) == ZE_RESULT_SUCCESS);
  // A view takes the flags of its own description.
  {
    auto d =
        imageDesc(ZE_IMAGE_TYPE_2D,
                  imageFormat(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM), 4, 4);
    ze_image_handle_t readView = nullptr;
    REQUIRE(zeImageViewCreateExp(fx.context, fx.device, &d, fx.other, &readView) ==
            ZE_RESULT_SUCCESS);
    CHECK(zeKernelSetArgumentValue(fx.k, 2, sizeof readView, &readView) ==
          ZE_RESULT_ERROR_INVALID_ARGUMENT);
    zeImageDestroy(readView);
  }
  // A mutable launch's argument update checks the same.
  auto getId = extensionFunction<ze_pfnCommandListGetNextCommandIdExp_t>(
      fx.driver, "zeCommandListGetNextCommandIdExp");
  auto updateCommands = extensionFunction<ze_pfnCommandListUpdateMutableCommandsExp_t>(
      fx.driver, "zeCommandListUpdateMutableCommandsExp");
  REQUIRE(getId);
  REQUIRE(updateCommands);
  std::vector<int> out(64, 0);
  setArgs(fx.k, fx.image, fx.sampler, fx.other, out.data());
  setGroupSize(fx.k, 64);
  ze_mutable_command_list_exp_desc_t m{ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_LIST_EXP_DESC, nullptr, 0};
  ze_command_list_desc_t ld{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, &m, 0, 0};
  ze_command_list_handle_t l = nullptr;
  REQUIRE(zeCommandListCreate(fx.context, fx.device, &ld, &l) == ZE_RESULT_SUCCESS);
  ze_mutable_command_id_exp_desc_t idDesc{ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_ID_EXP_DESC, nullptr,
                                          ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_ARGUMENTS};
  uint64_t id = 0;
  REQUIRE(getId(l, &idDesc, &id) == ZE_RESULT_SUCCESS);
  fx.launch(l, fx.k, {1, 1, 1});
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  ze_mutable_kernel_argument_exp_desc_t a{ZE_STRUCTURE_TYPE_MUTABLE_KERNEL_ARGUMENT_EXP_DESC,
                                          nullptr,
                                          id,
                                          2,
                                          sizeof(void*),
                                          &fx.image};
  ze_mutable_commands_exp_desc_t d{ZE_STRUCTURE_TYPE_MUTABLE_COMMANDS_EXP_DESC, &a, 0};
  CHECK(updateCommands(l, &d) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  zeCommandListDestroy(l);
}
