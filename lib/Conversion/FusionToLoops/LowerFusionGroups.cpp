//===- LowerFusionGroups.cpp - one loop nest per fusion group ---*- C++ -*-===//
//
// After convert-tcc-to-linalg a group holds linalg ops on tensors. Here the
// elementwise generics of each group are fused into their consumers (so a
// pointwise chain, or a reduction with its prologue, is one generic), the
// group's root is tiled with its in-group producers fused into the tile loop
// (a contraction and its epilogue become one loop nest), and the group is
// inlined. Fusion is confined to the group: what --fuse decided is what runs.
//
//===----------------------------------------------------------------------===//

#include "tcc/Analysis/SymbolicShapes.h"
#include "tcc/Conversion/Passes.h"
#include "tcc/Dialect/Fusion/IR/FusionOps.h"
#include "tcc/Transforms/MemoryPlan.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/TargetParser/Host.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_LOWERFUSIONGROUPSPASS
#include "tcc/Conversion/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

/// Reassociation that folds each dim of `full` missing from `reduced`
/// (a unit dim) into a kept neighbour; std::nullopt if `reduced` is not
/// `full` minus unit dims.
std::optional<SmallVector<ReassociationIndices>>
unitDimReassociation(ArrayRef<int64_t> full, ArrayRef<int64_t> reduced) {
  SmallVector<ReassociationIndices> groups;
  size_t r = 0;
  ReassociationIndices pending;
  for (size_t d = 0; d < full.size(); ++d) {
    pending.push_back(d);
    bool keep = r < reduced.size() && full[d] == reduced[r] &&
                // Keep a unit dim only if the dims left can still match.
                (full[d] != 1 || full.size() - d - 1 >= reduced.size() - r - 1);
    if (keep) {
      groups.push_back(pending);
      pending.clear();
      ++r;
    } else if (full[d] != 1) {
      return std::nullopt;
    }
  }
  if (r != reduced.size())
    return std::nullopt;
  if (!pending.empty()) {
    if (groups.empty())
      return std::nullopt;
    llvm::append_range(groups.back(), pending);
  }
  return groups;
}

/// Rank-reducing extract_slice -> extract_slice + collapse_shape. With
/// dynamic strides a rank-reducing memref.subview cannot tell which unit
/// dims it dropped (it guesses wrong for the 1-D convs that conv
/// decomposition produces); collapse_shape says so explicitly.
struct ExplicitRankReducingExtract : OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ExtractSliceOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType full = op.inferResultType(
        op.getSourceType(), op.getMixedSizes());
    RankedTensorType reduced = op.getType();
    if (full.getRank() == reduced.getRank())
      return failure();
    auto groups = unitDimReassociation(full.getShape(), reduced.getShape());
    if (!groups)
      return failure();
    Value slice = tensor::ExtractSliceOp::create(
        rewriter, op.getLoc(), full, op.getSource(), op.getMixedOffsets(),
        op.getMixedSizes(), op.getMixedStrides());
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(op, reduced, slice,
                                                         *groups);
    return success();
  }
};

/// Rank-expanding insert_slice -> expand_shape + insert_slice (see above).
struct ExplicitRankExpandingInsert : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::InsertSliceOp op,
                                PatternRewriter &rewriter) const override {
    auto src = op.getSourceType();
    // Dynamic sizes too: a partial edge tile (the last columns of a
    // dynamic width) is inserted with a dynamic size.
    SmallVector<int64_t> sizes;
    for (OpFoldResult s : op.getMixedSizes())
      sizes.push_back(getConstantIntValue(s).value_or(ShapedType::kDynamic));
    if ((int64_t)sizes.size() == src.getRank())
      return failure();
    auto groups = unitDimReassociation(sizes, src.getShape());
    if (!groups)
      return failure();
    auto fullType = RankedTensorType::get(sizes, src.getElementType());
    Value expanded = tensor::ExpandShapeOp::create(
        rewriter, op.getLoc(), fullType, op.getSource(), *groups,
        op.getMixedSizes());
    rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
        op, expanded, op.getDest(), op.getMixedOffsets(), op.getMixedSizes(),
        op.getMixedStrides());
    return success();
  }
};

/// transpose(x) read by a generic -> the generic reads x through the
/// permuted indexing map (no copy). Used in attention groups, whose
/// transposes --fuse placed there for this purpose (elsewhere a transposed
/// weight is a deliberate copy that makes the reads contiguous).
struct FoldTransposeIntoReads : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    bool changed = false;
    SmallVector<Value> inputs(op.getDpsInputs());
    for (auto [i, input] : llvm::enumerate(inputs)) {
      auto transpose = input.getDefiningOp<linalg::TransposeOp>();
      if (!transpose)
        continue;
      // Result dim j of the transpose is input dim perm[j]: input dim k is
      // read at the index the map gives for result dim inverse(perm)[k].
      ArrayRef<int64_t> perm = transpose.getPermutation();
      AffineMap map = maps[i];
      SmallVector<AffineExpr> exprs(perm.size());
      for (auto [j, p] : llvm::enumerate(perm))
        exprs[p] = map.getResult(j);
      maps[i] = AffineMap::get(map.getNumDims(), map.getNumSymbols(), exprs,
                               op.getContext());
      inputs[i] = transpose.getInput();
      changed = true;
    }
    if (!changed)
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      op.getInputsMutable().assign(inputs);
      op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
    return success();
  }
};

/// transpose(generic(...)) -> the generic writes its result permuted, into
/// the transpose's destination (filled like the generic's own was).
struct FoldTransposeIntoWrites : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto producer = op.getInput().getDefiningOp<linalg::GenericOp>();
    if (!producer || producer->getNumResults() != 1 ||
        !producer->getResult(0).hasOneUse() || op->getNumResults() != 1)
      return failure();
    Value init = producer.getDpsInits()[0];
    Value dest = op.getInit();
    if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
      if (!fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>())
        return failure();
      dest = linalg::FillOp::create(rewriter, op.getLoc(), fill.getInputs(),
                                    ValueRange{dest})
                 .getResult(0);
    } else if (!init.getDefiningOp<tensor::EmptyOp>()) {
      return failure();
    }
    // Result dim j of the transpose is producer dim perm[j].
    SmallVector<AffineMap> maps = producer.getIndexingMapsArray();
    AffineMap out = maps.back();
    SmallVector<AffineExpr> exprs;
    for (int64_t p : op.getPermutation())
      exprs.push_back(out.getResult(p));
    maps.back() = AffineMap::get(out.getNumDims(), out.getNumSymbols(), exprs,
                                 op.getContext());
    auto generic = linalg::GenericOp::create(
        rewriter, producer.getLoc(), TypeRange{op->getResult(0).getType()},
        producer.getDpsInputs(), ValueRange{dest}, maps,
        producer.getIteratorTypesArray());
    rewriter.inlineRegionBefore(producer.getRegion(), generic.getRegion(),
                                generic.getRegion().begin());
    rewriter.replaceOp(op, generic->getResults());
    rewriter.eraseOp(producer);
    return success();
  }
};

/// In attention groups, folds the q/k/v and result transposes into the
/// attention's generics.
LogicalResult foldAttentionTransposes(fusion::GroupOp group) {
  if (group.getKind() != "attention")
    return success();
  MLIRContext *ctx = group.getContext();
  RewritePatternSet patterns(ctx);
  patterns.add<FoldTransposeIntoReads, FoldTransposeIntoWrites>(ctx);
  memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
  GreedyRewriteConfig config;
  config.setScope(&group.getBody());
  return applyPatternsGreedily(group.getBody(), std::move(patterns), config);
}

/// A producer that a multi-output group also yields, fused into its one
/// in-group consumer: the fused op computes both and yields both, so the
/// group stays one loop nest and nothing is computed twice.
struct FuseYieldedProducer : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    for (OpOperand &operand : consumer->getOpOperands()) {
      auto producer = operand.get().getDefiningOp<linalg::GenericOp>();
      if (!producer || linalg::isaContractionOpInterface(producer) ||
          linalg::isaContractionOpInterface(consumer))
        continue;
      unsigned consumerUses = 0, yields = 0, others = 0;
      for (Operation *u : producer->getUsers()) {
        if (u == consumer.getOperation())
          ++consumerUses;
        else if (isa<fusion::YieldOp>(u))
          ++yields;
        else if (!isa<tensor::DimOp>(u))
          ++others;
      }
      if (consumerUses != 1 || yields == 0 || others != 0 ||
          !linalg::areElementwiseOpsFusable(&operand))
        continue;
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, &operand);
      if (failed(fused))
        continue;
      for (auto [original, replacement] : fused->replacements)
        rewriter.replaceAllUsesWith(original, replacement);
      return success();
    }
    return failure();
  }
};

/// Fuses elementwise producers into consumers inside one group.
LogicalResult fuseElementwiseInGroup(fusion::GroupOp group) {
  MLIRContext *ctx = group.getContext();
  // Splat and scalar constants the group reads (x * 2.0, an epsilon) are
  // cloned into it, where elementwise fusion folds them into the generics'
  // bodies: no buffer to load from (on a GPU, none to copy to the device).
  Block &body = group.getBodyBlock();
  OpBuilder sink = OpBuilder::atBlockBegin(&body);
  for (auto [arg, input] : llvm::zip(body.getArguments(), group.getInputs())) {
    auto constant = input.getDefiningOp<arith::ConstantOp>();
    auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue())
                          : DenseElementsAttr();
    if (!dense || !dense.isSplat() || arg.use_empty())
      continue;
    arg.replaceAllUsesWith(sink.clone(*constant)->getResult(0));
  }
  RewritePatternSet patterns(ctx);
  linalg::populateElementwiseOpsFusionPatterns(
      patterns, [](OpOperand *fusedOperand) {
        Operation *producer = fusedOperand->get().getDefiningOp();
        // Fusing a producer with other users duplicates its work; only fuse
        // single-use producers (the group already holds only in-group uses).
        // Contractions stay pure multiply-adds so that they keep their
        // register-tiled vector.contract code generation.
        auto consumer = dyn_cast<linalg::LinalgOp>(fusedOperand->getOwner());
        if (consumer && linalg::isaContractionOpInterface(consumer))
          return false;
        // tensor.dim users do not count: they are resolved to the
        // producer's operands below. Producers the group also yields are
        // FuseYieldedProducer's.
        return producer &&
               llvm::count_if(producer->getUsers(), [](Operation *u) {
                 return !isa<tensor::DimOp>(u);
               }) == 1;
      });
  patterns.add<FuseYieldedProducer>(ctx);
  memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
  linalg::FillOp::getCanonicalizationPatterns(patterns, ctx);
  GreedyRewriteConfig config;
  config.setScope(&group.getBody());
  return applyPatternsGreedily(group.getBody(), std::move(patterns), config);
}

/// Tile sizes of the root's loops: the batch-like parallel dims get 1 and
/// the innermost row dim 8 (contraction groups) or 1 (all others; long
/// static rows 4 or 2, see below). A single contraction with an elementwise
/// epilogue also tiles its N dim by 32, the register tile; when the group
/// holds more (attention: two contractions and a softmax between them), N
/// stays whole so the producers of a row block are computed once, not once
/// per N tile. The innermost dim of non-contraction groups stays whole: a
/// row is reduced and written in one go.
SmallVector<int64_t> rootTileSizes(linalg::LinalgOp root, int numContractions,
                                   bool multiPass, bool cheapPasses,
                                   int64_t lanes) {
  SmallVector<utils::IteratorType> iters = root.getIteratorTypesArray();
  SmallVector<int64_t> parallelDims;
  for (auto [i, it] : llvm::enumerate(iters))
    if (it == utils::IteratorType::parallel)
      parallelDims.push_back(i);
  SmallVector<int64_t> sizes(iters.size(), 0);
  if (parallelDims.empty())
    return sizes;
  for (int64_t d : parallelDims)
    sizes[d] = 1;
  if (numContractions > 0 && parallelDims.size() >= 2) {
    sizes[parallelDims.back()] = numContractions == 1 ? 2 * lanes : 0;
    sizes[parallelDims[parallelDims.size() - 2]] = 8;
  } else if (numContractions > 0) {
    sizes[parallelDims.back()] = 2 * lanes;
  } else {
    sizes[iters.size() - 1] = 0;
    // Long static rows (1024 elements and more) of a one-pass group
    // (pointwise, a lone reduction) go 4 at a time: the pass then streams
    // four rows, more memory-level parallelism. A multi-pass group whose
    // passes only read the input again (layer_norm, rms_norm: mean,
    // variance, normalize) goes 2 at a time: its last pass loads each
    // column of the scale and shift once for both rows, loads that miss
    // L1 (the rows and those two vectors, 64 KiB per row of 4096 f32, do
    // not fit) and cost a core as much as its share of memory bandwidth
    // (layer_norm over 16384 x 4096: 8-9 % faster on one core and on two;
    // 4 rows gain nothing more). A multi-pass group with expensive
    // per-element work (softmax: max, exp-sum, scale) goes one row at a
    // time: the row and its scratch copy of the exps stay in L1 between
    // passes (4 rows of 4096 f32 and their scratch, 128 KiB, spill to L2;
    // softmax over 16384 x 4096: 20 ms against 24.6 ms), and
    // tcc-prefetch-rows brings the next row in during the longest pass.
    SmallVector<int64_t> ranges = root.getStaticLoopRanges();
    int64_t last = iters.size() - 1;
    bool longStaticRows =
        iters.size() >= 2 && iters[last - 1] == utils::IteratorType::parallel &&
        !ShapedType::isDynamic(ranges[last]) && ranges[last] >= 1024 &&
        !ShapedType::isDynamic(ranges[last - 1]) && ranges[last - 1] >= 64;
    if (longStaticRows && !multiPass)
      sizes[last - 1] = 4;
    else if (longStaticRows && cheapPasses)
      sizes[last - 1] = 2;
  }
  return sizes;
}

/// Whether `op`'s body holds arithmetic that expands into many vector
/// instructions per element: transcendental functions (polynomials of 20 to
/// 50 instructions once approximated) and divisions.
bool hasExpensiveBody(linalg::LinalgOp op) {
  bool expensive = false;
  op->walk([&](Operation *inner) {
    if (isa<arith::DivFOp, arith::RemFOp>(inner))
      expensive = true;
    else if (inner->getDialect() &&
             inner->getDialect()->getNamespace() == "math" &&
             !isa<math::SqrtOp, math::RsqrtOp, math::AbsFOp, math::FmaOp,
                  math::FloorOp, math::CeilOp, math::RoundEvenOp,
                  math::CopySignOp>(inner))
      expensive = true;
  });
  return expensive;
}

/// Tiles `op` with `fuse`, fusing producers into its loops; replaces its
/// results and erases it and those of `producers` left unused. False when
/// the tiling failed (nothing changed).
bool tileFusingProducers(RewriterBase &rewriter, linalg::LinalgOp op,
                         const scf::SCFTileAndFuseOptions &fuse,
                         ArrayRef<Operation *> producers) {
  FailureOr<scf::SCFTileAndFuseResult> fused =
      scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, cast<TilingInterface>(op.getOperation()), fuse);
  if (failed(fused))
    return false;
  for (auto [original, replacement] : fused->replacements)
    rewriter.replaceAllUsesWith(original, replacement);
  if (op->use_empty())
    rewriter.eraseOp(op);
  for (Operation *producer : producers)
    if (producer->use_empty())
      rewriter.eraseOp(producer);
  return true;
}

/// Whether `op` does expensive arithmetic (see hasExpensiveBody) on values
/// that vary along its innermost loop; work on per-row values only (a
/// mean's sum / n) is hoisted out of the column loop.
bool hasExpensiveRowWork(linalg::GenericOp op) {
  unsigned innerDim = op.getNumLoops() - 1;
  llvm::DenseSet<Value> varying;
  Block &body = op.getRegion().front();
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (map.isFunctionOfDim(innerDim))
      varying.insert(body.getArgument(operand.getOperandNumber()));
  }
  bool expensive = false;
  for (Operation &bodyOp : body.without_terminator()) {
    bool varies = isa<linalg::IndexOp>(bodyOp) ||
                  llvm::any_of(bodyOp.getOperands(), [&](Value v) {
                    return varying.contains(v);
                  });
    if (!varies)
      continue;
    for (Value r : bodyOp.getResults())
      varying.insert(r);
    if (isa<arith::DivFOp, arith::RemFOp>(bodyOp) ||
        (bodyOp.getDialect() &&
         bodyOp.getDialect()->getNamespace() == "math" &&
         !isa<math::SqrtOp, math::RsqrtOp, math::AbsFOp, math::FmaOp,
              math::FloorOp, math::CeilOp, math::RoundEvenOp,
              math::CopySignOp>(bodyOp)))
      expensive = true;
  }
  return expensive;
}

/// Lanes of the innermost dim one chunk of a long static row covers. All
/// rows of the tile are processed together, so one value of the body spans
/// rows x chunk / lanes vector registers. The budget per value: 4 registers
/// for an expensive body (an exp or erf polynomial keeps three or four such
/// values live, out of 32 zmm), 8 for a reduction (accumulators plus the
/// chunk just read), 16 for a cheap elementwise body.
int64_t rowChunkLanes(linalg::LinalgOp op, int64_t lanes) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t rows = 1;
  for (size_t i = 0; i + 1 < ranges.size(); ++i)
    rows *= ranges[i];
  bool reduces = op.getNumReductionLoops() > 0;
  int64_t registers = hasExpensiveBody(op) ? 4 : reduces ? 8 : 16;
  int64_t chunk = lanes;
  while (chunk * 2 * rows <= registers * lanes && chunk < 4 * lanes)
    chunk *= 2;
  return chunk;
}

/// Whether every max / min combiner of `op` may ignore NaN and the sign of
/// zero (fastmath nnan and nsz, as softmax's row maximum is built): its
/// reductions may then take any lane order and skip NaN tracking.
bool maxMinCombinersIgnoreNaN(linalg::LinalgOp op) {
  bool any = false;
  for (Value yielded : op.getBlock()->getTerminator()->getOperands()) {
    Operation *def = yielded.getDefiningOp();
    if (!isa_and_present<arith::MaximumFOp, arith::MinimumFOp>(def))
      continue;
    auto flags = cast<arith::ArithFastMathInterface>(def).getFastMathFlagsAttr();
    if (!flags || !arith::bitEnumContainsAll(flags.getValue(),
                                             arith::FastMathFlags::nnan |
                                                 arith::FastMathFlags::nsz))
      return false;
    any = true;
  }
  return any;
}

/// Records the vector.multi_reduction ops linalg's vectorizer creates.
struct CreatedReductions : RewriterBase::ForwardingListener {
  using ForwardingListener::ForwardingListener;
  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint previous) override {
    if (auto reduction = dyn_cast<vector::MultiDimReductionOp>(op))
      reductions.insert(reduction);
    ForwardingListener::notifyOperationInserted(op, previous);
  }
  // One the vectorizer folds away again must not be visited afterwards.
  void notifyOperationErased(Operation *op) override {
    if (auto reduction = dyn_cast<vector::MultiDimReductionOp>(op))
      reductions.remove(reduction);
    ForwardingListener::notifyOperationErased(op);
  }
  llvm::SetVector<vector::MultiDimReductionOp> reductions;
};

/// Lowers a max or min over one row (the innermost dim; any leading dims
/// are 1, as in the one-row tiles of a softmax) whose combiner ignores NaN
/// (see maxMinCombinersIgnoreNaN) to a vector.reduction that carries nnan
/// and nsz. vector.multi_reduction has no fastmath flags, so without this
/// the horizontal step tracks NaN lanes: about 70 x86 instructions per 64
/// lanes in a dependent chain, once per softmax row, where a
/// shuffle-and-max tree takes 12.
void lowerReductionIgnoringNaN(RewriterBase &rewriter,
                               vector::MultiDimReductionOp op) {
  vector::CombiningKind kind = op.getKind();
  if ((kind != vector::CombiningKind::MAXIMUMF &&
       kind != vector::CombiningKind::MINIMUMF) ||
      isa<vector::MaskingOpInterface>(op->getParentOp()))
    return;
  VectorType source = op.getSourceVectorType();
  int64_t rank = source.getRank();
  if (source.isScalable() || op.getReductionDims().size() != 1 ||
      op.getReductionDims().front() != rank - 1 ||
      source.getNumElements() != source.getShape().back())
    return;
  Location loc = op.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  auto row = VectorType::get(source.getShape().back(), source.getElementType());
  Value lanes = vector::ShapeCastOp::create(rewriter, loc, row, op.getSource());
  Value acc = op.getAcc();
  if (isa<VectorType>(acc.getType()))
    acc = vector::ExtractOp::create(
        rewriter, loc, acc,
        SmallVector<int64_t>(cast<VectorType>(acc.getType()).getRank(), 0));
  Value max = vector::ReductionOp::create(
      rewriter, loc, kind, lanes, acc,
      arith::FastMathFlags::nnan | arith::FastMathFlags::nsz);
  if (isa<VectorType>(op.getType()))
    max = vector::BroadcastOp::create(rewriter, loc, op.getType(), max);
  rewriter.replaceOp(op, max);
}

/// The largest op vectorized whole (registers and cache).
constexpr int64_t kMaxWholeVectorElements = 8192;

/// Straight-line vector instructions `op` becomes when vectorized whole:
/// registers per row times rows times its body's cost, a transcendental
/// (math dialect, expanded to a polynomial later) counting 16.
int64_t straightLineZmmOps(linalg::LinalgOp op, int64_t lanes) {
  if (op.hasDynamicShape() || op.getNumLoops() == 0)
    return 0;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t elements = 1;
  for (int64_t r : ranges)
    elements *= r;
  if (elements > kMaxWholeVectorElements)
    return 0; // stays loops (vectorizeIfProfitable)
  int64_t rows = 1;
  for (int64_t r : ArrayRef<int64_t>(ranges).drop_back())
    rows *= r;
  int64_t perRow = llvm::divideCeil(ranges.back(), lanes);
  int64_t bodyCost = 0;
  op->walk([&](Operation *bodyOp) {
    if (bodyOp == op.getOperation() || isa<linalg::YieldOp>(bodyOp))
      return;
    bool transcendental =
        bodyOp->getDialect() &&
        bodyOp->getDialect()->getNamespace() == "math" &&
        !isa<math::SqrtOp, math::RsqrtOp, math::AbsFOp, math::FmaOp>(bodyOp);
    bodyCost += transcendental ? 16 : 1;
  });
  return rows * perRow * std::max<int64_t>(bodyCost, 1);
}

/// Above this many for a group's whole ops together, they are vectorized
/// a row at a time.
constexpr int64_t kMaxStraightLineZmmOps = 2048;

/// Vectorizes `op` when its shape is static and small enough for registers
/// and cache; larger or dynamic ops (edge tiles) stay scalar loops.
void vectorizeIfProfitable(RewriterBase &rewriter, linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.hasDynamicShape())
    return;
  // i1 tensors hold one byte per element, but LLVM stores vectors of i1
  // bit-packed: keep ops touching i1 memory scalar.
  for (OpOperand &operand : op->getOpOperands())
    if (getElementTypeOrSelf(operand.get().getType()).isInteger(1))
      return;
  int64_t elements = 1;
  for (int64_t r : op.getStaticLoopRanges())
    elements *= r;
  if (elements == 0 || elements > kMaxWholeVectorElements)
    return;
  // Lowering unrolls a vector into one 1-D vector per row of each
  // operand's innermost dim: a high-rank op with a short innermost dim
  // ([3, 6, 6, 5, 3, 4], an exported loss over 5-D inputs), or a transpose
  // reading a long column, would become thousands of ops, and LLVM minutes
  // of compile. Such ops stay loops.
  // (Operands read across their innermost dim unroll into scalar accesses
  // per row: a looser bound there, which tiles of the hot kernels stay
  // under.)
  SmallVector<int64_t> loopRanges = op.getStaticLoopRanges();
  if (!loopRanges.empty() &&
      elements / std::max<int64_t>(1, loopRanges.back()) > 256)
    return;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (map.getNumResults() == 0)
      continue;
    auto inner = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (inner &&
        elements / std::max<int64_t>(1, loopRanges[inner.getPosition()]) > 1024)
      return;
  }
  // A long reduction that is not the innermost dim ([1024, 8] to [8])
  // would become a chain of hundreds of dependent vector ops that LLVM
  // takes minutes to compile; such ops stay loops.
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  for (size_t i = 0; i + 1 < ranges.size(); ++i)
    if (iters[i] == utils::IteratorType::reduction && ranges[i] > 64)
      return;
  if (failed(linalg::vectorizeOpPrecondition(op)))
    return;
  rewriter.setInsertionPoint(op);
  bool ignoreNaN = maxMinCombinersIgnoreNaN(op);
  OpBuilder::Listener *listener = rewriter.getListener();
  CreatedReductions created(listener);
  rewriter.setListener(&created);
  FailureOr<linalg::VectorizationResult> result =
      linalg::vectorize(rewriter, op);
  rewriter.setListener(listener);
  if (succeeded(result))
    rewriter.replaceOp(op, result->replacements);
  if (succeeded(result) && ignoreNaN)
    for (vector::MultiDimReductionOp reduction : created.reductions)
      lowerReductionIgnoringNaN(rewriter, reduction);
}

/// Splits the last, partial tile off `loop` so the main loop runs full,
/// statically shaped tiles (which vectorize) and the remainder runs once.
/// With `divisible` (the trip range is known to be a multiple of the step:
/// a size fact the entry guards check) the remainder never runs and is
/// dropped.
void peelPartialTile(RewriterBase &rewriter, LoopLikeOpInterface loop,
                     bool divisible = false) {
  auto forOp = dyn_cast<scf::ForOp>(loop.getOperation());
  if (!forOp)
    return;
  scf::ForOp partial;
  rewriter.setInsertionPoint(forOp);
  if (failed(scf::peelForLoopAndSimplifyBounds(rewriter, forOp, partial)) ||
      !partial || !divisible)
    return;
  rewriter.replaceOp(partial, partial.getInitArgs());
}

/// For each loop of `root`, the largest k known to divide its range (from
/// the group result's size expression and the function's constraints).
SmallVector<int64_t> loopDivisors(fusion::GroupOp group,
                                  linalg::LinalgOp root) {
  SmallVector<int64_t> divisors(root.getNumLoops(), 1);
  auto func = group->getParentOfType<func::FuncOp>();
  SmallVector<std::string> names;
  std::optional<SmallVector<AffineExpr>> shape =
      group->getNumResults() == 1
          ? readShapeAnnotation(group->getResult(0), names)
          : std::nullopt;
  if (!func || !shape || root.getNumDpsInits() != 1)
    return divisors;
  AffineMap out = root.getMatchingIndexingMap(root.getDpsInitOperand(0));
  if (out.getNumResults() != shape->size())
    return divisors;
  for (auto [p, e] : llvm::enumerate(out.getResults()))
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      divisors[dim.getPosition()] = knownDivisor((*shape)[p], func, names);
  return divisors;
}

/// What the canonicalizer collects: dialect-level patterns (linalg's folding
/// of tensor.cast into consumers among them) and op patterns.
RewritePatternSet collectCanonicalizationPatterns(MLIRContext *ctx) {
  RewritePatternSet patterns(ctx);
  for (Dialect *dialect : ctx->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
  tensor::populateFoldTensorEmptyPatterns(patterns);
  return patterns;
}

/// Tiles `op` by `sizes` (0 = untiled) with scf.for loops, replaces it, and
/// peels the partial last tile of each loop when `peel` is set. Returns the
/// tiling result, or failure (the op is then left as it was).
FailureOr<scf::SCFTilingResult> tileAndPeel(RewriterBase &rewriter,
                                            Operation *op,
                                            ArrayRef<int64_t> sizes,
                                            bool peel = true) {
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), sizes));
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileUsingSCF(rewriter, cast<TilingInterface>(op), options);
  if (failed(tiled))
    return failure();
  rewriter.replaceOp(op, tiled->replacements);
  if (peel)
    for (LoopLikeOpInterface loop : tiled->loops)
      peelPartialTile(rewriter, loop);
  return tiled;
}

/// Folds affine.min of peeled loops into constants so tiles get static types.
void simplifyGroup(fusion::GroupOp group,
                   const FrozenRewritePatternSet &canonicalize) {
  (void)applyPatternsGreedily(group.getBody(), canonicalize);
}

/// Marks the tile loop that tcc-parallelize-tile-loops will run across
/// cores: the outermost with a static trip count of at least 4 (so a batch
/// of 1 does not waste the threads), else the outermost. Small groups stay
/// serial: forking threads costs microseconds. `work` is the group's
/// largest iteration space before tiling (largestIterationSpace: a mean's
/// division over [16384] tiles the sum over [16384, 4096] with it).
int64_t largestIterationSpace(fusion::GroupOp group) {
  int64_t work = 1;
  group.walk([&](linalg::LinalgOp op) {
    int64_t size = 1;
    for (int64_t r : op.getStaticLoopRanges())
      size *= ShapedType::isDynamic(r) ? 64 : r;
    work = std::max(work, size);
  });
  return work;
}

void markParallelLoop(int64_t work, linalg::LinalgOp root,
                      ArrayRef<LoopLikeOpInterface> loops) {
  if (loops.empty() || work < (1 << 16))
    return;
  auto mark = UnitAttr::get(root.getContext());
  for (size_t i = 0; i < loops.size(); ++i) {
    auto forOp = dyn_cast<scf::ForOp>(LoopLikeOpInterface(loops[i]).getOperation());
    if (!forOp)
      continue;
    std::optional<APInt> trips = forOp.getStaticTripCount();
    if (!trips || trips->getSExtValue() < 4)
      continue;
    forOp->setAttr(kParallelLoopAttr, mark);
    // Dynamic row-tile loops right around it join the band (rows x
    // columns of tiles in one parallel loop), so a dynamic sequence does
    // not fork a team per row tile; unit-step loops (a batch of 1) stay
    // outside.
    for (int64_t j = (int64_t)i - 1; j >= 0; --j) {
      auto outer = dyn_cast<scf::ForOp>(LoopLikeOpInterface(loops[j]).getOperation());
      std::optional<int64_t> step =
          outer ? getConstantIntValue(outer.getStep()) : std::nullopt;
      if (!outer || outer.getStaticTripCount() || !step || *step <= 1)
        break;
      outer->setAttr(kParallelLoopAttr, mark);
    }
    return;
  }
  // No loop is known to be long: mark the leading band of dynamic loops
  // (batch x sequence rows, say), which tcc-parallelize-tile-loops
  // collapses into one parallel loop over their product.
  bool any = false;
  for (LoopLikeOpInterface loop : loops) {
    auto forOp = dyn_cast<scf::ForOp>(loop.getOperation());
    if (!forOp)
      break;
    // Loops that run once (a batch fixed to 1) are stepped over.
    if (std::optional<APInt> trips = forOp.getStaticTripCount()) {
      if (trips->getSExtValue() <= 1)
        continue;
      break;
    }
    forOp->setAttr(kParallelLoopAttr, mark);
    any = true;
  }
  if (!any)
    loops.front()->setAttr(kParallelLoopAttr, mark);
}

/// Marks the row x column tiles of dot-product contractions until their K
/// is split.
constexpr StringLiteral kDotTile = "tcc.dot_tile";

/// Contractions whose operands are both contiguous along K (x @ wᵀ, the
/// nn.Linear layout) use a dot-product kernel instead of outer products
/// (which would transpose every weight tile): tiles of 2 rows x 8 columns
/// accumulate lanes-wide partial sums over K (16 vector FMAs per K step, both
/// operands loaded contiguously) and reduce the lanes once at the end.
/// Needs a static K divisible by the lane count.
LogicalResult tileDotProductContraction(RewriterBase &rewriter,
                                        linalg::LinalgOp op, int64_t lanes) {
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (op.getNumDpsInputs() != 2 ||
      llvm::count(iters, utils::IteratorType::reduction) != 1)
    return failure();
  int64_t k = std::distance(
      iters.begin(), llvm::find(iters, utils::IteratorType::reduction));
  auto innermost = [&](OpOperand *operand) {
    AffineMap map = op.getMatchingIndexingMap(operand);
    auto dim = dyn_cast<AffineDimExpr>(map.getResults().back());
    return dim && dim.getPosition() == (unsigned)k;
  };
  if (!innermost(op.getDpsInputOperand(0)) ||
      !innermost(op.getDpsInputOperand(1)) ||
      ShapedType::isDynamic(ranges[k]) || ranges[k] % lanes != 0)
    return failure();
  // With 8 or more static rows the outer-product kernel (which reuses each
  // weight vector across 8 rows) is faster; the dot product wins for the few
  // rows of a small, dynamic batch.
  SmallVector<int64_t> parallelLoops;
  for (auto [i, it] : llvm::enumerate(iters))
    if (it == utils::IteratorType::parallel)
      parallelLoops.push_back(i);
  if (parallelLoops.size() >= 2) {
    int64_t m = ranges[parallelLoops[parallelLoops.size() - 2]];
    if (!ShapedType::isDynamic(m) && m >= 8)
      return failure();
  }
  MLIRContext *ctx = op.getContext();
  // Parallel register tile: 2 x 8 (dynamic dims 1).
  SmallVector<int64_t> sizes(op.getNumLoops(), 0);
  SmallVector<int64_t> parallelDims;
  for (auto [i, it] : llvm::enumerate(iters))
    if (it == utils::IteratorType::parallel)
      parallelDims.push_back(i);
  for (int64_t d : parallelDims)
    sizes[d] = 1;
  auto tile = [&](int64_t d, int64_t size) {
    sizes[d] = ShapedType::isDynamic(ranges[d])
                   ? 1
                   : std::min<int64_t>(size, ranges[d]);
  };
  if (!parallelDims.empty())
    tile(parallelDims.back(), 8);
  if (parallelDims.size() >= 2)
    tile(parallelDims[parallelDims.size() - 2], 2);
  FailureOr<scf::SCFTilingResult> outer =
      tileAndPeel(rewriter, op, sizes, /*peel=*/false);
  if (failed(outer))
    return failure();
  // Peeling clones the tile: mark it so the clones are found (and their K
  // split by splitDotProductTiles) once their shapes are static.
  for (Operation *t : outer->tiledOps)
    t->setAttr(kDotTile, UnitAttr::get(ctx));
  for (LoopLikeOpInterface loop : outer->loops)
    peelPartialTile(rewriter, loop);
  return success();
}

/// Second half of the dot-product kernel, after canonicalization made the
/// peeled tiles static: K is split into lanes-wide partial sums that are
/// reduced after the K loop.
void splitDotProductTiles(RewriterBase &rewriter, fusion::GroupOp group,
                          int64_t lanes) {
  MLIRContext *ctx = group.getContext();
  SmallVector<linalg::LinalgOp> tiles;
  group.walk([&](linalg::LinalgOp t) {
    if (t->hasAttr(kDotTile)) {
      t->removeAttr(kDotTile);
      tiles.push_back(t);
    }
  });
  for (linalg::LinalgOp t : tiles) {
    if (t.hasDynamicShape())
      continue;
    SmallVector<utils::IteratorType> iters = t.getIteratorTypesArray();
    unsigned k = std::distance(
        iters.begin(), llvm::find(iters, utils::IteratorType::reduction));
    SmallVector<int64_t> kSizes(t.getNumLoops(), 0);
    kSizes[k] = lanes;
    scf::SCFTilingOptions split;
    split.setTileSizes(getAsIndexOpFoldResult(ctx, kSizes));
    split.setReductionTilingStrategy(
        ReductionTilingStrategy::PartialReductionOuterReduction);
    split.setReductionDims({k});
    rewriter.setInsertionPoint(t);
    FailureOr<scf::SCFTilingResult> splitK = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(t.getOperation()), split);
    if (succeeded(splitK))
      rewriter.replaceOp(t, splitK->replacements);
  }
}

/// Tiles the group's root with its in-group producers fused into the tile
/// loops, tiles contractions along K, then vectorizes the tiles.
LogicalResult tileAndVectorizeGroup(fusion::GroupOp group, int64_t lanes,
                                    const FrozenRewritePatternSet &canonicalize) {
  MLIRContext *ctx = group.getContext();
  // The root computes every result (several only when elementwise fusion
  // merged a multi-output group into one op). A group without one (small
  // independent loops merged horizontally) is not tiled: each op is
  // vectorized whole below.
  auto yield = cast<fusion::YieldOp>(group.getBodyBlock().getTerminator());
  if (yield.getValues().empty())
    return success();
  // A reduction with keep_dims yields its result through an expand_shape:
  // the root is the reduction.
  auto throughReshapes = [](Value v) {
    while (Operation *def = v.getDefiningOp()) {
      if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def))
        break;
      v = def->getOperand(0);
    }
    return v;
  };
  auto root =
      throughReshapes(yield.getValues()[0]).getDefiningOp<linalg::LinalgOp>();
  if (root && (!isa<TilingInterface>(root.getOperation()) ||
               !llvm::all_of(yield.getValues(), [&](Value v) {
                 return throughReshapes(v).getDefiningOp() ==
                        root.getOperation();
               })))
    root = nullptr;
  int numContractions = 0;
  bool hasConv = false, hasReduction = false;
  group.walk([&](linalg::LinalgOp op) {
    numContractions += linalg::isaContractionOpInterface(op);
    hasConv |= isa<linalg::Conv2DNchwFchwOp>(op);
    hasReduction |= op.getNumReductionLoops() > 0;
  });
  SmallVector<int64_t> sizes;
  bool tileRootLoops = false;
  if (root) {
    // A reduction read again by the root (softmax, the norms) makes
    // several passes over each row.
    bool multiPass = hasReduction && numContractions == 0 &&
                     root.getNumReductionLoops() == 0;
    // Per-element work of the full-rank ops only: a norm's per-row
    // division and rsqrt (ops over the reduced rows) do not count.
    bool cheapPasses = true;
    group.walk([&](linalg::GenericOp op) {
      if (op.getNumLoops() >= root.getNumLoops() && hasExpensiveRowWork(op))
        cheapPasses = false;
    });
    sizes = rootTileSizes(root, numContractions, multiPass, cheapPasses, lanes);
    // A root over a reduction's result space (the mean's division after
    // its sum, [16384] after [16384, 4096]): the root's innermost dim is
    // rows of the reduction, not a row to keep whole. Four at a time, as a
    // lone reduction's rows; untiled, the fused-in reduction walked all
    // 16384 rows per 16-column chunk (layer_norm --no-fuse: 660 ms).
    bool overReducedRows = false;
    group.walk([&](linalg::LinalgOp op) {
      overReducedRows |= op.getNumReductionLoops() > 0 &&
                         op.getNumLoops() > root.getNumLoops();
    });
    if (overReducedRows && numContractions == 0 && !sizes.empty() &&
        root.getNumReductionLoops() == 0)
      sizes.back() = 4;
    // NCHW conv groups: 8 output channels x 32 output columns of one row
    // per tile (the conv's parallel loops are n, f, oh, ow).
    if (hasConv && root.getNumParallelLoops() == 4 &&
        root.getNumLoops() >= 4) {
      SmallVector<int64_t> convSizes = {1, 8, 1, 2 * lanes};
      convSizes.resize(root.getNumLoops(), 0);
      sizes = convSizes;
    }
    // A 2-D transpose root (a copy group) is tiled in square blocks below,
    // not by rows (a row of its result is a strided column of its input);
    // a root with nothing to tile is left whole.
    bool blockTranspose =
        isa<linalg::TransposeOp>(root) && root.getNumLoops() == 2;
    tileRootLoops = !blockTranspose &&
                    llvm::any_of(sizes, [](int64_t s) { return s != 0; });
  }

  IRRewriter rewriter(ctx);
  if (tileRootLoops) {
    int64_t work = largestIterationSpace(group);
    scf::SCFTilingOptions tiling;
    tiling.setTileSizes(getAsIndexOpFoldResult(ctx, sizes));
    scf::SCFTileAndFuseOptions options;
    options.setTilingOptions(tiling);
    // Padding is done once on the whole input, not per tile (a padded tile has
    // dynamic pad amounts and would not vectorize).
    // A producer whose needed slice does not move with the tile loops (a
    // reduction over the tiled rows, consumed broadcast along them) would be
    // recomputed whole in every iteration, into one buffer shared by the
    // iterations: it runs once, before the loops, instead.
    options.setFusionControlFn(
        [](tensor::ExtractSliceOp slice, OpResult producer,
           bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
          // Padding and weight transposes run once on the whole tensor, not
          // per tile (a padded tile would not vectorize; a weight panel would
          // be transposed again for every row tile).
          if (isa<tensor::PadOp, linalg::TransposeOp>(producer.getOwner()))
            return std::nullopt;
          auto definedInLoops = [&](Value v) {
            Operation *scope = v.getParentRegion()->getParentOp();
            return isa<LoopLikeOpInterface>(scope) ||
                   scope->getParentOfType<LoopLikeOpInterface>();
          };
          bool movesWithTile = llvm::any_of(
              llvm::concat<Value>(slice.getOffsets(), slice.getSizes()),
              definedInLoops);
          if (!movesWithTile)
            return std::nullopt;
          return scf::SCFTileAndFuseOptions::ControlFnResult{};
        });
    rewriter.setInsertionPoint(root);
    FailureOr<scf::SCFTileAndFuseResult> tiled =
        scf::tileConsumerAndFuseProducersUsingSCF(
            rewriter, cast<TilingInterface>(root.getOperation()), options);
    if (failed(tiled))
      return success(); // Untiled code is still correct.
    for (OpResult r : root->getResults())
      if (Value repl = tiled->replacements.lookup(r))
        rewriter.replaceAllUsesWith(r, repl);
    for (Operation *op : llvm::reverse(tiled->fusedProducers))
      if (op->use_empty())
        rewriter.eraseOp(op);
    markParallelLoop(work, root, tiled->loops);
    SmallVector<int64_t> divisors = loopDivisors(group, root);
    if (root->use_empty())
      rewriter.eraseOp(root);
    SmallVector<int64_t> tiledDims;
    for (auto [d, size] : llvm::enumerate(sizes))
      if (size != 0)
        tiledDims.push_back(d);
    for (auto [loop, d] : llvm::zip(tiled->loops, tiledDims))
      peelPartialTile(rewriter, loop,
                      divisors[d] != 0 && divisors[d] % sizes[d] == 0);
    simplifyGroup(group, canonicalize);
    // A producer read by two fused consumers (softmax's exp, read by the
    // sum and by the normalization) was fused once per consumer: the two
    // identical tiles become one.
    DominanceInfo dominance;
    eliminateCommonSubExpressions(rewriter, dominance, group);
  }

  // Register tiles: every contraction's two innermost parallel dims by
  // 8 x 2*lanes and K by lanes (with AVX-512: 8 x 32 x 16, 16 zmm
  // accumulators, one vector.contract each);
  // partial tiles are peeled off. A dim still dynamic here (the rows of an
  // edge tile when the batch is dynamic) is tiled by 1, so even a batch of 1
  // runs vector code.
  SmallVector<linalg::LinalgOp> contractions;
  group.walk([&](linalg::LinalgOp op) {
    if (linalg::isaContractionOpInterface(op))
      contractions.push_back(op);
  });
  for (linalg::LinalgOp op : contractions) {
    if (succeeded(tileDotProductContraction(rewriter, op, lanes)))
      continue;
    SmallVector<int64_t> kSizes(op.getNumLoops(), 0);
    SmallVector<int64_t> parallelDims;
    for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray())) {
      if (it == utils::IteratorType::reduction)
        kSizes[i] = lanes;
      else
        parallelDims.push_back(i);
    }
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    auto registerTile = [&](int64_t dim, int64_t size) {
      kSizes[dim] = ShapedType::isDynamic(ranges[dim])
                        ? 1
                        : std::min<int64_t>(size, ranges[dim]);
    };
    for (int64_t d : parallelDims)
      kSizes[d] = 1;
    // Dynamic columns (a sequence length) take full-width tiles anyway: the
    // peeled main loop runs static 8 x 32 tiles and only the last partial
    // tile is scalar.
    if (!parallelDims.empty() && ShapedType::isDynamic(ranges[parallelDims.back()]))
      kSizes[parallelDims.back()] = 2 * lanes;
    else if (!parallelDims.empty())
      registerTile(parallelDims.back(), 2 * lanes);
    if (parallelDims.size() >= 2) {
      int64_t m = parallelDims[parallelDims.size() - 2];
      registerTile(m, 8);
      // Dynamic rows (the last, partial row tile of a dynamic sequence):
      // 4 rows at a time first, then 2, then 1 (below), so fewer than 8
      // rows take at most three passes over the weight panel, not seven.
      if (ShapedType::isDynamic(ranges[m]))
        kSizes[m] = 4;
    }
    (void)tileAndPeel(rewriter, op, kSizes);
  }
  for (int64_t rows : {2, 1}) {
    simplifyGroup(group, canonicalize);
    SmallVector<linalg::LinalgOp> edges;
    group.walk([&](linalg::LinalgOp op) {
      if (!linalg::isaContractionOpInterface(op) || op->hasAttr(kDotTile))
        return;
      SmallVector<int64_t> parallel;
      for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray()))
        if (it == utils::IteratorType::parallel)
          parallel.push_back(i);
      if (parallel.size() >= 2 &&
          ShapedType::isDynamic(
              op.getStaticLoopRanges()[parallel[parallel.size() - 2]]))
        edges.push_back(op);
    });
    for (linalg::LinalgOp op : edges) {
      SmallVector<int64_t> sizes(op.getNumLoops(), 0);
      SmallVector<int64_t> parallel;
      for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray()))
        if (it == utils::IteratorType::parallel)
          parallel.push_back(i);
      sizes[parallel[parallel.size() - 2]] = rows;
      // Leading dynamic parallel dims (a batch) one at a time.
      for (size_t p = 0; p + 2 < parallel.size(); ++p)
        if (ShapedType::isDynamic(op.getStaticLoopRanges()[parallel[p]]))
          sizes[parallel[p]] = 1;
      (void)tileAndPeel(rewriter, op, sizes, /*peel=*/rows > 1);
    }
  }
  simplifyGroup(group, canonicalize);
  splitDotProductTiles(rewriter, group, lanes);
  simplifyGroup(group, canonicalize);

  // NCHW convs: input channels by 8 and kernel rows by 1, so each tile is a
  // 1-D convolution (decomposed below) that vectorizes to contractions.
  SmallVector<linalg::Conv2DNchwFchwOp> convs;
  group.walk([&](linalg::Conv2DNchwFchwOp op) {
    if (!op.hasDynamicShape())
      convs.push_back(op);
  });
  for (linalg::Conv2DNchwFchwOp op : convs) {
    // Loops: n, f, oh, ow, c, kh, kw.
    (void)tileAndPeel(rewriter, op, {0, 0, 0, 0, 8, 1, 0});
  }
  if (!convs.empty()) {
    simplifyGroup(group, canonicalize);
    RewritePatternSet decompose(ctx);
    linalg::populateDecomposeConvolutionPatterns(decompose);
    (void)applyPatternsGreedily(group.getBody(), std::move(decompose));
    RewritePatternSet explicitReshapes(ctx);
    explicitReshapes.add<ExplicitRankReducingExtract,
                         ExplicitRankExpandingInsert>(ctx);
    (void)applyPatternsGreedily(group.getBody(), std::move(explicitReshapes));
  }

  // Transposes left outside the tile loops (weights): 16 x 16 blocks, each
  // one vector.transpose.
  SmallVector<linalg::TransposeOp> transposes;
  for (Operation &op : group.getBodyBlock())
    if (auto t = dyn_cast<linalg::TransposeOp>(op))
      if (!t.hasDynamicShape() && t.getNumLoops() == 2)
        transposes.push_back(t);
  for (linalg::TransposeOp t : transposes)
    (void)tileAndPeel(rewriter, t, {lanes, lanes});
  if (!transposes.empty())
    simplifyGroup(group, canonicalize);

  // Other ops with dynamic parallel dims (elementwise edge tiles): one
  // element along those dims per iteration, the rest static and vectorized.
  SmallVector<linalg::LinalgOp> dynamicOps;
  group.walk([&](linalg::LinalgOp op) {
    if (op.hasPureTensorSemantics() && op.hasDynamicShape() &&
        !linalg::isaContractionOpInterface(op))
      dynamicOps.push_back(op);
  });
  for (linalg::LinalgOp op : dynamicOps) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<int64_t> sizes(ranges.size(), 0);
    bool makesStatic = true;
    int64_t last = ranges.size() - 1;
    for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray())) {
      if (!ShapedType::isDynamic(ranges[i]))
        continue;
      // A dynamic innermost dim (a softmax over a dynamic sequence) is cut
      // into lanes-wide chunks: the peeled main loop vectorizes, only the
      // last partial chunk stays scalar. Other dynamic dims go one at a
      // time; a dynamic reduction elsewhere keeps the op scalar.
      if ((int64_t)i == last) {
        sizes[i] = lanes;
        continue;
      }
      if (it == utils::IteratorType::reduction)
        makesStatic = false;
      sizes[i] = 1;
    }
    if (makesStatic)
      (void)tileAndPeel(rewriter, op, sizes,
                        /*peel=*/ShapedType::isDynamic(ranges[last]));
  }
  simplifyGroup(group, canonicalize);

  // Long static rows (a softmax or norm over 4096, a pointwise row tile):
  // the innermost dim in chunks, so a chunk of every row in the tile lives
  // in a few registers instead of the whole row in hundreds (which spills).
  // A reduction along it keeps a chunk-wide partial result across chunks and
  // reduces it once at the end.
  // An elementwise producer of a row reduction's input (the exp of a
  // softmax, read by the sum and by the normalization) is computed in the
  // reduction's chunk loop, which also yields it: one pass over the row
  // instead of two.
  auto chunkable = [](linalg::LinalgOp op) {
    return op.hasPureTensorSemantics() && !op.hasDynamicShape() &&
           !linalg::isaContractionOpInterface(op) && op.getNumLoops() > 0 &&
           !isa<linalg::TransposeOp, linalg::FillOp>(op.getOperation());
  };
  llvm::DenseMap<Operation *, linalg::GenericOp> chunkProducer;
  llvm::DenseSet<Operation *> fusedIntoReduction;
  group.walk([&](linalg::GenericOp op) {
    if (!chunkable(op) || op.getNumReductionLoops() != 1 ||
        op->getNumResults() != 1 ||
        op.getIteratorTypesArray().back() != utils::IteratorType::reduction)
      return;
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto producer = input->get().getDefiningOp<linalg::GenericOp>();
      if (!producer || !chunkable(producer) ||
          fusedIntoReduction.contains(producer) ||
          producer.getNumParallelLoops() != producer.getNumLoops() ||
          producer->getNumResults() != 1 ||
          producer.getStaticLoopRanges() != op.getStaticLoopRanges() ||
          !op.getMatchingIndexingMap(input).isIdentity() ||
          !llvm::all_of(producer.getIndexingMapsArray(), [](AffineMap m) {
            return m.isProjectedPermutation();
          }))
        continue;
      chunkProducer[op] = producer;
      fusedIntoReduction.insert(producer);
      break;
    }
  });
  // Cheap producers fused into a reduction whose other readers are all
  // elementwise ops over the same rows: recomputed in each of them.
  llvm::DenseSet<Operation *> recomputed;
  for (Operation *producer : fusedIntoReduction) {
    auto generic = cast<linalg::GenericOp>(producer);
    if (hasExpensiveRowWork(generic))
      continue;
    bool allElementwise = llvm::all_of(producer->getUsers(), [&](Operation *u) {
      auto user = dyn_cast<linalg::GenericOp>(u);
      return user && chunkable(user) &&
             (llvm::any_of(chunkProducer,
                           [&](auto &entry) { return entry.first == u; }) ||
              (user.getNumParallelLoops() == user.getNumLoops() &&
               user.getStaticLoopRanges() == generic.getStaticLoopRanges()));
    });
    if (allElementwise)
      recomputed.insert(producer);
  }
  SmallVector<std::pair<linalg::LinalgOp, int64_t>> longRows;
  group.walk([&](linalg::LinalgOp op) {
    if (!chunkable(op) || fusedIntoReduction.contains(op))
      return;
    int64_t inner = op.getStaticLoopRanges().back();
    int64_t chunk = rowChunkLanes(op, lanes);
    if (auto producer = chunkProducer.lookup(op))
      chunk = std::min(chunk, rowChunkLanes(producer, lanes));
    if (inner > chunk && inner % chunk == 0)
      longRows.push_back({op, chunk});
  });
  for (auto [op, chunk] : longRows) {
    int64_t last = op.getNumLoops() - 1;
    SmallVector<int64_t> sizes(op.getNumLoops(), 0);
    sizes[last] = chunk;
    scf::SCFTilingOptions options;
    options.setTileSizes(getAsIndexOpFoldResult(ctx, sizes));
    if (op.getIteratorTypesArray()[last] == utils::IteratorType::reduction) {
      // A body that reads its own indices would see chunk-relative ones in
      // the partial reduction: left whole.
      bool readsIndices = false;
      op->walk([&](linalg::IndexOp) { readsIndices = true; });
      if (op.getNumReductionLoops() != 1 || op->getNumResults() != 1 ||
          readsIndices)
        continue;
      options.setReductionTilingStrategy(
          ReductionTilingStrategy::PartialReductionOuterReduction);
      options.setReductionDims({static_cast<unsigned>(last)});
      if (linalg::GenericOp producer = chunkProducer.lookup(op)) {
        scf::SCFTileAndFuseOptions fuse;
        fuse.setTilingOptions(options);
        fuse.setFusionControlFn(
            [&](tensor::ExtractSliceOp, OpResult result, bool)
                -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
              if (result.getOwner() != producer.getOperation())
                return std::nullopt;
              // Other readers get the producer's values from the loop (a
              // scratch row) when they are costly to compute again (exp);
              // a cheap producer (x - mean) is recomputed in their chunk
              // loops instead, saving a store and a load per element.
              scf::SCFTileAndFuseOptions::ControlFnResult control;
              control.yieldProducerReplacement =
                  !result.hasOneUse() && !recomputed.contains(producer);
              return control;
            });
        rewriter.setInsertionPoint(op);
        if (tileFusingProducers(rewriter, op, fuse, {producer.getOperation()}))
          continue;
      }
    }
    rewriter.setInsertionPoint(op);
    // An elementwise reader of a recomputed producer computes it again in
    // its own chunk loop.
    SmallVector<Operation *> again;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        if (recomputed.contains(def))
          again.push_back(def);
    if (!again.empty()) {
      scf::SCFTileAndFuseOptions fuse;
      fuse.setTilingOptions(options);
      fuse.setFusionControlFn(
          [&](tensor::ExtractSliceOp, OpResult result, bool)
              -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
            if (!llvm::is_contained(again, result.getOwner()))
              return std::nullopt;
            return scf::SCFTileAndFuseOptions::ControlFnResult{};
          });
      if (tileFusingProducers(rewriter, op, fuse, again))
        continue;
    }
    FailureOr<scf::SCFTilingResult> tiled =
        scf::tileUsingSCF(rewriter, cast<TilingInterface>(op.getOperation()),
                          options);
    if (succeeded(tiled))
      rewriter.replaceOp(op, tiled->replacements);
  }
  if (!longRows.empty())
    simplifyGroup(group, canonicalize);

  // Ops still whole at the group's top level (the members of a group
  // without one root: small groups merged horizontally) would be
  // vectorized as blocks, all in one basic block of straight-line code. A
  // [64, 100] layer_norm and log_softmax merged that way made some 8000
  // zmm instructions, and LLVM's scheduler took seconds over them (30x the
  // unfused compile). Past a budget they run a row per iteration instead:
  // their outer parallel dims tiled by 1.
  SmallVector<linalg::LinalgOp> wholeOps;
  int64_t straightLine = 0;
  for (Operation &op : group.getBodyBlock())
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(&op)) {
      wholeOps.push_back(linalgOp);
      straightLine += straightLineZmmOps(linalgOp, lanes);
    }
  if (straightLine > kMaxStraightLineZmmOps) {
    for (linalg::LinalgOp op : wholeOps) {
      if (op.hasDynamicShape())
        continue;
      SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
      SmallVector<int64_t> sizes(iters.size(), 0);
      for (size_t d = 0; d + 1 < iters.size(); ++d)
        if (iters[d] == utils::IteratorType::parallel)
          sizes[d] = 1;
      if (llvm::any_of(sizes, [](int64_t s) { return s != 0; }))
        (void)tileAndPeel(rewriter, op, sizes, /*peel=*/false);
    }
  }

  SmallVector<linalg::LinalgOp> toVectorize;
  group.walk([&](linalg::LinalgOp op) { toVectorize.push_back(op); });
  for (linalg::LinalgOp op : toVectorize)
    vectorizeIfProfitable(rewriter, op);
  // Broadcasting reads become read + vector.broadcast, which then folds into
  // the contraction's indexing maps: a plain (m,k) x (k,n) vector.contract.
  RewritePatternSet patterns(ctx);
  vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
  vector::populateVectorReductionToContractPatterns(patterns);
  vector::populateSinkVectorOpsPatterns(patterns);
  (void)applyPatternsGreedily(group.getBody(), std::move(patterns));
  return success();
}

/// f32 lanes of the host's widest vector registers.
int64_t hostVectorLanes() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  if (features.lookup("avx512f"))
    return 16;
  if (features.lookup("avx2") || features.lookup("avx"))
    return 8;
  return 4;
}

/// Moves the group's body before it and replaces its results; the memory
/// plan's entries move to the ops that now define the results.
void inlineGroup(fusion::GroupOp group) {
  Block &body = group.getBodyBlock();
  auto yield = cast<fusion::YieldOp>(body.getTerminator());
  for (auto [arg, in] : llvm::zip(body.getArguments(), group.getInputs()))
    arg.replaceAllUsesWith(in);
  SmallVector<Value> results(yield.getValues());
  // A plan entry belongs to the op computing the result inside the group; a
  // group that forwards a value has nothing to place.
  llvm::MapVector<Operation *, SmallVector<Attribute>> plans;
  Builder b(group.getContext());
  for (auto [i, v] : llvm::enumerate(results)) {
    DictionaryAttr plan = getBufferPlan(group, i);
    Operation *def = v.getDefiningOp();
    if (!plan || !def || def->getBlock() != &body)
      continue;
    SmallVector<Attribute> &entries = plans[def];
    entries.resize(def->getNumResults(), b.getUnitAttr());
    entries[cast<OpResult>(v).getResultNumber()] = plan;
  }
  Operation *parent = group;
  for (Operation &op : llvm::make_early_inc_range(body.without_terminator()))
    op.moveBefore(parent);
  for (auto &[def, entries] : plans)
    def->setAttr(kBufferAttr, entries.size() == 1 ? entries.front()
                                                  : b.getArrayAttr(entries));
  group->replaceAllUsesWith(results);
  group->erase();
}

struct LowerFusionGroupsPass
    : tcc::impl::LowerFusionGroupsPassBase<LowerFusionGroupsPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    canonicalize = collectCanonicalizationPatterns(ctx);
    return success();
  }

  void runOnOperation() override {
    int64_t lanes = vectorLanes > 0 ? int64_t(vectorLanes) : hostVectorLanes();
    SmallVector<fusion::GroupOp> groups;
    getOperation().walk([&](fusion::GroupOp g) { groups.push_back(g); });
    for (fusion::GroupOp group : groups) {
      if (failed(foldAttentionTransposes(group))) {
        group.emitError("failed to fold the attention's transposes");
        return signalPassFailure();
      }
      if (failed(fuseElementwiseInGroup(group))) {
        group.emitError("failed to fuse the group's elementwise ops");
        return signalPassFailure();
      }
      if (vectorize &&
          failed(tileAndVectorizeGroup(group, lanes, canonicalize))) {
        group.emitError("failed to tile the group");
        return signalPassFailure();
      }
      inlineGroup(group);
    }
  }

  FrozenRewritePatternSet canonicalize;
};

} // namespace
