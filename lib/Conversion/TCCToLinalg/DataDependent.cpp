//===- DataDependent.cpp - mask_select and nonzero to scf loops -*- C++ -*-===//
//
// Ops whose result size depends on the data. Each is allocated at its bound
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

} // namespace

void mlir::tcc::populateTCCDataDependentToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<MaskSelectToLoops, NonzeroToLoops>(patterns.getContext());
}
