// The API call log (TESSERA_API_LOG=1): one line on stderr per call of a public API function, with
// its arguments, its result and its duration:
//
//   tessera api: [4711] clFinish(0x55d0c7a1e650) -> CL_SUCCESS (1.8 us)
//
// Each API installs it in the one place it hands out its entry points (OpenCL: the ICD dispatch
// table and clGetExtensionFunctionAddress, cl_shim/api_log.h; Level Zero: the loader's DDI tables
// and zeDriverGetExtensionFunctionAddress, level_zero/api_log.h). `Logged<name, F, Results>::call`
// has F's own type: it calls F and writes the line, so no entry point logs by hand and a program
// without the setting runs the plain functions.
//
// Arguments print by type, never by what they point to (a pointer the application passes may be
// invalid, and the function is what checks it): pointers as addresses (NULL), integers in decimal
// (in hexadecimal from 0x1000: flags, parameter names and large sizes read better so), floating
// point with %g, structs passed by value as their size. `Results` prints the result: each API's
// names for its codes, and what else it returns (OpenCL's errcode_ret).
#pragma once

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <type_traits>

namespace tessera::support::api_log {

// A function's name as a template argument: Logged<"clFinish", ...>.
template <size_t N>
struct Name {
  char text[N];
  constexpr Name(const char (&s)[N]) { std::copy_n(s, N, text); }
};

// One line, formatted into a fixed buffer (no allocation) and written with one write(2), so lines
// of threads calling at once do not interleave. Longer lines are cut.
class Line {
 public:
  __attribute__((format(printf, 2, 3))) void add(const char* format, ...) {
    if (size_ >= sizeof text_) return;
    va_list args;
    va_start(args, format);
    int n = std::vsnprintf(text_ + size_, sizeof text_ - size_, format, args);
    va_end(args);
    if (n > 0) size_ = std::min(sizeof text_ - 1, size_ + size_t(n));
  }
  void write() {
    if (size_ < sizeof text_ - 1) text_[size_++] = '\n';
    else text_[sizeof text_ - 1] = '\n';
    ssize_t unused = ::write(STDERR_FILENO, text_, std::min(size_, sizeof text_));
    (void)unused;  // nothing to do when stderr is gone
  }

 private:
  char text_[1024];
  size_t size_ = 0;
};

template <typename T>
void put(Line& line, const T& v) {
  if constexpr (std::is_pointer_v<T> || std::is_null_pointer_v<T>) {
    if (v)
      line.add("%p", reinterpret_cast<const void*>(v));
    else
      line.add("NULL");
  } else if constexpr (std::is_same_v<T, bool>) {
    line.add(v ? "true" : "false");
  } else if constexpr (std::is_enum_v<T> || std::is_integral_v<T>) {
    using U = std::conditional_t<std::is_enum_v<T>, std::underlying_type<T>, std::common_type<T>>;
    const auto value = static_cast<typename U::type>(v);
    if constexpr (std::is_signed_v<decltype(value)>) {
      if (value >= 0x1000 || value <= -0x1000)
        line.add("%lld (0x%llx)", static_cast<long long>(value),
                 static_cast<unsigned long long>(value));
      else
        line.add("%lld", static_cast<long long>(value));
    } else {
      if (value >= 0x1000)
        line.add("0x%llx", static_cast<unsigned long long>(value));
      else
        line.add("%llu", static_cast<unsigned long long>(value));
    }
  } else if constexpr (std::is_floating_point_v<T>) {
    line.add("%g", static_cast<double>(v));
  } else {
    line.add("{%zu bytes}", sizeof(T));
  }
}

template <Name name, auto F, typename Results>
struct Logged;

template <Name name, typename R, typename... A, R (*F)(A...), typename Results>
struct Logged<name, F, Results> {
  static R call(A... args) {
    const auto start = std::chrono::steady_clock::now();
    if constexpr (std::is_void_v<R>) {
      F(args...);
      finish(start, [&](Line&) {}, args...);
    } else {
      R result = F(args...);
      finish(start, [&](Line& line) { Results::put(line, result, args...); }, args...);
      return result;
    }
  }

 private:
  template <typename PutResult>
  static void finish(std::chrono::steady_clock::time_point start, PutResult&& putResult,
                     const A&... args) {
    const double us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    Line line;
    line.add("tessera api: [%d] %s(", static_cast<int>(gettid()), name.text);
    const char* separator = "";
    ((line.add("%s", separator), put(line, args), separator = ", "), ...);
    line.add(")");
    if constexpr (!std::is_void_v<R>) {
      line.add(" -> ");
      putResult(line);
    }
    line.add(" (%.1f us)", us);
    line.write();
  }
};

}  // namespace tessera::support::api_log
