//===- PrefetchRows.cpp - software prefetch in row loops --------*- C++ -*-===//
//
// See the pass description (include/tcc/Conversion/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tcc/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_PREFETCHROWSPASS
#include "tcc/Conversion/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

/// A row loop: the `tcc.parallel` tile loop, still an scf.for (serial
/// builds) or already a one-dimensional scf.parallel.
struct RowLoop {
  Operation *op;
  Block *body;
  Value iv, step, upper;
};

std::optional<RowLoop> asRowLoop(Operation *op) {
  if (auto f = dyn_cast<scf::ForOp>(op))
    if (f->hasAttr(tcc::kParallelLoopAttr))
      return RowLoop{op, f.getBody(), f.getInductionVar(), f.getStep(),
                     f.getUpperBound()};
  if (auto p = dyn_cast<scf::ParallelOp>(op))
    if (p.getNumLoops() == 1)
      return RowLoop{op, p.getBody(), p.getInductionVars()[0], p.getStep()[0],
                     p.getUpperBound()[0]};
  return std::nullopt;
}

/// The row subviews `[iv, c] [1, N]` (N >= 256) of memrefs defined outside
/// `loop`.
SmallVector<memref::SubViewOp> rowSubviews(const RowLoop &loop) {
  Value iv = loop.iv;
  SmallVector<memref::SubViewOp> rows;
  for (Operation &op : loop.body->without_terminator()) {
    auto sv = dyn_cast<memref::SubViewOp>(op);
    if (!sv || sv.getSourceType().getRank() != 2 ||
        !sv.getSource().getParentRegion()->isAncestor(
            loop.op->getParentRegion()))
      continue;
    SmallVector<OpFoldResult> offsets = sv.getMixedOffsets();
    SmallVector<OpFoldResult> sizes = sv.getMixedSizes();
    std::optional<int64_t> rowsInTile = getConstantIntValue(sizes[0]);
    std::optional<int64_t> cols = getConstantIntValue(sizes[1]);
    if (dyn_cast<Value>(offsets[0]) != iv || !rowsInTile || *rowsInTile != 1 ||
        !cols || *cols < 256 || !getConstantIntValue(offsets[1]))
      continue;
    rows.push_back(sv);
  }
  return rows;
}

struct PrefetchRowsPass : tcc::impl::PrefetchRowsPassBase<PrefetchRowsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<RowLoop> loops;
    getOperation().walk([&](Operation *op) {
      if (std::optional<RowLoop> loop = asRowLoop(op))
        loops.push_back(*loop);
    });
    for (const RowLoop &loop : loops) {
      bool streams = false;
      loop.op->walk(
          [&](vector::StoreOp store) { streams |= store.getNontemporal(); });
      SmallVector<memref::SubViewOp> rows = rowSubviews(loop);
      if (streams || rows.empty())
        continue;
      OpBuilder b = OpBuilder::atBlockBegin(loop.body);
      Location loc = loop.op->getLoc();
      Value ahead = arith::MulIOp::create(
          b, loc, loop.step, arith::ConstantIndexOp::create(b, loc, distance));
      Value next = arith::AddIOp::create(b, loc, loop.iv, ahead);
      Value inRange = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::slt, next, loop.upper);
      auto ifOp = scf::IfOp::create(b, loc, inRange, /*withElse=*/false);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      for (memref::SubViewOp sv : rows) {
        int64_t bytes = std::max<int64_t>(
            1, sv.getSourceType().getElementTypeBitWidth() / 8);
        int64_t cols = *getConstantIntValue(sv.getMixedSizes()[1]);
        int64_t first = *getConstantIntValue(sv.getMixedOffsets()[1]);
        auto lines = scf::ForOp::create(
            b, loc, arith::ConstantIndexOp::create(b, loc, first),
            arith::ConstantIndexOp::create(b, loc, first + cols),
            arith::ConstantIndexOp::create(b, loc, std::max<int64_t>(1, 64 / bytes)));
        OpBuilder inner = OpBuilder::atBlockBegin(lines.getBody());
        memref::PrefetchOp::create(inner, loc, sv.getSource(),
                                   ValueRange{next, lines.getInductionVar()},
                                   /*isWrite=*/false, /*localityHint=*/3,
                                   /*isDataCache=*/true);
      }
    }
  }
};

} // namespace
