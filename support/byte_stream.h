#pragma once
// Little building blocks for Tessera's own binary formats (native binaries: compiler/native_binary.cpp
// and the code generator's units, backends/cpu/jit/native_unit.cpp): values in host byte order,
// byte strings as a uint32_t length and the bytes. The reader never reads past its span; every
// call says whether it could.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

namespace tessera::support {

// Appends to a vector the caller owns (so a format can write into another's output).
class ByteWriter {
 public:
  explicit ByteWriter(std::vector<uint8_t>& out) : out_(out) {}
  template <typename T>
  void put(T v) {
    append(&v, sizeof v);
  }
  void bytes(const void* data, size_t n) {
    put(static_cast<uint32_t>(n));
    append(data, n);
  }
  void string(std::string_view s) { bytes(s.data(), s.size()); }
  // (resize and copy rather than a range insert, which GCC 12 warns about: -Warray-bounds)
  void append(const void* data, size_t n) {
    const size_t at = out_.size();
    out_.resize(at + n);
    if (n) std::memcpy(out_.data() + at, data, n);
  }

 private:
  std::vector<uint8_t>& out_;
};

class ByteReader {
 public:
  explicit ByteReader(std::span<const uint8_t> in) : in_(in) {}
  template <typename T>
  bool get(T& v) {
    if (in_.size() - pos_ < sizeof v) return false;
    std::memcpy(&v, in_.data() + pos_, sizeof v);
    pos_ += sizeof v;
    return true;
  }
  // A byte string as ByteWriter::bytes wrote it, into a std::string or a byte vector.
  template <typename Container>
  bool bytes(Container& c) {
    uint32_t n = 0;
    if (!get(n) || in_.size() - pos_ < n) return false;
    c.assign(in_.data() + pos_, in_.data() + pos_ + n);
    pos_ += n;
    return true;
  }
  // A count of items of at least `minBytesEach` bytes: false when fewer bytes are left, so a
  // corrupt count cannot make the caller allocate for items that are not there.
  bool count(uint32_t& n, size_t minBytesEach) {
    return get(n) && (in_.size() - pos_) / std::max<size_t>(minBytesEach, 1) >= n;
  }
  size_t position() const { return pos_; }
  bool done() const { return pos_ == in_.size(); }
  std::span<const uint8_t> rest() const { return in_.subspan(pos_); }
  void skip(size_t n) { pos_ += std::min(n, in_.size() - pos_); }

 private:
  std::span<const uint8_t> in_;
  size_t pos_ = 0;
};

}  // namespace tessera::support
