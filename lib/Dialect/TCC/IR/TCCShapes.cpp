//===- TCCShapes.cpp - reified result shapes of tcc ops ---------*- C++ -*-===//
//
// ReifyRankedShapedTypeOpInterface: the runtime size of every result dim as
// an index value (or a constant), computed from the operands' dims. This is
// what lets upstream passes (and ours) resolve tensor.dim of a tcc result
// without lowering it first.
//
//===----------------------------------------------------------------------===//

#include "tcc/Dialect/TCC/IR/TCCOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::tcc;

namespace {

OpFoldResult dimOf(OpBuilder &b, Location loc, Value v, int64_t d) {
  return tensor::getMixedSize(b, loc, v, d);
}

Value asValue(OpBuilder &b, Location loc, OpFoldResult ofr) {
  if (auto v = dyn_cast<Value>(ofr))
    return v;
  return arith::ConstantIndexOp::create(
      b, loc, cast<IntegerAttr>(cast<Attribute>(ofr)).getInt());
}

/// Result dims of a numpy broadcast: static dims from the type, dynamic ones
/// from the first operand whose aligned dim is dynamic.
LogicalResult reifyBroadcast(Operation *op, OpBuilder &b, ValueRange operands,
                             ReifiedRankedShapedTypeDims &shapes) {
  auto rt = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<OpFoldResult> dims;
  for (int64_t d = 0; d < rt.getRank(); ++d) {
    OpFoldResult size = b.getIndexAttr(rt.isDynamicDim(d) ? 1 : rt.getDimSize(d));
    if (rt.isDynamicDim(d))
      for (Value v : operands) {
        auto t = cast<RankedTensorType>(v.getType());
        int64_t od = d - (rt.getRank() - t.getRank());
        if (od >= 0 && t.isDynamicDim(od)) {
          size = dimOf(b, op->getLoc(), v, od);
          break;
        }
      }
    dims.push_back(size);
  }
  shapes.push_back(dims);
  return success();
}

/// Same shape as operand 0.
LogicalResult reifyLike(Operation *op, OpBuilder &b, Value x,
                        ReifiedRankedShapedTypeDims &shapes) {
  shapes.push_back(tensor::getMixedSizes(b, op->getLoc(), x));
  return success();
}

template <typename ReduceOp>
LogicalResult reifyReduce(ReduceOp op, OpBuilder &b,
                          ReifiedRankedShapedTypeDims &shapes) {
  int64_t rank = op.getX().getType().getRank();
  SmallVector<int64_t> axes;
  for (int64_t a : op.getAxes())
    axes.push_back(*normalizeAxis(a, rank));
  SmallVector<OpFoldResult> dims;
  for (int64_t d = 0; d < rank; ++d) {
    bool reduced = axes.empty() || llvm::is_contained(axes, d);
    if (!reduced)
      dims.push_back(dimOf(b, op.getLoc(), op.getX(), d));
    else if (op.getKeepDims())
      dims.push_back(b.getIndexAttr(1));
  }
  shapes.push_back(dims);
  return success();
}

/// (in + padSum - dilation * (kernel - 1) - 1) / stride + 1.
OpFoldResult windowDim(OpBuilder &b, Location loc, Value x, int64_t d,
                       int64_t padSum, int64_t kernel, int64_t stride,
                       int64_t dilation) {
  auto t = cast<RankedTensorType>(x.getType());
  if (!t.isDynamicDim(d))
    return b.getIndexAttr(windowOutputSize(t.getDimSize(d), padSum, 0, kernel,
                                           stride, dilation));
  Value in = tensor::DimOp::create(b, loc, x, d);
  Value num = arith::AddIOp::create(
      b, loc, in,
      arith::ConstantIndexOp::create(b, loc,
                                     padSum - dilation * (kernel - 1) - 1));
  Value q = arith::DivSIOp::create(
      b, loc, num, arith::ConstantIndexOp::create(b, loc, stride));
  return arith::AddIOp::create(b, loc, q,
                               arith::ConstantIndexOp::create(b, loc, 1))
      .getResult();
}

} // namespace

#define TCC_REIFY_BROADCAST(OP)                                                \
  LogicalResult OP::reifyResultShapes(OpBuilder &b,                            \
                                      ReifiedRankedShapedTypeDims &shapes) {   \
    return reifyBroadcast(*this, b, getOperands(), shapes);                    \
  }
TCC_REIFY_BROADCAST(AddOp)
TCC_REIFY_BROADCAST(SubOp)
TCC_REIFY_BROADCAST(MulOp)
TCC_REIFY_BROADCAST(DivOp)
TCC_REIFY_BROADCAST(MaximumOp)
TCC_REIFY_BROADCAST(MinimumOp)
TCC_REIFY_BROADCAST(PowOp)
TCC_REIFY_BROADCAST(RemOp)
TCC_REIFY_BROADCAST(BitwiseAndOp)
TCC_REIFY_BROADCAST(BitwiseOrOp)
TCC_REIFY_BROADCAST(BitwiseXorOp)
TCC_REIFY_BROADCAST(ShiftLeftOp)
TCC_REIFY_BROADCAST(ShiftRightOp)
TCC_REIFY_BROADCAST(CmpOp)
TCC_REIFY_BROADCAST(SelectOp)

#define TCC_REIFY_LIKE_X(OP)                                                   \
  LogicalResult OP::reifyResultShapes(OpBuilder &b,                            \
                                      ReifiedRankedShapedTypeDims &shapes) {   \
    return reifyLike(*this, b, getX(), shapes);                                \
  }
TCC_REIFY_LIKE_X(NegOp)
TCC_REIFY_LIKE_X(BitwiseNotOp)
TCC_REIFY_LIKE_X(ExpOp)
TCC_REIFY_LIKE_X(LogOp)
TCC_REIFY_LIKE_X(SqrtOp)
TCC_REIFY_LIKE_X(RsqrtOp)
TCC_REIFY_LIKE_X(AbsOp)
TCC_REIFY_LIKE_X(TanhOp)
TCC_REIFY_LIKE_X(SigmoidOp)
TCC_REIFY_LIKE_X(ReluOp)
TCC_REIFY_LIKE_X(SiluOp)
TCC_REIFY_LIKE_X(ErfOp)
TCC_REIFY_LIKE_X(SinOp)
TCC_REIFY_LIKE_X(CosOp)
TCC_REIFY_LIKE_X(TanOp)
TCC_REIFY_LIKE_X(AsinOp)
TCC_REIFY_LIKE_X(AcosOp)
TCC_REIFY_LIKE_X(AtanOp)
TCC_REIFY_LIKE_X(SinhOp)
TCC_REIFY_LIKE_X(CoshOp)
TCC_REIFY_LIKE_X(AsinhOp)
TCC_REIFY_LIKE_X(AcoshOp)
TCC_REIFY_LIKE_X(AtanhOp)
TCC_REIFY_LIKE_X(FloorOp)
TCC_REIFY_LIKE_X(CeilOp)
TCC_REIFY_LIKE_X(RoundOp)
TCC_REIFY_LIKE_X(GeluOp)
TCC_REIFY_LIKE_X(SoftmaxOp)
TCC_REIFY_LIKE_X(LogSoftmaxOp)
TCC_REIFY_LIKE_X(LayerNormOp)
TCC_REIFY_LIKE_X(RmsNormOp)
TCC_REIFY_LIKE_X(BatchNormOp)
TCC_REIFY_LIKE_X(CumsumOp)
TCC_REIFY_LIKE_X(ScatterElementsOp)
TCC_REIFY_LIKE_X(ScatterNDOp)

#define TCC_REIFY_REDUCE(OP)                                                   \
  LogicalResult OP::reifyResultShapes(OpBuilder &b,                            \
                                      ReifiedRankedShapedTypeDims &shapes) {   \
    return reifyReduce(*this, b, shapes);                                      \
  }
TCC_REIFY_REDUCE(ReduceSumOp)
TCC_REIFY_REDUCE(ReduceMeanOp)
TCC_REIFY_REDUCE(ReduceMaxOp)
TCC_REIFY_REDUCE(ReduceMinOp)
TCC_REIFY_REDUCE(ReduceProdOp)

LogicalResult MatmulOp::reifyResultShapes(OpBuilder &b,
                                          ReifiedRankedShapedTypeDims &shapes) {
  Location loc = getLoc();
  auto rt = getType();
  int64_t nb = rt.getRank() - 2;
  SmallVector<OpFoldResult> dims;
  for (int64_t d = 0; d < nb; ++d) {
    OpFoldResult size = b.getIndexAttr(rt.isDynamicDim(d) ? 1 : rt.getDimSize(d));
    if (rt.isDynamicDim(d))
      for (Value v : {getA(), getB()}) {
        auto t = cast<RankedTensorType>(v.getType());
        int64_t od = d - (nb - (t.getRank() - 2));
        if (od >= 0 && t.isDynamicDim(od)) {
          size = dimOf(b, loc, v, od);
          break;
        }
      }
    dims.push_back(size);
  }
  dims.push_back(dimOf(b, loc, getA(), getA().getType().getRank() - 2));
  dims.push_back(dimOf(b, loc, getB(), getB().getType().getRank() - 1));
  shapes.push_back(dims);
  return success();
}

LogicalResult LinearOp::reifyResultShapes(OpBuilder &b,
                                          ReifiedRankedShapedTypeDims &shapes) {
  SmallVector<OpFoldResult> dims = tensor::getMixedSizes(b, getLoc(), getX());
  dims.back() = dimOf(b, getLoc(), getWeight(), 0);
  shapes.push_back(dims);
  return success();
}

/// y [T, B, H] and `states` results [B, H] of a recurrence.
static LogicalResult reifyRecurrence(OpBuilder &b, Location loc, Value x,
                                     Value h0, Value whh, unsigned states,
                                     ReifiedRankedShapedTypeDims &shapes) {
  auto dim = [&](Value v, int64_t d) -> OpFoldResult {
    auto t = cast<RankedTensorType>(v.getType());
    if (!t.isDynamicDim(d))
      return b.getIndexAttr(t.getDimSize(d));
    return tensor::DimOp::create(b, loc, v, d).getResult();
  };
  OpFoldResult steps = dim(x, 0), batch = dim(h0, 0), hidden = dim(whh, 1);
  shapes.push_back({steps, batch, hidden});
  for (unsigned i = 0; i < states; ++i)
    shapes.push_back({batch, hidden});
  return success();
}

LogicalResult LSTMOp::reifyResultShapes(OpBuilder &b,
                                        ReifiedRankedShapedTypeDims &shapes) {
  return reifyRecurrence(b, getLoc(), getX(), getH0(), getWHh(), 2, shapes);
}
LogicalResult GRUOp::reifyResultShapes(OpBuilder &b,
                                       ReifiedRankedShapedTypeDims &shapes) {
  return reifyRecurrence(b, getLoc(), getX(), getH0(), getWHh(), 1, shapes);
}
LogicalResult RNNOp::reifyResultShapes(OpBuilder &b,
                                       ReifiedRankedShapedTypeDims &shapes) {
  return reifyRecurrence(b, getLoc(), getX(), getH0(), getWHh(), 1, shapes);
}

/// Both results are shaped as x.
LogicalResult SortOp::reifyResultShapes(OpBuilder &b,
                                        ReifiedRankedShapedTypeDims &shapes) {
  shapes.push_back(tensor::getMixedSizes(b, getLoc(), getX()));
  shapes.push_back(shapes.front());
  return success();
}

/// x's dims with k along the axis, for both results.
LogicalResult TopKOp::reifyResultShapes(OpBuilder &b,
                                        ReifiedRankedShapedTypeDims &shapes) {
  SmallVector<OpFoldResult> dims = tensor::getMixedSizes(b, getLoc(), getX());
  dims[*normalizeAxis(getAxis(), dims.size())] = b.getIndexAttr(getK());
  shapes.push_back(dims);
  shapes.push_back(dims);
  return success();
}

LogicalResult Conv2dOp::reifyResultShapes(OpBuilder &b,
                                          ReifiedRankedShapedTypeDims &shapes) {
  Location loc = getLoc();
  auto strides = getStridesOrDefault();
  auto dilations = getDilationsOrDefault();
  auto pad = getPaddingOrDefault();
  auto wt = getWeight().getType();
  LayoutDims d = layoutDims(isChannelsLast());
  SmallVector<OpFoldResult> dims(4);
  dims[d.n] = dimOf(b, loc, getX(), d.n);
  dims[d.c] = dimOf(b, loc, getWeight(), 0);
  for (int i = 0; i < 2; ++i) {
    int64_t s = d.spatial(i);
    if (wt.isDynamicDim(s))
      return failure(); // A dynamic kernel size: not expressible here.
    dims[s] = windowDim(b, loc, getX(), s, pad[i] + pad[i + 2],
                        wt.getDimSize(s), strides[i], dilations[i]);
  }
  shapes.push_back(dims);
  return success();
}

#define TCC_REIFY_POOL(OP)                                                     \
  LogicalResult OP::reifyResultShapes(OpBuilder &b,                            \
                                      ReifiedRankedShapedTypeDims &shapes) {   \
    Location loc = getLoc();                                                   \
    auto strides = getStridesOrDefault();                                      \
    auto pad = getPaddingOrDefault();                                          \
    ArrayRef<int64_t> k = getKernelSize();                                     \
    LayoutDims d = layoutDims(isChannelsLast());                               \
    SmallVector<OpFoldResult> dims(4);                                         \
    dims[d.n] = dimOf(b, loc, getX(), d.n);                                    \
    dims[d.c] = dimOf(b, loc, getX(), d.c);                                    \
    for (int i = 0; i < 2; ++i)                                                \
      dims[d.spatial(i)] =                                                     \
          windowDim(b, loc, getX(), d.spatial(i), pad[i] + pad[i + 2], k[i],   \
                    strides[i], 1);                                            \
    shapes.push_back(dims);                                                    \
    return success();                                                          \
  }
TCC_REIFY_POOL(MaxPool2dOp)
TCC_REIFY_POOL(AvgPool2dOp)

LogicalResult
AttentionOp::reifyResultShapes(OpBuilder &b,
                               ReifiedRankedShapedTypeDims &shapes) {
  SmallVector<OpFoldResult> dims = tensor::getMixedSizes(b, getLoc(), getQ());
  dims.back() = dimOf(b, getLoc(), getV(), getV().getType().getRank() - 1);
  shapes.push_back(dims);
  return success();
}

LogicalResult
TransposeOp::reifyResultShapes(OpBuilder &b,
                               ReifiedRankedShapedTypeDims &shapes) {
  SmallVector<OpFoldResult> dims;
  for (int64_t p : getPermutation())
    dims.push_back(dimOf(b, getLoc(), getX(), p));
  shapes.push_back(dims);
  return success();
}

LogicalResult ConcatOp::reifyResultShapes(OpBuilder &b,
                                          ReifiedRankedShapedTypeDims &shapes) {
  Location loc = getLoc();
  auto rt = getType();
  int64_t axis = *normalizeAxis(getAxis(), rt.getRank());
  SmallVector<OpFoldResult> dims =
      tensor::getMixedSizes(b, loc, getInputs()[0]);
  if (rt.isDynamicDim(axis)) {
    Value total = arith::ConstantIndexOp::create(b, loc, 0);
    for (Value v : getInputs())
      total = arith::AddIOp::create(b, loc, total,
                                    asValue(b, loc, dimOf(b, loc, v, axis)));
    dims[axis] = total;
  } else {
    dims[axis] = b.getIndexAttr(rt.getDimSize(axis));
  }
  shapes.push_back(dims);
  return success();
}

LogicalResult SliceOp::reifyResultShapes(OpBuilder &b,
                                         ReifiedRankedShapedTypeDims &shapes) {
  Location loc = getLoc();
  auto rt = getType();
  auto steps = getStepsOrDefault();
  SmallVector<OpFoldResult> dims;
  for (int64_t d = 0; d < rt.getRank(); ++d) {
    if (!rt.isDynamicDim(d)) {
      dims.push_back(b.getIndexAttr(rt.getDimSize(d)));
      continue;
    }
    // Python slice on a runtime dim: clamp start and end, then count steps.
    Value dim = tensor::DimOp::create(b, loc, getX(), d);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    auto clampIdx = [&](int64_t v) -> Value {
      if (v >= 0)
        return arith::MinSIOp::create(
            b, loc,
            arith::ConstantIndexOp::create(b, loc,
                                           std::min<int64_t>(v, INT64_MAX / 2)),
            dim);
      Value shifted = arith::AddIOp::create(
          b, loc,
          arith::ConstantIndexOp::create(b, loc,
                                         std::max<int64_t>(v, INT64_MIN / 2)),
          dim);
      return arith::MaxSIOp::create(b, loc, shifted, zero);
    };
    Value len = arith::SubIOp::create(b, loc, clampIdx(getEnds()[d]),
                                      clampIdx(getStarts()[d]));
    len = arith::MaxSIOp::create(b, loc, len, zero);
    Value size = arith::DivSIOp::create(
        b, loc,
        arith::AddIOp::create(
            b, loc, len, arith::ConstantIndexOp::create(b, loc, steps[d] - 1)),
        arith::ConstantIndexOp::create(b, loc, steps[d]));
    dims.push_back(size);
  }
  shapes.push_back(dims);
  return success();
}

LogicalResult
GatherElementsOp::reifyResultShapes(OpBuilder &b,
                                    ReifiedRankedShapedTypeDims &shapes) {
  shapes.push_back(tensor::getMixedSizes(b, getLoc(), getIndices()));
  return success();
}

LogicalResult
GridSampleOp::reifyResultShapes(OpBuilder &b,
                                ReifiedRankedShapedTypeDims &shapes) {
  Location loc = getLoc();
  shapes.push_back({dimOf(b, loc, getX(), 0), dimOf(b, loc, getX(), 1),
                    dimOf(b, loc, getGrid(), 1), dimOf(b, loc, getGrid(), 2)});
  return success();
}

LogicalResult GatherOp::reifyResultShapes(OpBuilder &b,
                                          ReifiedRankedShapedTypeDims &shapes) {
  Location loc = getLoc();
  int64_t rank = getX().getType().getRank();
  int64_t axis = *normalizeAxis(getAxis(), rank);
  SmallVector<OpFoldResult> dims;
  for (int64_t d = 0; d < axis; ++d)
    dims.push_back(dimOf(b, loc, getX(), d));
  llvm::append_range(dims, tensor::getMixedSizes(b, loc, getIndices()));
  for (int64_t d = axis + 1; d < rank; ++d)
    dims.push_back(dimOf(b, loc, getX(), d));
  shapes.push_back(dims);
  return success();
}
