// The widening's stride analysis (widen.cpp): how a varying value differs between consecutive
// lanes (work-items consecutive in x), when that is a known constant. The local id x and the local
// linear id step by 1; add/sub/mul and shl by constants, or of operands without common bits, sign
// and zero extensions (also written as a shift pair, with or without a uniform term added between
// the shifts), truncations, freeze, and-masks of 32 bits or more, and GEP scaling carry a
// stride through; a loop phi keeps the stride its incoming values share (assumed for the back
// edge, then checked: `i = gid; i += stride` stays consecutive). Uniform values have stride 0, and
// so has arithmetic on operands of stride 0. Assumes 32-bit index arithmetic does not wrap
// between consecutive work-items (clang's `nsw` for `int`); narrower types are never taken as
// consecutive.
// Remainders and quotients by a constant (x % m, x / m, x & (m - 1), x >> k) keep x's stride, or
// are the same for every lane, when the lanes cannot cross a multiple of m: lane 0's value is a
// known multiple of a power of two A that divides m, and the lanes span less than A (CLBlast's
// `tid % 8` with tid = get_local_id(0) + 8 * get_local_id(1), 8 lanes). Lane 0's local id x is a
// multiple of the width (each widened chunk starts at one, workgroup_function.cpp); uniform
// values bring their known low zero bits. A signed remainder or quotient also needs lane 0's
// value not negative: ids, sizes and counts are not (the same no-wrap assumption). Through a right
// shift (x >> k stays between multiples of m where x stays between multiples of m << k), and for
// masks and ors with constants whose low k bits are clear or set (x & C, x | C depend on x / 2^k
// alone): CLBlast's (tid / 8) * 2 as (tid >> 2) & 30 or, plus one, (tid >> 2) | 1 is the same for
// a row of 8 lanes. An `or` of the local id x and a value whose low bits are zero is an add when a
// required work-group size bounds the id (kRequiredSizeXAttribute).
#pragma once

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace tessera::backends::cpu::jit {

//
// Two kinds of answer. An address's (the default) holds between the lanes that use it: a
// zero-extension (or a mask or shift pair that is one) keeps its operand's stride, because two
// work-items of a valid kernel that dereference such addresses cannot be 2^32 elements apart. It
// may not hold for lanes that skip the access: where a guard proves `lid - 2 >= 0` the optimizer
// zero-extends `lid - 2`, and lanes 0 and 1 compute addresses 16 GiB away. A value's (`exact`)
// holds for every lane, what a comparison of all lanes (Widener::endLanes) and the base address of
// an access masked by a guard need: there an extension of 32 bits keeps the stride only when its
// operand is not negative in any lane (ids, sizes and what adds and multiplies them), so that no
// two lanes lie on both sides of the wrap-around; a mask of the low k bits (or a logical shift
// pair keeping them) needs those k bits not negative, judged in k bits: `(lid + 0xffffffff) &
// 0xffffffff`, lid - 1 as InstCombine writes it, is not negative as 64 bits but is -1 in 32 bits
// for lane 0 (OpenCV's filter2D read l[lid - 1] under lid >= 1 from lane 0's address, 16 GiB off).
class LaneStrides {
 public:
  // `varying`: the region's varying values (widen.cpp's classification), complete before the
  // first question; `first`: the index of the region's first RegionParam.
  LaneStrides(llvm::Function& f, unsigned first, unsigned vf,
              const llvm::DenseSet<llvm::Value*>& varying, const llvm::DataLayout& dl,
              bool exact = false)
      : f_(f), first_(first), vf_(vf), exact_(exact), varying_(varying), dl_(dl) {}

  // Difference between consecutive lanes (in the value's units; bytes for pointers), if known.
  std::optional<int64_t> of(llvm::Value* v) { return of(v, 0); }
  // Whether v is not negative in any lane (under the no-wrap assumption above).
  bool nonNegative(llvm::Value* v) { return nonNegative(v, 0, 0); }

  // Clamped indices (`in[clamp(x + dx, 0, w - 1)]`, Widener::unclampedCheck): the answers of
  // this instance take each of `clamps` (min/max of a varying value and a uniform bound, see
  // clampedOperand) as its varying operand, so they hold for a chunk in which none of them clamps
  // any lane, which the widened code checks at run time. Phis are answered by `plain` (an
  // instance of the same kind without clamps): a clamp behind a loop's phi is one of an earlier
  // iteration, which no check at the access covers.
  void seeThroughClamps(const llvm::DenseSet<llvm::Value*>* clamps, LaneStrides* plain) {
    clamps_ = clamps;
    plain_ = plain;
  }
  // The varying operand of an smin/smax/umin/umax whose other operand is uniform, else null.
  static llvm::Value* clampedOperand(llvm::Value* v, const llvm::DenseSet<llvm::Value*>& varying);

 private:
  std::optional<int64_t> of(llvm::Value* v, int depth);
  std::optional<int64_t> ofPhi(llvm::PHINode* phi, int depth);
  // x op m for a remainder (stride kept) or a quotient (stride 0) by m > 0, when x's lanes stay
  // between two multiples of m.
  std::optional<int64_t> withinMultiples(llvm::Value* x, uint64_t m, bool remainder, bool isSigned,
                                         int depth);
  // Whether `id` is the local id x (through extensions and truncations) of a region with a
  // required size in x (kRequiredSizeXAttribute) and `other` has the bits the id can set zero.
  bool idBelowLowZeros(llvm::Value* id, llvm::Value* other);
  // A power of two that divides lane 0's value (1 when nothing more is known).
  uint64_t laneZeroAlign(llvm::Value* v, int depth);
  // v's low `bits` bits (0: all) as a signed number, not negative in any lane.
  bool nonNegative(llvm::Value* v, unsigned bits, int depth);

  llvm::Function& f_;
  unsigned first_;
  unsigned vf_;
  bool exact_;
  const llvm::DenseSet<llvm::Value*>& varying_;
  const llvm::DataLayout& dl_;
  const llvm::DenseSet<llvm::Value*>* clamps_ = nullptr;
  LaneStrides* plain_ = nullptr;
  llvm::DenseMap<llvm::Value*, std::optional<int64_t>> strides_;
  llvm::DenseMap<llvm::PHINode*, std::optional<int64_t>> assumed_;  // phis under assumption
  std::vector<llvm::Value*> assumedLog_;  // strides computed while assumptions were open
  // Steps the three walks may still take for this region. The depth limit alone does not bound
  // them: an expression that uses a value twice at each of 32 levels (x1 = x0 + x0, ...) or nested
  // phis re-evaluated under assumptions take exponential time. Once spent, every answer is the
  // cautious one (no stride, alignment 1, sign unknown).
  uint64_t budget_ = uint64_t{1} << 20;
  bool spend() { return budget_ > 0 && (--budget_, true); }
};

}  // namespace tessera::backends::cpu::jit
