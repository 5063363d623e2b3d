#include "backends/cpu/runtime/builtin_runtime.h"

#include <sched.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>

#include "backends/cpu/memory_spaces.h"

namespace tessera::backends::cpu::jit {
namespace {

struct Arg {
  char element = 0;  // printf_type letter of the scalar or of each lane
  unsigned lanes = 1;
  const uint8_t* data = nullptr;
};

unsigned elementBytes(char t) {
  switch (t) {
    case printf_type::kI8:
      return 1;
    case printf_type::kI16:
    case printf_type::kHalf:
      return 2;
    case printf_type::kI32:
    case printf_type::kFloat:
      return 4;
    default:
      return 8;
  }
}

template <typename T>
T read(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

double halfToDouble(uint16_t h) {
  int exponent = (h >> 10) & 0x1F;
  double mantissa = h & 0x3FF;
  double v;
  if (exponent == 0) {
    v = mantissa * 0x1p-24;
  } else if (exponent == 31) {
    v = mantissa == 0 ? __builtin_inf() : __builtin_nan("");
  } else {
    v = (1024 + mantissa) * __builtin_ldexp(1.0, exponent - 25);
  }
  return (h & 0x8000) ? -v : v;
}

double asDouble(char t, const uint8_t* p) {
  if (t == printf_type::kHalf) return halfToDouble(read<uint16_t>(p));
  if (t == printf_type::kFloat) return read<float>(p);
  return read<double>(p);
}

// The integer in `p` (sign- or zero-extended from its own size).
uint64_t asInteger(char t, const uint8_t* p, bool isSigned) {
  switch (t) {
    case printf_type::kI8:
      return isSigned ? uint64_t(int64_t(read<int8_t>(p))) : read<uint8_t>(p);
    case printf_type::kI16:
      return isSigned ? uint64_t(int64_t(read<int16_t>(p))) : read<uint16_t>(p);
    case printf_type::kI32:
      return isSigned ? uint64_t(int64_t(read<int32_t>(p))) : read<uint32_t>(p);
    default:
      return read<uint64_t>(p);
  }
}

// Appends one value formatted with `spec` (flags, width, precision; no length) and `conversion`,
// truncated to what `length` (hh, h, l, or empty for int) says.
bool formatOne(std::string* out, const std::string& spec, const std::string& length,
               char conversion, char t, const uint8_t* p) {
  char buffer[512];
  int n = 0;
  switch (conversion) {
    case 'd':
    case 'i':
    case 'o':
    case 'u':
    case 'x':
    case 'X':
    case 'c': {
      if (t == printf_type::kFloat || t == printf_type::kDouble || t == printf_type::kHalf ||
          t == printf_type::kPointer) {
        return false;
      }
      bool isSigned = conversion == 'd' || conversion == 'i';
      uint64_t v = asInteger(t, p, isSigned);
      if (conversion == 'c') {
        n = std::snprintf(buffer, sizeof buffer, (spec + "c").c_str(), int(v & 0xFF));
        break;
      }
      if (length == "hh") {
        v = isSigned ? uint64_t(int64_t(int8_t(v))) : uint8_t(v);
      } else if (length == "h") {
        v = isSigned ? uint64_t(int64_t(int16_t(v))) : uint16_t(v);
      } else if (length.empty() || length == "hl") {
        v = isSigned ? uint64_t(int64_t(int32_t(v))) : uint32_t(v);
      }
      std::string f = spec + "ll" + conversion;
      n = isSigned
              ? std::snprintf(buffer, sizeof buffer, f.c_str(), static_cast<long long>(v))
              : std::snprintf(buffer, sizeof buffer, f.c_str(), static_cast<unsigned long long>(v));
      break;
    }
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A':
      if (t != printf_type::kFloat && t != printf_type::kDouble && t != printf_type::kHalf) {
        return false;
      }
      n = std::snprintf(buffer, sizeof buffer, (spec + conversion).c_str(), asDouble(t, p));
      break;
    case 's':
      if (t != printf_type::kPointer) return false;
      n = std::snprintf(buffer, sizeof buffer, (spec + "s").c_str(),
                        reinterpret_cast<const char*>(read<uintptr_t>(p)));
      break;
    case 'p':
      if (t != printf_type::kPointer) return false;
      n = std::snprintf(buffer, sizeof buffer, (spec + "p").c_str(),
                        reinterpret_cast<const void*>(read<uintptr_t>(p)));
      break;
    default:
      return false;
  }
  if (n < 0) return false;
  if (static_cast<size_t>(n) >= sizeof buffer) {
    out->append(buffer, sizeof buffer - 1);  // only for absurd widths
  } else {
    out->append(buffer, static_cast<size_t>(n));
  }
  return true;
}

bool format(const char* f, const char* types, const uint8_t* args, std::string* out) {
  size_t offset = 0;
  auto next = [&](Arg* a) {
    if (*types == 0) return false;
    if (*types == printf_type::kVector) {
      a->lanes = static_cast<unsigned>(types[1] - 'a');
      a->element = types[2];
      types += 3;
    } else {
      a->lanes = 1;
      a->element = *types++;
    }
    a->data = args + offset;
    offset += (a->lanes * elementBytes(a->element) + 15) & ~size_t{15};
    return true;
  };
  while (*f != 0) {
    if (*f != '%') {
      out->push_back(*f++);
      continue;
    }
    ++f;
    if (*f == '%') {
      out->push_back('%');
      ++f;
      continue;
    }
    std::string spec = "%";
    while (*f != 0 && std::strchr("-+ #0", *f) != nullptr) spec.push_back(*f++);
    while (*f >= '0' && *f <= '9') spec.push_back(*f++);
    if (*f == '.') {
      spec.push_back(*f++);
      while (*f >= '0' && *f <= '9') spec.push_back(*f++);
    }
    unsigned lanes = 1;
    bool vector = false;
    if (*f == 'v') {
      vector = true;
      ++f;
      lanes = 0;
      while (*f >= '0' && *f <= '9') lanes = lanes * 10 + unsigned(*f++ - '0');
      if (lanes != 2 && lanes != 3 && lanes != 4 && lanes != 8 && lanes != 16) return false;
    }
    std::string length;
    while (*f == 'h' || *f == 'l') length.push_back(*f++);
    if (length.size() > 2) return false;
    if (length == "hl" && !vector) return false;
    char conversion = *f;
    if (conversion == 0) return false;
    ++f;
    Arg a;
    if (!next(&a) || a.lanes != lanes) return false;
    const unsigned bytes = elementBytes(a.element);
    for (unsigned i = 0; i < lanes; ++i) {
      if (i > 0) out->push_back(',');
      if (!formatOne(out, spec, length, conversion, a.element, a.data + i * bytes)) return false;
    }
  }
  return *types == 0;
}

std::mutex& stdoutLock() {
  static std::mutex m;
  return m;
}

}  // namespace

namespace {
std::atomic<bool>& printedSinceFlush() {
  static std::atomic<bool> printed{false};
  return printed;
}
}  // namespace

void flushPrintfOutput() {
  // Set after the write it announces: a launch that sees it clear either has no output of its
  // own or another launch's flush took it.
  std::atomic<bool>& printed = printedSinceFlush();
  if (printed.load(std::memory_order_acquire) && printed.exchange(false, std::memory_order_acq_rel))
    std::fflush(stdout);
}

int printfRuntime(const char* f, const char* types, const uint8_t* args) {
  std::string out;
  if (!format(f, types, args, &out)) return -1;
  std::lock_guard<std::mutex> lock(stdoutLock());
  std::fwrite(out.data(), 1, out.size(), stdout);
  printedSinceFlush().store(true, std::memory_order_release);
  return 0;
}

void asyncCopyRuntime(uint8_t* dst, const uint8_t* src, uint64_t count, uint64_t elementSize,
                      uint64_t dstStride, uint64_t srcStride, uint64_t active) {
  if (active == 0) return;
  if (dstStride == 1 && srcStride == 1) {
    std::memmove(dst, src, count * elementSize);
    return;
  }
  for (uint64_t i = 0; i < count; ++i) {
    std::memcpy(dst + i * dstStride * elementSize, src + i * srcStride * elementSize, elementSize);
  }
}

static_assert(kGlobalSpace == uint32_t(MemorySpace::Global) &&
              kLocalSpace == uint32_t(MemorySpace::Local) &&
              kPrivateSpace == uint32_t(MemorySpace::Private));

uint32_t addressSpaceRuntime(const void* p) { return static_cast<uint32_t>(spaceOf(p)); }

uint32_t currentPuRuntime() {
  int cpu = sched_getcpu();
  return cpu < 0 ? UINT32_MAX : static_cast<uint32_t>(cpu);
}

}  // namespace tessera::backends::cpu::jit
