#include "backends/cpu/jit/lane_strides.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Operator.h>
#include <llvm/Support/KnownBits.h>

#include <algorithm>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {

std::optional<int64_t> LaneStrides::of(llvm::Value* v, int depth) {
  if (!varying_.count(v)) return 0;
  if (v == f_.getArg(first_ + kLocalIdX) || v == f_.getArg(first_ + kLocalLinearId)) return 1;
  if (depth > 32) return std::nullopt;
  auto it = strides_.find(v);
  if (it != strides_.end()) return it->second;
  if (!spend()) return std::nullopt;
  std::optional<int64_t> r;
  auto* i = llvm::dyn_cast<llvm::Instruction>(v);
  auto narrow = [](llvm::Type* t) { return t->isIntegerTy() && t->getIntegerBitWidth() < 32; };
  if (i == nullptr) return std::nullopt;
  if (auto* phi = llvm::dyn_cast<llvm::PHINode>(i); phi && plain_) {
    r = plain_->of(phi);
  } else if (auto* phi = llvm::dyn_cast<llvm::PHINode>(i)) {
    r = ofPhi(phi, depth);
  } else if (clamps_ && clamps_->count(i)) {
    r = of(clampedOperand(i, varying_), depth + 1);
  } else if (auto* bo = llvm::dyn_cast<llvm::BinaryOperator>(i)) {
    llvm::Value* a = bo->getOperand(0);
    llvm::Value* b = bo->getOperand(1);
    auto* cb = llvm::dyn_cast<llvm::ConstantInt>(b);
    auto* ca = llvm::dyn_cast<llvm::ConstantInt>(a);
    if (!narrow(bo->getType())) {
      switch (bo->getOpcode()) {
        case llvm::Instruction::Add: {
          auto sa = of(a, depth + 1), sb = of(b, depth + 1);
          if (sa && sb) r = *sa + *sb;
          break;
        }
        case llvm::Instruction::Or:
          // An add of operands without common bits (InstCombine's `(tid & 7) | g << 5`); their
          // known bits come from how they are computed, which holds for every lane.
          if (llvm::haveNoCommonBitsSet(a, b, dl_) || idBelowLowZeros(a, b) ||
              idBelowLowZeros(b, a)) {
            auto sa = of(a, depth + 1), sb = of(b, depth + 1);
            if (sa && sb) r = *sa + *sb;
          } else if (cb && cb->getValue().countTrailingOnes() > 0 &&
                     cb->getValue().countTrailingOnes() < 31) {
            // x | C with C's low k bits set, (x & -2^k) | C: the same for every lane when
            // x & -2^k is. clang's (tid / 8) * 2 + 1 is (tid >> 2) | 1.
            auto q = withinMultiples(a, uint64_t{1} << cb->getValue().countTrailingOnes(), false,
                                     false, depth + 1);
            if (q && *q == 0) r = 0;
          }
          break;
        case llvm::Instruction::Sub: {
          auto sa = of(a, depth + 1), sb = of(b, depth + 1);
          if (sa && sb) r = *sa - *sb;
          break;
        }
        case llvm::Instruction::Mul: {
          if (cb && cb->getValue().abs().ule(65536)) {
            if (auto sa = of(a, depth + 1)) r = *sa * cb->getSExtValue();
          } else if (ca && ca->getValue().abs().ule(65536)) {
            if (auto sb = of(b, depth + 1)) r = *sb * ca->getSExtValue();
          }
          break;
        }
        case llvm::Instruction::And:
          // zext(trunc x) as a mask of the low 32 bits or more (the assumption above); a narrower
          // mask is a remainder by a power of two.
          if (cb && cb->getValue().countTrailingOnes() >= 32 && cb->getValue().isMask()) {
            if (!exact_ || nonNegative(a, cb->getValue().countTrailingOnes(), depth + 1))
              r = of(a, depth + 1);
          } else if (cb && cb->getValue().isMask())
            r = withinMultiples(a, uint64_t{1} << cb->getValue().countTrailingOnes(), true, false,
                                depth + 1);
          // x & -2^k, x rounded down to a multiple of 2^k (InstCombine's x - x % 2^k): a
          // quotient's stride.
          else if (cb && (-cb->getValue()).isPowerOf2() && cb->getValue().countTrailingZeros() < 31)
            r = withinMultiples(a, uint64_t{1} << cb->getValue().countTrailingZeros(), false, false,
                                depth + 1);
          // Any other mask whose low k bits are zero, x & C = (x & -2^k) & C: the same for every
          // lane when x & -2^k is. InstCombine's (tid / 8) * 2 is (tid >> 2) & 30.
          else if (cb && !cb->isZero() && cb->getValue().countTrailingZeros() > 0 &&
                   cb->getValue().countTrailingZeros() < 31) {
            auto q = withinMultiples(a, uint64_t{1} << cb->getValue().countTrailingZeros(), false,
                                     false, depth + 1);
            if (q && *q == 0) r = 0;
          }
          break;
        case llvm::Instruction::URem:
        case llvm::Instruction::SRem:
        case llvm::Instruction::UDiv:
        case llvm::Instruction::SDiv:
          if (cb && cb->getValue().isStrictlyPositive() && cb->getValue().ule(uint64_t{1} << 31)) {
            const auto op = bo->getOpcode();
            r = withinMultiples(a, cb->getZExtValue(),
                                op == llvm::Instruction::URem || op == llvm::Instruction::SRem,
                                op == llvm::Instruction::SRem || op == llvm::Instruction::SDiv,
                                depth + 1);
          }
          break;
        case llvm::Instruction::AShr:
        case llvm::Instruction::LShr: {
          // sext/zext(trunc x) as InstCombine writes it, (x << k) >> k, keeping 32 bits or more
          // (the assumption above).
          // Also with a uniform term added between the shifts, ((x << k) + u) >> k = x + (u >> k)
          // (the low k bits of x << k are zero, so nothing carries): InstCombine's form of
          // sext(trunc(x) + c), `tile[ly][lx + dx]` with a loop's dx.
          llvm::Value* uniformTerm = nullptr;
          auto* shl = llvm::dyn_cast<llvm::BinaryOperator>(a);
          if (shl && shl->getOpcode() == llvm::Instruction::Add) {
            for (unsigned side = 0; side < 2; ++side) {
              auto* inner = llvm::dyn_cast<llvm::BinaryOperator>(shl->getOperand(side));
              if (inner && inner->getOpcode() == llvm::Instruction::Shl) {
                auto u = of(shl->getOperand(1 - side), depth + 1);
                if (u && *u == 0) {
                  uniformTerm = shl->getOperand(1 - side);
                  shl = inner;
                  break;
                }
              }
            }
            if (uniformTerm == nullptr) shl = nullptr;
          }
          auto* k = shl ? llvm::dyn_cast<llvm::ConstantInt>(shl->getOperand(1)) : nullptr;
          if (cb && k && shl->getOpcode() == llvm::Instruction::Shl &&
              k->getZExtValue() == cb->getZExtValue() &&
              cb->getZExtValue() + 32 <= bo->getType()->getIntegerBitWidth()) {
            // A logical pair is a zero-extension (see the class's comment on exact answers).
            if (!exact_ || (bo->getOpcode() == llvm::Instruction::AShr && uniformTerm == nullptr) ||
                (uniformTerm == nullptr &&
                 nonNegative(shl->getOperand(0),
                             bo->getType()->getIntegerBitWidth() - cb->getZExtValue(), depth + 1)))
              r = of(shl->getOperand(0), depth + 1);
          } else if (cb && cb->getZExtValue() < 31)
            // A quotient by 2^k, rounded down (both shifts: the lanes do not wrap).
            r = withinMultiples(a, uint64_t{1} << cb->getZExtValue(), false, false, depth + 1);
          break;
        }
        case llvm::Instruction::Shl:
          if (cb && cb->getZExtValue() < 16)
            if (auto sa = of(a, depth + 1)) r = *sa << cb->getZExtValue();
          break;
        default:
          break;
      }
    }
  } else if (auto* c = llvm::dyn_cast<llvm::CastInst>(i)) {
    switch (c->getOpcode()) {
      case llvm::Instruction::ZExt:
        // An exact answer needs the operand on one side of the wrap-around in every lane.
        if (exact_ && !nonNegative(c->getOperand(0), 0, depth + 1)) break;
        [[fallthrough]];
      case llvm::Instruction::SExt:
      case llvm::Instruction::Trunc:
        if (!narrow(c->getSrcTy()) && !narrow(c->getDestTy())) r = of(c->getOperand(0), depth + 1);
        break;
      case llvm::Instruction::BitCast:
      case llvm::Instruction::AddrSpaceCast:
        r = of(c->getOperand(0), depth + 1);
        break;
      default:
        break;
    }
  } else if (llvm::isa<llvm::FreezeInst>(i)) {
    r = of(i->getOperand(0), depth + 1);
  } else if (auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(i)) {
    r = of(gep->getPointerOperand(), depth + 1);
    for (auto t = llvm::gep_type_begin(gep); r && t != llvm::gep_type_end(gep); ++t) {
      if (t.isStruct()) continue;
      auto s = of(t.getOperand(), depth + 1);
      if (!s) {
        r = std::nullopt;
        break;
      }
      r = *r + *s * static_cast<int64_t>(dl_.getTypeAllocSize(t.getIndexedType()).getFixedSize());
    }
  }
  // Arithmetic on values that are the same for every lane (`tid / 8 * n`) is too.
  if (!r && (llvm::isa<llvm::BinaryOperator>(i) || llvm::isa<llvm::CastInst>(i) ||
             llvm::isa<llvm::SelectInst>(i) || llvm::isa<llvm::CmpInst>(i))) {
    bool same = true;
    for (llvm::Value* op : i->operands()) same = same && of(op, depth + 1) == 0;
    if (same) r = 0;
  }
  strides_[v] = r;
  if (!assumed_.empty()) assumedLog_.push_back(v);
  return r;
}

llvm::Value* LaneStrides::clampedOperand(llvm::Value* v,
                                         const llvm::DenseSet<llvm::Value*>& varying) {
  auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(v);
  if (call == nullptr) return nullptr;
  switch (call->getIntrinsicID()) {
    case llvm::Intrinsic::smin:
    case llvm::Intrinsic::smax:
    case llvm::Intrinsic::umin:
    case llvm::Intrinsic::umax:
      break;
    default:
      return nullptr;
  }
  const bool a = varying.count(call->getArgOperand(0)) != 0;
  const bool b = varying.count(call->getArgOperand(1)) != 0;
  if (a == b) return nullptr;
  return call->getArgOperand(a ? 0 : 1);
}

std::optional<int64_t> LaneStrides::withinMultiples(llvm::Value* x, uint64_t m, bool remainder,
                                                    bool isSigned, int depth) {
  // (x >> k) / m = x / (m << k): the lanes of x >> k stay between two multiples of m when those of
  // x stay between two multiples of m << k, though x >> k itself has no stride (an arithmetic
  // shift of an x that is not negative in any lane is a logical one).
  if (auto* sh = llvm::dyn_cast<llvm::BinaryOperator>(x);
      !remainder && !isSigned && sh && depth < 32 &&
      (sh->getOpcode() == llvm::Instruction::LShr ||
       (sh->getOpcode() == llvm::Instruction::AShr && nonNegative(sh->getOperand(0), 0, depth)))) {
    auto* k = llvm::dyn_cast<llvm::ConstantInt>(sh->getOperand(1));
    if (k && k->getZExtValue() < 31 && m <= (uint64_t{1} << 31) >> k->getZExtValue()) {
      auto q = withinMultiples(sh->getOperand(0), m << k->getZExtValue(), false, false, depth + 1);
      if (q && *q == 0) return 0;
    }
  }
  auto s = of(x, depth);
  if (!s || *s < 0) return std::nullopt;
  if (*s == 0) return 0;
  // Lane 0's value is a multiple of `align`, which divides m: the lanes, spanning less than it,
  // stay between the same two multiples of m.
  uint64_t align = std::min(laneZeroAlign(x, depth), m & (~m + 1));
  if (static_cast<uint64_t>(*s) * (vf_ - 1) >= align) return std::nullopt;
  if (isSigned && !nonNegative(x, 0, depth)) return std::nullopt;
  return remainder ? *s : 0;
}

bool LaneStrides::idBelowLowZeros(llvm::Value* id, llvm::Value* other) {
  while (llvm::isa<llvm::ZExtInst, llvm::TruncInst, llvm::FreezeInst>(id))
    id = llvm::cast<llvm::Instruction>(id)->getOperand(0);
  if (id != f_.getArg(first_ + kLocalIdX) || !other->getType()->isIntegerTy()) return false;
  uint64_t size = 0;
  if (!f_.hasFnAttribute(kRequiredSizeXAttribute) ||
      f_.getFnAttribute(kRequiredSizeXAttribute).getValueAsString().getAsInteger(10, size) ||
      size == 0)
    return false;
  // The id is below `size`, so within its bit width; the other operand has those bits zero.
  const unsigned idBits = llvm::Log2_64_Ceil(size);
  return llvm::computeKnownBits(other, dl_).countMinTrailingZeros() >= idBits;
}

uint64_t LaneStrides::laneZeroAlign(llvm::Value* v, int depth) {
  constexpr uint64_t kMax = uint64_t{1} << 32;
  auto pow2 = [](unsigned zeros) { return zeros >= 32 ? kMax : uint64_t{1} << zeros; };
  if (!varying_.count(v)) {
    if (!v->getType()->isIntegerTy()) return 1;
    return pow2(llvm::computeKnownBits(v, dl_).countMinTrailingZeros());
  }
  if (v == f_.getArg(first_ + kLocalIdX)) return vf_;
  if (v == f_.getArg(first_ + kLocalLinearId) && f_.hasFnAttribute(kLinearAlignedAttribute))
    return vf_;
  auto* i = llvm::dyn_cast<llvm::Instruction>(v);
  if (i == nullptr || depth > 32 || !spend()) return 1;
  auto op = [&](unsigned k) { return laneZeroAlign(i->getOperand(k), depth + 1); };
  switch (i->getOpcode()) {
    case llvm::Instruction::Add:
    case llvm::Instruction::Sub:
    case llvm::Instruction::Or:
      return std::min(op(0), op(1));
    case llvm::Instruction::Mul:
      return std::min(kMax, op(0) * op(1));
    case llvm::Instruction::Shl:
      if (auto* k = llvm::dyn_cast<llvm::ConstantInt>(i->getOperand(1));
          k && k->getZExtValue() < 32)
        return std::min(kMax, op(0) << k->getZExtValue());
      return op(0);
    case llvm::Instruction::And:
      return std::max(op(0), op(1));
    case llvm::Instruction::URem:
    case llvm::Instruction::SRem:
      // x - q * m: a multiple of what divides both.
      return std::min(op(0), op(1));
    case llvm::Instruction::ZExt:
    case llvm::Instruction::SExt:
    case llvm::Instruction::Trunc:
    case llvm::Instruction::Freeze:
      return op(0);
    case llvm::Instruction::Select:
      return std::min(op(1), op(2));
    default:
      return 1;
  }
}

// Whether v's low `bits` bits, read as a signed number, are not negative in any lane (bits 0: all
// of v's): what a zero-extension or a mask of those bits needs to keep the lanes on one side of the
// wrap-around. `add i64 %lid, 4294967295` (lid - 1 as the optimizer writes it before masking the
// low 32 bits) is not negative as 64 bits, but its low 32 bits are -1 in lane 0.
bool LaneStrides::nonNegative(llvm::Value* v, unsigned bits, int depth) {
  const unsigned width = v->getType()->isIntegerTy() ? v->getType()->getIntegerBitWidth() : 0;
  if (bits == 0 || bits > width) bits = width;
  const bool whole = bits == width;
  if (auto* arg = llvm::dyn_cast<llvm::Argument>(v))
    // The ids, sizes, counts, offsets and the work dimension (RegionParam up to kWorkDim).
    return arg->getArgNo() >= first_ + kLocalIdX && arg->getArgNo() <= first_ + kWorkDim;
  auto known = [&] { return width != 0 && llvm::computeKnownBits(v, dl_).Zero[bits - 1]; };
  auto* i = llvm::dyn_cast<llvm::Instruction>(v);
  if (i == nullptr || depth > 32 || !spend()) return known();
  auto op = [&](unsigned k, unsigned at) { return nonNegative(i->getOperand(k), at, depth + 1); };
  auto srcBits = [&] { return i->getOperand(0)->getType()->getIntegerBitWidth(); };
  switch (i->getOpcode()) {
    case llvm::Instruction::Add:
    case llvm::Instruction::Mul:
    case llvm::Instruction::Shl:
    case llvm::Instruction::Or:
      return op(0, bits) && op(1, bits);
    case llvm::Instruction::UDiv:
    case llvm::Instruction::URem:
    case llvm::Instruction::SDiv:
    case llvm::Instruction::SRem:
      // Low bits of a quotient or remainder depend on the high bits of the operands.
      return whole ? op(0, bits) && op(1, bits) : known();
    case llvm::Instruction::And:
      return op(0, bits) || op(1, bits);
    case llvm::Instruction::LShr:
      if (!whole) return known();
      if (auto* k = llvm::dyn_cast<llvm::ConstantInt>(i->getOperand(1)); k && !k->isZero())
        return true;
      return op(0, bits);
    case llvm::Instruction::AShr:
      return whole ? op(0, bits) : known();
    case llvm::Instruction::ZExt:
      // Bits above the operand's are zero; at or below its width they are the operand's.
      return bits > srcBits() || op(0, bits);
    case llvm::Instruction::SExt:
      return op(0, std::min(bits, srcBits()));
    case llvm::Instruction::Trunc:
    case llvm::Instruction::Freeze:
      return op(0, bits);
    case llvm::Instruction::Select:
      return op(1, bits) && op(2, bits);
    case llvm::Instruction::Call:
      if (clamps_ && clamps_->count(i))  // taken as its varying operand (seeThroughClamps)
        return nonNegative(clampedOperand(i, varying_), bits, depth + 1);
      if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(i); call && whole) {
        switch (call->getIntrinsicID()) {
          case llvm::Intrinsic::smax:  // at least the operand that is not negative
          case llvm::Intrinsic::umin:  // at most the operand that is not negative
            return op(0, bits) || op(1, bits) || known();
          case llvm::Intrinsic::smin:
          case llvm::Intrinsic::umax:
            return (op(0, bits) && op(1, bits)) || known();
          default:
            break;
        }
      }
      return known();
    default:
      return known();
  }
}

// A phi's lanes keep a stride when every incoming value has it: an induction variable that
// starts at the lanes' ids and steps by a uniform amount (`for (i = gid; i < n; i += stride)`,
// the grid-stride loop) stays consecutive, so its loads are vector loads, not gathers. The
// stride through the loop's back edge depends on the phi itself: it is assumed (the first
// incoming value with a stride proposes it), and the assumption stands if every incoming
// value then has that stride; strides computed under an assumption that fails are forgotten.
std::optional<int64_t> LaneStrides::ofPhi(llvm::PHINode* phi, int depth) {
  if (auto a = assumed_.find(phi); a != assumed_.end()) return a->second;
  size_t mark = assumedLog_.size();
  auto forget = [&] {
    for (size_t k = mark; k < assumedLog_.size(); ++k) strides_.erase(assumedLog_[k]);
    assumedLog_.resize(mark);
  };
  std::optional<int64_t> candidate;
  assumed_[phi] = std::nullopt;
  for (llvm::Value* in : phi->incoming_values())
    if ((candidate = of(in, depth + 1))) break;
  forget();
  std::optional<int64_t> r;
  if (candidate) {
    assumed_[phi] = candidate;
    r = candidate;
    for (llvm::Value* in : phi->incoming_values())
      if (of(in, depth + 1) != candidate) {
        r = std::nullopt;
        break;
      }
    if (!r) forget();
  }
  assumed_.erase(phi);
  // Kept strides that an enclosing assumption may still take back.
  if (assumed_.empty()) assumedLog_.resize(mark);
  return r;
}

}  // namespace tessera::backends::cpu::jit
