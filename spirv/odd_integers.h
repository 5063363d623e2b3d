// Integers of widths other than 8, 16, 32 and 64 (SPV_INTEL_arbitrary_precision_integers), which
// the installed SPIRV-Tools (2023.1) refuses under every target environment ("Invalid number of
// bits (48) used for OpTypeInt") although the extension makes them legal. LLVM makes such types
// from ordinary code: AdaptiveCpp's marray<short, 3> is copied as one i48, and SPIRV-LLVM-Translator
// writes `OpTypeInt 48 0` with the extension.
//
// The extension: "This extension relaxes the restriction that OpTypeInt must have a width of 32
// bits"; its capability ArbitraryPrecisionIntegersINTEL "Allows the use of the OpTypeInt to declare
// integers of any arbitrary width. The minimum requirement is that all bitwidths up to 32-bits must
// be supported, but implementations can extend the support beyond 32-bits" (implicitly declaring
// Int8 and Int16). Tessera takes every width from 1 to 64.
//
// validate.h checks such a module through a shadow copy in which each odd-width OpTypeInt has the
// next standard width up (8, 16, 32, 64): everything the validator checks but the width itself
// stays checked, on the module's own ids. The shadow stays consistent by construction:
//  - constants keep their word counts (a width up to 32 takes one literal word, up to 64 two;
//    the widened width takes as many; the high-order bits an unsigned narrower value must leave 0
//    are 0 at the wider width too);
//  - the widened type is a type of its own even where the module declares the standard width too
//    (i48 beside i64): the shadow declares SPIRV-Tools' SPV_VALIDATOR_ignore_type_decl_unique,
//    so type identity stays as strict as in the module itself;
//  - conversions whose rule is about widths are checked here at the module's widths and written
//    into the shadow as an OpUndef of their result type when widening alone would break them
//    (OpUConvert i48 -> i64 is a conversion, i64 -> i64 in the shadow is not; OpBitcast
//    <3 x i16> <-> i48 keeps 48 bits, <3 x i16> <-> i64 does not);
//  - the Int8, Int16 and Int64 capabilities a widened type needs are declared in the shadow.
// The module itself is what gets translated.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tessera::spirv {

struct StandardWidthShadow {
  bool needed = false;          // the module declares an OpTypeInt of another width
  std::string error;            // needed but not allowed: why (the module fails validation)
  std::vector<uint32_t> words;  // needed and allowed: the copy to validate instead
  std::string description;      // e.g. "integer widths 24, 48 validated as 32, 64"
};

// `words` in host word order, header included. A module that does not parse (a malformed
// instruction) is left to the validator: needed is false.
StandardWidthShadow standardWidthShadow(std::span<const uint32_t> words);

}  // namespace tessera::spirv
