// CLBlast's SGEMM timed through its C API (Debian ships no clblast_client_xgemm): the first
// platform's first device, square row-major matrices of side n, one warm-up call (CLBlast compiles
// its kernels there), then the mean of `runs` calls. A few entries are checked against the host.
// Usage: clblast_sgemm [n] [runs]. Prints "SGEMM n=<n>: <GFLOPS> GFLOPS (<ms> ms)" or an error.
// Where OpenBLAS is installed (libopenblas.so.0, found at run time), the same product is then
// timed there the same way, on the host's threads, as the BLAS reference of issue 29 item 3:
// "OpenBLAS (<its kernel set>) n=<n>: <GFLOPS> GFLOPS (<ms> ms); CLBlast at <ratio> of it".
// CLBLAST_XGEMM / CLBLAST_XGEMM_DIRECT (optional, "MWG=64,NWG=64,..."): parameters for CLBlast's
// Xgemm / XgemmDirect kernels on this device, as its tuners (clblast-utils' clblast_tuner_xgemm,
// clblast_tuner_xgemm_direct) report them, given to CLBlastOverrideParameters before the first
// call; without them CLBlast uses its database's defaults for a device it does not know.
#define CL_TARGET_OPENCL_VERSION 120
#include <clblast_c.h>

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

// cblas_sgemm of OpenBLAS's 32-bit-integer interface (Debian's libopenblas0 flavours).
typedef void (*SgemmFn)(int order, int trans_a, int trans_b, int m, int n, int k, float alpha,
                        const float* a, int lda, const float* b, int ldb, float beta, float* c,
                        int ldc);
enum { kCblasRowMajor = 101, kCblasNoTrans = 111 };

// Seconds per call of OpenBLAS's SGEMM on the same matrices (one warm-up call), or 0 without it;
// *core is the kernel set OpenBLAS chose for this CPU (OPENBLAS_CORETYPE overrides its guess).
static double openblas_seconds(size_t n, int runs, const float* a, const float* b, float* c,
                               const char** core) {
  void* lib = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
  SgemmFn sgemm = lib ? (SgemmFn)dlsym(lib, "cblas_sgemm") : NULL;
  if (!sgemm) return 0.0;
  char* (*core_name)(void) = (char* (*)(void))dlsym(lib, "openblas_get_corename");
  *core = core_name ? core_name() : "unknown";
  double start = 0.0;
  for (int r = -1; r < runs; ++r) {
    if (r == 0) start = now();
    sgemm(kCblasRowMajor, kCblasNoTrans, kCblasNoTrans, (int)n, (int)n, (int)n, 1.0f, a, (int)n, b,
          (int)n, 0.0f, c, (int)n);
  }
  return (now() - start) / runs;
}

// Applies "NAME=value,..." from the environment variable `var` to CLBlast's kernel `kernel`;
// returns 0 when the variable is unset or applied.
static int override_parameters(cl_device_id device, const char* var, const char* kernel) {
  const char* text = getenv(var);
  if (!text || !*text) return 0;
  char buffer[1024];
  snprintf(buffer, sizeof buffer, "%s", text);
  const char* names[64];
  size_t values[64], count = 0;
  for (char* item = strtok(buffer, ","); item && count < 64; item = strtok(NULL, ",")) {
    char* eq = strchr(item, '=');
    if (!eq) {
      printf("error: %s: \"%s\" is not NAME=value\n", var, item);
      return 1;
    }
    *eq = '\0';
    names[count] = item;
    values[count++] = (size_t)strtoul(eq + 1, NULL, 10);
  }
  CLBlastStatusCode status =
      CLBlastOverrideParameters(device, kernel, CLBlastPrecisionSingle, count, names, values);
  if (status != CLBlastSuccess) {
    printf("error: CLBlastOverrideParameters(%s) returned %d\n", kernel, (int)status);
    return 1;
  }
  printf("%s: %s\n", kernel, text);
  return 0;
}

int main(int argc, char** argv) {
  const size_t n = argc > 1 ? (size_t)atoi(argv[1]) : 1024;
  const int runs = argc > 2 ? atoi(argv[2]) : 5;
  cl_platform_id platform;
  cl_device_id device;
  cl_int err = clGetPlatformIDs(1, &platform, NULL);
  if (err == CL_SUCCESS) err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
  if (err != CL_SUCCESS) {
    printf("error: no OpenCL device (%d)\n", err);
    return 1;
  }
  if (override_parameters(device, "CLBLAST_XGEMM", "Xgemm") ||
      override_parameters(device, "CLBLAST_XGEMM_DIRECT", "XgemmDirect"))
    return 1;
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
  const size_t count = n * n;
  float *a = malloc(count * sizeof(float)), *b = malloc(count * sizeof(float));
  float* c = malloc(count * sizeof(float));
  for (size_t i = 0; i < count; ++i) {
    a[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
    b[i] = (float)((i * 5) % 11) / 11.0f - 0.5f;
    c[i] = 0.0f;
  }
  const size_t bytes = count * sizeof(float);
  cl_mem da = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, a, &err);
  cl_mem db = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, b, &err);
  cl_mem dc = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, c, &err);
  CLBlastStatusCode status = CLBlastSuccess;
  double start = 0.0;
  for (int r = -1; r < runs && status == CLBlastSuccess; ++r) {
    if (r == 0) start = now();
    cl_event event = NULL;
    status = CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, n, n, n,
                          1.0f, da, 0, n, db, 0, n, 0.0f, dc, 0, n, &queue, &event);
    if (status == CLBlastSuccess) {
      clWaitForEvents(1, &event);
      clReleaseEvent(event);
    }
  }
  if (status != CLBlastSuccess) {
    printf("error: CLBlastSgemm returned %d\n", (int)status);
    return 1;
  }
  const double seconds = (now() - start) / runs;
  clEnqueueReadBuffer(queue, dc, CL_TRUE, 0, bytes, c, 0, NULL, NULL);
  int wrong = 0;
  for (size_t k = 0; k < 16; ++k) {
    const size_t i = (k * 131) % n, j = (k * 71) % n;
    double want = 0.0;
    for (size_t l = 0; l < n; ++l) want += (double)a[i * n + l] * (double)b[l * n + j];
    if (fabs(want - c[i * n + j]) > 1e-3 * (1.0 + fabs(want))) ++wrong;
  }
  if (wrong) {
    printf("error: %d of 16 checked entries wrong\n", wrong);
    return 1;
  }
  const double flops = 2.0 * n * n * n;
  printf("SGEMM n=%zu: %.1f GFLOPS (%.2f ms)\n", n, flops / seconds * 1e-9, seconds * 1e3);
  const char* core = "";
  const double blas = openblas_seconds(n, runs, a, b, c, &core);
  if (blas > 0.0)
    printf("OpenBLAS (%s) n=%zu: %.1f GFLOPS (%.2f ms); CLBlast at %.2f of it\n", core, n,
           flops / blas * 1e-9, blas * 1e3, blas / seconds);
  return 0;
}
