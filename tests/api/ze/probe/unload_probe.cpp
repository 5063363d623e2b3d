// Loads each library named on the command line with dlopen, as a loader or an application's plugin
// does, uses it (zeInit and a context for the Level Zero driver, the platform query for the OpenCL
// ICD), closes it, and reports whether it is still resident. Tessera's libraries are linked
// -z nodelete: threads they started keep running their code after the last dlclose (AdaptiveCpp
// unloads its Level Zero backend, and with it the loader and the driver, between test cases), so
// unmapping them would crash the process. Prints one "<library> resident|unloaded" line each;
// exits 1 if any was unloaded or failed to load, 0 otherwise.
#include <dlfcn.h>
#include <level_zero/ze_api.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

bool useLevelZero(void* h) {
  auto init = reinterpret_cast<decltype(&zeInit)>(dlsym(h, "zeInit"));
  auto driverGet = reinterpret_cast<decltype(&zeDriverGet)>(dlsym(h, "zeDriverGet"));
  auto contextCreate = reinterpret_cast<decltype(&zeContextCreate)>(dlsym(h, "zeContextCreate"));
  auto contextDestroy =
      reinterpret_cast<decltype(&zeContextDestroy)>(dlsym(h, "zeContextDestroy"));
  if (!init || !driverGet || !contextCreate || !contextDestroy) return false;
  if (init(0) != ZE_RESULT_SUCCESS) return false;
  uint32_t count = 1;
  ze_driver_handle_t driver = nullptr;
  if (driverGet(&count, &driver) != ZE_RESULT_SUCCESS || count == 0) return false;
  ze_context_desc_t desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ze_context_handle_t context = nullptr;
  if (contextCreate(driver, &desc, &context) != ZE_RESULT_SUCCESS) return false;
  return contextDestroy(context) == ZE_RESULT_SUCCESS;
}

bool useOpenCl(void* h) {
  using GetPlatforms = int (*)(unsigned, void**, unsigned*);
  auto get = reinterpret_cast<GetPlatforms>(dlsym(h, "clIcdGetPlatformIDsKHR"));
  unsigned n = 0;
  return get && get(0, nullptr, &n) == 0 && n > 0;
}

}  // namespace

int main(int argc, char** argv) {
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string path = argv[i];
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      std::printf("%s failed to load: %s\n", path.c_str(), dlerror());
      status = 1;
      continue;
    }
    const bool used =
        path.find("opencl") != std::string::npos ? useOpenCl(h) : useLevelZero(h);
    dlclose(h);
    void* again = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
    std::printf("%s %s%s\n", path.c_str(), again ? "resident" : "unloaded",
                used ? "" : " (could not be used)");
    if (!again || !used) status = 1;
  }
  return status;
}
