// Image and sampler kernel arguments: zeKernelSetArgumentValue takes a ze_image_handle_t /
// ze_sampler_handle_t ("zeKernelSetArgumentValue(hKernel, 0, sizeof(ze_image_handle_t),
// &src_image)" in the guide) and refuses what is not one; mutable argument updates check the same.
// What a kernel reads through them is the JIT's (its image tests).
//
// Hidden ([.]) until the JIT gives image and sampler parameters ArgKind::Image / ArgKind::Sampler
// (h-jitimg, backends/cpu/jit/workgroup_function.cpp); until then they are global pointers and
// take any 8 bytes. Run them with the tag [image_kernel_args].
#include <vector>

#include "image_test_support.h"
#include "kernel_test_support.h"

using namespace tessera::test;

namespace {

struct ArgFixture : KernelFixture {
  ze_kernel_handle_t k = kernel("image_args", "image_args");
  ze_image_handle_t image = nullptr, other = nullptr;
  ze_sampler_handle_t sampler = nullptr;
  ArgFixture() {
    auto d =
        imageDesc(ZE_IMAGE_TYPE_2D,
                  imageFormat(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM), 4, 4);
    REQUIRE(zeImageCreate(context, device, &d, &image) == ZE_RESULT_SUCCESS);
    REQUIRE(zeImageCreate(context, device, &d, &other) == ZE_RESULT_SUCCESS);
    ze_sampler_desc_t sd{ZE_STRUCTURE_TYPE_SAMPLER_DESC, nullptr, ZE_SAMPLER_ADDRESS_MODE_REPEAT,
                         ZE_SAMPLER_FILTER_MODE_LINEAR, 1};
    REQUIRE(zeSamplerCreate(context, device, &sd, &sampler) == ZE_RESULT_SUCCESS);
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
    "[.][image_kernel_args]") {
  ArgFixture fx;
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
    "[.][image_kernel_args]") {
  ArgFixture fx;
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
