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

#include "tcc/Conversion/Passes.h"
#include "tcc/Dialect/Fusion/IR/FusionOps.h"
#include "tcc/Transforms/MemoryPlan.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_LOWERFUSIONGROUPSPASS
#include "tcc/Conversion/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

/// Fuses elementwise producers into consumers inside one group.
LogicalResult fuseElementwiseInGroup(fusion::GroupOp group) {
  MLIRContext *ctx = group.getContext();
  RewritePatternSet patterns(ctx);
  linalg::populateElementwiseOpsFusionPatterns(
      patterns, [](OpOperand *fusedOperand) {
        Operation *producer = fusedOperand->get().getDefiningOp();
        // Fusing a producer with other users duplicates its work; only fuse
        // single-use producers (the group already holds only in-group uses).
        return producer && producer->hasOneUse();
      });
  linalg::FillOp::getCanonicalizationPatterns(patterns, ctx);
  GreedyRewriteConfig config;
  config.setScope(&group.getBody());
  return applyPatternsGreedily(group.getBody(), std::move(patterns), config);
}

/// Tile sizes of the root's loops. Contractions (and epilogues over their
/// output) get an 8 x 32 register tile on the two innermost parallel dims
/// (16 zmm accumulators with AVX-512); other groups process one innermost row
/// per iteration of the outer loops, so reductions and their neighbours are
/// computed row by row while the row stays in cache.
SmallVector<int64_t> rootTileSizes(linalg::LinalgOp root, bool hasContraction) {
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
  if (hasContraction) {
    sizes[parallelDims.back()] = 32;
    if (parallelDims.size() >= 2)
      sizes[parallelDims[parallelDims.size() - 2]] = 8;
  } else {
    // Keep the innermost dim whole (the row).
    sizes[iters.size() - 1] = 0;
  }
  return sizes;
}

/// Vectorizes `op` when its shape is static and small enough for registers
/// and cache; larger or dynamic ops stay scalar loops.
void vectorizeIfProfitable(RewriterBase &rewriter, linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics())
    return;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t elements = 1;
  for (int64_t r : ranges) {
    if (ShapedType::isDynamic(r))
      return;
    elements *= r;
  }
  if (elements > 8192)
    return;
  if (failed(linalg::vectorizeOpPrecondition(op)))
    return;
  rewriter.setInsertionPoint(op);
  // Contractions become vector.contract directly (not mul + reduction), the
  // form the outer-product lowering understands.
  FailureOr<linalg::VectorizationResult> result = linalg::vectorize(
      rewriter, op, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
      /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
      /*assumeDynamicDimsMatchVecSizes=*/false,
      /*createNamedContraction=*/linalg::isaContractionOpInterface(op));
  if (succeeded(result))
    rewriter.replaceOp(op, result->replacements);
}

/// Tiles the group's root with its in-group producers fused into the tile
/// loops, tiles contractions along K, then vectorizes the tiles.
LogicalResult tileAndVectorizeGroup(fusion::GroupOp group) {
  MLIRContext *ctx = group.getContext();
  auto yield = cast<fusion::YieldOp>(group.getBodyBlock().getTerminator());
  if (yield.getValues().size() != 1)
    return success();
  auto root = yield.getValues()[0].getDefiningOp<linalg::LinalgOp>();
  if (!root || !isa<TilingInterface>(root.getOperation()))
    return success();
  bool hasContraction = false;
  group.walk([&](linalg::LinalgOp op) {
    hasContraction |= linalg::isaContractionOpInterface(op);
  });
  SmallVector<int64_t> sizes = rootTileSizes(root, hasContraction);
  if (llvm::all_of(sizes, [](int64_t s) { return s == 0; }))
    return success();

  IRRewriter rewriter(ctx);
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(getAsIndexOpFoldResult(ctx, sizes));
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  rewriter.setInsertionPoint(root);
  FailureOr<scf::SCFTileAndFuseResult> tiled =
      scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, cast<TilingInterface>(root.getOperation()), options);
  if (failed(tiled))
    return success(); // Untiled code is still correct.
  for (OpResult r : root->getResults())
    if (Value repl = tiled->replacements.lookup(r))
      rewriter.replaceAllUsesWith(r, repl);

  // Contractions inside the tile: tile K by 16 so the vector tile is
  // 8 x 32 x 16.
  SmallVector<linalg::LinalgOp> tiledOps;
  for (Operation *op : tiled->tiledAndFusedOps)
    if (auto l = dyn_cast<linalg::LinalgOp>(op))
      tiledOps.push_back(l);
  SmallVector<linalg::LinalgOp> toVectorize;
  for (linalg::LinalgOp op : tiledOps) {
    if (!linalg::isaContractionOpInterface(op)) {
      toVectorize.push_back(op);
      continue;
    }
    SmallVector<int64_t> kSizes(op.getNumLoops(), 0);
    for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray()))
      if (it == utils::IteratorType::reduction)
        kSizes[i] = 16;
    scf::SCFTilingOptions kTiling;
    kTiling.setTileSizes(getAsIndexOpFoldResult(ctx, kSizes));
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTilingResult> kTiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(op.getOperation()), kTiling);
    if (failed(kTiled)) {
      toVectorize.push_back(op);
      continue;
    }
    rewriter.replaceOp(op, kTiled->replacements);
    for (Operation *t : kTiled->tiledOps)
      if (auto l = dyn_cast<linalg::LinalgOp>(t))
        toVectorize.push_back(l);
  }
  for (linalg::LinalgOp op : toVectorize)
    vectorizeIfProfitable(rewriter, op);
  // Broadcasting reads become read + vector.broadcast, which then folds into
  // the contraction's indexing maps: a plain (m,k) x (k,n) vector.contract.
  RewritePatternSet patterns(ctx);
  vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
  vector::populateVectorReductionToContractPatterns(patterns);
  vector::populateSinkVectorOpsPatterns(patterns);
  (void)applyPatternsGreedily(group.getBody(), std::move(patterns));
  // Drop what fusion left behind (untiled producers with no uses).
  for (Operation *op : llvm::reverse(tiled->fusedProducers))
    if (op->use_empty())
      rewriter.eraseOp(op);
  if (root->use_empty())
    rewriter.eraseOp(root);
  return success();
}

/// Moves the group's body before it and replaces its results; the memory
/// plan's annotation moves to the op that now defines the result.
void inlineGroup(fusion::GroupOp group) {
  Block &body = group.getBodyBlock();
  auto yield = cast<fusion::YieldOp>(body.getTerminator());
  for (auto [arg, in] : llvm::zip(body.getArguments(), group.getInputs()))
    arg.replaceAllUsesWith(in);
  SmallVector<Value> results(yield.getValues());
  Operation *parent = group;
  for (Operation &op : llvm::make_early_inc_range(body.without_terminator()))
    op.moveBefore(parent);
  if (Attribute plan = group->getAttr(kBufferAttr))
    if (Operation *def = results.front().getDefiningOp())
      def->setAttr(kBufferAttr, plan);
  group->replaceAllUsesWith(results);
  group->erase();
}

struct LowerFusionGroupsPass
    : tcc::impl::LowerFusionGroupsPassBase<LowerFusionGroupsPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<fusion::GroupOp> groups;
    getOperation().walk([&](fusion::GroupOp g) { groups.push_back(g); });
    for (fusion::GroupOp group : groups) {
      if (failed(fuseElementwiseInGroup(group))) {
        group.emitError("failed to fuse the group's elementwise ops");
        return signalPassFailure();
      }
      if (vectorize && failed(tileAndVectorizeGroup(group))) {
        group.emitError("failed to tile the group");
        return signalPassFailure();
      }
      inlineGroup(group);
    }
  }
};

} // namespace
