#include "core/topology/cpu_set.h"

#include <algorithm>
#include <bit>

namespace tessera::core {

void CpuSet::add(uint32_t pu) {
  size_t word = pu / 64;
  if (words_.size() <= word) words_.resize(word + 1, 0);
  words_[word] |= uint64_t{1} << (pu % 64);
}

bool CpuSet::contains(uint32_t pu) const {
  size_t word = pu / 64;
  return word < words_.size() && (words_[word] >> (pu % 64)) & 1;
}

uint32_t CpuSet::count() const {
  uint32_t n = 0;
  for (uint64_t w : words_) n += std::popcount(w);
  return n;
}

std::vector<uint32_t> CpuSet::members() const {
  std::vector<uint32_t> out;
  for (size_t w = 0; w < words_.size(); ++w)
    for (uint64_t bits = words_[w]; bits; bits &= bits - 1)
      out.push_back(static_cast<uint32_t>(w * 64 + std::countr_zero(bits)));
  return out;
}

CpuSet CpuSet::operator&(const CpuSet& other) const {
  CpuSet out;
  out.words_.resize(std::min(words_.size(), other.words_.size()));
  for (size_t i = 0; i < out.words_.size(); ++i) out.words_[i] = words_[i] & other.words_[i];
  out.trim();
  return out;
}

CpuSet CpuSet::operator|(const CpuSet& other) const {
  CpuSet out = words_.size() >= other.words_.size() ? *this : other;
  const CpuSet& shorter = words_.size() >= other.words_.size() ? other : *this;
  for (size_t i = 0; i < shorter.words_.size(); ++i) out.words_[i] |= shorter.words_[i];
  return out;
}

bool CpuSet::operator==(const CpuSet& other) const { return words_ == other.words_; }

void CpuSet::trim() {
  while (!words_.empty() && words_.back() == 0) words_.pop_back();
}

std::string CpuSet::toString() const {
  std::string out;
  std::vector<uint32_t> pus = members();
  for (size_t i = 0; i < pus.size();) {
    size_t j = i;
    while (j + 1 < pus.size() && pus[j + 1] == pus[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(pus[i]);
    if (j > i) out += '-' + std::to_string(pus[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace tessera::core
