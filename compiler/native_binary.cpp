#include "compiler/native_binary.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <set>

#include "support/byte_stream.h"
#include "support/hash.h"

namespace tessera::compiler {
namespace {

constexpr char kMagic[8] = {'T', 'E', 'S', 'S', 'N', 'A', 'T', '1'};
// 2: kernels carry their measured stack need (CompiledKernel::stackBytes) and their code has stack
// probes; a version-1 binary's code has neither and is refused.
// 3: kernels carry their sub-group size and required sub-group size (a version-2 binary's code ran
// with sub-groups of one work-item and is refused).
// 4: the code is a list of units (a program compiled kernel by kernel has one per kernel).
// 5: each kernel's object carries the record of its table (backends/cpu/jit/object_check.h's
// abiRecord), which a version-4 object lacks.
// 6: work-group functions take the count of groups a call runs (kernel_abi.h, WorkGroupFn's
// groupsX), which a version-5 object's ignore.
// 7: kernels carry the bytes of their streaming stores (CompiledKernel::streamBytesPerItem), and a
// work-group function with such stores reads the context's streamStores field.
// The units' bytes are the code generator's (the CPU's: backends/cpu/jit/native_unit.h): a change
// there is a new version here.
constexpr uint32_t kVersion = 7;

}  // namespace

std::vector<uint8_t> writeNativeBinary(const NativeImage& image,
                                       const backends::CodeGenerator* generator) {
  std::vector<uint8_t> out(kMagic, kMagic + sizeof kMagic);
  support::ByteWriter w(out);
  w.put(kVersion);
  w.string(image.cpu);
  w.string(image.features);
  w.bytes(image.spirv.data(), image.spirv.size());
  w.put(image.optLevel);
  w.put(static_cast<uint32_t>(image.specs.size()));
  for (const auto& s : image.specs) {
    w.put(s.specId);
    w.put(s.value);
  }
  w.put(static_cast<uint8_t>(image.hasCode));
  if (image.hasCode) {
    w.put(static_cast<uint32_t>(image.units.size()));
    for (const auto& unit : image.units) generator->writeUnit(*unit, out);
  }
  std::string_view all(reinterpret_cast<const char*>(out.data()), out.size());
  w.put(support::fnv1a64(all));
  return out;
}

bool readNativeBinary(std::span<const uint8_t> bytes, const backends::CodeGenerator& generator,
                      NativeImage& out, std::string& error) {
  auto fail = [&](const char* why) {
    error = std::string("not a Tessera native binary for this driver: ") + why;
    return false;
  };
  if (bytes.size() < sizeof kMagic + 4 + 8 || std::memcmp(bytes.data(), kMagic, sizeof kMagic))
    return fail("no TESSNAT1 header");
  uint64_t stored = 0;
  std::memcpy(&stored, bytes.data() + bytes.size() - 8, 8);
  std::string_view body(reinterpret_cast<const char*>(bytes.data()), bytes.size() - 8);
  if (support::fnv1a64(body) != stored)
    return fail("the checksum does not match (corrupt or truncated)");
  support::ByteReader r(bytes.subspan(sizeof kMagic, bytes.size() - 8 - sizeof kMagic));
  uint32_t version = 0;
  if (!r.get(version) || version != kVersion) return fail("another format version");
  uint32_t n = 0;
  uint8_t hasCode = 0;
  if (!r.bytes(out.cpu) || !r.bytes(out.features) || !r.bytes(out.spirv) || !r.get(out.optLevel) ||
      !r.count(n, 12))
    return fail("truncated header");
  out.specs.resize(n);
  for (auto& s : out.specs)
    if (!r.get(s.specId) || !r.get(s.value)) return fail("truncated constants");
  if (!r.get(hasCode) || hasCode > 1) return fail("bad code flag");
  out.hasCode = hasCode;
  uint32_t units = 0;
  if (hasCode && (!r.count(units, 16) || units == 0)) return fail("truncated units");
  for (uint32_t i = 0; i < units; ++i) {
    std::string why;
    size_t used = 0;
    std::shared_ptr<backends::ModuleCode> unit = generator.readUnit(r.rest(), used, why);
    if (!unit) {
      error = "not a Tessera native binary for this driver: " + why;
      return false;
    }
    r.skip(used);
    out.units.push_back(std::move(unit));
  }
  if (!r.done()) return fail("trailing bytes");
  std::set<std::string> names;
  for (const auto& unit : out.units)
    for (size_t i = 0; i < unit->kernelCount(); ++i)
      if (!names.insert(unit->kernel(i).name).second) return fail("a kernel twice");
  return true;
}

}  // namespace tessera::compiler

namespace tessera::compiler {

bool matchesReflection(const backends::ModuleCode& unit,
                       const std::vector<spirv::KernelInfo>& kernels, std::string& error) {
  using Compiled = backends::ArgKind;
  using Reflected = spirv::ArgKind;
  // The slot the argument table gives each kind of SPIR-V argument (a generic pointer is passed
  // as a global one; the CPU's: backends/cpu/jit/workgroup_function.cpp).
  auto expected = [](Reflected kind) -> std::optional<Compiled> {
    switch (kind) {
      case Reflected::GlobalPointer:
      case Reflected::GenericPointer:
        return Compiled::GlobalPointer;
      case Reflected::ConstantPointer:
        return Compiled::ConstantPointer;
      case Reflected::LocalPointer:
        return Compiled::LocalPointer;
      case Reflected::ByValue:
        return Compiled::ByValue;
      case Reflected::Sampler:
        return Compiled::Sampler;
      case Reflected::Image:
        return Compiled::Image;
      case Reflected::Unsupported:
        break;
    }
    return std::nullopt;
  };
  for (size_t index = 0; index < unit.kernelCount(); ++index) {
    const backends::KernelCode& k = unit.kernel(index);
    auto info = std::find_if(kernels.begin(), kernels.end(),
                             [&](const spirv::KernelInfo& i) { return i.name == k.name; });
    if (info == kernels.end()) {
      error = "kernel " + k.name + " is not in the binary's SPIR-V";
      return false;
    }
    bool same = info->args.size() == k.args.size();
    for (size_t i = 0; same && i < k.args.size(); ++i) {
      const spirv::KernelArg& a = info->args[i];
      std::optional<Compiled> kind = expected(a.kind);
      same = (!kind || *kind == k.args[i].kind) &&
             (a.kind != Reflected::ByValue || a.size == 0 || a.size == k.args[i].size);
    }
    if (!same) {
      error = "kernel " + k.name + "'s arguments are not those of its SPIR-V";
      return false;
    }
  }
  return true;
}

}  // namespace tessera::compiler
