// zeModuleDynamicLink of program-scope variables (issue 19, item 4): a module importing a variable
// (Import linkage on an OpVariable: OpenCL C's `extern global int x;`) uses the storage of the
// module that exports it. Both modules' kernels see the same variable, zeModuleGetGlobalPointer on
// either gives the same address, and a function linked from the defining module works on it too.
// Corpus: global_export.cl (defines shared_counter, shared_table, next_ticket), global_import.cl,
// ticket_user.cl, global_chain.cl + chain_user.cl (a defining module that imports in turn).
#include <level_zero/ze_api.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <numeric>
#include <string>
#include <vector>

#include "kernel_test_support.h"
#include "ze_test_support.h"

namespace {

struct Fixture : tessera::test::QueueListFixture {
  std::vector<ze_kernel_handle_t> kernels;
  std::vector<ze_module_handle_t> modules;
  ~Fixture() {
    for (ze_kernel_handle_t k : kernels) zeKernelDestroy(k);
    for (ze_module_handle_t m : modules) zeModuleDestroy(m);
  }
  ze_module_handle_t module(const std::string& name, const char* flags = "") {
    auto spv = tessera::test::readCorpusKernel(name);
    ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC,
                          nullptr,
                          ZE_MODULE_FORMAT_IL_SPIRV,
                          spv.size(),
                          spv.data(),
                          flags,
                          nullptr};
    return create(desc, name);
  }
  ze_module_handle_t create(const ze_module_desc_t& desc, const std::string& what) {
    ze_module_handle_t m = nullptr;
    ze_module_build_log_handle_t log = nullptr;
    ze_result_t r = zeModuleCreate(context, device, &desc, &m, &log);
    INFO(what << " build log: " << tessera::test::buildLogText(log));
    zeModuleBuildLogDestroy(log);
    REQUIRE(r == ZE_RESULT_SUCCESS);
    modules.push_back(m);
    return m;
  }
  ze_kernel_handle_t kernel(ze_module_handle_t m, const char* name) {
    ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
    ze_kernel_handle_t k = nullptr;
    INFO("kernel " << name);
    REQUIRE(zeKernelCreate(m, &kd, &k) == ZE_RESULT_SUCCESS);
    kernels.push_back(k);
    return k;
  }
  void launch(ze_kernel_handle_t k, uint32_t groups, uint32_t groupSize) {
    REQUIRE(zeKernelSetGroupSize(k, groupSize, 1, 1) == ZE_RESULT_SUCCESS);
    ze_group_count_t g{groups, 1, 1};
    REQUIRE(zeCommandListAppendLaunchKernel(list, k, &g, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListClose(list) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueExecuteCommandLists(queue, 1, &list, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueSynchronize(queue, UINT64_MAX) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListReset(list) == ZE_RESULT_SUCCESS);
  }
  // zeModuleDynamicLink of `set`; the log's text into `log`.
  ze_result_t link(std::vector<ze_module_handle_t> set, std::string* log = nullptr) {
    ze_module_build_log_handle_t l = nullptr;
    ze_result_t r = zeModuleDynamicLink(uint32_t(set.size()), set.data(), &l);
    std::string text = tessera::test::buildLogText(l);
    if (log) *log = text;
    zeModuleBuildLogDestroy(l);
    return r;
  }
};

template <typename T>
void setArg(ze_kernel_handle_t k, uint32_t i, const T& v) {
  REQUIRE(zeKernelSetArgumentValue(k, i, sizeof v, &v) == ZE_RESULT_SUCCESS);
}

ze_module_property_flags_t moduleFlags(ze_module_handle_t m) {
  ze_module_properties_t p{ZE_STRUCTURE_TYPE_MODULE_PROPERTIES};
  REQUIRE(zeModuleGetProperties(m, &p) == ZE_RESULT_SUCCESS);
  return p.flags;
}

// The variable `name` of module `m`: its address, and its size in `size`.
int* global(ze_module_handle_t m, const char* name, size_t* size = nullptr) {
  void* p = nullptr;
  size_t s = 0;
  INFO("variable " << name);
  REQUIRE(zeModuleGetGlobalPointer(m, name, &s, &p) == ZE_RESULT_SUCCESS);
  if (size) *size = s;
  return static_cast<int*>(p);
}

// read_imported: out[i] = shared_table[i % 4] + shared_counter, over n work-items.
std::vector<int> readImported(Fixture& fx, ze_kernel_handle_t k, uint32_t n) {
  std::vector<int> out(n, -1);
  int* p = out.data();
  setArg(k, 0, p);
  fx.launch(k, 1, n);
  return out;
}

}  // namespace

TEST_CASE(
    "Given a module importing variables and the module defining them, when they are linked, "
    "then both use one storage and zeModuleGetGlobalPointer gives the same address",
    "[module][link][globals]") {
  Fixture fx;
  ze_module_handle_t user = fx.module("global_import");
  ze_module_handle_t lib = fx.module("global_export");
  // Before the link: an importer, without code.
  CHECK((moduleFlags(user) & ZE_MODULE_PROPERTY_FLAG_IMPORTS) != 0);
  CHECK((moduleFlags(lib) & ZE_MODULE_PROPERTY_FLAG_IMPORTS) == 0);
  ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "read_imported"};
  ze_kernel_handle_t k = nullptr;
  CHECK(zeKernelCreate(user, &kd, &k) == ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED);
  void* p = nullptr;
  CHECK(zeModuleGetGlobalPointer(user, "shared_counter", nullptr, &p) ==
        ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED);

  std::string log;
  REQUIRE(fx.link({user, lib}, &log) == ZE_RESULT_SUCCESS);
  INFO("link log: " << log);
  CHECK((moduleFlags(user) & ZE_MODULE_PROPERTY_FLAG_IMPORTS) == 0);
  size_t counterSize = 0, tableSize = 0, userTableSize = 0;
  int* counter = global(lib, "shared_counter", &counterSize);
  int* table = global(lib, "shared_table", &tableSize);
  CHECK(global(user, "shared_counter") == counter);
  CHECK(global(user, "shared_table", &userTableSize) == table);
  CHECK(counterSize == sizeof(int));
  CHECK(tableSize == 4 * sizeof(int));
  CHECK(userTableSize == tableSize);
  CHECK(*counter == 7);  // the initializer

  // The importer reads the definer's values, and sees the host's writes to them.
  ze_kernel_handle_t read = fx.kernel(user, "read_imported");
  CHECK(readImported(fx, read, 8) == std::vector<int>{17, 27, 37, 47, 17, 27, 37, 47});
  table[2] = 100;
  *counter = 1;
  CHECK(readImported(fx, read, 4) == std::vector<int>{11, 21, 101, 41});
  // The importer's writes reach the definer's kernels.
  ze_kernel_handle_t add = fx.kernel(user, "add_shared");
  setArg(add, 0, 41);
  fx.launch(add, 1, 1);
  CHECK(*counter == 42);
  ze_kernel_handle_t libRead = fx.kernel(lib, "read_shared");
  std::vector<int> out(2, -1);
  int* o = out.data();
  setArg(libRead, 0, o);
  fx.launch(libRead, 1, 1);
  CHECK(out == std::vector<int>{42, 40});
  // "Modules will only be linked once": linking again changes nothing.
  CHECK(fx.link({user, lib}) == ZE_RESULT_SUCCESS);
  CHECK(global(user, "shared_counter") == counter);
}

TEST_CASE(
    "Given the defining module first in the set, when linked, then the import resolves the same",
    "[module][link][globals]") {
  Fixture fx;
  ze_module_handle_t lib = fx.module("global_export");
  ze_module_handle_t user = fx.module("global_import");
  REQUIRE(fx.link({lib, user}) == ZE_RESULT_SUCCESS);
  CHECK(global(user, "shared_counter") == global(lib, "shared_counter"));
  // Two definers of the same SPIR-V have storage each; an importer uses its own definer's.
  ze_module_handle_t lib2 = fx.module("global_export");
  ze_module_handle_t user2 = fx.module("global_import");
  REQUIRE(fx.link({user2, lib2}) == ZE_RESULT_SUCCESS);
  CHECK(global(user2, "shared_counter") == global(lib2, "shared_counter"));
  CHECK(global(user2, "shared_counter") != global(user, "shared_counter"));
  *global(lib2, "shared_counter") = 1000;
  CHECK(readImported(fx, fx.kernel(user2, "read_imported"), 1) == std::vector<int>{1010});
  CHECK(readImported(fx, fx.kernel(user, "read_imported"), 1) == std::vector<int>{17});
}

TEST_CASE(
    "Given a function that changes its module's variable, when another module links it, then "
    "the function works on that module's storage",
    "[module][link][globals]") {
  Fixture fx;
  ze_module_handle_t user = fx.module("ticket_user");
  ze_module_handle_t lib = fx.module("global_export");
  REQUIRE(fx.link({user, lib}) == ZE_RESULT_SUCCESS);
  int* counter = global(lib, "shared_counter");
  ze_kernel_handle_t take = fx.kernel(user, "take_ticket");
  const uint32_t n = 32;
  std::vector<int> tickets(n, -1);
  int* t = tickets.data();
  setArg(take, 0, t);
  fx.launch(take, 2, n / 2);
  // atomic_inc hands out 7, 8, ... 38 once each, and the definer's counter moved on.
  std::sort(tickets.begin(), tickets.end());
  std::vector<int> want(n);
  std::iota(want.begin(), want.end(), 7);
  CHECK(tickets == want);
  CHECK(*counter == 7 + int(n));
  // The importer has no copy of the variable of its own.
  void* p = nullptr;
  CHECK(zeModuleGetGlobalPointer(user, "shared_counter", nullptr, &p) ==
        ZE_RESULT_ERROR_INVALID_GLOBAL_NAME);
}

TEST_CASE(
    "Given an importer listed before a defining module that imports in turn, when the three are "
    "linked, then the definer is compiled first and the importer uses its variable",
    "[module][link][globals]") {
  Fixture fx;
  ze_module_handle_t user = fx.module("chain_user");
  ze_module_handle_t chain = fx.module("global_chain");
  ze_module_handle_t lib = fx.module("export_lib");
  REQUIRE(fx.link({user, chain, lib}) == ZE_RESULT_SUCCESS);
  CHECK(global(user, "chained") == global(chain, "chained"));
  ze_kernel_handle_t set = fx.kernel(user, "set_chained");
  setArg(set, 0, 5);
  fx.launch(set, 1, 1);
  ze_kernel_handle_t scale = fx.kernel(chain, "scale_chained");
  int out = -1;
  int* o = &out;
  setArg(scale, 0, o);
  fx.launch(scale, 1, 1);
  CHECK(out == 3 * 5 + 1);  // export_lib's tessera_scale of the value chain_user set
}

TEST_CASE(
    "Given an imported variable nobody exports, when linked, then MODULE_LINK_FAILURE comes back "
    "with a log naming it and the module stays unlinked",
    "[module][link][globals]") {
  Fixture fx;
  ze_module_handle_t user = fx.module("global_import");
  ze_module_handle_t other = fx.module("vector_add");
  // Nor does a module that exports only functions.
  ze_module_handle_t lib = fx.module("export_lib");
  std::string log;
  CHECK(fx.link({user, other, lib}, &log) == ZE_RESULT_ERROR_MODULE_LINK_FAILURE);
  INFO("link log: " << log);
  CHECK(log.find("shared_counter") != std::string::npos);
  CHECK(log.find("shared_table") != std::string::npos);
  CHECK((moduleFlags(user) & ZE_MODULE_PROPERTY_FLAG_IMPORTS) != 0);
  ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "read_imported"};
  ze_kernel_handle_t k = nullptr;
  CHECK(zeKernelCreate(user, &kd, &k) == ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED);
  // All or nothing: a set where the importer links and another module fails changes neither.
  ze_module_handle_t lib1 = fx.module("global_export");
  ze_module_handle_t importer = fx.module("import_user");  // needs tessera_scale: absent
  CHECK(fx.link({user, lib1, importer}, &log) == ZE_RESULT_ERROR_MODULE_LINK_FAILURE);
  CHECK(log.find("tessera_scale") != std::string::npos);
  CHECK((moduleFlags(user) & ZE_MODULE_PROPERTY_FLAG_IMPORTS) != 0);
  CHECK(zeKernelCreate(user, &kd, &k) == ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED);
}

TEST_CASE(
    "Given two modules exporting the same variable, when an importer links against both, then "
    "the ambiguous import fails the link",
    "[module][link][globals]") {
  Fixture fx;
  ze_module_handle_t user = fx.module("global_import");
  ze_module_handle_t lib1 = fx.module("global_export");
  ze_module_handle_t lib2 = fx.module("global_export", "-ze-opt-disable");
  std::string log;
  CHECK(fx.link({user, lib1, lib2}, &log) == ZE_RESULT_ERROR_MODULE_LINK_FAILURE);
  INFO("link log: " << log);
  CHECK(log.find("ambiguous import: variable shared_counter") != std::string::npos);
}

TEST_CASE(
    "Given a linked importer of variables, when its native binary is loaded, then the module "
    "links again to the defining module's storage",
    "[module][link][globals][native]") {
  Fixture fx;
  ze_module_handle_t user = fx.module("global_import");
  ze_module_handle_t lib = fx.module("global_export");
  REQUIRE(fx.link({user, lib}) == ZE_RESULT_SUCCESS);
  size_t size = 0;
  REQUIRE(zeModuleGetNativeBinary(user, &size, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<uint8_t> binary(size);
  REQUIRE(zeModuleGetNativeBinary(user, &size, binary.data()) == ZE_RESULT_SUCCESS);
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC,
                        nullptr,
                        ZE_MODULE_FORMAT_NATIVE,
                        binary.size(),
                        binary.data(),
                        nullptr,
                        nullptr};
  ze_module_handle_t loaded = fx.create(desc, "the importer's native binary");
  // Its code held this process's addresses of lib's variables: the binary carries none.
  CHECK((moduleFlags(loaded) & ZE_MODULE_PROPERTY_FLAG_IMPORTS) != 0);
  REQUIRE(fx.link({loaded, lib}) == ZE_RESULT_SUCCESS);
  CHECK(global(loaded, "shared_counter") == global(lib, "shared_counter"));
  *global(lib, "shared_counter") = 3;
  CHECK(readImported(fx, fx.kernel(loaded, "read_imported"), 2) == std::vector<int>{13, 23});
}

TEST_CASE(
    "Given modules importing and exporting variables, when their linkage is inspected, then the "
    "variables are listed with the functions",
    "[module][link][globals]") {
  Fixture fx;
  ze_module_handle_t user = fx.module("global_import");
  ze_module_handle_t tickets = fx.module("ticket_user");
  ze_module_handle_t set[] = {user, tickets};
  ze_linkage_inspection_ext_desc_t desc{
      ZE_STRUCTURE_TYPE_LINKAGE_INSPECTION_EXT_DESC, nullptr,
      ZE_LINKAGE_INSPECTION_EXT_FLAG_IMPORTS | ZE_LINKAGE_INSPECTION_EXT_FLAG_UNRESOLVABLE_IMPORTS};
  ze_module_build_log_handle_t log = nullptr;
  REQUIRE(zeModuleInspectLinkageExt(&desc, 2, set, &log) == ZE_RESULT_SUCCESS);
  std::string text = tessera::test::buildLogText(log);
  zeModuleBuildLogDestroy(log);
  INFO(text);
  for (const char* name : {"shared_counter", "shared_table", "next_ticket"})
    CHECK(text.find(name) != std::string::npos);
  // The builtins the translator imports are not another module's to provide.
  CHECK(text.find("__spirv_BuiltIn") == std::string::npos);
}
