//===- DataMovement.cpp - tcc data movement ops to tensor/linalg -*- C++ -*-===//
//
// Layout-only ops become tensor ops where MLIR has a metadata form
// (collapse/expand_shape, extract/insert_slice) so bufferization can alias
// instead of copying; the rest are generics.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "tcc/Analysis/SymbolicShapes.h"
#include "tcc/Conversion/TCCToLinalg/TCCToLinalg.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::lowering;

namespace {

struct TransposeToLinalg : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> in = dimValues(rewriter, loc, op.getX());
    SmallVector<Value> dims;
    for (int64_t p : op.getPermutation())
      dims.push_back(in[p]);
    Value init = emptyTensor(rewriter, loc, op.getType(), dims);
    rewriter.replaceOp(op, linalg::TransposeOp::create(rewriter, loc,
                                                       op.getX(), init,
                                                       op.getPermutation())
                               .getResult());
    return success();
  }
};

/// A shape operand must agree with the static dims of the result type
/// (which --symbolic-shapes may have made static): checked at run time,
/// before anything is read. With `allowInfer` an entry of -1 (infer) is
/// accepted too.
void checkShapeOperand(OpBuilder &b, Location loc, Value shape,
                       RankedTensorType out, bool allowInfer, StringRef op) {
  if (!shape)
    return;
  Value minusOne = arith::ConstantIndexOp::create(b, loc, -1);
  for (int64_t d = 0; d < out.getRank(); ++d) {
    if (out.isDynamicDim(d))
      continue;
    Value idx = arith::ConstantIndexOp::create(b, loc, d);
    Value entry = arith::IndexCastOp::create(
        b, loc, b.getIndexType(), tensor::ExtractOp::create(b, loc, shape, idx));
    Value expected = arith::ConstantIndexOp::create(b, loc, out.getDimSize(d));
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, entry,
                                     expected);
    if (allowInfer)
      ok = arith::OrIOp::create(
          b, loc, ok,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, entry,
                                minusOne));
    cf::AssertOp::create(b, loc, ok,
                         (op + ": the shape operand disagrees with the "
                               "result's static size (dim " +
                          Twine(d) + ")")
                             .str());
  }
}

/// Groups the dims of `fine` into those of `coarse`: consecutive fine dims
/// whose product is provably the coarse dim (unit dims join a neighbour).
std::optional<SmallVector<ReassociationIndices>>
groupDims(ArrayRef<AffineExpr> coarse, ArrayRef<AffineExpr> fine) {
  if (coarse.empty() || fine.empty())
    return std::nullopt;
  auto isOne = [](AffineExpr e) {
    auto c = dyn_cast<AffineConstantExpr>(e);
    return c && c.getValue() == 1;
  };
  SmallVector<ReassociationIndices> groups;
  size_t f = 0;
  for (AffineExpr target : coarse) {
    ReassociationIndices group;
    AffineExpr product = getAffineConstantExpr(1, target.getContext());
    bool matched = false;
    while (f < fine.size()) {
      group.push_back(f);
      product = product * fine[f++];
      if (provablyEqualSizes(product, target)) {
        matched = true;
        break;
      }
    }
    if (!matched)
      return std::nullopt;
    groups.push_back(group);
  }
  while (f < fine.size() && isOne(fine[f]))
    groups.back().push_back(f++);
  if (f != fine.size())
    return std::nullopt;
  return groups;
}

struct ReshapeToTensor : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto in = op.getX().getType();
    auto out = op.getType();
    checkShapeOperand(rewriter, loc, op.getShape(), out, /*allowInfer=*/true,
                      "tcc.reshape");
    // Static shapes that differ only by grouping dims: metadata only.
    if (in.hasStaticShape() && out.hasStaticShape()) {
      if (auto re = getReassociationIndicesForReshape(in, out)) {
        Value r;
        if (in.getRank() > out.getRank())
          r = tensor::CollapseShapeOp::create(rewriter, loc, out, op.getX(),
                                              *re);
        else
          r = tensor::ExpandShapeOp::create(rewriter, loc, out, op.getX(),
                                            *re);
        rewriter.replaceOp(op, r);
        return success();
      }
    }
    // General case: compute the result dims and use tensor.reshape. A
    // dynamic dim takes the shape operand's entry; an entry of -1 (or every
    // dynamic dim when there is no shape operand, at most one) is inferred.
    Value total = arith::ConstantIndexOp::create(rewriter, loc, 1);
    for (Value d : dimValues(rewriter, loc, op.getX()))
      total = arith::MulIOp::create(rewriter, loc, total, d);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    SmallVector<Value> given(out.getRank());
    Value known = one;
    for (int64_t d = 0; d < out.getRank(); ++d) {
      if (!out.isDynamicDim(d)) {
        given[d] = arith::ConstantIndexOp::create(rewriter, loc, out.getDimSize(d));
      } else if (Value shape = op.getShape()) {
        Value idx = arith::ConstantIndexOp::create(rewriter, loc, d);
        Value v = tensor::ExtractOp::create(rewriter, loc, shape, idx);
        given[d] = arith::IndexCastOp::create(rewriter, loc,
                                              rewriter.getIndexType(), v);
      } else {
        given[d] = arith::ConstantIndexOp::create(rewriter, loc, -1);
      }
      Value isInferred = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::slt, given[d], zero);
      known = arith::MulIOp::create(
          rewriter, loc, known,
          arith::SelectOp::create(rewriter, loc, isInferred, one, given[d]));
    }
    // Guard the division: a zero-sized known part infers 0.
    Value safeKnown = arith::MaxSIOp::create(rewriter, loc, known, one);
    Value inferred = arith::DivUIOp::create(rewriter, loc, total, safeKnown);
    SmallVector<Value> dims;
    for (Value g : given) {
      Value isInferred = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::slt, g, zero);
      dims.push_back(
          arith::SelectOp::create(rewriter, loc, isInferred, inferred, g));
    }
    Value product = arith::ConstantIndexOp::create(rewriter, loc, 1);
    for (Value d : dims)
      product = arith::MulIOp::create(rewriter, loc, product, d);
    assertEqual(rewriter, loc, product, total,
                "tcc.reshape: the element count changes at runtime");
    SmallVector<Value> asI64;
    for (Value d : dims)
      asI64.push_back(arith::IndexCastOp::create(rewriter, loc,
                                                 rewriter.getI64Type(), d));
    // Dims known as size expressions (--symbolic-shapes) that differ only
    // by grouping: metadata only, as in the static case, so bufferization
    // keeps a view instead of copying.
    SmallVector<std::string> names;
    auto inExprs = readShapeAnnotation(op.getX(), names);
    auto outExprs = readShapeAnnotation(op.getResult(), names);
    if (inExprs && outExprs && in.getRank() != out.getRank()) {
      bool collapse = in.getRank() > out.getRank();
      if (auto re = collapse ? groupDims(*outExprs, *inExprs)
                             : groupDims(*inExprs, *outExprs)) {
        Value r;
        if (collapse)
          r = tensor::CollapseShapeOp::create(rewriter, loc, out, op.getX(),
                                              *re);
        else {
          SmallVector<OpFoldResult> outputShape;
          for (int64_t d = 0; d < out.getRank(); ++d)
            outputShape.push_back(
                out.isDynamicDim(d)
                    ? OpFoldResult(dims[d])
                    : OpFoldResult(rewriter.getIndexAttr(out.getDimSize(d))));
          r = tensor::ExpandShapeOp::create(rewriter, loc, out, op.getX(),
                                            *re, outputShape);
        }
        rewriter.replaceOp(op, r);
        return success();
      }
    }
    Value shape = tensor::FromElementsOp::create(
        rewriter, loc,
        RankedTensorType::get({out.getRank()}, rewriter.getI64Type()), asI64);
    rewriter.replaceOpWithNewOp<tensor::ReshapeOp>(op, out, op.getX(), shape);
    return success();
  }
};

struct BroadcastToGeneric : OpRewritePattern<BroadcastToOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastToOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto in = op.getX().getType();
    auto out = op.getType();
    checkShapeOperand(rewriter, loc, op.getShape(), out, /*allowInfer=*/false,
                      "tcc.broadcast_to");
    int64_t lead = out.getRank() - in.getRank();
    SmallVector<Value> dims;
    for (int64_t d = 0; d < out.getRank(); ++d) {
      if (!out.isDynamicDim(d)) {
        dims.push_back(
            arith::ConstantIndexOp::create(rewriter, loc, out.getDimSize(d)));
      } else if (Value shape = op.getShape()) {
        Value v = tensor::ExtractOp::create(
            rewriter, loc, shape,
            ValueRange{arith::ConstantIndexOp::create(rewriter, loc, d)});
        dims.push_back(arith::IndexCastOp::create(
            rewriter, loc, rewriter.getIndexType(), v));
      } else {
        dims.push_back(dimValue(rewriter, loc, op.getX(), d - lead));
      }
    }
    // A dynamic input dim must equal the result dim (runtime size-1
    // stretching is not supported).
    for (int64_t d = 0; d < in.getRank(); ++d)
      if (in.isDynamicDim(d))
        assertEqual(rewriter, loc, dimValue(rewriter, loc, op.getX(), d),
                    dims[lead + d],
                    "tcc.broadcast_to: a dynamic dim differs from the target");
    Value r = buildMapped(
        rewriter, loc, out, dims, op.getX(),
        broadcastMap(op.getContext(), in, out),
        [](OpBuilder &, Location, ValueRange a) { return a[0]; });
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// result[i] = i: a generic with no inputs over the length (from the type
/// or the shape operand, which must not be negative).
struct IotaToGeneric : OpRewritePattern<IotaOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IotaOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto out = op.getType();
    checkShapeOperand(rewriter, loc, op.getShape(), out, /*allowInfer=*/false,
                      "tcc.iota");
    Value len;
    if (!out.isDynamicDim(0)) {
      len = arith::ConstantIndexOp::create(rewriter, loc, out.getDimSize(0));
    } else {
      Value v = tensor::ExtractOp::create(
          rewriter, loc, op.getShape(),
          ValueRange{arith::ConstantIndexOp::create(rewriter, loc, 0)});
      Value ok = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::sge, v,
          arith::ConstantIntOp::create(rewriter, loc, v.getType(), 0));
      cf::AssertOp::create(rewriter, loc, ok, "tcc.iota: negative length");
      len = arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(),
                                       v);
    }
    Type i64 = rewriter.getI64Type();
    Value r = buildMapped(
        rewriter, loc, out, {len}, ValueRange{}, {},
        [&](OpBuilder &b, Location l, ValueRange) {
          Value i = linalg::IndexOp::create(b, l, 0);
          Value v = arith::IndexCastOp::create(b, l, i64, i);
          return convertScalar(b, l, v, computeType(out.getElementType()));
        });
    rewriter.replaceOp(op, r);
    return success();
  }
};

struct ConcatToInsertSlices : OpRewritePattern<ConcatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConcatOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto out = op.getType();
    int64_t axis = *normalizeAxis(op.getAxis(), out.getRank());
    ValueRange inputs = op.getInputs();
    for (Value v : inputs.drop_front())
      for (int64_t d = 0; d < out.getRank(); ++d)
        if (d != axis)
          assertSameDim(rewriter, loc, v, d, inputs[0], d,
                        "tcc.concat: inputs differ outside the concat axis");
    SmallVector<Value> dims = dimValues(rewriter, loc, inputs[0]);
    Value total = arith::ConstantIndexOp::create(rewriter, loc, 0);
    for (Value v : inputs)
      total = arith::AddIOp::create(rewriter, loc, total,
                                    dimValue(rewriter, loc, v, axis));
    dims[axis] = total;
    // Static result dims are checked against these by emptyTensor.
    Value result = emptyTensor(rewriter, loc, out, dims);
    Value offset = arith::ConstantIndexOp::create(rewriter, loc, 0);
    for (Value v : inputs) {
      SmallVector<OpFoldResult> offsets(out.getRank(), rewriter.getIndexAttr(0));
      offsets[axis] = offset;
      SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, v);
      SmallVector<OpFoldResult> strides(out.getRank(), rewriter.getIndexAttr(1));
      result = tensor::InsertSliceOp::create(rewriter, loc, v, result, offsets,
                                             sizes, strides);
      offset = arith::AddIOp::create(rewriter, loc, offset,
                                     dimValue(rewriter, loc, v, axis));
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SliceToExtractSlice : OpRewritePattern<SliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SliceOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto in = op.getX().getType();
    auto steps = op.getStepsOrDefault();
    SmallVector<OpFoldResult> offsets, sizes, strides;
    for (int64_t d = 0; d < in.getRank(); ++d) {
      strides.push_back(rewriter.getIndexAttr(steps[d]));
      int64_t s = op.getStarts()[d], e = op.getEnds()[d];
      if (!in.isDynamicDim(d)) {
        int64_t dim = in.getDimSize(d);
        auto clampIdx = [&](int64_t v) {
          if (v < 0)
            v = v < -dim ? 0 : v + dim;
          return std::min(v, dim);
        };
        int64_t cs = clampIdx(s), ce = clampIdx(e);
        int64_t size = ce > cs ? (ce - cs + steps[d] - 1) / steps[d] : 0;
        offsets.push_back(rewriter.getIndexAttr(cs));
        sizes.push_back(rewriter.getIndexAttr(size));
        continue;
      }
      // Dynamic dim: the same clamping in index arithmetic.
      Value dim = tensor::DimOp::create(rewriter, loc, op.getX(), d);
      // The whole dim (the common case): a static offset keeps the view's
      // layout static, so the ops reading it still vectorize.
      if (s == 0 && e >= INT64_MAX / 2 && steps[d] == 1) {
        offsets.push_back(rewriter.getIndexAttr(0));
        sizes.push_back(dim);
        continue;
      }
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      auto clampIdx = [&](int64_t v) -> Value {
        // Python-style: huge values behave as the dim itself.
        if (v >= 0) {
          Value c = arith::ConstantIndexOp::create(
              rewriter, loc, std::min<int64_t>(v, INT64_MAX / 2));
          return arith::MinSIOp::create(rewriter, loc, c, dim);
        }
        Value c = arith::ConstantIndexOp::create(
            rewriter, loc, std::max<int64_t>(v, INT64_MIN / 2));
        Value shifted = arith::AddIOp::create(rewriter, loc, c, dim);
        return arith::MaxSIOp::create(rewriter, loc, shifted, zero);
      };
      Value cs = clampIdx(s), ce = clampIdx(e);
      Value len = arith::SubIOp::create(rewriter, loc, ce, cs);
      len = arith::MaxSIOp::create(rewriter, loc, len, zero);
      Value stepM1 = arith::ConstantIndexOp::create(rewriter, loc, steps[d] - 1);
      Value size = arith::DivUIOp::create(
          rewriter, loc, arith::AddIOp::create(rewriter, loc, len, stepM1),
          arith::ConstantIndexOp::create(rewriter, loc, steps[d]));
      offsets.push_back(cs);
      sizes.push_back(size);
    }
    // Check static result dims before the slice reads anything (a later
    // cast to the static type may fold into the slice).
    for (auto [d, size] : llvm::enumerate(sizes))
      if (auto v = dyn_cast<Value>(size); v && !op.getType().isDynamicDim(d))
        assertEqual(rewriter, loc, v,
                    arith::ConstantIndexOp::create(
                        rewriter, loc, op.getType().getDimSize(d)),
                    "tcc: a dim differs from the static size in the op's "
                    "result type (dim " +
                        Twine(d) + ")");
    auto sliceType = tensor::ExtractSliceOp::inferResultType(in, sizes);
    Value r = tensor::ExtractSliceOp::create(rewriter, loc, sliceType,
                                             op.getX(), offsets, sizes,
                                             strides);
    if (r.getType() != op.getType())
      r = castChecked(rewriter, loc, r, op.getType());
    rewriter.replaceOp(op, r);
    return success();
  }
};

struct GatherToGeneric : OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GatherOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    Value x = op.getX(), indices = op.getIndices();
    auto xt = op.getX().getType();
    auto it = op.getIndices().getType();
    auto out = op.getType();
    int64_t axis = *normalizeAxis(op.getAxis(), xt.getRank());
    int64_t ir = it.getRank(), rank = out.getRank();
    Value axisDim = dimValue(rewriter, loc, x, axis);

    assertIndicesInRange(rewriter, loc, indices, axisDim,
                         "tcc.gather: index out of range");

    SmallVector<Value> dims;
    for (int64_t d = 0; d < axis; ++d)
      dims.push_back(dimValue(rewriter, loc, x, d));
    for (int64_t d = 0; d < ir; ++d)
      dims.push_back(dimValue(rewriter, loc, indices, d));
    for (int64_t d = axis + 1; d < xt.getRank(); ++d)
      dims.push_back(dimValue(rewriter, loc, x, d));
    SmallVector<AffineExpr> idxExprs;
    for (int64_t d = 0; d < ir; ++d)
      idxExprs.push_back(getAffineDimExpr(axis + d, ctx));
    Value init = emptyTensor(rewriter, loc, out, dims);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, out, indices, init,
        ArrayRef<AffineMap>{AffineMap::get(rank, 0, idxExprs, ctx),
                            AffineMap::getMultiDimIdentityMap(rank, ctx)},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange a) {
          Value idx = wrappedIndex(b, l, a[0], axisDim);
          SmallVector<Value> coords;
          for (int64_t d = 0; d < axis; ++d)
            coords.push_back(linalg::IndexOp::create(b, l, d));
          coords.push_back(idx);
          for (int64_t d = axis + 1; d < xt.getRank(); ++d)
            coords.push_back(linalg::IndexOp::create(b, l, d - 1 + ir));
          Value v = tensor::ExtractOp::create(b, l, x, coords);
          linalg::YieldOp::create(b, l, v);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// One generic over the result (the indices' shape): each element reads x
/// at its own coordinates with dim `axis` replaced by its index.
struct GatherElementsToGeneric : OpRewritePattern<GatherElementsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GatherElementsOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    Value x = op.getX(), indices = op.getIndices();
    auto out = op.getType();
    int64_t rank = out.getRank();
    int64_t axis = *normalizeAxis(op.getAxis(), rank);
    Value axisDim = dimValue(rewriter, loc, x, axis);
    assertIndicesInRange(rewriter, loc, indices, axisDim,
                         "tcc.gather_elements: index out of range");
    // Along the other dims the indices must not reach past x.
    SmallVector<Value> dims;
    for (int64_t d = 0; d < rank; ++d) {
      Value n = dimValue(rewriter, loc, indices, d);
      dims.push_back(n);
      if (d == axis)
        continue;
      Value fits = arith::CmpIOp::create(rewriter, loc,
                                         arith::CmpIPredicate::ule, n,
                                         dimValue(rewriter, loc, x, d));
      cf::AssertOp::create(rewriter, loc, fits,
                           ("tcc.gather_elements: indices dim " + Twine(d) +
                            " exceeds x's")
                               .str());
    }
    Value init = emptyTensor(rewriter, loc, out, dims);
    auto identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, out, indices, init,
        ArrayRef<AffineMap>{identity, identity},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange a) {
          SmallVector<Value> coords;
          for (int64_t d = 0; d < rank; ++d)
            coords.push_back(d == axis ? wrappedIndex(b, l, a[0], axisDim)
                                       : linalg::IndexOp::create(b, l, d));
          linalg::YieldOp::create(b, l,
                                  tensor::ExtractOp::create(b, l, x, coords)
                                      .getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct ConstantToArith : OpRewritePattern<ConstantOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConstantOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, op.getType(), cast<TypedAttr>(op.getValue()));
    return success();
  }
};

} // namespace

void mlir::tcc::populateTCCDataMovementToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<TransposeToLinalg, ReshapeToTensor, BroadcastToGeneric,
               IotaToGeneric,
               ConcatToInsertSlices, SliceToExtractSlice, GatherToGeneric,
               GatherElementsToGeneric, ConstantToArith>(patterns.getContext());
}
