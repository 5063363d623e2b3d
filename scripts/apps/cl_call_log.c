// A logging stand-in for libOpenCL.so.1, for scripts/apps/opencv_battery.py: OpenCV loads its OpenCL
// runtime with dlopen(OPENCV_OPENCL_RUNTIME) and looks every entry point up with dlsym on that
// handle, which searches this library first and then its dependency, the system's libOpenCL.so.1.
// The calls defined here are logged to the file named by CL_CALL_LOG (one line per call, appended)
// and forwarded to the ICD loader. CL_CALL_LOG_ALL=1 logs every call below; otherwise only builds,
// kernel creations and launches (what the battery needs to tell that OpenCL ran, and which kernel).
// Build: cc -shared -fPIC -O1 -o libcl_call_log.so cl_call_log.c -Wl,--no-as-needed -lOpenCL -ldl
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

static FILE* g_log;
static int g_all;
static pthread_mutex_t g_mutex = PTHREAD_MUTEX_INITIALIZER;
static void* g_real;

static void* real(const char* name) {
  if (!g_real) g_real = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
  return g_real ? dlsym(g_real, name) : NULL;
}

static void logLine(int always, const char* fmt, ...) {
  pthread_mutex_lock(&g_mutex);
  if (!g_log) {
    const char* path = getenv("CL_CALL_LOG");
    const char* all = getenv("CL_CALL_LOG_ALL");
    g_all = all && *all == '1';
    g_log = path ? fopen(path, "a") : stderr;
    if (!g_log) g_log = stderr;
  }
  if (always || g_all) {
    va_list ap;
    va_start(ap, fmt);
    vfprintf(g_log, fmt, ap);
    va_end(ap);
    fputc('\n', g_log);
    fflush(g_log);
  }
  pthread_mutex_unlock(&g_mutex);
}

static void kernelName(cl_kernel k, char* out, size_t n) {
  typedef cl_int (*Fn)(cl_kernel, cl_kernel_info, size_t, void*, size_t*);
  Fn fn = (Fn)real("clGetKernelInfo");
  out[0] = 0;
  if (!fn || fn(k, CL_KERNEL_FUNCTION_NAME, n, out, NULL) != CL_SUCCESS) snprintf(out, n, "?");
}

static void platformOfQueue(cl_command_queue q, char* out, size_t n) {
  typedef cl_int (*QFn)(cl_command_queue, cl_command_queue_info, size_t, void*, size_t*);
  typedef cl_int (*DFn)(cl_device_id, cl_device_info, size_t, void*, size_t*);
  typedef cl_int (*PFn)(cl_platform_id, cl_platform_info, size_t, void*, size_t*);
  cl_device_id d = NULL;
  cl_platform_id p = NULL;
  out[0] = 0;
  if (((QFn)real("clGetCommandQueueInfo"))(q, CL_QUEUE_DEVICE, sizeof d, &d, NULL) != CL_SUCCESS ||
      ((DFn)real("clGetDeviceInfo"))(d, CL_DEVICE_PLATFORM, sizeof p, &p, NULL) != CL_SUCCESS ||
      ((PFn)real("clGetPlatformInfo"))(p, CL_PLATFORM_NAME, n, out, NULL) != CL_SUCCESS)
    snprintf(out, n, "?");
}

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program p, cl_uint n, const cl_device_id* d,
                                               const char* options,
                                               void(CL_CALLBACK* cb)(cl_program, void*),
                                               void* data) {
  typedef cl_int (*Fn)(cl_program, cl_uint, const cl_device_id*, const char*,
                       void(CL_CALLBACK*)(cl_program, void*), void*);
  logLine(1, "build %p options=[%s]", (void*)p, options ? options : "");
  cl_int r = ((Fn)real("clBuildProgram"))(p, n, d, options, cb, data);
  logLine(1, "build %p -> %d", (void*)p, r);
  return r;
}

CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program p, const char* name, cl_int* err) {
  typedef cl_kernel (*Fn)(cl_program, const char*, cl_int*);
  cl_int e = 0;
  cl_kernel k = ((Fn)real("clCreateKernel"))(p, name, &e);
  if (err) *err = e;
  logLine(1, "kernel %p program=%p name=%s -> %d", (void*)k, (void*)p, name, e);
  return k;
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArg(cl_kernel k, cl_uint i, size_t size, const void* v) {
  typedef cl_int (*Fn)(cl_kernel, cl_uint, size_t, const void*);
  cl_int r = ((Fn)real("clSetKernelArg"))(k, i, size, v);
  if (size == sizeof(void*) && v)
    logLine(0, "arg %p %u size=%zu value=%p -> %d", (void*)k, i, size, *(void* const*)v, r);
  else if (size == 4 && v)
    logLine(0, "arg %p %u size=4 value=%d -> %d", (void*)k, i, *(const int*)v, r);
  else
    logLine(0, "arg %p %u size=%zu %s -> %d", (void*)k, i, size, v ? "value" : "local", r);
  return r;
}

// CL_CALL_LOG_SOURCES=<folder>: every program's source goes to <folder>/program-<n>.cl, and the
// log names the file (to find the source of a kernel that fails).
CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithSource(cl_context c, cl_uint n,
                                                              const char** strings,
                                                              const size_t* lengths, cl_int* err) {
  typedef cl_program (*Fn)(cl_context, cl_uint, const char**, const size_t*, cl_int*);
  static int counter;
  cl_int e = 0;
  cl_program p = ((Fn)real("clCreateProgramWithSource"))(c, n, strings, lengths, &e);
  if (err) *err = e;
  const char* dir = getenv("CL_CALL_LOG_SOURCES");
  if (dir && strings) {
    char path[4096];
    pthread_mutex_lock(&g_mutex);
    int id = ++counter;
    pthread_mutex_unlock(&g_mutex);
    snprintf(path, sizeof path, "%s/program-%d.cl", dir, id);
    FILE* f = fopen(path, "w");
    if (f) {
      for (cl_uint i = 0; i < n; ++i)
        fwrite(strings[i], 1, lengths && lengths[i] ? lengths[i] : strlen(strings[i]), f);
      fclose(f);
    }
    logLine(1, "source %p %s", (void*)p, path);
  }
  return p;
}

static int g_platformLogged;

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dim,
                                                       const size_t* off, const size_t* gws,
                                                       const size_t* lws, cl_uint nw,
                                                       const cl_event* w, cl_event* e) {
  typedef cl_int (*Fn)(cl_command_queue, cl_kernel, cl_uint, const size_t*, const size_t*,
                       const size_t*, cl_uint, const cl_event*, cl_event*);
  char name[256], plat[256];
  kernelName(k, name, sizeof name);
  if (!g_platformLogged) {
    platformOfQueue(q, plat, sizeof plat);
    logLine(1, "platform %s", plat);
    g_platformLogged = 1;
  }
  cl_int r = ((Fn)real("clEnqueueNDRangeKernel"))(q, k, dim, off, gws, lws, nw, w, e);
  size_t g[3] = {1, 1, 1}, l[3] = {0, 0, 0};
  for (cl_uint i = 0; i < dim && i < 3; ++i) {
    g[i] = gws ? gws[i] : 0;
    l[i] = lws ? lws[i] : 0;
  }
  logLine(1, "launch %s %p gws=%zux%zux%zu lws=%zux%zux%zu -> %d", name, (void*)k, g[0], g[1], g[2],
          l[0], l[1], l[2], r);
  return r;
}

#define SIMPLE1(name, T)                                          \
  CL_API_ENTRY cl_int CL_API_CALL name(T a) {                     \
    typedef cl_int (*Fn)(T);                                      \
    cl_int r = ((Fn)real(#name))(a);                              \
    logLine(r != CL_SUCCESS, #name " %p -> %d", (void*)a, r);     \
    return r;                                                     \
  }
SIMPLE1(clFinish, cl_command_queue)
SIMPLE1(clFlush, cl_command_queue)
SIMPLE1(clReleaseMemObject, cl_mem)
SIMPLE1(clReleaseKernel, cl_kernel)
SIMPLE1(clReleaseProgram, cl_program)
SIMPLE1(clReleaseEvent, cl_event)
SIMPLE1(clReleaseCommandQueue, cl_command_queue)
SIMPLE1(clReleaseContext, cl_context)

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint n, const cl_event* list) {
  typedef cl_int (*Fn)(cl_uint, const cl_event*);
  cl_int r = ((Fn)real("clWaitForEvents"))(n, list);
  logLine(r != CL_SUCCESS, "clWaitForEvents %u -> %d", n, r);
  return r;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context c, cl_mem_flags f, size_t size, void* host,
                                               cl_int* err) {
  typedef cl_mem (*Fn)(cl_context, cl_mem_flags, size_t, void*, cl_int*);
  cl_int e = 0;
  cl_mem m = ((Fn)real("clCreateBuffer"))(c, f, size, host, &e);
  if (err) *err = e;
  logLine(e != CL_SUCCESS, "clCreateBuffer flags=%#llx size=%zu host=%p -> %p %d",
          (unsigned long long)f, size, host, (void*)m, e);
  return m;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool b,
                                                    size_t off, size_t size, void* p, cl_uint nw,
                                                    const cl_event* w, cl_event* e) {
  typedef cl_int (*Fn)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, void*, cl_uint,
                       const cl_event*, cl_event*);
  cl_int r = ((Fn)real("clEnqueueReadBuffer"))(q, m, b, off, size, p, nw, w, e);
  logLine(r != CL_SUCCESS, "clEnqueueReadBuffer %p blocking=%u off=%zu size=%zu -> %d", (void*)m,
          b, off, size, r);
  return r;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue q, cl_mem m, cl_bool b,
                                                     size_t off, size_t size, const void* p,
                                                     cl_uint nw, const cl_event* w, cl_event* e) {
  typedef cl_int (*Fn)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void*, cl_uint,
                       const cl_event*, cl_event*);
  cl_int r = ((Fn)real("clEnqueueWriteBuffer"))(q, m, b, off, size, p, nw, w, e);
  logLine(r != CL_SUCCESS, "clEnqueueWriteBuffer %p blocking=%u off=%zu size=%zu -> %d", (void*)m,
          b, off, size, r);
  return r;
}

CL_API_ENTRY void* CL_API_CALL clEnqueueMapBuffer(cl_command_queue q, cl_mem m, cl_bool b,
                                                  cl_map_flags f, size_t off, size_t size,
                                                  cl_uint nw, const cl_event* w, cl_event* e,
                                                  cl_int* err) {
  typedef void* (*Fn)(cl_command_queue, cl_mem, cl_bool, cl_map_flags, size_t, size_t, cl_uint,
                      const cl_event*, cl_event*, cl_int*);
  cl_int r = 0;
  void* p = ((Fn)real("clEnqueueMapBuffer"))(q, m, b, f, off, size, nw, w, e, &r);
  if (err) *err = r;
  logLine(r != CL_SUCCESS, "clEnqueueMapBuffer %p blocking=%u size=%zu -> %p %d", (void*)m, b,
          size, p, r);
  return p;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void* p,
                                                        cl_uint nw, const cl_event* w,
                                                        cl_event* e) {
  typedef cl_int (*Fn)(cl_command_queue, cl_mem, void*, cl_uint, const cl_event*, cl_event*);
  cl_int r = ((Fn)real("clEnqueueUnmapMemObject"))(q, m, p, nw, w, e);
  logLine(r != CL_SUCCESS, "clEnqueueUnmapMemObject %p -> %d", (void*)m, r);
  return r;
}
