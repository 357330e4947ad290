//===- Reductions.cpp - tcc reductions and norms to linalg ------*- C++ -*-===//
//
// Reductions accumulate in f32 for f16/bf16 (in the input type otherwise);
// softmax and the norms are written as the reduction generics and the
// elementwise generics around them that linalg fusion later merges.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "tcc/Conversion/TCCToLinalg/TCCToLinalg.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <limits>

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::lowering;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool isFloat(Type t) { return isa<FloatType>(t); }

Value addOf(OpBuilder &b, Location l, Value x, Value y) {
  return isFloat(x.getType()) ? arith::AddFOp::create(b, l, x, y).getResult()
                              : arith::AddIOp::create(b, l, x, y).getResult();
}
Value maxOf(OpBuilder &b, Location l, Value x, Value y) {
  return isFloat(x.getType())
             ? arith::MaximumFOp::create(b, l, x, y).getResult()
             : arith::MaxSIOp::create(b, l, x, y).getResult();
}
Value minOf(OpBuilder &b, Location l, Value x, Value y) {
  return isFloat(x.getType())
             ? arith::MinimumFOp::create(b, l, x, y).getResult()
             : arith::MinSIOp::create(b, l, x, y).getResult();
}

/// Sorted, normalized axes (empty = all).
SmallVector<int64_t> normalizedAxes(ArrayRef<int64_t> axes, int64_t rank) {
  SmallVector<int64_t> result;
  if (axes.empty())
    for (int64_t d = 0; d < rank; ++d)
      result.push_back(d);
  for (int64_t a : axes)
    result.push_back(*normalizeAxis(a, rank));
  llvm::sort(result);
  return result;
}

/// Inserts the reduced dims back as size-1 dims.
Value expandToKeepDims(OpBuilder &b, Location loc, Value reduced,
                       RankedTensorType keepType, ArrayRef<int64_t> axes) {
  SmallVector<ReassociationIndices> groups;
  SmallVector<int64_t> pendingLeading;
  for (int64_t d = 0; d < keepType.getRank(); ++d) {
    if (llvm::is_contained(axes, d)) {
      if (groups.empty())
        pendingLeading.push_back(d);
      else
        groups.back().push_back(d);
      continue;
    }
    ReassociationIndices g(pendingLeading.begin(), pendingLeading.end());
    pendingLeading.clear();
    g.push_back(d);
    groups.push_back(g);
  }
  SmallVector<OpFoldResult> outputShape;
  auto redType = cast<RankedTensorType>(reduced.getType());
  int64_t src = 0;
  for (int64_t d = 0; d < keepType.getRank(); ++d) {
    if (llvm::is_contained(axes, d)) {
      outputShape.push_back(b.getIndexAttr(1));
      continue;
    }
    if (redType.isDynamicDim(src))
      outputShape.push_back(tensor::DimOp::create(b, loc, reduced, src).getResult());
    else
      outputShape.push_back(b.getIndexAttr(redType.getDimSize(src)));
    ++src;
  }
  auto type = RankedTensorType::get(keepType.getShape(),
                                    redType.getElementType());
  return tensor::ExpandShapeOp::create(b, loc, type, reduced, groups,
                                       outputShape);
}

/// Converts `v` elementwise to `type`'s element type (same shape).
Value convertTensor(OpBuilder &b, Location loc, Value v, Type elementType) {
  auto t = cast<RankedTensorType>(v.getType());
  if (t.getElementType() == elementType)
    return v;
  auto out = RankedTensorType::get(t.getShape(), elementType);
  return buildMapped(b, loc, out, dimValues(b, loc, v), v,
                     AffineMap::getMultiDimIdentityMap(t.getRank(),
                                                       b.getContext()),
                     [](OpBuilder &, Location, ValueRange a) { return a[0]; });
}

enum class ReduceKind { Sum, Mean, Max, Min, Prod };

template <typename OpTy, ReduceKind kind>
struct ReduceToGeneric : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getX();
    auto xType = cast<RankedTensorType>(x.getType());
    auto axes = normalizedAxes(op.getAxes(), xType.getRank());
    // Static result dims over dynamic input dims are checked before anything
    // runs: once the final cast folds into the reduction, the result buffer
    // has the static size.
    RankedTensorType rt = op.getType();
    for (int64_t d = 0, r = 0; d < xType.getRank(); ++d) {
      bool reduced = llvm::is_contained(axes, d);
      if (reduced && !op.getKeepDims())
        continue;
      if (!reduced && xType.isDynamicDim(d) && !rt.isDynamicDim(r))
        assertEqual(rewriter, loc, dimValue(rewriter, loc, x, d),
                    arith::ConstantIndexOp::create(rewriter, loc,
                                                   rt.getDimSize(r)),
                    "tcc: a dim differs from the static size in the op's "
                    "result type (dim " +
                        Twine(r) + ")");
      ++r;
    }
    Type elem = xType.getElementType();
    Type acc = computeType(elem);
    double init = kind == ReduceKind::Max    ? -kInf
                  : kind == ReduceKind::Min  ? kInf
                  : kind == ReduceKind::Prod ? 1.0
                                             : 0.0;
    Value r = buildReduction(
        rewriter, loc, x, axes, acc, init,
        [&](OpBuilder &b, Location l, Value v, Value a) {
          if (kind == ReduceKind::Max)
            return maxOf(b, l, v, a);
          if (kind == ReduceKind::Min)
            return minOf(b, l, v, a);
          if (kind == ReduceKind::Prod)
            return isFloat(v.getType())
                       ? arith::MulFOp::create(b, l, v, a).getResult()
                       : arith::MulIOp::create(b, l, v, a).getResult();
          return addOf(b, l, v, a);
        });
    if (kind == ReduceKind::Mean) {
      Value count = elementCount(rewriter, loc, x, axes, acc);
      auto t = cast<RankedTensorType>(r.getType());
      r = buildMapped(rewriter, loc, t, dimValues(rewriter, loc, r), r,
                      AffineMap::getMultiDimIdentityMap(t.getRank(),
                                                        op.getContext()),
                      [&](OpBuilder &b, Location l, ValueRange a) -> Value {
                        return arith::DivFOp::create(b, l, a[0], count);
                      });
    }
    r = convertTensor(rewriter, loc, r, elem);
    if (op.getKeepDims())
      r = expandToKeepDims(rewriter, loc, r, op.getType(), axes);
    if (r.getType() != op.getType())
      r = castChecked(rewriter, loc, r, op.getType());
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// Generic over the full shape of `full` reading `full` (identity) and
/// `reduced` tensors (reduced dims `axes` dropped).
Value mapWithReduced(OpBuilder &b, Location loc, RankedTensorType outType,
                     Value full, ArrayRef<Value> reduced,
                     ArrayRef<int64_t> axes, ScalarBodyFn body,
                     ArrayRef<std::pair<Value, AffineMap>> extra = {}) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = outType.getRank();
  SmallVector<Value> inputs = {full};
  SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(rank, ctx)};
  for (Value r : reduced) {
    inputs.push_back(r);
    maps.push_back(reducedMap(ctx, rank, axes));
  }
  for (auto [v, m] : extra) {
    inputs.push_back(v);
    maps.push_back(m);
  }
  return buildMapped(b, loc, outType, dimValues(b, loc, full), inputs, maps,
                     body);
}

template <typename OpTy, bool isLog>
struct SoftmaxToGenerics : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getX();
    auto xType = cast<RankedTensorType>(x.getType());
    SmallVector<int64_t> axes = {*normalizeAxis(op.getAxis(), xType.getRank())};
    Type f = computeType(xType.getElementType());
    auto fullF = RankedTensorType::get(xType.getShape(), f);
    Value max = buildReduction(
        rewriter, loc, x, axes, f, -kInf,
        [](OpBuilder &b, Location l, Value v, Value a) -> Value {
          return arith::MaximumFOp::create(
              b, l, v, a,
              arith::FastMathFlags::nnan | arith::FastMathFlags::nsz);
        });
    if (!isLog) {
      // e = exp(x - max) once; the sum and the result both read it, and
      // the result multiplies by 1 / sum (one division per row, not per
      // element).
      Value e = mapWithReduced(
          rewriter, loc, fullF, x, {max}, axes,
          [](OpBuilder &b, Location l, ValueRange a) -> Value {
            return math::ExpOp::create(b, l,
                                       arith::SubFOp::create(b, l, a[0], a[1]));
          });
      Value sum = buildReduction(
          rewriter, loc, e, axes, f, 0.0,
          [](OpBuilder &b, Location l, Value v, Value a) {
            return arith::AddFOp::create(b, l, v, a).getResult();
          });
      Value r = mapWithReduced(
          rewriter, loc, op.getType(), e, {sum}, axes,
          [f](OpBuilder &b, Location l, ValueRange a) -> Value {
            Value one = arith::ConstantOp::create(b, l, b.getFloatAttr(f, 1.0));
            return arith::MulFOp::create(b, l, a[0],
                                         arith::DivFOp::create(b, l, one, a[1]));
          });
      rewriter.replaceOp(op, r);
      return success();
    }
    // log_softmax: shifted = x - max; exp(shifted) is summed.
    Value shifted = mapWithReduced(
        rewriter, loc, fullF, x, {max}, axes,
        [](OpBuilder &b, Location l, ValueRange a) -> Value {
          return arith::SubFOp::create(b, l, a[0], a[1]);
        });
    Value sum = buildReduction(
        rewriter, loc, shifted, axes, f, 0.0,
        [](OpBuilder &b, Location l, Value v, Value a) {
          return arith::AddFOp::create(b, l, v, a).getResult();
        },
        [](OpBuilder &b, Location l, Value v) {
          return math::ExpOp::create(b, l, v).getResult();
        });
    Value r = mapWithReduced(
        rewriter, loc, op.getType(), shifted, {sum}, axes,
        [](OpBuilder &b, Location l, ValueRange a) -> Value {
          return arith::SubFOp::create(b, l, a[0],
                                       math::LogOp::create(b, l, a[1]));
        });
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// Map of a parameter that covers the trailing dims [axis, rank).
AffineMap trailingMap(MLIRContext *ctx, int64_t rank, int64_t axis) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d = axis; d < rank; ++d)
    exprs.push_back(getAffineDimExpr(d, ctx));
  return AffineMap::get(rank, 0, exprs, ctx);
}

/// layer_norm and rms_norm share the structure; `centered` selects layer_norm.
template <typename OpTy, bool centered>
struct NormToGenerics : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    Value x = op.getX();
    auto xType = cast<RankedTensorType>(x.getType());
    int64_t rank = xType.getRank();
    int64_t axis = *normalizeAxis(op.getAxis(), rank);
    SmallVector<int64_t> axes;
    for (int64_t d = axis; d < rank; ++d)
      axes.push_back(d);
    Type f = computeType(xType.getElementType());
    auto fullF = RankedTensorType::get(xType.getShape(), f);
    Value count = elementCount(rewriter, loc, x, axes, f);
    Value eps = scalarConstant(rewriter, loc, f,
                               op.getEpsilon().convertToDouble());
    auto add = [](OpBuilder &b, Location l, Value v, Value a) {
      return arith::AddFOp::create(b, l, v, a).getResult();
    };
    Value centeredX = x;
    SmallVector<Value> stats;
    if (centered) {
      Value sum = buildReduction(rewriter, loc, x, axes, f, 0.0, add);
      Value mean = mapWithReduced(
          rewriter, loc, cast<RankedTensorType>(sum.getType()), sum, {}, {},
          [&](OpBuilder &b, Location l, ValueRange a) -> Value {
            return arith::DivFOp::create(b, l, a[0], count);
          });
      centeredX = mapWithReduced(
          rewriter, loc, fullF, x, {mean}, axes,
          [](OpBuilder &b, Location l, ValueRange a) -> Value {
            return arith::SubFOp::create(b, l, a[0], a[1]);
          });
    }
    Value sq = buildReduction(
        rewriter, loc, centeredX, axes, f, 0.0, add,
        [](OpBuilder &b, Location l, Value v) {
          return arith::MulFOp::create(b, l, v, v).getResult();
        });
    Value rstd = mapWithReduced(
        rewriter, loc, cast<RankedTensorType>(sq.getType()), sq, {}, {},
        [&](OpBuilder &b, Location l, ValueRange a) -> Value {
          Value var = arith::DivFOp::create(b, l, a[0], count);
          return math::RsqrtOp::create(b, l,
                                       arith::AddFOp::create(b, l, var, eps));
        });
    for (int64_t p = 1; p < op->getNumOperands(); ++p)
      for (int64_t d = axis; d < rank; ++d)
        assertSameDim(rewriter, loc, op->getOperand(p), d - axis, x, d,
                      op->getName().getStringRef() +
                          ": a parameter's shape differs from x's "
                          "normalized dims");
    SmallVector<std::pair<Value, AffineMap>> params = {
        {op->getOperand(1), trailingMap(ctx, rank, axis)}};
    if (centered)
      params.push_back({op->getOperand(2), trailingMap(ctx, rank, axis)});
    Value r = mapWithReduced(
        rewriter, loc, op.getType(), centeredX, {rstd}, axes,
        [&](OpBuilder &b, Location l, ValueRange a) -> Value {
          // (x - mean) * rstd * w + b: the last multiply and the add may
          // become one FMA (one rounding fewer; a vector op fewer per 16
          // elements in the normalize pass).
          auto contract = arith::FastMathFlags::contract;
          Value y = arith::MulFOp::create(b, l, a[0], a[1]);
          y = arith::MulFOp::create(b, l, y, a[2], contract);
          if (centered)
            y = arith::AddFOp::create(b, l, y, a[3], contract);
          return y;
        },
        params);
    rewriter.replaceOp(op, r);
    return success();
  }
};

struct BatchNormToGeneric : OpRewritePattern<BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BatchNormOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    int64_t rank = op.getType().getRank();
    int64_t axis = op.getAxis();
    AffineMap channel =
        AffineMap::get(rank, 0, {getAffineDimExpr(axis, ctx)}, ctx);
    double eps = op.getEpsilon().convertToDouble();
    for (int64_t p = 1; p < 5; ++p)
      assertSameDim(rewriter, loc, op->getOperand(p), 0, op.getX(), axis,
                    "tcc.batch_norm: a parameter's size differs from the "
                    "channel count");
    Value r = buildMapped(
        rewriter, loc, op.getType(), dimValues(rewriter, loc, op.getX()),
        op->getOperands(),
        {AffineMap::getMultiDimIdentityMap(rank, ctx), channel, channel,
         channel, channel},
        [&](OpBuilder &b, Location l, ValueRange a) -> Value {
          Value e = scalarConstant(b, l, a[4].getType(), eps);
          Value rstd = math::RsqrtOp::create(
              b, l, arith::AddFOp::create(b, l, a[4], e));
          Value y = arith::SubFOp::create(b, l, a[0], a[3]);
          y = arith::MulFOp::create(b, l, y, rstd);
          y = arith::MulFOp::create(b, l, y, a[1]);
          return arith::AddFOp::create(b, l, y, a[2]);
        });
    rewriter.replaceOp(op, r);
    return success();
  }
};

} // namespace

void mlir::tcc::populateTCCReductionToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ReduceToGeneric<ReduceSumOp, ReduceKind::Sum>,
               ReduceToGeneric<ReduceMeanOp, ReduceKind::Mean>,
               ReduceToGeneric<ReduceMaxOp, ReduceKind::Max>,
               ReduceToGeneric<ReduceMinOp, ReduceKind::Min>,
               ReduceToGeneric<ReduceProdOp, ReduceKind::Prod>,
               SoftmaxToGenerics<SoftmaxOp, false>,
               SoftmaxToGenerics<LogSoftmaxOp, true>,
               NormToGenerics<LayerNormOp, true>,
               NormToGenerics<RmsNormOp, false>, BatchNormToGeneric>(
      patterns.getContext());
}
