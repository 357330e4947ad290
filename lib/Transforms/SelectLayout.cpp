//===- SelectLayout.cpp - data layouts chosen by cost ------------*- C++ -*-===//
//
// See the pass description (include/tcc/Transforms/Passes.td) and
// docs/layout.md.
//
// Layouts live on the ops whose kernels care (conv2d, the pools: `layout`;
// batch_norm: `axis`); between them values carry no layout, and every
// relayout is an explicit tcc.transpose. Choosing NHWC for a convolution
// wraps it in transposes (x and weight to channels-last, the result back);
// the propagation patterns then sink the result's transpose through the
// ops that follow (elementwise, batch norm, pools, reductions) until it
// meets the next convolution's input transpose and the two cancel
// (ComposeTransposes), or a constant, where it folds.
//
// Which convolutions go channels-last: every assignment is judged on a
// clone of the function, propagated, by the modeled time of its
// convolutions (the target's measured speed per layout) plus the bytes its
// surviving transposes move. The search starts from "all preferred" and
// reverts convolutions one at a time while that lowers the total.
//
//===----------------------------------------------------------------------===//

#include "tcc/Transforms/Passes.h"

#include "tcc/Dialect/TCC/IR/TCCOps.h"
#include "tcc/Target/Target.h"
#include "tcc/Transforms/FusionPreparation.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <limits>

namespace mlir::tcc {
#define GEN_PASS_DEF_SELECTLAYOUTPASS
#include "tcc/Transforms/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

/// NCHW -> NHWC (and OIHW -> OHWI), and back.
constexpr int64_t kToChannelsLast[] = {0, 2, 3, 1};
constexpr int64_t kToChannelsFirst[] = {0, 3, 1, 2};

/// `type`'s shape permuted: dim i of the result is dim perm[i] of `type`.
RankedTensorType permuted(RankedTensorType type, ArrayRef<int64_t> perm) {
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  return RankedTensorType::get(shape, type.getElementType());
}

/// The type whose transpose by `perm` is `type`.
RankedTensorType unpermuted(RankedTensorType type, ArrayRef<int64_t> perm) {
  SmallVector<int64_t> shape(type.getRank());
  for (auto [i, p] : llvm::enumerate(perm))
    shape[p] = type.getDimSize(i);
  return RankedTensorType::get(shape, type.getElementType());
}

SmallVector<int64_t> inverse(ArrayRef<int64_t> perm) {
  SmallVector<int64_t> inv(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inv[p] = i;
  return inv;
}

Value transpose(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(x.getType());
  return TransposeOp::create(b, loc, permuted(type, perm), x, perm);
}

//===----------------------------------------------------------------------===//
// Conversion to channels-last
//===----------------------------------------------------------------------===//

/// conv_nchw(x, w) -> transpose(conv_nhwc(transpose(x), transpose(w))).
void toChannelsLast(Conv2dOp conv) {
  OpBuilder b(conv);
  Location loc = conv.getLoc();
  Value x = transpose(b, loc, conv.getX(), kToChannelsLast);
  Value w = transpose(b, loc, conv.getWeight(), kToChannelsLast);
  auto resultType = permuted(conv.getType(), kToChannelsLast);
  auto nhwc = Conv2dOp::create(
      b, loc, resultType, x, w, conv.getBias(), conv.getStridesAttr(),
      conv.getPaddingAttr(), conv.getDilationsAttr(), conv.getGroupsAttr(),
      b.getStringAttr("NHWC"));
  nhwc->setDiscardableAttrs(conv->getDiscardableAttrDictionary());
  Value back = transpose(b, loc, nhwc.getResult(), kToChannelsFirst);
  conv.getResult().replaceAllUsesWith(back);
  conv.erase();
}

//===----------------------------------------------------------------------===//
// Propagation: transposes sink below the ops that follow them
//===----------------------------------------------------------------------===//

/// An operand that is a transpose, and its permutation.
TransposeOp transposeOf(Value v) { return v.getDefiningOp<TransposeOp>(); }

/// Whether `v` reads the same in any layout: a scalar or all-ones shape.
bool isLayoutFree(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && llvm::all_of(t.getShape(), [](int64_t d) { return d == 1; });
}

/// Whether an operand of `type` broadcasts against a result of `result`
/// (of the same rank): some dim of 1 stretches.
bool isBroadcast(RankedTensorType type, RankedTensorType result) {
  return llvm::any_of(llvm::zip(type.getShape(), result.getShape()),
                      [](auto dims) {
                        auto [d, r] = dims;
                        return d == 1 && r != 1;
                      });
}

/// A constant, or (in a trial, which does not fold) a transpose of one.
bool isConstant(Value v) {
  if (TransposeOp t = transposeOf(v))
    v = t.getX();
  return matchPattern(v, m_Constant());
}

/// A transpose of `v` by `perm` that exists already.
TransposeOp existingTranspose(Value v, ArrayRef<int64_t> perm) {
  for (Operation *user : v.getUsers())
    if (auto t = dyn_cast<TransposeOp>(user); t && t.getPermutation() == perm)
      return t;
  return nullptr;
}

/// op(transpose(x, P), ...) -> transpose(op'(x, ...), P) for elementwise
/// ops (unary, binary with both operands transposed alike, or the other a
/// constant of the same rank, a layout-free value, or a value relaid out by
/// P^-1 already).
struct SinkThroughElementwise : RewritePattern {
  SinkThroughElementwise(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    bool binary = isBinaryElementwise(op);
    if (!isUnaryElementwise(op) && !binary)
      return failure();
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType)
      return failure();
    // The permutation: from the first transposed operand of full rank.
    ArrayRef<int64_t> perm;
    for (Value v : op->getOperands())
      if (TransposeOp t = transposeOf(v);
          t && t.getType().getRank() == resultType.getRank() &&
          t.getType().getShape() == resultType.getShape()) {
        perm = t.getPermutation();
        break;
      }
    // A transpose that moves only unit dims is a reshape (canonicalization
    // makes it one): nothing to sink.
    if (perm.empty() ||
        movesOnlyUnitDims(unpermuted(resultType, perm).getShape(), perm))
      return failure();
    SmallVector<int64_t> inv = inverse(perm);
    SmallVector<Value> operands;
    for (Value v : op->getOperands()) {
      if (TransposeOp t = transposeOf(v);
          t && t.getPermutation() == perm &&
          t.getType().getShape() == resultType.getShape()) {
        operands.push_back(t.getX());
        continue;
      }
      if (isLayoutFree(v)) {
        operands.push_back(v);
        continue;
      }
      auto type = dyn_cast<RankedTensorType>(v.getType());
      if (type && type.getRank() == resultType.getRank() &&
          isBroadcast(type, resultType) &&
          movesOnlyUnitDims(type.getShape(), inv)) {
        // A broadcast operand whose relayout moves only unit dims (a
        // squeeze-excitation scale [N, C, 1, 1]): a reshape, no copy.
        operands.push_back(transpose(rewriter, op->getLoc(), v, inv));
        continue;
      }
      if (type && type.getRank() == resultType.getRank() && isConstant(v)) {
        // A constant transposed back: it folds.
        operands.push_back(transpose(rewriter, op->getLoc(), v, inv));
        continue;
      }
      // A value already relaid out to channels-last (a residual that also
      // feeds a channels-last convolution) while a result goes back to
      // NCHW: that relayout is reused. Only in this direction, so that the
      // two rewrites cannot undo each other.
      if (TransposeOp existing =
              perm == ArrayRef<int64_t>(kToChannelsFirst)
                  ? existingTranspose(v, inv)
                  : nullptr) {
        if (!existing->isBeforeInBlock(op) &&
            existing->getBlock() == op->getBlock())
          existing->moveBefore(op);
        operands.push_back(existing);
        continue;
      }
      return failure();
    }
    Operation *moved = rewriter.clone(*op);
    moved->setOperands(operands);
    moved->getResult(0).setType(unpermuted(resultType, perm));
    rewriter.replaceOp(op, transpose(rewriter, op->getLoc(),
                                     moved->getResult(0), perm));
    return success();
  }
};

/// batch_norm(transpose(x, P), axis a) -> transpose(batch_norm(x, P[a]), P).
struct SinkThroughBatchNorm : OpRewritePattern<BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BatchNormOp op,
                                PatternRewriter &rewriter) const override {
    TransposeOp t = transposeOf(op.getX());
    if (!t)
      return failure();
    ArrayRef<int64_t> perm = t.getPermutation();
    int64_t axis = perm[op.getAxis()];
    if (axis == 0)
      return failure(); // the channels would become the batch dim
    auto moved = cast<BatchNormOp>(rewriter.clone(*op));
    moved.getXMutable().assign(t.getX());
    moved.setAxis(axis);
    moved.getResult().setType(unpermuted(op.getType(), perm));
    rewriter.replaceOp(op, transpose(rewriter, op.getLoc(), moved, perm));
    return success();
  }
};

/// pool_nchw(transpose(y, NHWC -> NCHW)) -> transpose(pool_nhwc(y)).
template <typename PoolOp>
struct SinkThroughPool : OpRewritePattern<PoolOp> {
  using OpRewritePattern<PoolOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(PoolOp op,
                                PatternRewriter &rewriter) const override {
    TransposeOp t = transposeOf(op.getX());
    if (!t || op.isChannelsLast() ||
        t.getPermutation() != ArrayRef<int64_t>(kToChannelsFirst))
      return failure();
    auto moved = cast<PoolOp>(rewriter.clone(*op));
    moved.getXMutable().assign(t.getX());
    moved.setLayout("NHWC");
    moved.getResult().setType(permuted(op.getType(), kToChannelsLast));
    rewriter.replaceOp(op, transpose(rewriter, op.getLoc(), moved,
                                     kToChannelsFirst));
    return success();
  }
};

/// reduce(transpose(x, P), axes) -> reduce(x, P[axes]), transposed by
/// what is left of P (nothing when that is the identity).
template <typename ReduceOp>
struct SinkThroughReduce : OpRewritePattern<ReduceOp> {
  using OpRewritePattern<ReduceOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(ReduceOp op,
                                PatternRewriter &rewriter) const override {
    TransposeOp t = transposeOf(op.getX());
    if (!t)
      return failure();
    ArrayRef<int64_t> perm = t.getPermutation();
    int64_t rank = perm.size();
    SmallVector<bool> reduced(rank, op.getAxes().empty());
    for (int64_t a : op.getAxes())
      reduced[a < 0 ? a + rank : a] = true;
    SmallVector<int64_t> axes;
    llvm::SmallDenseSet<int64_t> reducedSource;
    for (int64_t i = 0; i < rank; ++i)
      if (reduced[i]) {
        axes.push_back(perm[i]);
        reducedSource.insert(perm[i]);
      }
    llvm::sort(axes);
    // A reduction over the innermost dims is a row reduction, the fast
    // kind on both targets (a global average pool over H and W of NCHW):
    // the transpose is not sunk when that would make it reduce outer dims
    // (the cuda pipeline runs those as one serial kernel). It stays, and
    // moves the smaller tensor.
    auto isTrailing = [&](ArrayRef<int64_t> sorted) {
      for (auto [i, a] : llvm::enumerate(sorted))
        if (a != rank - int64_t(sorted.size()) + int64_t(i))
          return false;
      return true;
    };
    SmallVector<int64_t> original;
    for (int64_t i = 0; i < rank; ++i)
      if (reduced[i])
        original.push_back(i);
    if (isTrailing(original) && !isTrailing(axes))
      return failure();
    auto xType = cast<RankedTensorType>(t.getX().getType());
    // The new result's shape, and where each of the old result's dims is.
    SmallVector<int64_t> shape, position(rank, -1);
    for (int64_t j = 0; j < rank; ++j) {
      if (!reducedSource.contains(j)) {
        position[j] = shape.size();
        shape.push_back(xType.getDimSize(j));
      } else if (op.getKeepDims()) {
        position[j] = shape.size();
        shape.push_back(1);
      }
    }
    SmallVector<int64_t> outPerm;
    for (int64_t i = 0; i < rank; ++i)
      if (!reduced[i] || op.getKeepDims())
        outPerm.push_back(position[perm[i]]);
    auto type = RankedTensorType::get(shape, op.getType().getElementType());
    auto moved = cast<ReduceOp>(rewriter.clone(*op));
    moved.getXMutable().assign(t.getX());
    moved.setAxes(axes);
    moved.getResult().setType(type);
    Value result = moved.getResult();
    if (!llvm::equal(outPerm, llvm::seq<int64_t>(0, outPerm.size())))
      result = transpose(rewriter, op.getLoc(), result, outPerm);
    rewriter.replaceOp(op, result);
    return success();
  }
};

void populateLayoutPropagationPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<SinkThroughElementwise, SinkThroughBatchNorm,
               SinkThroughPool<MaxPool2dOp>, SinkThroughPool<AvgPool2dOp>,
               SinkThroughReduce<ReduceSumOp>, SinkThroughReduce<ReduceMeanOp>,
               SinkThroughReduce<ReduceMaxOp>, SinkThroughReduce<ReduceMinOp>,
               SinkThroughReduce<ReduceProdOp>>(ctx);
  TransposeOp::getCanonicalizationPatterns(patterns, ctx);
}

//===----------------------------------------------------------------------===//
// Cost model
//===----------------------------------------------------------------------===//

/// Kernel speed per layout and relayout bandwidth of a target; the figures
/// and the commands that measured them are in docs/layout.md.
struct LayoutCostModel {
  TargetAttr target;
  bool library;

  /// Multiply-adds per second of a convolution in `layout`.
  double convMacsPerSecond(Conv2dOp conv, bool channelsLast) const {
    Type element = conv.getType().getElementType();
    if (target.isCUDA() && library) {
      // cuDNN: Tensor Core kernels take NHWC; NCHW half-precision inputs
      // are transposed inside the library (measured on the H200: ~2x).
      if (element.isF16() || element.isBF16())
        return channelsLast ? 200e12 : 100e12;
      return 25e12;
    }
    if (library && element.isF32())
      // oneDNN, 2 AVX-512 cores (docs/layout.md): NHWC runs its blocked
      // kernels directly; NCHW falls back to slower ones.
      return channelsLast ? kDnnlNhwc : kDnnlNchw;
    // Generated loops (no library; one thread per output element on
    // cuda): about alike in both layouts.
    return channelsLast ? kGeneratedNhwc : kGeneratedNchw;
  }
  double bytesPerSecond() const {
    return double(target.getRelayoutBandwidth());
  }

  /// Unknown sizes count as this many (a hint: batch and spatial dims
  /// scale both sides of the comparison alike).
  static constexpr double kDynamicSizeHint = 16;
  static double size(int64_t s) {
    return ShapedType::isDynamic(s) ? kDynamicSizeHint : double(s);
  }

  double seconds(Conv2dOp conv) const {
    auto t = conv.getType();
    LayoutDims d = layoutDims(conv.isChannelsLast());
    auto wt = conv.getWeight().getType();
    double macs = 1;
    for (int64_t s : t.getShape())
      macs *= size(s);
    for (int64_t i : {d.c, d.h, d.w}) // C/groups * KH * KW
      macs *= size(wt.getDimSize(i));
    return macs / convMacsPerSecond(conv, conv.isChannelsLast());
  }
  double seconds(TransposeOp t) const {
    auto type = t.getType();
    double elements = 1;
    for (int64_t s : type.getShape())
      elements *= size(s);
    // Read and written once.
    return 2 * elements * (type.getElementTypeBitWidth() / 8) /
           bytesPerSecond();
  }

  static constexpr double kDnnlNchw = 20e9, kDnnlNhwc = 45e9;
  static constexpr double kGeneratedNchw = 1.2e9, kGeneratedNhwc = 1.2e9;
};

/// The modeled time of `func` as it stands: its convolutions and the
/// transposes left in it (a transpose of a constant is free: it folds; so
/// is one that moves only unit dims: it becomes a reshape).
double modeledSeconds(func::FuncOp func, const LayoutCostModel &model) {
  double total = 0;
  func.walk([&](Operation *op) {
    if (auto conv = dyn_cast<Conv2dOp>(op))
      total += model.seconds(conv);
    else if (auto t = dyn_cast<TransposeOp>(op))
      if (!matchPattern(t.getX(), m_Constant()) &&
          !movesOnlyUnitDims(t.getX().getType().getShape(),
                             t.getPermutation()))
        total += model.seconds(t);
  });
  return total;
}

/// Converts the convolutions `flip` names (indices in walk order) and
/// propagates. A trial (a clone whose cost is all that is wanted) does not
/// fold: folding a transpose of a weight copies the weight, once per trial
/// and weight (resnet50: 14 s of a 15 s compile); the cost counts such a
/// transpose as free, since the real assignment folds it.
LogicalResult apply(func::FuncOp func, ArrayRef<bool> flip, bool trial) {
  SmallVector<Conv2dOp> convs;
  func.walk([&](Conv2dOp c) { convs.push_back(c); });
  for (auto [conv, f] : llvm::zip(convs, flip))
    if (f)
      toChannelsLast(conv);
  RewritePatternSet patterns(func.getContext());
  populateLayoutPropagationPatterns(patterns);
  GreedyRewriteConfig config;
  if (trial)
    config.enableFolding(false).enableConstantCSE(false);
  return applyPatternsGreedily(func, std::move(patterns), config);
}

struct SelectLayoutPass : tcc::impl::SelectLayoutPassBase<SelectLayoutPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    std::string error;
    FailureOr<TargetAttr> resolved = resolveTarget(func, target, error);
    if (failed(resolved)) {
      func.emitError("select-layout: ") << error;
      return signalPassFailure();
    }
    LayoutCostModel model{*resolved, library};
    // The convolutions the pass may turn channels-last.
    SmallVector<bool> candidate;
    // Patch convolutions become matrix products (fusion preparation):
    // their layout is the linear's.
    func.walk([&](Conv2dOp c) {
      candidate.push_back(!c.isChannelsLast() && !isPatchConv(c) &&
                          model.convMacsPerSecond(c, true) >
                              model.convMacsPerSecond(c, false));
    });
    if (llvm::none_of(candidate, [](bool c) { return c; }))
      return;

    // The cost of an assignment, judged on a clone.
    auto cost = [&](ArrayRef<bool> flip) -> double {
      auto clone = cast<func::FuncOp>(func->clone());
      double seconds = succeeded(apply(clone, flip, /*trial=*/true))
                           ? modeledSeconds(clone, model)
                           : std::numeric_limits<double>::infinity();
      clone->destroy();
      return seconds;
    };
    SmallVector<bool> none(candidate.size(), false);
    SmallVector<bool> best = candidate;
    double bestCost = cost(best);
    for (size_t i = 0; i < best.size(); ++i) {
      if (!best[i])
        continue;
      best[i] = false;
      double c = cost(best);
      if (c < bestCost)
        bestCost = c;
      else
        best[i] = true;
    }
    if (!(bestCost < cost(none)))
      return; // Nothing pays for its relayouts.
    if (failed(apply(func, best, /*trial=*/false)))
      return signalPassFailure();
  }
};

} // namespace
