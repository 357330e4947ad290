//===- PrefetchRows.cpp - software prefetch in row loops --------*- C++ -*-===//
//
// See the pass description (include/tcc/Conversion/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/CPU/Passes.h"

#include "ViewRoot.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_PREFETCHROWSPASS
#include "tcc/Codegen/CPU/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using mlir::tcc::viewRoot;

namespace {

constexpr int64_t kLineBytes = 64;

/// A row loop: the `tcc.parallel` tile loop, still an scf.for (serial
/// builds) or already a one-dimensional scf.parallel.
struct RowLoop {
  Operation *op;
  Block *body;
  Value iv, step;
};

std::optional<RowLoop> asRowLoop(Operation *op) {
  if (auto f = dyn_cast<scf::ForOp>(op))
    if (f->hasAttr(tcc::kParallelLoopAttr))
      return RowLoop{op, f.getBody(), f.getInductionVar(), f.getStep()};
  if (auto p = dyn_cast<scf::ParallelOp>(op))
    if (p.getNumLoops() == 1)
      return RowLoop{op, p.getBody(), p.getInductionVars()[0], p.getStep()[0]};
  return std::nullopt;
}

/// The rows a tile loop iteration reads: a subview `[iv, c] [rows, cols]`
/// of a 2-D memref defined outside the loop, with constant `rows`, `c` and
/// `cols` (at least 1 KiB per row: shorter rows are not worth a prefetch).
struct TileRows {
  Operation *view;
  Value source;
  int64_t rows, firstCol, cols, elementBytes;
};

/// Whether anything in `loop` writes to `source`: prefetching the rows a
/// loop writes (with streaming stores, above all) only adds traffic.
bool writtenIn(Operation *loop, Value source) {
  Value root = viewRoot(source);
  WalkResult result = loop->walk([&](Operation *op) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return WalkResult::advance();
    SmallVector<MemoryEffects::EffectInstance> list;
    effects.getEffects(list);
    for (const MemoryEffects::EffectInstance &e : list)
      if (isa<MemoryEffects::Write>(e.getEffect()) && e.getValue() &&
          viewRoot(e.getValue()) == root)
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

SmallVector<TileRows> tileRows(const RowLoop &loop) {
  SmallVector<TileRows> tiles;
  for (Operation &op : loop.body->without_terminator()) {
    auto sv = dyn_cast<memref::SubViewOp>(op);
    if (!sv || sv.getSourceType().getRank() != 2 ||
        !sv.getSource().getParentRegion()->isAncestor(
            loop.op->getParentRegion()))
      continue;
    SmallVector<OpFoldResult> offsets = sv.getMixedOffsets();
    SmallVector<OpFoldResult> sizes = sv.getMixedSizes();
    std::optional<int64_t> rows = getConstantIntValue(sizes[0]);
    std::optional<int64_t> cols = getConstantIntValue(sizes[1]);
    std::optional<int64_t> firstCol = getConstantIntValue(offsets[1]);
    int64_t bytes = std::max<int64_t>(
        1, sv.getSourceType().getElementTypeBitWidth() / 8);
    if (dyn_cast<Value>(offsets[0]) != loop.iv || !rows || !cols ||
        !firstCol || *cols * bytes < 1024 ||
        writtenIn(loop.op, sv.getSource()))
      continue;
    tiles.push_back({sv, sv.getSource(), *rows, *firstCol, *cols, bytes});
  }
  return tiles;
}

/// A column loop over `tile`: an scf.for inside the row loop whose
/// induction variable is the column offset of a read of the tile (a
/// subview `[0, j]` or a vector read at `[k, j]`), stepping by at least a
/// cache line.
bool isColumnLoopOf(scf::ForOp col, const TileRows &tile) {
  std::optional<int64_t> step = getConstantIntValue(col.getStep());
  if (!step || *step * tile.elementBytes < kLineBytes)
    return false;
  Value j = col.getInductionVar();
  for (Operation *user : tile.view->getUsers()) {
    if (!col->isProperAncestor(user))
      continue;
    if (auto sv = dyn_cast<memref::SubViewOp>(user))
      if (dyn_cast<Value>(sv.getMixedOffsets()[1]) == j)
        return true;
    if (auto read = dyn_cast<vector::TransferReadOp>(user))
      if (read.getIndices()[1] == j)
        return true;
    if (auto load = dyn_cast<vector::LoadOp>(user))
      if (load.getIndices()[1] == j)
        return true;
  }
  return false;
}

/// A pass over the tile's columns that need not read the tile itself (the
/// normalize or scale pass reads a scratch row and streams the result
/// out): constant bounds spanning exactly the tile's columns, stepping by
/// at least a cache line. Its iterations can carry the next tile's lines
/// as well as a loop reading the tile can.
bool spansColumnsOf(scf::ForOp col, const TileRows &tile) {
  std::optional<int64_t> lb = getConstantIntValue(col.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(col.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(col.getStep());
  return lb && ub && step && *ub - *lb == tile.cols &&
         *step * tile.elementBytes >= kLineBytes;
}

struct PrefetchRowsPass : tcc::impl::PrefetchRowsPassBase<PrefetchRowsPass> {
  using Base::Base;

  /// Rows `iv + distance * step + k` (k < tile.rows) of the tile's source,
  /// clamped to its last row so that no address leaves the buffer.
  SmallVector<Value> nextRows(OpBuilder &b, Location loc, const RowLoop &loop,
                              const TileRows &tile) {
    Value source = tile.source;
    Value last = arith::SubIOp::create(
        b, loc, memref::DimOp::create(b, loc, source, 0),
        arith::ConstantIndexOp::create(b, loc, 1));
    Value ahead = arith::AddIOp::create(
        b, loc, loop.iv,
        arith::MulIOp::create(
            b, loc, loop.step,
            arith::ConstantIndexOp::create(b, loc, distance)));
    SmallVector<Value> rows;
    for (int64_t k = 0; k < tile.rows; ++k) {
      Value row = arith::AddIOp::create(
          b, loc, ahead, arith::ConstantIndexOp::create(b, loc, k));
      rows.push_back(arith::MinSIOp::create(b, loc, row, last));
    }
    return rows;
  }

  /// One prefetch per cache line of the next tile's columns `[j, j + step)`
  /// of `rows` in each iteration of `col`, so that memory works while the
  /// loop computes.
  void interleave(const TileRows &tile, ArrayRef<Value> rows,
                  scf::ForOp col) {
    OpBuilder b(col);
    Location loc = col.getLoc();
    int64_t step = *getConstantIntValue(col.getStep());
    int64_t lineElements = kLineBytes / tile.elementBytes;
    // A loop reading the tile indexes it by tile column; one only spanning
    // the tile's columns (constant bounds) runs over [lb, lb + cols).
    int64_t first = tile.firstCol;
    if (!isColumnLoopOf(col, tile))
      first -= *getConstantIntValue(col.getLowerBound());
    b.setInsertionPointToStart(col.getBody());
    for (Value row : rows)
      for (int64_t e = 0; e < step; e += lineElements) {
        Value column = arith::AddIOp::create(
            b, loc, col.getInductionVar(),
            arith::ConstantIndexOp::create(b, loc, first + e));
        memref::PrefetchOp::create(b, loc, tile.source, ValueRange{row, column},
                                   /*isWrite=*/false, locality,
                                   /*isDataCache=*/true);
      }
  }

  /// Vector and floating-point operations per column of a pass: the
  /// arithmetic the pass does while memory would otherwise idle.
  static double arithmeticPerColumn(scf::ForOp col) {
    int64_t ops = 0;
    col.getBody()->walk([&](Operation *op) {
      if (op->getNumResults() == 1 &&
          isa<VectorType, FloatType>(op->getResult(0).getType()) &&
          !isa<arith::ConstantOp>(op))
        ++ops;
    });
    return double(ops) / double(*getConstantIntValue(col.getStep()));
  }

  /// A tile without a column loop: the next tile's lines all at once, at
  /// the top of the iteration.
  void upFront(const RowLoop &loop, const TileRows &tile) {
    OpBuilder b = OpBuilder::atBlockBegin(loop.body);
    Location loc = loop.op->getLoc();
    SmallVector<Value> rows = nextRows(b, loc, loop, tile);
    for (Value row : rows) {
      auto lines = scf::ForOp::create(
          b, loc, arith::ConstantIndexOp::create(b, loc, tile.firstCol),
          arith::ConstantIndexOp::create(b, loc, tile.firstCol + tile.cols),
          arith::ConstantIndexOp::create(b, loc,
                                         kLineBytes / tile.elementBytes));
      OpBuilder inner = OpBuilder::atBlockBegin(lines.getBody());
      memref::PrefetchOp::create(inner, loc, tile.source,
                                 ValueRange{row, lines.getInductionVar()},
                                 /*isWrite=*/false, locality,
                                 /*isDataCache=*/true);
    }
  }

  void runOnOperation() override {
    SmallVector<RowLoop> loops;
    getOperation().walk([&](Operation *op) {
      if (std::optional<RowLoop> loop = asRowLoop(op))
        loops.push_back(*loop);
    });
    for (const RowLoop &loop : loops) {
      for (const TileRows &tile : tileRows(loop)) {
        // Passes over the tile in program order (pre-order walk), the
        // outermost loop of a nest only.
        SmallVector<scf::ForOp> passes;
        bool readsTile = false;
        loop.op->walk<WalkOrder::PreOrder>([&](scf::ForOp col) {
          if (col == loop.op)
            return WalkResult::advance();
          bool reads = isColumnLoopOf(col, tile);
          if (!reads && !(busiest && spansColumnsOf(col, tile)))
            return WalkResult::advance();
          passes.push_back(col);
          readsTile |= reads;
          return WalkResult::skip();
        });
        if (!readsTile) {
          upFront(loop, tile);
          continue;
        }
        // The first pass reading the tile, or (busiest) the pass with the
        // most arithmetic per column.
        scf::ForOp host = passes.front();
        if (busiest) {
          host = *llvm::max_element(passes, [](scf::ForOp a, scf::ForOp b) {
            return arithmeticPerColumn(a) < arithmeticPerColumn(b);
          });
        }
        OpBuilder b(loop.body, loop.body->begin());
        SmallVector<Value> rows = nextRows(b, loop.op->getLoc(), loop, tile);
        interleave(tile, rows, host);
      }
    }
  }
};

} // namespace
