// Runtime requirements (Level Zero 1.16 zeDeviceGetRuntimeRequirements, ...Key,
// zeDeviceValidateRuntimeRequirements; core/module/runtime_requirements.h): a module's and a
// graph's text names the key and the code target, this device validates it as met, a changed
// target as not met and text that is not Tessera's as not applicable; bad arguments get the
// header's errors. Both test builds reach the functions by name.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <string>

#include "kernel_test_support.h"
#include "tessera/ze_tessera.h"

using namespace tessera::test;

namespace {

struct RequirementsFixture : KernelFixture {
  ze_pfnDeviceGetRuntimeRequirements_t get =
      requiredFunction<ze_pfnDeviceGetRuntimeRequirements_t>(driver,
                                                            "zeDeviceGetRuntimeRequirements");
  ze_pfnDeviceGetRuntimeRequirementsKey_t key =
      requiredFunction<ze_pfnDeviceGetRuntimeRequirementsKey_t>(
          driver, "zeDeviceGetRuntimeRequirementsKey");
  ze_pfnDeviceValidateRuntimeRequirements_t validate =
      requiredFunction<ze_pfnDeviceValidateRuntimeRequirements_t>(
          driver, "zeDeviceValidateRuntimeRequirements");

  std::string requirementsOf(const void* desc) {
    size_t size = 0;
    REQUIRE(get(device, desc, &size, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(size > 1);
    std::string text(size, 'x');
    size_t given = size;
    REQUIRE(get(device, desc, &given, text.data()) == ZE_RESULT_SUCCESS);
    CHECK(given == size);
    CHECK(text.back() == '\0');  // the size counts the terminating null
    text.pop_back();
    return text;
  }
  ze_validate_runtime_requirements_result_t check(const std::string& text) {
    ze_validate_runtime_requirements_output_t out{ZE_STRUCTURE_TYPE_RUNTIME_REQUIREMENTS_OUTPUT,
                                                  nullptr,
                                                  ZE_VALIDATE_RUNTIME_REQUIREMENTS_RESULT_FORCE_UINT32};
    REQUIRE(validate(device, text.c_str(), &out) == ZE_RESULT_SUCCESS);
    return out.result;
  }
};

// `text` with the value of the line starting `name=` replaced.
std::string withField(std::string text, const std::string& name, const std::string& value) {
  size_t at = text.find("\n" + name + "=");
  REQUIRE(at != std::string::npos);
  size_t start = at + name.size() + 2;
  size_t end = text.find('\n', start);
  return text.replace(start, end - start, value);
}

}  // namespace

TEST_CASE("Given a module and a graph, when their runtime requirements are gathered, then the "
          "text names Tessera's key and its code target, and this device validates it as met",
          "[current_api][device][module]") {
  RequirementsFixture fx;
  const char* producer = nullptr;
  REQUIRE(fx.key(fx.device, &producer) == ZE_RESULT_SUCCESS);
  REQUIRE(producer != nullptr);
  CHECK(std::string(producer) == "TESSERA.L0.CPU");

  ze_module_handle_t m = fx.module("vector_add");
  ze_runtime_requirements_module_desc_t md{ZE_STRUCTURE_TYPE_RUNTIME_REQUIREMENTS_MODULE_DESC,
                                           nullptr, m};
  std::string text = fx.requirementsOf(&md);
  INFO(text);
  CHECK(text.rfind(std::string(producer) + "\n", 0) == 0);
  CHECK(text.find("\ncpu=") != std::string::npos);
  CHECK(text.find("\nfeatures=") != std::string::npos);
  CHECK(text.find("\ntoolchain=") != std::string::npos);
  CHECK(fx.check(text) == ZE_VALIDATE_RUNTIME_REQUIREMENTS_RESULT_REQUIREMENTS_MET);

  // A graph of the same driver has the same requirements; so has a descriptor whose stype was
  // left 0 (the handle says which object it is).
  auto graphCreate =
      requiredFunction<decltype(&zeGraphCreateExt)>(fx.driver, "zeGraphCreateExt");
  auto graphDestroy =
      requiredFunction<decltype(&zeGraphDestroyExt)>(fx.driver, "zeGraphDestroyExt");
  ze_graph_handle_t graph = nullptr;
  REQUIRE(graphCreate(fx.context, nullptr, &graph) == ZE_RESULT_SUCCESS);
  ze_runtime_requirements_graph_desc_t gd{ZE_STRUCTURE_TYPE_RUNTIME_REQUIREMENTS_GRAPH_DESC,
                                          nullptr, graph};
  CHECK(fx.requirementsOf(&gd) == text);
  gd.stype = ze_structure_type_t(0);
  CHECK(fx.requirementsOf(&gd) == text);
  md.stype = ze_structure_type_t(0);
  CHECK(fx.requirementsOf(&md) == text);
  CHECK(graphDestroy(graph) == ZE_RESULT_SUCCESS);

  // Another CPU, other features, another toolchain: code made there is not loaded here.
  CHECK(fx.check(withField(text, "cpu", "another-cpu")) ==
        ZE_VALIDATE_RUNTIME_REQUIREMENTS_RESULT_REQUIREMENTS_NOT_MET);
  CHECK(fx.check(withField(text, "features", "+sse2")) ==
        ZE_VALIDATE_RUNTIME_REQUIREMENTS_RESULT_REQUIREMENTS_NOT_MET);
  CHECK(fx.check(withField(text, "toolchain", "LLVM 1.0")) ==
        ZE_VALIDATE_RUNTIME_REQUIREMENTS_RESULT_REQUIREMENTS_NOT_MET);
  // Another producer's text, or Tessera's with a line missing or malformed.
  CHECK(fx.check("INTEL.L0.GPU\nsomething=1\n") ==
        ZE_VALIDATE_RUNTIME_REQUIREMENTS_RESULT_NOT_APPLICABLE);
  CHECK(fx.check("") == ZE_VALIDATE_RUNTIME_REQUIREMENTS_RESULT_NOT_APPLICABLE);
  CHECK(fx.check(std::string(producer)) == ZE_VALIDATE_RUNTIME_REQUIREMENTS_RESULT_NOT_APPLICABLE);
  CHECK(fx.check(text + "garbage without an equals sign\n") ==
        ZE_VALIDATE_RUNTIME_REQUIREMENTS_RESULT_NOT_APPLICABLE);
  // Without the final newline it is the same text.
  CHECK(fx.check(text.substr(0, text.size() - 1)) ==
        ZE_VALIDATE_RUNTIME_REQUIREMENTS_RESULT_REQUIREMENTS_MET);
  // Every device of the driver validates it (one code target).
  for (ze_device_handle_t s : subDevices(fx.device)) {
    ze_validate_runtime_requirements_output_t out{ZE_STRUCTURE_TYPE_RUNTIME_REQUIREMENTS_OUTPUT};
    REQUIRE(fx.validate(s, text.c_str(), &out) == ZE_RESULT_SUCCESS);
    CHECK(out.result == ZE_VALIDATE_RUNTIME_REQUIREMENTS_RESULT_REQUIREMENTS_MET);
  }
}

TEST_CASE("Given the runtime requirement functions, when they get bad arguments, then they "
          "answer the header's errors and write nothing",
          "[current_api][device][module]") {
  RequirementsFixture fx;
  ze_module_handle_t m = fx.module("vector_add");
  ze_runtime_requirements_module_desc_t md{ZE_STRUCTURE_TYPE_RUNTIME_REQUIREMENTS_MODULE_DESC,
                                           nullptr, m};
  size_t size = 0;
  CHECK(fx.get(nullptr, &md, &size, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(fx.get(fx.device, nullptr, &size, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(fx.get(fx.device, &md, nullptr, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  // "(nullptr != pRequirements) && (*pSize < requiredSize)": INVALID_NULL_POINTER, untouched.
  REQUIRE(fx.get(fx.device, &md, &size, nullptr) == ZE_RESULT_SUCCESS);
  std::string small(size - 1, 'x');
  size_t smaller = size - 1;
  CHECK(fx.get(fx.device, &md, &smaller, small.data()) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(small == std::string(size - 1, 'x'));
  CHECK(smaller == size - 1);
  // "pObjDesc doesn't point to a structure that describes a supported object": another structure
  // type, a null or destroyed handle.
  ze_runtime_requirements_module_desc_t other{ZE_STRUCTURE_TYPE_RUNTIME_REQUIREMENTS_OUTPUT,
                                              nullptr, m};
  CHECK(fx.get(fx.device, &other, &size, nullptr) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  ze_runtime_requirements_module_desc_t none{ZE_STRUCTURE_TYPE_RUNTIME_REQUIREMENTS_MODULE_DESC,
                                             nullptr, nullptr};
  CHECK(fx.get(fx.device, &none, &size, nullptr) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  // A module handle given as a graph is not a graph.
  ze_runtime_requirements_graph_desc_t wrong{ZE_STRUCTURE_TYPE_RUNTIME_REQUIREMENTS_GRAPH_DESC,
                                             nullptr, reinterpret_cast<ze_graph_handle_t>(m)};
  CHECK(fx.get(fx.device, &wrong, &size, nullptr) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  fx.dropModule(m);
  REQUIRE(zeModuleDestroy(m) == ZE_RESULT_SUCCESS);
  CHECK(fx.get(fx.device, &md, &size, nullptr) == ZE_RESULT_ERROR_INVALID_ARGUMENT);

  const char* key = nullptr;
  CHECK(fx.key(nullptr, &key) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(fx.key(fx.device, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  ze_validate_runtime_requirements_output_t out{ZE_STRUCTURE_TYPE_RUNTIME_REQUIREMENTS_OUTPUT};
  CHECK(fx.validate(nullptr, "TESSERA.L0.CPU\n", &out) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(fx.validate(fx.device, nullptr, &out) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(fx.validate(fx.device, "TESSERA.L0.CPU\n", nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
}
