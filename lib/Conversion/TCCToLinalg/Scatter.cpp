//===- Scatter.cpp - tcc scatters to loops over their updates ---*- C++ -*-===//
//
// A scatter writes where its indices say, so it has no linalg form (a
// generic writes its output at the iteration's own coordinates). Both
// scatters become scf.for loops that carry the result, initialized with x,
// and apply the updates in row-major order, which fixes what duplicates
// do: the last write wins, reductions accumulate every one.
//
// - tcc.scatter_nd: one step per index tuple, the whole addressed slice
//   (x.shape[k:]) combined with its update as one generic: row scatters
//   (index_put, KV-cache and BEV writes) move contiguous rows, vectorized.
// - tcc.scatter_elements: one step per update element (any two elements of
//   one step could collide only along the axis, so a vector form would need
//   conflict detection; the loop is scalar).
//
// The loops write into a copy of x of their own (bufferization.alloc_tensor
// copy(x)): written in place, x's buffer would be the result's, and a
// planned buffer (x made by a kernel) would then live past its last use as
// the memory plan sees it. Every index is range-checked before the loop (a
// runtime error), and clamped where it is used, so no access leaves the
// buffer.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "tcc/Conversion/TCCToLinalg/TCCToLinalg.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::lowering;

namespace {

/// `old` combined with `update` by the op's reduction ("none": the update).
Value combine(OpBuilder &b, Location l, StringRef reduction, Value old,
              Value update) {
  if (reduction == "none")
    return update;
  Type t = update.getType();
  bool isBool = t.isInteger(1);
  if (isa<FloatType>(t)) {
    if (reduction == "add")
      return arith::AddFOp::create(b, l, old, update);
    if (reduction == "mul")
      return arith::MulFOp::create(b, l, old, update);
    if (reduction == "max")
      return arith::MaximumFOp::create(b, l, old, update);
    return arith::MinimumFOp::create(b, l, old, update);
  }
  // Booleans: add and max are "or", mul and min "and".
  if (reduction == "add")
    return isBool ? arith::OrIOp::create(b, l, old, update).getResult()
                  : arith::AddIOp::create(b, l, old, update).getResult();
  if (reduction == "mul")
    return isBool ? arith::AndIOp::create(b, l, old, update).getResult()
                  : arith::MulIOp::create(b, l, old, update).getResult();
  if (reduction == "max")
    return isBool ? arith::OrIOp::create(b, l, old, update).getResult()
                  : arith::MaxSIOp::create(b, l, old, update).getResult();
  return isBool ? arith::AndIOp::create(b, l, old, update).getResult()
                : arith::MinSIOp::create(b, l, old, update).getResult();
}

struct ScatterElementsToLoops : OpRewritePattern<ScatterElementsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ScatterElementsOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getX(), indices = op.getIndices(), updates = op.getUpdates();
    int64_t rank = op.getType().getRank();
    int64_t axis = *normalizeAxis(op.getAxis(), rank);
    StringRef reduction = op.getReduction();
    Value axisDim = dimValue(rewriter, loc, x, axis);

    // The indices must fit in the updates, and in x but along the axis.
    SmallVector<Value> ubs = dimValues(rewriter, loc, indices);
    auto assertFits = [&](int64_t d, Value bound, StringRef whose) {
      Value fits = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ule, ubs[d], bound);
      cf::AssertOp::create(rewriter, loc, fits,
                           ("tcc.scatter_elements: indices dim " + Twine(d) +
                            " exceeds " + whose)
                               .str());
    };
    for (int64_t d = 0; d < rank; ++d) {
      assertFits(d, dimValue(rewriter, loc, updates, d), "the updates'");
      if (d != axis)
        assertFits(d, dimValue(rewriter, loc, x, d), "x's");
    }
    assertIndicesInRange(rewriter, loc, indices, axisDim,
                         "tcc.scatter_elements: index out of range");

    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    SmallVector<Value> lbs(rank, zero), steps(rank, one);
    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, lbs, ubs, steps, ValueRange{ownCopy(rewriter, loc, x)},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange carried) -> scf::ValueVector {
          Value raw = tensor::ExtractOp::create(b, l, indices, ivs);
          Value update = tensor::ExtractOp::create(b, l, updates, ivs);
          SmallVector<Value> target(ivs);
          target[axis] = wrappedIndex(b, l, raw, axisDim);
          Value value = update;
          if (reduction != "none")
            value = combine(
                b, l, reduction,
                tensor::ExtractOp::create(b, l, carried[0], target), update);
          return {tensor::InsertOp::create(b, l, value, carried[0], target)
                      .getResult()};
        });
    rewriter.replaceOp(op, nest.results.front());
    return success();
  }
};

struct ScatterNDToLoop : OpRewritePattern<ScatterNDOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ScatterNDOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    Value x = op.getX(), indices = op.getIndices(), updates = op.getUpdates();
    auto xt = op.getType();
    auto it = op.getIndices().getType();
    int64_t rank = xt.getRank(), qRank = it.getRank() - 1;
    int64_t k = it.getDimSize(qRank);
    StringRef reduction = op.getReduction();
    SmallVector<Value> xDims = dimValues(rewriter, loc, x);

    // updates: indices.shape[:-1] + x.shape[k:].
    for (int64_t d = 0; d < qRank; ++d)
      assertSameDim(rewriter, loc, indices, d, updates, d,
                    "tcc.scatter_nd: updates differ from indices in dim " +
                        Twine(d));
    for (int64_t d = k; d < rank; ++d)
      assertSameDim(rewriter, loc, x, d, updates, qRank + d - k,
                    "tcc.scatter_nd: updates differ from x in dim " +
                        Twine(qRank + d - k));

    // Range check: entry j of a tuple indexes x's dim j.
    {
      Type idxElem = it.getElementType();
      auto boolType = RankedTensorType::get({}, rewriter.getI1Type());
      Value init = filledTensor(
          rewriter, loc, boolType, {},
          scalarConstant(rewriter, loc, rewriter.getI1Type(), 1.0));
      int64_t ir = it.getRank();
      auto check = linalg::GenericOp::create(
          rewriter, loc, boolType, indices, init,
          ArrayRef<AffineMap>{AffineMap::getMultiDimIdentityMap(ir, ctx),
                              AffineMap::get(ir, 0, {}, ctx)},
          SmallVector<utils::IteratorType>(ir, utils::IteratorType::reduction),
          [&](OpBuilder &b, Location l, ValueRange a) {
            Value j = linalg::IndexOp::create(b, l, qRank);
            Value dim = xDims[0];
            for (int64_t e = 1; e < k; ++e)
              dim = arith::SelectOp::create(
                  b, l,
                  arith::CmpIOp::create(
                      b, l, arith::CmpIPredicate::eq, j,
                      arith::ConstantIndexOp::create(b, l, e)),
                  xDims[e], dim);
            Value n = arith::IndexCastOp::create(b, l, idxElem, dim);
            Value neg = arith::SubIOp::create(
                b, l, arith::ConstantIntOp::create(b, l, idxElem, 0), n);
            Value in = arith::AndIOp::create(
                b, l,
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, a[0],
                                      neg),
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, a[0],
                                      n));
            linalg::YieldOp::create(
                b, l, arith::AndIOp::create(b, l, in, a[1]).getResult());
          });
      cf::AssertOp::create(
          rewriter, loc,
          tensor::ExtractOp::create(rewriter, loc, check.getResult(0),
                                    ValueRange{}),
          "tcc.scatter_nd: index out of range");
    }

    // One step per tuple, over the tuples flattened in row-major order.
    SmallVector<Value> qDims;
    Value count = arith::ConstantIndexOp::create(rewriter, loc, 1);
    for (int64_t d = 0; d < qRank; ++d) {
      qDims.push_back(dimValue(rewriter, loc, indices, d));
      count = arith::MulIOp::create(rewriter, loc, count, qDims.back());
    }
    SmallVector<int64_t> sliceShape(xt.getShape().drop_front(k));
    SmallVector<Value> sliceDims(xDims.begin() + k, xDims.end());
    auto sliceType = RankedTensorType::get(sliceShape, xt.getElementType());
    int64_t sliceRank = sliceShape.size();
    AffineMap id = AffineMap::getMultiDimIdentityMap(sliceRank, ctx);

    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto loop = scf::ForOp::create(
        rewriter, loc, zero, count, one, ValueRange{ownCopy(rewriter, loc, x)},
        [&](OpBuilder &b, Location l, Value q, ValueRange carried) {
          // q's coordinates in indices.shape[:-1].
          SmallVector<Value> coords(qRank);
          Value rest = q;
          for (int64_t d = qRank - 1; d >= 0; --d) {
            coords[d] = arith::RemUIOp::create(b, l, rest, qDims[d]);
            rest = arith::DivUIOp::create(b, l, rest, qDims[d]);
          }
          SmallVector<Value> target;
          for (int64_t e = 0; e < k; ++e) {
            SmallVector<Value> at(coords);
            at.push_back(arith::ConstantIndexOp::create(b, l, e));
            Value raw = tensor::ExtractOp::create(b, l, indices, at);
            target.push_back(wrappedIndex(b, l, raw, xDims[e]));
          }
          Value result = carried[0];
          if (sliceRank == 0) {
            Value update = tensor::ExtractOp::create(b, l, updates, coords);
            Value value = update;
            if (reduction != "none")
              value = combine(
                  b, l, reduction,
                  tensor::ExtractOp::create(b, l, result, target), update);
            scf::YieldOp::create(
                b, l,
                tensor::InsertOp::create(b, l, value, result, target)
                    .getResult());
            return;
          }
          // The addressed slice of the result and the tuple's update, both
          // rank-reduced to x.shape[k:].
          auto slice = [&](ArrayRef<Value> lead) {
            SmallVector<OpFoldResult> offsets, sizes, strides;
            for (Value v : lead) {
              offsets.push_back(v);
              sizes.push_back(b.getIndexAttr(1));
            }
            for (Value d : sliceDims) {
              offsets.push_back(b.getIndexAttr(0));
              sizes.push_back(getAsOpFoldResult(d));
            }
            strides.assign(offsets.size(), b.getIndexAttr(1));
            return std::make_tuple(offsets, sizes, strides);
          };
          auto [uo, us, ust] = slice(coords);
          Value update = tensor::ExtractSliceOp::create(b, l, sliceType,
                                                        updates, uo, us, ust);
          auto [ro, rs, rst] = slice(target);
          Value old = tensor::ExtractSliceOp::create(b, l, sliceType, result,
                                                     ro, rs, rst);
          Value merged =
              linalg::GenericOp::create(
                  b, l, sliceType, ValueRange{update}, ValueRange{old},
                  ArrayRef<AffineMap>{id, id},
                  SmallVector<utils::IteratorType>(
                      sliceRank, utils::IteratorType::parallel),
                  [&](OpBuilder &bb, Location ll, ValueRange a) {
                    linalg::YieldOp::create(
                        bb, ll, combine(bb, ll, reduction, a[1], a[0]));
                  })
                  .getResult(0);
          scf::YieldOp::create(
              b, l,
              tensor::InsertSliceOp::create(b, l, merged, result, ro, rs, rst)
                  .getResult());
        });
    rewriter.replaceOp(op, loop.getResult(0));
    return success();
  }
};

} // namespace

void mlir::tcc::populateTCCScatterToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ScatterElementsToLoops, ScatterNDToLoop>(patterns.getContext());
}
