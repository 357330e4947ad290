//===- DataDependent.cpp - mask_select and nonzero to scf loops -*- C++ -*-===//
//
// Ops whose result size depends on the data (mask_select, nonzero, nms). Each is allocated at its bound
// (every element or row selected), filled by an scf.for nest over the input
// that carries the output and a running count, and then cut to the count
// with tensor.extract_slice: the ops after it see a dynamic dim whose
// runtime value is the count, and bufferization turns the slice into a view
// of the bound-sized buffer. No ReifyRankedShapedTypeOpInterface is needed;
// tensor.dim of the result resolves to the count through the slice. When the
// result holds no data (a static size-0 dim, or nonzero of a scalar), the
// loop only counts and the result is a tensor.empty of that count.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "tcc/Conversion/TCCToLinalg/TCCToLinalg.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::lowering;

namespace {

/// `count + (flag ? 1 : 0)` for an i1 `flag`.
Value addFlag(OpBuilder &b, Location loc, Value count, Value flag) {
  Value inc = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), flag);
  return arith::AddIOp::create(b, loc, count, inc);
}

/// Product of `dims` (1 for none).
Value product(OpBuilder &b, Location loc, ArrayRef<Value> dims) {
  if (dims.empty())
    return arith::ConstantIndexOp::create(b, loc, 1);
  Value p = dims.front();
  for (Value d : dims.drop_front())
    p = arith::MulIOp::create(b, loc, p, d);
  return p;
}

/// The op's result: the first `count` entries of `filled` (or, when the
/// result holds no data and `filled` is null, a tensor.empty of that count)
/// with the declared `resultType`. A static dim 0 there is a promise about
/// the count; it is checked before the slice is taken, as a static slice
/// size would make any check of the slice's own dim fold away.
Value takeCount(OpBuilder &b, Location loc, RankedTensorType resultType,
                RankedTensorType boundType, Value filled, Value count,
                ArrayRef<Value> rowDims, ArrayRef<OpFoldResult> rowSizes,
                const Twine &counted) {
  SmallVector<int64_t> shape(boundType.getShape());
  Value size0 = count;
  if (!resultType.isDynamicDim(0)) {
    shape[0] = resultType.getDimSize(0);
    size0 = arith::ConstantIndexOp::create(b, loc, shape[0]);
    assertEqual(b, loc, count, size0,
                counted + " differs from the static size " + Twine(shape[0]) +
                    " of the result's dim 0");
  }
  auto type = RankedTensorType::get(shape, boundType.getElementType());
  Value result;
  if (!filled) {
    SmallVector<Value> dims = {size0};
    llvm::append_range(dims, rowDims);
    result = emptyTensor(b, loc, type, dims);
  } else {
    SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes = {getAsOpFoldResult(size0)};
    llvm::append_range(sizes, rowSizes);
    SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
    result = tensor::ExtractSliceOp::create(b, loc, type, filled, offsets,
                                            sizes, strides);
  }
  // Only a less static declared type (x's static dims as `?`) remains.
  if (type != resultType)
    result = tensor::CastOp::create(b, loc, resultType, result);
  return result;
}

/// x[mask]. A loop nest over the mask's dims. A flat mask (x's shape)
/// stores each element unconditionally at the running count and advances
/// the count only when the mask is true (no branch: a store past the last
/// kept element is overwritten or cut off); a row mask copies the row under
/// scf.if.
struct MaskSelectToLoops : OpRewritePattern<MaskSelectOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MaskSelectOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getX(), mask = op.getMask();
    auto xt = op.getX().getType();
    auto resultType = op.getType();
    int64_t maskRank = op.getMask().getType().getRank();
    for (int64_t d = 0; d < maskRank; ++d)
      assertSameDim(rewriter, loc, mask, d, x, d,
                    "tcc.mask_select: mask dim " + Twine(d) +
                        " differs from x's");

    // The buffer at the bound: [rows of x] + the row dims, each as static as
    // x or the declared result makes it (emptyTensor checks x's runtime dims
    // against the result's static ones before anything is copied).
    SmallVector<Value> xDims = dimValues(rewriter, loc, x);
    ArrayRef<Value> leadDims = ArrayRef<Value>(xDims).take_front(maskRank);
    ArrayRef<Value> rowDims = ArrayRef<Value>(xDims).drop_front(maskRank);
    SmallVector<int64_t> rowShape;
    SmallVector<OpFoldResult> rowSizes;
    for (auto [i, dim] : llvm::enumerate(rowDims)) {
      int64_t size = resultType.getDimSize(1 + i);
      if (ShapedType::isDynamic(size))
        size = xt.getDimSize(maskRank + i);
      rowShape.push_back(size);
      rowSizes.push_back(ShapedType::isDynamic(size)
                             ? OpFoldResult(dim)
                             : OpFoldResult(rewriter.getIndexAttr(size)));
    }
    SmallVector<int64_t> boundShape = {ShapedType::kDynamic};
    llvm::append_range(boundShape, rowShape);
    auto boundType = RankedTensorType::get(boundShape, xt.getElementType());
    SmallVector<Value> boundDims = {product(rewriter, loc, leadDims)};
    llvm::append_range(boundDims, rowDims);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    SmallVector<Value> iterInit = {zero};
    // A static size-0 dim: nothing to copy, only the count to compute (and
    // tensor slices may not address a static size-0 dim at all).
    bool noData = llvm::is_contained(rowShape, 0) ||
                  llvm::is_contained(xt.getShape().take_front(maskRank), 0);
    if (!noData)
      iterInit.insert(iterInit.begin(),
                      emptyTensor(rewriter, loc, boundType, boundDims));

    SmallVector<Value> lbs(maskRank, zero), steps(maskRank, one);
    bool flat = maskRank == xt.getRank();
    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, lbs, leadDims, steps, iterInit,
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange iter) -> scf::ValueVector {
          Value count = iter.back();
          Value keep = tensor::ExtractOp::create(b, l, mask, ivs);
          Value next = addFlag(b, l, count, keep);
          if (noData)
            return {next};
          Value out = iter.front();
          if (flat) {
            Value v = tensor::ExtractOp::create(b, l, x, ivs);
            return {tensor::InsertOp::create(b, l, v, out, count), next};
          }
          auto ifOp = scf::IfOp::create(b, l, TypeRange{boundType}, keep,
                                        /*withElseRegion=*/true);
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(ifOp.thenBlock());
          // The row of x at `ivs`, rank-reduced to the row dims, written to
          // [count, 0, ...] as a 1 x row slice.
          SmallVector<OpFoldResult> offsets(ivs.begin(), ivs.end());
          offsets.resize(xt.getRank(), b.getIndexAttr(0));
          SmallVector<OpFoldResult> sizes(maskRank, b.getIndexAttr(1));
          llvm::append_range(sizes, rowSizes);
          SmallVector<OpFoldResult> strides(xt.getRank(), b.getIndexAttr(1));
          auto rowType = RankedTensorType::get(rowShape, xt.getElementType());
          Value row = tensor::ExtractSliceOp::create(b, l, rowType, x, offsets,
                                                     sizes, strides);
          SmallVector<OpFoldResult> outOffsets(boundType.getRank(),
                                               b.getIndexAttr(0));
          outOffsets[0] = count;
          SmallVector<OpFoldResult> outSizes = {b.getIndexAttr(1)};
          llvm::append_range(outSizes, rowSizes);
          SmallVector<OpFoldResult> outStrides(boundType.getRank(),
                                               b.getIndexAttr(1));
          Value inserted = tensor::InsertSliceOp::create(
              b, l, row, out, outOffsets, outSizes, outStrides);
          scf::YieldOp::create(b, l, inserted);
          b.setInsertionPointToStart(ifOp.elseBlock());
          scf::YieldOp::create(b, l, out);
          return {ifOp.getResult(0), next};
        });

    Value result =
        takeCount(rewriter, loc, resultType, boundType,
                  noData ? Value() : nest.results.front(), nest.results.back(),
                  rowDims, rowSizes,
                  flat ? "tcc.mask_select: the number of selected elements"
                       : "tcc.mask_select: the number of selected rows");
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// torch.nonzero: a loop nest over every element of x; each element's
/// indices are stored unconditionally in row `count` and the count advances
/// when the element is non-zero (x != 0, NaN included).
struct NonzeroToLoops : OpRewritePattern<NonzeroOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NonzeroOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getX();
    auto xt = op.getX().getType();
    int64_t rank = xt.getRank();
    SmallVector<Value> xDims = dimValues(rewriter, loc, x);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Type i64 = rewriter.getI64Type();
    auto boundType = RankedTensorType::get({ShapedType::kDynamic, rank}, i64);
    SmallVector<Value> iterInit = {zero};
    // No index to store (rank 0) or no element (a static size-0 dim): only
    // the count is computed.
    bool noData = rank == 0 || llvm::is_contained(xt.getShape(), 0);
    if (!noData)
      iterInit.insert(
          iterInit.begin(),
          emptyTensor(rewriter, loc, boundType,
                      {product(rewriter, loc, xDims),
                       arith::ConstantIndexOp::create(rewriter, loc, rank)}));

    SmallVector<Value> lbs(rank, zero), steps(rank, one);
    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, lbs, xDims, steps, iterInit,
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange iter) -> scf::ValueVector {
          Value count = iter.back();
          Value v = tensor::ExtractOp::create(b, l, x, ivs);
          Value next =
              addFlag(b, l, count, convertScalar(b, l, v, b.getI1Type()));
          if (noData)
            return {next};
          Value out = iter.front();
          for (int64_t d = 0; d < rank; ++d) {
            Value idx = arith::IndexCastOp::create(b, l, i64, ivs[d]);
            Value col = arith::ConstantIndexOp::create(b, l, d);
            out = tensor::InsertOp::create(b, l, idx, out,
                                           ValueRange{count, col});
          }
          return {out, next};
        });

    Value rankValue = arith::ConstantIndexOp::create(rewriter, loc, rank);
    Value result =
        takeCount(rewriter, loc, op.getType(), boundType,
                  noData ? Value() : nest.results.front(), nest.results.back(),
                  rankValue, OpFoldResult(rewriter.getIndexAttr(rank)),
                  "tcc.nonzero: the number of non-zero elements");
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Non-maximum suppression, onnxruntime's greedy algorithm: one tcc.sort
/// of the scores orders every (b, c) row by descending score; each row is
/// then an scf.for over its order carrying the output (allocated at the
/// bound B * C * min(N, max)), the count and the row's selections. A
/// candidate above the score threshold, while the row is below its
/// maximum, is compared with the row's selected boxes (rows start..count
/// of the output) and appended unless one overlaps it by more than the IoU
/// threshold. The boxes' normalized corners and areas are computed once,
/// [B, N, 5], by one generic.
struct NmsToLoops : OpRewritePattern<NmsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NmsOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value boxes = op.getBoxes(), scores = op.getScores();
    auto bt = op.getBoxes().getType();
    auto ct = cast<FloatType>(computeType(bt.getElementType()));
    Type i64 = rewriter.getI64Type();
    Type index = rewriter.getIndexType();
    assertSameDim(rewriter, loc, boxes, 0, scores, 0,
                  "tcc.nms: boxes and scores differ in dim 0 (the batch)");
    assertSameDim(rewriter, loc, boxes, 1, scores, 2,
                  "tcc.nms: boxes dim 1 differs from scores dim 2 (the boxes)");
    Value four = arith::ConstantIndexOp::create(rewriter, loc, 4);
    assertEqual(rewriter, loc, dimValue(rewriter, loc, boxes, 2), four,
                "tcc.nms: boxes dim 2 is not 4");
    Value nb = dimValue(rewriter, loc, scores, 0);
    Value nc = dimValue(rewriter, loc, scores, 1);
    Value n = dimValue(rewriter, loc, scores, 2);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto fconst = [&](OpBuilder &b, Location l, double v) -> Value {
      return arith::ConstantOp::create(b, l, ct, b.getFloatAttr(ct, v));
    };

    // Corners (lo0, lo1, hi0, hi1) and the area of every box.
    auto cornersType = RankedTensorType::get(
        {bt.getDimSize(0), bt.getDimSize(1), 5}, ct);
    Value five = arith::ConstantIndexOp::create(rewriter, loc, 5);
    Value cornersInit = emptyTensor(
        rewriter, loc, cornersType,
        {dimValue(rewriter, loc, boxes, 0), dimValue(rewriter, loc, boxes, 1),
         five});
    bool center = op.getCenterPointBox();
    AffineMap id = AffineMap::getMultiDimIdentityMap(3, rewriter.getContext());
    Value corners =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{cornersType}, ValueRange{},
            ValueRange{cornersInit}, ArrayRef<AffineMap>{id},
            SmallVector<utils::IteratorType>(3, utils::IteratorType::parallel),
            [&](OpBuilder &b, Location l, ValueRange) {
              Value bi = linalg::IndexOp::create(b, l, 0);
              Value ni = linalg::IndexOp::create(b, l, 1);
              Value which = linalg::IndexOp::create(b, l, 2);
              SmallVector<Value> c;
              for (int64_t k = 0; k < 4; ++k)
                c.push_back(convertScalar(
                    b, l,
                    tensor::ExtractOp::create(
                        b, l, boxes,
                        ValueRange{bi, ni,
                                   arith::ConstantIndexOp::create(b, l, k)}),
                    ct));
              Value lo0, lo1, hi0, hi1;
              if (center) {
                Value half = fconst(b, l, 0.5);
                Value w = arith::MulFOp::create(b, l, c[2], half);
                Value h = arith::MulFOp::create(b, l, c[3], half);
                lo0 = arith::SubFOp::create(b, l, c[0], w);
                hi0 = arith::AddFOp::create(b, l, c[0], w);
                lo1 = arith::SubFOp::create(b, l, c[1], h);
                hi1 = arith::AddFOp::create(b, l, c[1], h);
              } else {
                lo0 = arith::MinimumFOp::create(b, l, c[0], c[2]);
                hi0 = arith::MaximumFOp::create(b, l, c[0], c[2]);
                lo1 = arith::MinimumFOp::create(b, l, c[1], c[3]);
                hi1 = arith::MaximumFOp::create(b, l, c[1], c[3]);
              }
              Value area = arith::MulFOp::create(
                  b, l, arith::SubFOp::create(b, l, hi0, lo0),
                  arith::SubFOp::create(b, l, hi1, lo1));
              Value r = area;
              Value parts[] = {lo0, lo1, hi0, hi1};
              for (int64_t k = 3; k >= 0; --k)
                r = arith::SelectOp::create(
                    b, l,
                    arith::CmpIOp::create(
                        b, l, arith::CmpIPredicate::eq, which,
                        arith::ConstantIndexOp::create(b, l, k)),
                    parts[k], r);
              linalg::YieldOp::create(b, l, r);
            })
            .getResult(0);

    // Each (b, c) row's boxes by descending score.
    auto sorted = SortOp::create(rewriter, loc, scores,
                                 rewriter.getI64IntegerAttr(2),
                                 rewriter.getBoolAttr(true));
    Value sortedScores = sorted.getValues(), order = sorted.getIndices();

    std::optional<int64_t> maxPerClass;
    if (auto m = op.getMaxOutputPerClass())
      maxPerClass = int64_t(*m);
    Value perRow = n;
    if (maxPerClass)
      perRow = arith::MinSIOp::create(
          rewriter, loc, n,
          arith::ConstantIndexOp::create(rewriter, loc, *maxPerClass));
    Value bound = arith::MulIOp::create(
        rewriter, loc, arith::MulIOp::create(rewriter, loc, nb, nc), perRow);
    auto boundType = RankedTensorType::get({ShapedType::kDynamic, 3}, i64);
    Value three = arith::ConstantIndexOp::create(rewriter, loc, 3);
    Value outInit = emptyTensor(rewriter, loc, boundType, {bound, three});
    std::optional<double> scoreThreshold;
    if (auto t = op.getScoreThreshold())
      scoreThreshold = t->convertToDouble();
    double iouThreshold = op.getIouThreshold().convertToDouble();

    // Whether box j overlaps box i of batch bi by more than the threshold.
    auto overlaps = [&](OpBuilder &b, Location l, Value bi, Value i,
                        Value j) -> Value {
      auto at = [&](Value box, int64_t k) -> Value {
        return tensor::ExtractOp::create(
            b, l, corners,
            ValueRange{bi, box, arith::ConstantIndexOp::create(b, l, k)});
      };
      auto extent = [&](int64_t lo, int64_t hi) -> Value {
        return arith::SubFOp::create(
            b, l, arith::MinimumFOp::create(b, l, at(i, hi), at(j, hi)),
            arith::MaximumFOp::create(b, l, at(i, lo), at(j, lo)));
      };
      Value zeroF = fconst(b, l, 0.0);
      auto positive = [&](Value v) -> Value {
        return arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, v,
                                     zeroF);
      };
      Value w = extent(0, 2), h = extent(1, 3);
      Value ai = at(i, 4), aj = at(j, 4);
      Value inter = arith::MulFOp::create(b, l, w, h);
      Value uni = arith::SubFOp::create(
          b, l, arith::AddFOp::create(b, l, ai, aj), inter);
      Value iou = arith::DivFOp::create(b, l, inter, uni);
      Value valid = arith::AndIOp::create(
          b, l, arith::AndIOp::create(b, l, positive(w), positive(h)),
          arith::AndIOp::create(
              b, l, arith::AndIOp::create(b, l, positive(ai), positive(aj)),
              positive(uni)));
      return arith::AndIOp::create(
          b, l, valid,
          arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, iou,
                                fconst(b, l, iouThreshold)));
    };

    auto batchLoop = scf::ForOp::create(
        rewriter, loc, zero, nb, one, ValueRange{outInit, zero},
        [&](OpBuilder &b, Location l, Value bi, ValueRange bIter) {
          auto classLoop = scf::ForOp::create(
              b, l, zero, nc, one, bIter,
              [&](OpBuilder &b, Location l, Value ci, ValueRange cIter) {
                Value start = cIter[1];
                auto boxLoop = scf::ForOp::create(
                    b, l, zero, n, one,
                    ValueRange{cIter[0], cIter[1], zero},
                    [&](OpBuilder &b, Location l, Value p, ValueRange it) {
                      Value out = it[0], count = it[1], taken = it[2];
                      Value i = arith::IndexCastOp::create(
                          b, l, index,
                          tensor::ExtractOp::create(b, l, order,
                                                    ValueRange{bi, ci, p}));
                      Value ok = arith::ConstantIntOp::create(b, l, b.getI1Type(), 1);
                      if (scoreThreshold) {
                        Value s = convertScalar(
                            b, l,
                            tensor::ExtractOp::create(b, l, sortedScores,
                                                      ValueRange{bi, ci, p}),
                            ct);
                        ok = arith::CmpFOp::create(
                            b, l, arith::CmpFPredicate::OGT, s,
                            fconst(b, l, *scoreThreshold));
                      }
                      if (maxPerClass)
                        ok = arith::AndIOp::create(
                            b, l, ok,
                            arith::CmpIOp::create(
                                b, l, arith::CmpIPredicate::slt, taken,
                                arith::ConstantIndexOp::create(b, l,
                                                               *maxPerClass)));
                      auto keep = scf::IfOp::create(
                          b, l, TypeRange{b.getI1Type()}, ok,
                          /*withElseRegion=*/true);
                      {
                        OpBuilder::InsertionGuard guard(b);
                        b.setInsertionPointToStart(keep.thenBlock());
                        Value no = arith::ConstantIntOp::create(
                            b, l, b.getI1Type(), 0);
                        auto scan = scf::ForOp::create(
                            b, l, start, count, one, ValueRange{no},
                            [&](OpBuilder &b, Location l, Value q,
                                ValueRange sup) {
                              Value j = arith::IndexCastOp::create(
                                  b, l, index,
                                  tensor::ExtractOp::create(
                                      b, l, out,
                                      ValueRange{
                                          q, arith::ConstantIndexOp::create(
                                                 b, l, 2)}));
                              scf::YieldOp::create(
                                  b, l,
                                  ValueRange{arith::OrIOp::create(
                                      b, l, sup[0],
                                      overlaps(b, l, bi, i, j))});
                            });
                        Value yes = arith::ConstantIntOp::create(
                            b, l, b.getI1Type(), 1);
                        scf::YieldOp::create(
                            b, l,
                            ValueRange{arith::XOrIOp::create(
                                b, l, scan.getResult(0), yes)});
                        b.setInsertionPointToStart(keep.elseBlock());
                        scf::YieldOp::create(
                            b, l,
                            ValueRange{arith::ConstantIntOp::create(
                                b, l, b.getI1Type(), 0)});
                      }
                      auto store = scf::IfOp::create(
                          b, l, TypeRange{out.getType(), index, index},
                          keep.getResult(0), /*withElseRegion=*/true);
                      {
                        OpBuilder::InsertionGuard guard(b);
                        b.setInsertionPointToStart(store.thenBlock());
                        Value row = out;
                        Value fields[] = {bi, ci, i};
                        for (int64_t k = 0; k < 3; ++k)
                          row = tensor::InsertOp::create(
                              b, l,
                              arith::IndexCastOp::create(b, l, i64, fields[k]),
                              row,
                              ValueRange{count,
                                         arith::ConstantIndexOp::create(b, l, k)});
                        scf::YieldOp::create(
                            b, l,
                            ValueRange{row,
                                       arith::AddIOp::create(b, l, count, one),
                                       arith::AddIOp::create(b, l, taken, one)});
                        b.setInsertionPointToStart(store.elseBlock());
                        scf::YieldOp::create(b, l,
                                             ValueRange{out, count, taken});
                      }
                      scf::YieldOp::create(
                          b, l,
                          ValueRange{store.getResult(0), store.getResult(1),
                                     store.getResult(2)});
                    });
                scf::YieldOp::create(
                    b, l,
                    ValueRange{boxLoop.getResult(0), boxLoop.getResult(1)});
              });
          scf::YieldOp::create(b, l, classLoop.getResults());
        });

    Value result = takeCount(rewriter, loc, op.getType(), boundType,
                             batchLoop.getResult(0), batchLoop.getResult(1),
                             three, OpFoldResult(rewriter.getIndexAttr(3)),
                             "tcc.nms: the number of selected boxes");
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::tcc::populateTCCDataDependentToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<MaskSelectToLoops, NonzeroToLoops, NmsToLoops>(patterns.getContext());
}
