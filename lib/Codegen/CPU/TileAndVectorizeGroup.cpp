//===- TileAndVectorizeGroup.cpp - a fusion group's CPU loop nest -*- C++
//-*-===//
//
// The CPU's part of tcc-lower-fusion-groups: the group's root tiled with its
// in-group producers fused into the tile loops (a contraction and its
// epilogue become one loop nest), register tiles for contractions,
// convolutions and transposes, static tiles for dynamic ops, long rows in
// chunks, then vectorization. The sizes come from KernelConfig.cpp; this
// file is the mechanics, stage by stage.
//
//===----------------------------------------------------------------------===//

#include "KernelConfig.h"
#include "tcc/Analysis/SymbolicShapes.h"
#include "tcc/Codegen/CPU/TileAndVectorize.h"
#include "tcc/Codegen/Common/Passes.h"
#include "tcc/Dialect/Fusion/IR/FusionOps.h"
#include "tcc/Transforms/MemoryPlan.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::cpu;

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
    RankedTensorType full =
        op.inferResultType(op.getSourceType(), op.getMixedSizes());
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
    Value expanded = tensor::ExpandShapeOp::create(rewriter, op.getLoc(),
                                                   fullType, op.getSource(),
                                                   *groups, op.getMixedSizes());
    rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
        op, expanded, op.getDest(), op.getMixedOffsets(), op.getMixedSizes(),
        op.getMixedStrides());
    return success();
  }
};

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

/// Whether every max / min combiner of `op` may ignore NaN and the sign of
/// zero (fastmath nnan and nsz, as softmax's row maximum is built): its
/// reductions may then take any lane order and skip NaN tracking.
bool maxMinCombinersIgnoreNaN(linalg::LinalgOp op) {
  bool any = false;
  for (Value yielded : op.getBlock()->getTerminator()->getOperands()) {
    Operation *def = yielded.getDefiningOp();
    if (!isa_and_present<arith::MaximumFOp, arith::MinimumFOp>(def))
      continue;
    auto flags =
        cast<arith::ArithFastMathInterface>(def).getFastMathFlagsAttr();
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
  Value max = vector::ReductionOp::create(rewriter, loc, kind, lanes, acc,
                                          arith::FastMathFlags::nnan |
                                              arith::FastMathFlags::nsz);
  if (isa<VectorType>(op.getType()))
    max = vector::BroadcastOp::create(rewriter, loc, op.getType(), max);
  rewriter.replaceOp(op, max);
}

/// Whether `v`'s innermost elements lie apart in memory once bufferized:
/// a slice with a step in its last dim or one element of each row (a
/// column of [N, 4]), seen through reshapes. Read as one vector, such an
/// operand becomes an element-by-element loop into a vector as long as the
/// op. (A tile of rows, [K, 32] of [K, N], reads each row contiguously.)
bool readsStridedSlice(Value v) {
  while (true) {
    // A group's input: what the group was given.
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto group = dyn_cast<fusion::GroupOp>(arg.getOwner()->getParentOp());
      if (!group || arg.getArgNumber() >= group->getNumOperands())
        return false;
      v = group->getOperand(arg.getArgNumber());
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(def)) {
      v = def->getOperand(0);
      continue;
    }
    auto slice = dyn_cast<tensor::ExtractSliceOp>(def);
    if (!slice)
      return false;
    RankedTensorType source = slice.getSourceType();
    if (source.getRank() == 0)
      return false;
    ArrayRef<int64_t> sizes = slice.getStaticSizes();
    ArrayRef<int64_t> strides = slice.getStaticStrides();
    int64_t last = source.getRank() - 1;
    return strides[last] != 1 ||
           (sizes[last] == 1 && source.getDimSize(last) != 1);
  }
}

/// The most elements an op reading a strided slice is vectorized whole
/// with: the copy loop VectorToSCF makes of such a read carries the whole
/// vector, and LLVM took minutes to allocate registers for a vector<3234>
/// loop (a detector's box decoding through torch.compile: 166 s).
constexpr int64_t kMaxStridedWholeVectorElements = 256;

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
  if (elements > kMaxStridedWholeVectorElements &&
      llvm::any_of(op.getDpsInputs(), readsStridedSlice))
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
  // A function marked serial (a recurrence's cell, called once per step)
  // never forks.
  if (auto func = root->getParentOfType<func::FuncOp>();
      func && func->hasAttr(kSerialFunctionAttr))
    return;
  auto mark = UnitAttr::get(root.getContext());
  // The work one fork shares out: the loops around the marked one run it
  // once per iteration (a dynamic batch counted as 64, as in `work`): a
  // 16x16 image's rows inside a batch loop are one image's work, not 64.
  int64_t around = 1;
  for (size_t i = 0; i < loops.size(); ++i) {
    auto forOp =
        dyn_cast<scf::ForOp>(LoopLikeOpInterface(loops[i]).getOperation());
    if (!forOp)
      continue;
    std::optional<APInt> trips = forOp.getStaticTripCount();
    if (!trips || trips->getSExtValue() < 4) {
      around *= trips ? std::max<int64_t>(trips->getSExtValue(), 1) : 64;
      continue;
    }
    // Dynamic row-tile loops right around it join the band (rows x
    // columns of tiles in one parallel loop), so a dynamic sequence does
    // not fork a team per row tile; unit-step loops (a batch of 1) stay
    // outside. The fork then covers them too.
    SmallVector<scf::ForOp> band = {forOp};
    for (int64_t j = (int64_t)i - 1; j >= 0; --j) {
      auto outer =
          dyn_cast<scf::ForOp>(LoopLikeOpInterface(loops[j]).getOperation());
      std::optional<int64_t> step =
          outer ? getConstantIntValue(outer.getStep()) : std::nullopt;
      if (!outer || outer.getStaticTripCount() || !step || *step <= 1)
        break;
      band.push_back(outer);
      around /= 64;
    }
    if (work / std::max<int64_t>(around, 1) < (1 << 16))
      return;
    for (scf::ForOp loop : band)
      loop->setAttr(kParallelLoopAttr, mark);
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
  int64_t k = std::distance(iters.begin(),
                            llvm::find(iters, utils::IteratorType::reduction));
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

/// Tiles the group's root by `tiling`, its in-group producers fused into
/// the tile loops; marks the loop that may run on all cores and peels the
/// partial tiles.
void tileRootWithProducers(IRRewriter &rewriter, fusion::GroupOp group,
                           const cpu::RootTiling &tiling,
                           const FrozenRewritePatternSet &canonicalize) {
  linalg::LinalgOp root = tiling.root;
  ArrayRef<int64_t> sizes = tiling.sizes;
  MLIRContext *ctx = group.getContext();
  if (tiling.tileLoops) {
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
      return; // Untiled code is still correct.
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
}

/// Register tiles of the contractions (outer products or dot products),
/// edge rows 2 and 1 at a time.
void tileContractions(IRRewriter &rewriter, fusion::GroupOp group,
                      int64_t lanes,
                      const FrozenRewritePatternSet &canonicalize) {
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
    SmallVector<int64_t> kSizes = contractionRegisterTile(op, lanes);
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
}

/// NCHW convolutions: 1-D convolutions per tile (input channels by 8,
/// kernel rows by 1), decomposed so they vectorize to contractions.
void tileConvolutions(IRRewriter &rewriter, fusion::GroupOp group,
                      const FrozenRewritePatternSet &canonicalize) {
  MLIRContext *ctx = group.getContext();
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
    explicitReshapes
        .add<ExplicitRankReducingExtract, ExplicitRankExpandingInsert>(ctx);
    (void)applyPatternsGreedily(group.getBody(), std::move(explicitReshapes));
  }
}

/// 2-D transposes left outside the tile loops in lanes x lanes blocks.
void tileTransposes(IRRewriter &rewriter, fusion::GroupOp group, int64_t lanes,
                    const FrozenRewritePatternSet &canonicalize) {
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
}

/// Ops with dynamic parallel dims: static, vectorizable tiles.
void tileDynamicOps(IRRewriter &rewriter, fusion::GroupOp group, int64_t lanes,
                    const FrozenRewritePatternSet &canonicalize) {
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
}

/// Long static rows in lanes-wide chunks, a row reduction's elementwise
/// producer computed in the reduction's chunk loop.
void chunkLongRows(IRRewriter &rewriter, fusion::GroupOp group, int64_t lanes,
                   const FrozenRewritePatternSet &canonicalize) {
  MLIRContext *ctx = group.getContext();
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
          !llvm::all_of(producer.getIndexingMapsArray(),
                        [](AffineMap m) { return m.isProjectedPermutation(); }))
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
    FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (succeeded(tiled))
      rewriter.replaceOp(op, tiled->replacements);
  }
  if (!longRows.empty())
    simplifyGroup(group, canonicalize);
}

/// Whole ops past the straight-line budget run a row per iteration.
void rowLoopsPastStraightLineBudget(IRRewriter &rewriter, fusion::GroupOp group,
                                    int64_t lanes) {
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
}

/// Vectorizes the static tiles; broadcasting reads fold into the
/// contractions' indexing maps.
void vectorizeGroup(IRRewriter &rewriter, fusion::GroupOp group) {
  MLIRContext *ctx = group.getContext();
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
}

} // namespace

/// What the canonicalizer collects: dialect-level patterns (linalg's folding
/// of tensor.cast into consumers among them) and op patterns.
RewritePatternSet
mlir::tcc::cpu::groupCanonicalizationPatterns(MLIRContext *ctx) {
  RewritePatternSet patterns(ctx);
  for (Dialect *dialect : ctx->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
  tensor::populateFoldTensorEmptyPatterns(patterns);
  return patterns;
}

LogicalResult mlir::tcc::cpu::tileAndVectorizeGroup(
    fusion::GroupOp group, int64_t lanes,
    const FrozenRewritePatternSet &canonicalize) {
  // A static size-0 loop anywhere: the group computes nothing (its loops
  // never run) and MLIR's tile-size computation does not take an empty
  // range, so it is left untiled.
  bool empty = false;
  group.getBody().walk([&](linalg::LinalgOp op) {
    empty |= llvm::is_contained(op.getStaticLoopRanges(), 0);
  });
  if (empty)
    return success();
  std::optional<RootTiling> tiling = chooseRootTiling(group, lanes);
  if (!tiling)
    return success();
  IRRewriter rewriter(group.getContext());
  tileRootWithProducers(rewriter, group, *tiling, canonicalize);
  tileContractions(rewriter, group, lanes, canonicalize);
  tileConvolutions(rewriter, group, canonicalize);
  tileTransposes(rewriter, group, lanes, canonicalize);
  tileDynamicOps(rewriter, group, lanes, canonicalize);
  chunkLongRows(rewriter, group, lanes, canonicalize);
  rowLoopsPastStraightLineBudget(rewriter, group, lanes);
  vectorizeGroup(rewriter, group);
  return success();
}
