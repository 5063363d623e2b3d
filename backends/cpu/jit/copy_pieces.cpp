// Pass: the widening's copies from global to global memory, after O3, as 32-byte loads and
// stores in turn.
//
// A widened `out[i] = in[i]` of float4 is one `load <32 x float>` and one `store` of it per 8
// work-items; x86 runs it as two 64-byte loads, then two 64-byte stores (four and four once O3
// unrolls). On an AVX-512 Zen 4 EPYC that streamed 10-15% slower than the same work-items' loop
// left unwidened (a 16-byte load and its store, then the next): copy4 of 256 MiB, three processes
// each, 18.5/20.1/20.3 ms widened against 15.7/17.4/18.0 unwidened, and a C loop on the same host
// (two threads, medians of ten): 16-byte load/store pairs 16.6 ms, 32-byte pairs 16.5, 64-byte
// pairs 17.7, four 64-byte loads then four stores 18.8-20.9 (session 38).
//
// The pieces were 16 bytes until session 44, when a Zen 5 VM showed them to depend on where the
// buffers lie: copy4 of 256 MiB over the same host memory (bench/cl_copy_offsets, six runs) took
// 10.7-13.7 ms with the input 257 or 258 MiB after the output (where this driver puts two
// consecutive 256 MiB allocations) against 7.6-10.7 ms at 256, 256.25 and 768 MiB. PoCL, a C++
// copy, and the same kernel unsplit or in 64-byte pieces showed no such dependence, and in 32-byte
// pieces it ran 7.9-9.4 ms at every distance (two runs). 32-byte pairs were also as fast as 16-byte
// ones in session 38's C loop on the Zen 4 (16.5 against 16.6 ms; the kernel in 32-byte pieces was
// between unsplit and 16-byte pieces there). So pieces are 32 bytes.
//
// Each piece holds whole lanes (a lane of 32 bytes or less divides 32, else the piece is the
// lane), and a lane's load still comes before its store: what each work-item reads and writes
// is unchanged. Lanes of different work-items are unordered in OpenCL, so the stores of some
// lanes may now come before the loads of others. Only a store tagged kLaneBytesMetadata (an
// unmasked contiguous store of the lanes) of a simple load of the same block with no write
// between, both in global memory.
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>

#include <vector>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

constexpr uint64_t kPieceBytes = 32;

// The bytes of a piece for lanes of `lane` bytes: whole lanes, kPieceBytes where they fit (0:
// none).
uint64_t pieceFor(uint64_t lane) {
  if (lane == 0) return 0;
  if (lane <= kPieceBytes) return kPieceBytes % lane == 0 ? kPieceBytes : 0;
  return lane % kPieceBytes == 0 ? lane : 0;
}

// The load `st` stores, when the pair may be split: the store tagged, its value a simple load
// of the same block with no other use, nothing between them writing memory, both global.
llvm::LoadInst* copied(llvm::StoreInst* st) {
  if (st->getMetadata(kLaneBytesMetadata) == nullptr || !st->isSimple()) return nullptr;
  auto* load = llvm::dyn_cast<llvm::LoadInst>(st->getValueOperand());
  if (load == nullptr || !load->isSimple() || !load->hasOneUse() ||
      load->getParent() != st->getParent() || !load->getType()->isVectorTy())
    return nullptr;
  if (load->getPointerAddressSpace() != kGlobalAddressSpace ||
      st->getPointerAddressSpace() != kGlobalAddressSpace)
    return nullptr;
  for (llvm::Instruction* i = load->getNextNode(); i != st; i = i->getNextNode())
    if (i->mayWriteToMemory()) return nullptr;
  return load;
}

}  // namespace

unsigned splitCopies(llvm::Function& f) {
  const llvm::DataLayout& dl = f.getParent()->getDataLayout();
  std::vector<std::pair<llvm::StoreInst*, llvm::LoadInst*>> copies;
  for (llvm::BasicBlock& bb : f)
    for (llvm::Instruction& i : bb)
      if (auto* st = llvm::dyn_cast<llvm::StoreInst>(&i))
        if (llvm::LoadInst* load = copied(st)) copies.emplace_back(st, load);
  unsigned split = 0;
  for (auto [st, load] : copies) {
    auto* type = llvm::cast<llvm::FixedVectorType>(load->getType());
    llvm::Type* element = type->getElementType();
    const uint64_t elementBytes = dl.getTypeStoreSize(element).getFixedSize();
    const uint64_t bytes = dl.getTypeStoreSize(type).getFixedSize();
    const uint64_t lane = llvm::mdconst::extract<llvm::ConstantInt>(
                              st->getMetadata(kLaneBytesMetadata)->getOperand(0))
                              ->getZExtValue();
    const uint64_t piece = pieceFor(lane);
    // Elements that lie back to back as in memory (not i1's packed bits), whole elements a piece.
    if (piece == 0 || bytes <= piece || bytes % piece != 0 || elementBytes == 0 ||
        piece % elementBytes != 0 || dl.getTypeSizeInBits(element) != 8 * elementBytes ||
        dl.getTypeAllocSize(type) != bytes)
      continue;
    const unsigned perPiece = static_cast<unsigned>(piece / elementBytes);
    auto* pieceType = llvm::FixedVectorType::get(element, perPiece);
    llvm::IRBuilder<> b(st);
    for (unsigned e = 0; e < type->getNumElements(); e += perPiece) {
      const uint64_t offset = e * elementBytes;
      llvm::Value* from = b.CreateConstGEP1_64(element, load->getPointerOperand(), e);
      llvm::Value* to = b.CreateConstGEP1_64(element, st->getPointerOperand(), e);
      llvm::LoadInst* l =
          b.CreateAlignedLoad(pieceType, b.CreatePointerCast(from, pieceType->getPointerTo(1)),
                              llvm::commonAlignment(load->getAlign(), offset));
      l->setAAMetadata(load->getAAMetadata());
      llvm::StoreInst* s =
          b.CreateAlignedStore(l, b.CreatePointerCast(to, pieceType->getPointerTo(1)),
                               llvm::commonAlignment(st->getAlign(), offset));
      s->setAAMetadata(st->getAAMetadata());
      s->setMetadata(kLaneBytesMetadata, st->getMetadata(kLaneBytesMetadata));
    }
    st->eraseFromParent();
    load->eraseFromParent();
    ++split;
  }
  return split;
}

}  // namespace tessera::backends::cpu::jit
