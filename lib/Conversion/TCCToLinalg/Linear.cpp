//===- Linear.cpp - contractions, conv, pooling, attention ------*- C++ -*-===//
//
// matmul, linear and the two products inside attention are one contraction
// generic each (f32 accumulation), which tiling and vectorization turn into
// register-blocked vector.contract code. conv2d and pooling use linalg's
// named NCHW ops on explicitly padded inputs.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "tcc/Analysis/SymbolicShapes.h"
#include "tcc/Conversion/TCCToLinalg/TCCToLinalg.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <limits>

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::lowering;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// Map of an operand with `batchShape` leading dims aligned to the last
/// batch loops of a nest with `numBatch` batch loops (static size-1 dims of
/// a broadcast batch pinned to 0), followed by `tail` loop dims.
AffineMap contractionMap(MLIRContext *ctx, int64_t numLoops, int64_t numBatch,
                         ArrayRef<int64_t> batchShape,
                         ArrayRef<int64_t> resultBatch,
                         ArrayRef<int64_t> tail) {
  SmallVector<AffineExpr> exprs;
  int64_t lead = numBatch - batchShape.size();
  for (int64_t d = 0; d < (int64_t)batchShape.size(); ++d) {
    bool stretched = batchShape[d] == 1 && resultBatch[lead + d] != 1;
    exprs.push_back(stretched ? getAffineConstantExpr(0, ctx)
                              : getAffineDimExpr(lead + d, ctx));
  }
  for (int64_t t : tail)
    exprs.push_back(getAffineDimExpr(t, ctx));
  return AffineMap::get(numLoops, 0, exprs, ctx);
}

/// Contraction generic: out[resultMap] += a[aMap] * b[bMap] over `numLoops`
/// loops whose last one is the reduction. Accumulates in f32 for halves and
/// converts to `resultType` at the end, unless `round` is false (the caller
/// adds a bias first: one rounding, as the reference and cuBLASLt do).
Value buildContraction(OpBuilder &b, Location loc, Value lhs, Value rhs,
                       AffineMap aMap, AffineMap bMap, AffineMap outMap,
                       RankedTensorType resultType,
                       ArrayRef<Value> resultDims, bool round = true) {
  Type acc = computeType(resultType.getElementType());
  auto accType = RankedTensorType::get(resultType.getShape(), acc);
  Value init = filledTensor(b, loc, accType, resultDims,
                            scalarConstant(b, loc, acc, 0.0));
  int64_t numLoops = aMap.getNumDims();
  SmallVector<utils::IteratorType> iterators(numLoops,
                                             utils::IteratorType::parallel);
  iterators.back() = utils::IteratorType::reduction;
  auto generic = linalg::GenericOp::create(
      b, loc, accType, ValueRange{lhs, rhs}, init,
      ArrayRef<AffineMap>{aMap, bMap, outMap}, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value x = convertScalar(nb, l, args[0], acc);
        Value y = convertScalar(nb, l, args[1], acc);
        Value p = arith::MulFOp::create(nb, l, x, y);
        linalg::YieldOp::create(nb, l,
                                arith::AddFOp::create(nb, l, p, args[2]).getResult());
      });
  Value r = generic.getResult(0);
  if (acc == resultType.getElementType() || !round)
    return r;
  return buildMapped(b, loc, resultType, resultDims, r,
                     AffineMap::getMultiDimIdentityMap(resultType.getRank(),
                                                       b.getContext()),
                     [](OpBuilder &, Location, ValueRange a) { return a[0]; });
}

struct MatmulToGeneric : OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    Value a = op.getA(), bv = op.getB();
    auto at = op.getA().getType(), bt = op.getB().getType();
    auto rt = op.getType();
    int64_t nb = rt.getRank() - 2, loops = nb + 3;
    ArrayRef<int64_t> rBatch = rt.getShape().drop_back(2);
    // Loops: batch..., m, n, k.
    AffineMap aMap = contractionMap(ctx, loops, nb, at.getShape().drop_back(2),
                                    rBatch, {nb, nb + 2});
    AffineMap bMap = contractionMap(ctx, loops, nb, bt.getShape().drop_back(2),
                                    rBatch, {nb + 2, nb + 1});
    AffineMap outMap = AffineMap::getMultiDimIdentityMap(loops, ctx)
                           .getMajorSubMap(nb + 2);
    assertEqual(rewriter, loc, dimValue(rewriter, loc, a, at.getRank() - 1),
                dimValue(rewriter, loc, bv, bt.getRank() - 2),
                "tcc.matmul: contracting dims differ at runtime");
    // Batch dims: broadcast of the two batch shapes.
    SmallVector<Value> dims;
    for (int64_t i = 0; i < nb; ++i) {
      Value chosen;
      int64_t staticSize = rt.getDimSize(i);
      for (auto t : {at, bt}) {
        int64_t d = i - (nb - (t.getRank() - 2));
        if (ShapedType::isDynamic(staticSize) && d >= 0 &&
            !t.isDynamicDim(d) && t.getDimSize(d) != 1)
          staticSize = t.getDimSize(d);
      }
      if (!ShapedType::isDynamic(staticSize))
        chosen = arith::ConstantIndexOp::create(rewriter, loc, staticSize);
      for (auto [v, t] : {std::pair<Value, RankedTensorType>{a, at}, {bv, bt}}) {
        int64_t d = i - (nb - (t.getRank() - 2));
        if (d < 0 || !t.isDynamicDim(d))
          continue;
        Value size = tensor::DimOp::create(rewriter, loc, v, d);
        if (chosen)
          assertEqual(rewriter, loc, size, chosen,
                      "tcc.matmul: dynamic batch dims disagree at runtime");
        else
          chosen = size;
      }
      dims.push_back(chosen ? chosen
                            : arith::ConstantIndexOp::create(rewriter, loc, 1));
    }
    dims.push_back(dimValue(rewriter, loc, a, at.getRank() - 2));
    dims.push_back(dimValue(rewriter, loc, bv, bt.getRank() - 1));
    rewriter.replaceOp(op, buildContraction(rewriter, loc, a, bv, aMap, bMap,
                                            outMap, rt, dims));
    return success();
  }
};

struct LinearToGeneric : OpRewritePattern<LinearOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LinearOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    Value x = op.getX(), w = op.getWeight();
    auto xt = op.getX().getType();
    auto rt = op.getType();
    int64_t lead = xt.getRank() - 1, loops = lead + 2;
    // Loops: leading..., n, k. With many static rows the weight is
    // transposed once per call to [k, n] (a vectorized copy) so every tile is
    // a plain row-major matmul; with few rows (a policy at batch 1) that copy
    // would cost more than the product and the [n, k] weight is read as it is
    // (by the dot-product kernel).
    // Dynamic rows: the size facts decide (expectAtLeast), so a batch x
    // sequence product counts as many rows and a lone batch as few.
    auto wType = op.getWeight().getType();
    bool transposeWeight =
        wType.hasStaticShape() &&
        expectAtLeast(op.getResult(), llvm::to_vector(llvm::seq<int64_t>(0, lead)),
                      64);
    SmallVector<AffineExpr> xExprs, wExprs, outExprs;
    for (int64_t d = 0; d < lead; ++d) {
      xExprs.push_back(getAffineDimExpr(d, ctx));
      outExprs.push_back(getAffineDimExpr(d, ctx));
    }
    xExprs.push_back(getAffineDimExpr(lead + 1, ctx));
    wExprs = {getAffineDimExpr(lead, ctx), getAffineDimExpr(lead + 1, ctx)};
    Value wRead = w;
    if (transposeWeight) {
      auto tType = RankedTensorType::get(
          {wType.getDimSize(1), wType.getDimSize(0)}, wType.getElementType());
      Value init = tensor::EmptyOp::create(rewriter, loc, tType.getShape(),
                                           tType.getElementType());
      wRead = linalg::TransposeOp::create(rewriter, loc, w, init,
                                          ArrayRef<int64_t>{1, 0})
                  .getResult()[0];
      wExprs = {getAffineDimExpr(lead + 1, ctx), getAffineDimExpr(lead, ctx)};
    }
    outExprs.push_back(getAffineDimExpr(lead, ctx));
    assertEqual(rewriter, loc, dimValue(rewriter, loc, x, lead),
                dimValue(rewriter, loc, w, 1),
                "tcc.linear: input features differ at runtime");
    SmallVector<Value> dims;
    for (int64_t d = 0; d < lead; ++d)
      dims.push_back(dimValue(rewriter, loc, x, d));
    dims.push_back(dimValue(rewriter, loc, w, 0));
    Value r = buildContraction(
        rewriter, loc, x, wRead, AffineMap::get(loops, 0, xExprs, ctx),
        AffineMap::get(loops, 0, wExprs, ctx),
        AffineMap::get(loops, 0, outExprs, ctx), rt, dims,
        /*round=*/!op.getBias());
    if (Value bias = op.getBias()) {
      assertSameDim(rewriter, loc, bias, 0, w, 0,
                    "tcc.linear: bias size differs from the output features");
      AffineMap biasMap = AffineMap::get(
          rt.getRank(), 0, {getAffineDimExpr(rt.getRank() - 1, ctx)}, ctx);
      r = buildMapped(rewriter, loc, rt, dims, ValueRange{r, bias},
                      {AffineMap::getMultiDimIdentityMap(rt.getRank(), ctx),
                       biasMap},
                      [](OpBuilder &b, Location l, ValueRange a) -> Value {
                        return arith::AddFOp::create(b, l, a[0], a[1]);
                      });
    }
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// Pads H and W (at `d`'s positions) of a 4-D window operand with `value`.
Value padHW(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> pad,
            double value, LayoutDims d) {
  if (llvm::all_of(pad, [](int64_t p) { return p == 0; }))
    return x;
  auto t = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape(t.getShape());
  SmallVector<OpFoldResult> low(4, b.getIndexAttr(0)), high(4, b.getIndexAttr(0));
  for (int i = 0; i < 2; ++i) {
    int64_t s = d.spatial(i);
    if (!ShapedType::isDynamic(shape[s]))
      shape[s] += pad[i] + pad[i + 2];
    low[s] = b.getIndexAttr(pad[i]);
    high[s] = b.getIndexAttr(pad[i + 2]);
  }
  Value v = scalarConstant(b, loc, t.getElementType(), value);
  return tensor::PadOp::create(b, loc,
                               RankedTensorType::get(shape, t.getElementType()),
                               x, low, high, v);
}

struct Conv2dToLinalg : OpRewritePattern<Conv2dOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Conv2dOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto rt = op.getType();
    Type acc = computeType(rt.getElementType());
    auto stridesV = op.getStridesOrDefault();
    auto dilationsV = op.getDilationsOrDefault();
    auto pad = op.getPaddingOrDefault();
    int64_t groups = op.getGroups();
    bool channelsLast = op.isChannelsLast();
    LayoutDims d = layoutDims(channelsLast);
    Value x = padHW(rewriter, loc, op.getX(), pad, 0.0, d);
    Value w = op.getWeight();
    assertEqual(rewriter, loc, dimValue(rewriter, loc, op.getX(), d.c),
                arith::MulIOp::create(
                    rewriter, loc, dimValue(rewriter, loc, w, d.c),
                    arith::ConstantIndexOp::create(rewriter, loc, groups)),
                "tcc.conv2d: input channels differ from weight's at runtime");
    SmallVector<Value> dims;
    if (failed(reifiedResultDims(rewriter, op, dims)))
      return rewriter.notifyMatchFailure(op, "dynamic kernel size");
    auto accType = RankedTensorType::get(rt.getShape(), acc);
    Value init = filledTensor(rewriter, loc, accType, dims,
                              scalarConstant(rewriter, loc, acc, 0.0));
    Attribute strides = rewriter.getI64TensorAttr(stridesV);
    Attribute dilations = rewriter.getI64TensorAttr(dilationsV);
    Value r;
    if (groups == 1) {
      r = channelsLast
              ? linalg::Conv2DNhwcFhwcOp::create(rewriter, loc, accType,
                                                 ValueRange{x, w}, init,
                                                 strides, dilations)
                    .getResult(0)
              : linalg::Conv2DNchwFchwOp::create(rewriter, loc, accType,
                                                 ValueRange{x, w}, init,
                                                 strides, dilations)
                    .getResult(0);
    } else {
      // NCHW: [N, G*C, H, W] -> [N, G, C, H, W]; weight [G*O, C, KH, KW] ->
      // [G, O, C, KH, KW]; out [N, G*O, OH, OW] -> [N, G, O, OH, OW].
      // NHWC: [N, H, W, G*C] -> [N, H, W, G, C]; weight [G*O, KH, KW, C]
      // -> [G, O, KH, KW, C]; out [N, OH, OW, G*O] -> [N, OH, OW, G, O].
      auto split = [&](Value v, int64_t dim) -> Value {
        auto t = cast<RankedTensorType>(v.getType());
        SmallVector<int64_t> shape;
        SmallVector<OpFoldResult> sizes;
        SmallVector<ReassociationIndices> groupsIdx;
        for (int64_t d = 0, o = 0; d < t.getRank(); ++d) {
          if (d == dim) {
            int64_t s = t.getDimSize(d);
            shape.push_back(groups);
            shape.push_back(ShapedType::isDynamic(s) ? s : s / groups);
            sizes.push_back(rewriter.getIndexAttr(groups));
            Value per = arith::DivUIOp::create(
                rewriter, loc, dimValue(rewriter, loc, v, d),
                arith::ConstantIndexOp::create(rewriter, loc, groups));
            sizes.push_back(ShapedType::isDynamic(s)
                                ? OpFoldResult(per)
                                : rewriter.getIndexAttr(s / groups));
            groupsIdx.push_back({o, o + 1});
            o += 2;
            continue;
          }
          shape.push_back(t.getDimSize(d));
          sizes.push_back(t.isDynamicDim(d)
                              ? OpFoldResult(dimValue(rewriter, loc, v, d))
                              : rewriter.getIndexAttr(t.getDimSize(d)));
          groupsIdx.push_back({o});
          ++o;
        }
        return tensor::ExpandShapeOp::create(
            rewriter, loc, RankedTensorType::get(shape, t.getElementType()), v,
            groupsIdx, sizes);
      };
      Value xg = split(x, d.c), wg = split(w, 0), og = split(init, d.c);
      Value conv;
      if (channelsLast)
        conv = linalg::Conv2DNhwgcGfhwcOp::create(
                   rewriter, loc, og.getType(), ValueRange{xg, wg}, og,
                   strides, dilations)
                   .getResult(0);
      else
        conv = linalg::Conv2DNgchwGfchwOp::create(
                   rewriter, loc, og.getType(), ValueRange{xg, wg}, og,
                   strides, dilations)
                   .getResult(0);
      r = tensor::CollapseShapeOp::create(
          rewriter, loc, accType, conv,
          channelsLast
              ? SmallVector<ReassociationIndices>{{0}, {1}, {2}, {3, 4}}
              : SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
    }
    SmallVector<Value> inputs = {r};
    SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(4, ctx)};
    if (Value bias = op.getBias()) {
      assertSameDim(rewriter, loc, bias, 0, w, 0,
                    "tcc.conv2d: bias size differs from the output channels");
      inputs.push_back(bias);
      maps.push_back(AffineMap::get(4, 0, {getAffineDimExpr(d.c, ctx)}, ctx));
    }
    if (inputs.size() > 1 || acc != rt.getElementType())
      r = buildMapped(rewriter, loc, rt, dims, inputs, maps,
                      [](OpBuilder &b, Location l, ValueRange a) -> Value {
                        if (a.size() == 1)
                          return a[0];
                        return arith::AddFOp::create(b, l, a[0], a[1]);
                      });
    rewriter.replaceOp(op, r);
    return success();
  }
};

template <typename OpTy, bool isMax>
struct Pool2dToLinalg : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto rt = op.getType();
    Type acc = computeType(rt.getElementType());
    ArrayRef<int64_t> k = op.getKernelSize();
    auto stridesV = op.getStridesOrDefault();
    auto pad = op.getPaddingOrDefault();
    Value xIn = op.getX();
    bool channelsLast = op.isChannelsLast();
    LayoutDims d = layoutDims(channelsLast);
    Value x = padHW(rewriter, loc, xIn, pad, isMax ? -kInf : 0.0, d);
    SmallVector<Value> dims;
    if (failed(reifiedResultDims(rewriter, op, dims)))
      return failure();
    auto accType = RankedTensorType::get(rt.getShape(), acc);
    Value init = filledTensor(rewriter, loc, accType, dims,
                              scalarConstant(rewriter, loc, acc,
                                             isMax ? -kInf : 0.0));
    Value window =
        tensor::EmptyOp::create(rewriter, loc, k, rewriter.getF32Type());
    Attribute strides = rewriter.getI64TensorAttr(stridesV);
    Attribute dilations = rewriter.getI64TensorAttr({1, 1});
    Value r;
    if (isMax && channelsLast)
      r = linalg::PoolingNhwcMaxOp::create(rewriter, loc, accType,
                                           ValueRange{x, window}, init,
                                           strides, dilations)
              .getResult(0);
    else if (isMax)
      r = linalg::PoolingNchwMaxOp::create(rewriter, loc, accType,
                                           ValueRange{x, window}, init,
                                           strides, dilations)
              .getResult(0);
    else if (channelsLast)
      r = linalg::PoolingNhwcSumOp::create(rewriter, loc, accType,
                                           ValueRange{x, window}, init,
                                           strides, dilations)
              .getResult(0);
    else
      r = linalg::PoolingNchwSumOp::create(rewriter, loc, accType,
                                           ValueRange{x, window}, init,
                                           strides, dilations)
              .getResult(0);
    if (isMax) {
      if (acc != rt.getElementType())
        r = buildMapped(rewriter, loc, rt, dims, r,
                        AffineMap::getMultiDimIdentityMap(4, ctx),
                        [](OpBuilder &, Location, ValueRange a) { return a[0]; });
      rewriter.replaceOp(op, r);
      return success();
    }
    // Average excluding padding: divide by the number of window elements
    // that fall inside the unpadded input.
    Value h = dimValue(rewriter, loc, xIn, d.h),
          wdim = dimValue(rewriter, loc, xIn, d.w);
    r = buildMapped(
        rewriter, loc, rt, dims, r, AffineMap::getMultiDimIdentityMap(4, ctx),
        [&](OpBuilder &b, Location l, ValueRange a) -> Value {
          Value count;
          for (int i = 0; i < 2; ++i) {
            Value o = linalg::IndexOp::create(b, l, d.spatial(i));
            Value start = arith::SubIOp::create(
                b, l,
                arith::MulIOp::create(
                    b, l, o, arith::ConstantIndexOp::create(b, l, stridesV[i])),
                arith::ConstantIndexOp::create(b, l, pad[i]));
            Value end = arith::AddIOp::create(
                b, l, start, arith::ConstantIndexOp::create(b, l, k[i]));
            Value zero = arith::ConstantIndexOp::create(b, l, 0);
            Value lo = arith::MaxSIOp::create(b, l, start, zero);
            Value hi = arith::MinSIOp::create(b, l, end, i == 0 ? h : wdim);
            Value n = arith::SubIOp::create(b, l, hi, lo);
            count = count ? arith::MulIOp::create(b, l, count, n).getResult() : n;
          }
          Value cnt = arith::SIToFPOp::create(
              b, l, a[0].getType(),
              arith::IndexCastOp::create(b, l, b.getI64Type(), count));
          return arith::DivFOp::create(b, l, a[0], cnt);
        });
    rewriter.replaceOp(op, r);
    return success();
  }
};

struct AttentionToGenerics : OpRewritePattern<AttentionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AttentionOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    Value q = op.getQ(), k = op.getK(), v = op.getV();
    auto qt = op.getQ().getType(), kt = op.getK().getType();
    int64_t rank = qt.getRank(), nb = rank - 2;
    Type f = computeType(qt.getElementType());
    double scale = op.getScale() ? op.getScale()->convertToDouble() : 0.0;
    Value scaleV;
    if (op.getScale()) {
      scaleV = scalarConstant(rewriter, loc, f, scale);
    } else {
      Value d = arith::SIToFPOp::create(
          rewriter, loc, f,
          arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(),
                                     dimValue(rewriter, loc, q, rank - 1)));
      scaleV = math::RsqrtOp::create(rewriter, loc, d);
    }
    // Dims the verifier could not compare must agree at runtime.
    for (int64_t d = 0; d < nb; ++d) {
      assertSameDim(rewriter, loc, q, d, k, d,
                    "tcc.attention: q and k leading dims differ");
      assertSameDim(rewriter, loc, q, d, v, d,
                    "tcc.attention: q and v leading dims differ");
    }
    assertSameDim(rewriter, loc, q, rank - 1, k, rank - 1,
                  "tcc.attention: q and k head dims differ");
    assertSameDim(rewriter, loc, k, rank - 2, v, rank - 2,
                  "tcc.attention: k and v sequence lengths differ");
    // scores[b..., i, j] = sum_d q[b..., i, d] * k[b..., j, d]
    SmallVector<int64_t> sShape(qt.getShape().drop_back());
    sShape.push_back(kt.getDimSize(rank - 2));
    auto sType = RankedTensorType::get(sShape, f);
    SmallVector<Value> sDims;
    for (int64_t d = 0; d < rank - 1; ++d)
      sDims.push_back(dimValue(rewriter, loc, q, d));
    sDims.push_back(dimValue(rewriter, loc, k, rank - 2));
    auto ident = [&](int64_t n, ArrayRef<int64_t> tail) {
      SmallVector<AffineExpr> e;
      for (int64_t d = 0; d < nb; ++d)
        e.push_back(getAffineDimExpr(d, ctx));
      for (int64_t t : tail)
        e.push_back(getAffineDimExpr(t, ctx));
      return AffineMap::get(n, 0, e, ctx);
    };
    // Loops: b..., i, j, d
    Value scores = buildContraction(
        rewriter, loc, q, k, ident(nb + 3, {nb, nb + 2}),
        ident(nb + 3, {nb + 1, nb + 2}), ident(nb + 3, {nb, nb + 1}), sType,
        sDims);
    // Scale, mask, causal.
    SmallVector<Value> inputs = {scores};
    SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(rank, ctx)};
    Value mask = op.getMask();
    if (mask) {
      auto mt = cast<RankedTensorType>(mask.getType());
      for (int64_t d = 0; d < mt.getRank(); ++d) {
        int64_t sd = d + rank - mt.getRank();
        if (mt.isDynamicDim(d))
          assertEqual(rewriter, loc, dimValue(rewriter, loc, mask, d),
                      sDims[sd],
                      "tcc.attention: a dynamic mask dim differs from the "
                      "scores' dim");
      }
      inputs.push_back(mask);
      maps.push_back(
          broadcastMap(ctx, cast<RankedTensorType>(mask.getType()), sType));
    }
    bool causal = op.getIsCausal();
    Value masked = buildMapped(
        rewriter, loc, sType, sDims, inputs, maps,
        [&](OpBuilder &b, Location l, ValueRange a) -> Value {
          Value s = arith::MulFOp::create(b, l, a[0], scaleV);
          Value ninf = scalarConstant(b, l, f, -kInf);
          if (mask) {
            if (a[1].getType().isInteger(1))
              s = arith::SelectOp::create(b, l, a[1], s, ninf);
            else
              s = arith::AddFOp::create(b, l, s, a[1]);
          }
          if (causal) {
            Value i = linalg::IndexOp::create(b, l, rank - 2);
            Value j = linalg::IndexOp::create(b, l, rank - 1);
            Value keep =
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::ule, j, i);
            s = arith::SelectOp::create(b, l, keep, s, ninf);
          }
          return s;
        });
    SmallVector<int64_t> axes = {rank - 1};
    Value max = buildReduction(rewriter, loc, masked, axes, f, -kInf,
                               [](OpBuilder &b, Location l, Value x, Value a) {
                                 return arith::MaximumFOp::create(b, l, x, a)
                                     .getResult();
                               });
    AffineMap rowMap = reducedMap(ctx, rank, axes);
    Value probs = buildMapped(
        rewriter, loc, sType, sDims, ValueRange{masked, max},
        {AffineMap::getMultiDimIdentityMap(rank, ctx), rowMap},
        [](OpBuilder &b, Location l, ValueRange a) -> Value {
          return math::ExpOp::create(b, l,
                                     arith::SubFOp::create(b, l, a[0], a[1]));
        });
    Value sum = buildReduction(rewriter, loc, probs, axes, f, 0.0,
                               [](OpBuilder &b, Location l, Value x, Value a) {
                                 return arith::AddFOp::create(b, l, x, a)
                                     .getResult();
                               });
    // Half-precision v: the probabilities are rounded to v's type for the
    // second product (as flash attention and cuDNN do), so it is a product
    // of two half operands (cuBLASLt on the GPU).
    Type vElement = op.getV().getType().getElementType();
    auto pType = RankedTensorType::get(
        sShape, isa<Float16Type, BFloat16Type>(vElement) ? vElement : f);
    Value normalized = buildMapped(
        rewriter, loc, pType, sDims, ValueRange{probs, sum},
        {AffineMap::getMultiDimIdentityMap(rank, ctx), rowMap},
        [](OpBuilder &b, Location l, ValueRange a) -> Value {
          return arith::DivFOp::create(b, l, a[0], a[1]);
        });
    // out[b..., i, e] = sum_j p[b..., i, j] * v[b..., j, e]; loops b, i, e, j.
    SmallVector<Value> oDims(sDims.begin(), sDims.end() - 1);
    oDims.push_back(dimValue(rewriter, loc, v, rank - 1));
    Value out = buildContraction(
        rewriter, loc, normalized, v, ident(nb + 3, {nb, nb + 2}),
        ident(nb + 3, {nb + 2, nb + 1}), ident(nb + 3, {nb, nb + 1}),
        op.getType(), oDims);
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

void mlir::tcc::populateTCCLinearToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<MatmulToGeneric, LinearToGeneric, Conv2dToLinalg,
               Pool2dToLinalg<MaxPool2dOp, true>,
               Pool2dToLinalg<AvgPool2dOp, false>, AttentionToGenerics>(
      patterns.getContext());
}
