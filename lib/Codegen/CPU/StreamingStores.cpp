//===- StreamingStores.cpp - non-temporal stores for large results -C++ -*-===//
//
// See the pass description (include/tcc/Conversion/Passes.td). The address
// must be provably aligned to the vector's size: x86 has no unaligned
// streaming store, and LLVM splits an under-aligned one into scalar stores.
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/CPU/Passes.h"

#include "ViewRoot.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_STREAMINGSTORESPASS
#include "tcc/Codegen/CPU/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

/// Whether `v` is provably a multiple of `k` (constants, loop induction
/// variables with aligned bounds and step, sums and constant multiples).
bool isMultipleOf(Value v, int64_t k, int depth = 0) {
  if (depth > 8)
    return false;
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return *c % k == 0;
  if (auto iv = dyn_cast<BlockArgument>(v)) {
    auto loop = dyn_cast<scf::ForOp>(iv.getOwner()->getParentOp());
    if (loop && loop.getInductionVar() == iv)
      return isMultipleOf(loop.getLowerBound(), k, depth + 1) &&
             isMultipleOf(loop.getStep(), k, depth + 1);
    auto par = dyn_cast<scf::ParallelOp>(iv.getOwner()->getParentOp());
    if (par) {
      unsigned i = iv.getArgNumber();
      return isMultipleOf(par.getLowerBound()[i], k, depth + 1) &&
             isMultipleOf(par.getStep()[i], k, depth + 1);
    }
    return false;
  }
  Operation *def = v.getDefiningOp();
  if (auto add = dyn_cast_or_null<arith::AddIOp>(def))
    return isMultipleOf(add.getLhs(), k, depth + 1) &&
           isMultipleOf(add.getRhs(), k, depth + 1);
  if (auto mul = dyn_cast_or_null<arith::MulIOp>(def)) {
    for (Value side : {mul.getLhs(), mul.getRhs()})
      if (std::optional<int64_t> c = getConstantIntValue(side))
        if (*c % k == 0)
          return true;
    return isMultipleOf(mul.getLhs(), k, depth + 1) ||
           isMultipleOf(mul.getRhs(), k, depth + 1);
  }
  if (auto apply = dyn_cast_or_null<affine::AffineApplyOp>(def)) {
    // Structurally: a sum of multiples is a multiple, a product is one when
    // either factor is; anything else (floordiv, mod) is not claimed.
    ValueRange operands = apply.getMapOperands();
    unsigned numDims = apply.getAffineMap().getNumDims();
    std::function<bool(AffineExpr)> multiple = [&](AffineExpr e) -> bool {
      if (auto c = dyn_cast<AffineConstantExpr>(e))
        return c.getValue() % k == 0;
      if (auto d = dyn_cast<AffineDimExpr>(e))
        return isMultipleOf(operands[d.getPosition()], k, depth + 1);
      if (auto sym = dyn_cast<AffineSymbolExpr>(e))
        return isMultipleOf(operands[numDims + sym.getPosition()], k,
                            depth + 1);
      auto bin = cast<AffineBinaryOpExpr>(e);
      if (bin.getKind() == AffineExprKind::Add)
        return multiple(bin.getLHS()) && multiple(bin.getRHS());
      if (bin.getKind() == AffineExprKind::Mul)
        return multiple(bin.getLHS()) || multiple(bin.getRHS());
      return false;
    };
    return multiple(apply.getAffineMap().getResult(0));
  }
  return false;
}

struct StreamingStoresPass
    : tcc::impl::StreamingStoresPassBase<StreamingStoresPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<vector::TransferWriteOp> writes;
    getOperation().walk([&](vector::TransferWriteOp op) {
      if (isa<MemRefType>(op.getBase().getType()))
        writes.push_back(op);
    });
    for (vector::TransferWriteOp op : writes) {
      VectorType vt = op.getVectorType();
      if (vt.getRank() != 1 || op.getMask() || !op.getInBounds()[0] ||
          !op.getPermutationMap().isMinorIdentity())
        continue;
      // Follow unit-stride, rank-preserving subviews to the allocation,
      // adding their offsets to the indices.
      Value base = op.getBase();
      SmallVector<OpFoldResult> indices =
          getAsOpFoldResult(ValueRange(op.getIndices()));
      SmallVector<memref::SubViewOp> chain;
      while (auto sv = base.getDefiningOp<memref::SubViewOp>()) {
        if (sv.getSourceType().getRank() != sv.getType().getRank() ||
            !llvm::all_of(sv.getStaticStrides(),
                          [](int64_t st) { return st == 1; }))
          break;
        chain.push_back(sv);
        base = sv.getSource();
      }
      // An allocation, or a kernel's argument its caller allocated.
      std::optional<uint64_t> alignment = tcc::allocationAlignment(base);
      auto dest = dyn_cast<MemRefType>(base.getType());
      if (!alignment || *alignment < 64 || !dest ||
          (int64_t)indices.size() != dest.getRank())
        continue;
      if (!dest.getLayout().isIdentity() || !dest.hasStaticShape() ||
          !dest.getElementType().isIntOrFloat())
        continue;
      int64_t elemBytes = dest.getElementTypeBitWidth() / 8;
      if (elemBytes == 0 || (vt.getNumElements() * elemBytes) % 64 != 0 ||
          dest.getNumElements() * elemBytes < minBytes)
        continue;
      // Every row starts aligned and the innermost index (the sum of the
      // subviews' offsets and the write's index) steps in whole vectors.
      int64_t lanes = 64 / elemBytes;
      auto multiple = [&](OpFoldResult f) {
        if (std::optional<int64_t> c = getConstantIntValue(f))
          return *c % lanes == 0;
        return isMultipleOf(cast<Value>(f), lanes);
      };
      if (dest.getShape().back() % lanes != 0 || !multiple(indices.back()) ||
          !llvm::all_of(chain, [&](memref::SubViewOp sv) {
            return multiple(sv.getMixedOffsets().back());
          }))
        continue;
      OpBuilder b(op);
      Location loc = op.getLoc();
      // index + the offsets of the subviews, constants folded.
      auto add = [&](OpFoldResult x, OpFoldResult y) -> OpFoldResult {
        std::optional<int64_t> cx = getConstantIntValue(x),
                               cy = getConstantIntValue(y);
        if (cx && cy)
          return b.getIndexAttr(*cx + *cy);
        if (cx == 0)
          return y;
        if (cy == 0)
          return x;
        return arith::AddIOp::create(
                   b, loc, getValueOrCreateConstantIndexOp(b, loc, x),
                   getValueOrCreateConstantIndexOp(b, loc, y))
            .getResult();
      };
      SmallVector<Value> rootIndices;
      for (auto [d, index] : llvm::enumerate(indices)) {
        OpFoldResult sum = index;
        for (memref::SubViewOp sv : chain)
          sum = add(sum, sv.getMixedOffsets()[d]);
        rootIndices.push_back(getValueOrCreateConstantIndexOp(b, loc, sum));
      }
      vector::StoreOp::create(b, loc, op.getVector(), base, rootIndices,
                              /*nontemporal=*/true, llvm::MaybeAlign(64));
      op.erase();
    }
  }
};

} // namespace
