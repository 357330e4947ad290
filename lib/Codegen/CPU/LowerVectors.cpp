//===- LowerVectors.cpp - vector ops down to AVX-512 shapes -----*- C++ -*-===//
#include "tcc/Codegen/CPU/MathApproximations.h"
#include "tcc/Codegen/CPU/Passes.h"
#include "tcc/Target/Target.h"

#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_LOWERVECTORSPASS
#include "tcc/Codegen/CPU/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

/// memref.copy of a small static shape whose innermost dim is contiguous
/// (a tile of a view into a buffer with dynamic sizes): one vector
/// read/write instead of the generic memrefCopy runtime call, which is
/// what a copy with dynamic strides becomes otherwise.
struct VectorizeSmallCopy : OpRewritePattern<memref::CopyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::CopyOp op,
                                PatternRewriter &rewriter) const override {
    auto src = dyn_cast<MemRefType>(op.getSource().getType());
    auto dst = dyn_cast<MemRefType>(op.getTarget().getType());
    if (!src || !dst || src.getRank() == 0 ||
        !src.getElementType().isIntOrFloat() ||
        src.getElementType().isInteger(1))
      return failure();
    // Larger or dynamic copies with a static, contiguous innermost dim, and
    // copies with long rows: a loop nest over the outer dims and over
    // chunks of at most kChunk lanes of the innermost row. Unrolled whole,
    // a [1, 2048] edge-row copy is 128 zmm loads and stores in a row, and a
    // dozen of them in one function kept LLVM's scheduler busy for seconds.
    // So do copies of many short rows (a [400, 1] column of a
    // concatenation): unrolled, each row is its own one-lane transfer, and
    // a detector's anchor concatenations made 40k of them in one function.
    int64_t rowLength = src.getShape().back();
    if (!src.hasStaticShape() || src.getNumElements() > 4096 ||
        (!ShapedType::isDynamic(rowLength) && rowLength > kChunk) ||
        (rowLength > 0 && src.getNumElements() / rowLength > kUnrolledRows)) {
      if (ShapedType::isDynamic(rowLength) || rowLength == 0 ||
          rowLength > 4096 || !innermostContiguous(src) ||
          !innermostContiguous(dst))
        return failure();
      if (!copyFlat(op, src, dst, rewriter))
        copyRows(rewriter, op.getLoc(), op.getSource(), op.getTarget(), src);
      rewriter.eraseOp(op);
      return success();
    }
    if (src.getNumElements() == 0)
      return failure();
    if (!innermostContiguous(src) || !innermostContiguous(dst))
      return failure();
    Location loc = op.getLoc();
    auto vecType = VectorType::get(src.getShape(), src.getElementType());
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    SmallVector<Value> indices(src.getRank(), zero);
    SmallVector<bool> inBounds(src.getRank(), true);
    Value v = vector::TransferReadOp::create(
        rewriter, loc, vecType, op.getSource(), indices,
        /*padding=*/std::nullopt, inBounds);
    vector::TransferWriteOp::create(rewriter, loc, v, op.getTarget(), indices,
                                    inBounds);
    rewriter.eraseOp(op);
    return success();
  }

  static bool innermostContiguous(MemRefType t) {
    SmallVector<int64_t> strides;
    int64_t offset;
    return succeeded(t.getStridesAndOffset(strides, offset)) &&
           strides.back() == 1;
  }

  /// The widest vector a row copy moves at once: 16 zmm.
  static constexpr int64_t kChunk = 256;
  /// The most rows a copy moves unrolled, without a loop.
  static constexpr int64_t kUnrolledRows = 16;

  /// A static copy between two dense row-major buffers of several dims is
  /// a copy of one long row: [400, 1] moves as 400 lanes, not 400 rows.
  /// Whether it was one (and is now copied).
  bool copyFlat(memref::CopyOp op, MemRefType src, MemRefType dst,
                PatternRewriter &rewriter) const {
    if (src.getRank() < 2 || !memref::isStaticShapeAndContiguousRowMajor(src) ||
        !memref::isStaticShapeAndContiguousRowMajor(dst) ||
        src.getNumElements() == 0)
      return false;
    Location loc = op.getLoc();
    ReassociationIndices all =
        llvm::to_vector(llvm::seq<int64_t>(0, src.getRank()));
    Value from = memref::CollapseShapeOp::create(rewriter, loc, op.getSource(),
                                                 ArrayRef{all});
    Value to = memref::CollapseShapeOp::create(rewriter, loc, op.getTarget(),
                                               ArrayRef{all});
    copyRows(rewriter, loc, from, to, cast<MemRefType>(from.getType()));
    return true;
  }

  /// `source` (of type `src`) into `target`: a loop over the outer dims,
  /// each row in chunks of at most kChunk lanes.
  void copyRows(PatternRewriter &rewriter, Location loc, Value source,
                Value target, MemRefType src) const {
    int64_t rank = src.getRank();
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    SmallVector<Value> ivs;
    OpBuilder::InsertionGuard guard(rewriter);
    for (int64_t d = 0; d + 1 < rank; ++d) {
      Value ub = memref::DimOp::create(rewriter, loc, source, d);
      auto loop = scf::ForOp::create(rewriter, loc, zero, ub, one);
      ivs.push_back(loop.getInductionVar());
      rewriter.setInsertionPointToStart(loop.getBody());
    }
    auto map = AffineMap::get(rank, 0, rewriter.getAffineDimExpr(rank - 1));
    SmallVector<bool> inBounds = {true};
    auto copyLanes = [&](Value column, int64_t lanes) {
      SmallVector<Value> at(ivs);
      at.push_back(column);
      auto vecType = VectorType::get({lanes}, src.getElementType());
      Value v = vector::TransferReadOp::create(
          rewriter, loc, vecType, source, at, /*padding=*/std::nullopt, map,
          ArrayRef<bool>(inBounds));
      vector::TransferWriteOp::create(rewriter, loc, v, target, at, map,
                                      ArrayRef<bool>(inBounds));
    };
    // A row of up to kChunk lanes moves whole; a longer one in a loop over
    // kChunk-lane chunks, then its remainder.
    int64_t rowLength = src.getShape().back();
    if (rowLength <= kChunk) {
      copyLanes(zero, rowLength);
    } else {
      int64_t whole = rowLength / kChunk * kChunk;
      {
        OpBuilder::InsertionGuard chunkGuard(rewriter);
        auto loop = scf::ForOp::create(
            rewriter, loc, zero,
            arith::ConstantIndexOp::create(rewriter, loc, whole),
            arith::ConstantIndexOp::create(rewriter, loc, kChunk));
        rewriter.setInsertionPointToStart(loop.getBody());
        copyLanes(loop.getInductionVar(), kChunk);
      }
      if (rowLength > whole)
        copyLanes(arith::ConstantIndexOp::create(rewriter, loc, whole),
                  rowLength - whole);
    }
  }
};

/// maximumf / minimumf that may ignore NaN and the sign of zero (fastmath
/// nnan and nsz, as softmax's row maximum is built) as compare + select:
/// x86 matches `a > b ? a : b` to one vmaxps, where arith-expand's
/// NaN-propagating form is a compare, a blend, an unordered compare and a
/// masked move, plus mask-register spills in an unrolled loop.
template <typename OpTy, arith::CmpFPredicate predicate>
struct MaxMinWithoutNaNAsSelect : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    arith::FastMathFlags flags = op.getFastmath();
    if (!arith::bitEnumContainsAll(flags, arith::FastMathFlags::nnan |
                                              arith::FastMathFlags::nsz))
      return failure();
    Value a = op.getLhs(), b = op.getRhs();
    Value pick = arith::CmpFOp::create(rewriter, op.getLoc(), predicate, a, b);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, pick, a, b);
    return success();
  }
};

/// The horizontal step of a float sum or product across a vector's lanes
/// may reassociate: each lane already holds a partial result of a
/// reordered loop (lanes and unrolled accumulators), so no order is
/// promised. Without the flag LLVM adds the lanes one by one: a
/// 64-lane row sum was a chain of 64 dependent vaddss, about 200 cycles,
/// twice per layer_norm row; with it, a tree of shuffles and adds.
struct ReassociateHorizontalReduction
    : OpRewritePattern<vector::ReductionOp> {
  using OpRewritePattern<vector::ReductionOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::ReductionOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<FloatType>(op.getType()) ||
        (op.getKind() != vector::CombiningKind::ADD &&
         op.getKind() != vector::CombiningKind::MUL))
      return failure();
    arith::FastMathFlags flags = op.getFastmath();
    if (arith::bitEnumContainsAll(flags, arith::FastMathFlags::reassoc))
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      op.setFastmath(flags | arith::FastMathFlags::reassoc);
    });
    return success();
  }
};

/// transpose(broadcast(x : vector<N>) : vector<M x N>, [1, 0]) is x down
/// the rows, each element repeated M times: broadcast(x as vector<N x 1>).
/// Linalg's vectorizer reads a per-row value (a row's max or mean, used
/// across the row) this way; lowered as it is, the transpose becomes
/// shuffles over the flattened M*N block (masks M*N long, 6400 for a
/// [64, 100] op vectorized whole), where the broadcast is one splat per row.
struct TransposeOfBroadcastAsRowBroadcast
    : OpRewritePattern<vector::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getPermutation() != ArrayRef<int64_t>{1, 0})
      return failure();
    auto broadcast = op.getVector().getDefiningOp<vector::BroadcastOp>();
    if (!broadcast)
      return failure();
    auto sourceType = dyn_cast<VectorType>(broadcast.getSourceType());
    VectorType resultType = op.getResultVectorType();
    if (!sourceType || sourceType.isScalable() || resultType.isScalable() ||
        sourceType.getNumElements() != resultType.getDimSize(0) ||
        sourceType.getShape().back() != resultType.getDimSize(0))
      return failure();
    auto column = VectorType::get({resultType.getDimSize(0), 1},
                                  sourceType.getElementType());
    Value x = vector::ShapeCastOp::create(rewriter, op.getLoc(), column,
                                          broadcast.getSource());
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(op, resultType, x);
    return success();
  }
};

/// A transfer_read whose map broadcasts its innermost dim ((d0, .., dk) ->
/// (.., d(k-1), 0): a per-row value such as a row's mean, read across a
/// row) becomes a read of one element per row and a vector.broadcast. Left
/// as it is, vector-to-scf unrolls it into a scalar load and an insert per
/// lane: 1030 of each for a row of [?, 1030] (rows that are not a multiple
/// of the 64-lane chunk stay whole vectors).
struct TransferReadOfRowValueAsBroadcast
    : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp op,
                                PatternRewriter &rewriter) const override {
    VectorType type = op.getVectorType();
    int64_t rank = type.getRank();
    AffineMap map = op.getPermutationMap();
    if (rank == 0 || type.isScalable() || op.getMask() ||
        map.getNumResults() != rank || type.getShape().back() == 1)
      return failure();
    unsigned first = map.getNumDims() - rank;
    for (int64_t i = 0; i + 1 < rank; ++i)
      if (map.getResult(i) != rewriter.getAffineDimExpr(first + i))
        return failure();
    auto last = dyn_cast<AffineConstantExpr>(map.getResult(rank - 1));
    if (!last || last.getValue() != 0)
      return failure();
    SmallVector<int64_t> shape(type.getShape());
    shape.back() = 1;
    SmallVector<bool> inBounds = op.getInBoundsValues();
    inBounds.back() = true; // the one element the broadcast read
    Value row = vector::TransferReadOp::create(
        rewriter, op.getLoc(), VectorType::get(shape, type.getElementType()),
        op.getBase(), op.getIndices(), op.getPadding(),
        AffineMap::getMinorIdentityMap(map.getNumDims(), rank,
                                       rewriter.getContext()),
        inBounds);
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(op, type, row);
    return success();
  }
};

struct LowerVectorsPass
    : tcc::impl::LowerVectorsPassBase<LowerVectorsPass> {
  using Base::Base;
  void runOnOperation() override {
    // Tile loops may run zero times: only hoist when the trip count is
    // provably non-zero.
    linalg::hoistRedundantVectorTransfers(getOperation(),
                                          /*verifyNonZeroTrip=*/true);
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<VectorizeSmallCopy, ReassociateHorizontalReduction,
                 TransposeOfBroadcastAsRowBroadcast,
                 TransferReadOfRowValueAsBroadcast>(ctx);
    patterns.add<
        MaxMinWithoutNaNAsSelect<arith::MaximumFOp, arith::CmpFPredicate::OGT>,
        MaxMinWithoutNaNAsSelect<arith::MinimumFOp, arith::CmpFPredicate::OLT>>(
        ctx);
    // f32 exp/log/tanh/erf/... as polynomials: pure arith, so they stay
    // vectorized instead of becoming one libm call per lane. Ours first
    // (cheaper where they exist), then MLIR's.
    bool useAVX512 =
        avx512 == tcc::AVX512Mode::On ||
        (avx512 == tcc::AVX512Mode::Auto &&
         tcc::lookupTarget(getOperation()).hasFeature("avx512f"));
    tcc::populateTCCMathApproximationPatterns(patterns, useAVX512);
    populateMathPolynomialApproximationPatterns(patterns);
    vector::populateVectorReductionToContractPatterns(patterns);
    vector::populateVectorContractLoweringPatterns(
        patterns, vector::VectorContractLowering::OuterProduct);
    vector::populateVectorOuterProductLoweringPatterns(patterns);
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerReduction);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorBroadcastLoweringPatterns(patterns);
    vector::populateVectorShapeCastLoweringPatterns(patterns);
    vector::populateVectorTransposeLoweringPatterns(
        patterns, vector::VectorTransposeLowering::Shuffle16x16);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
