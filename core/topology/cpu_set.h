// A set of processing units (PUs), named by their OS index: what hwloc calls a cpuset, in a form the
// rest of Tessera can use without including hwloc.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::core {

class CpuSet {
 public:
  CpuSet() = default;

  void add(uint32_t pu);
  bool contains(uint32_t pu) const;
  uint32_t count() const;
  bool empty() const { return count() == 0; }
  // The PUs in increasing order.
  std::vector<uint32_t> members() const;

  CpuSet operator&(const CpuSet& other) const;
  CpuSet operator|(const CpuSet& other) const;
  bool intersects(const CpuSet& other) const { return !(*this & other).empty(); }
  bool isSubsetOf(const CpuSet& other) const { return (*this & other) == *this; }
  bool operator==(const CpuSet& other) const;

  // hwloc's list syntax, e.g. "0-3,8,10-11"; "" for the empty set.
  std::string toString() const;

 private:
  void trim();
  std::vector<uint64_t> words_;  // bit i of word w is PU 64*w+i; no trailing zero words
};

}  // namespace tessera::core
