//===- LowerFusionGroups.cpp - one loop nest per fusion group ---*- C++ -*-===//
//
// After convert-tcc-to-linalg a group holds linalg ops on tensors. Here the
// attention's transposes fold into its reads, the elementwise generics of
// each group are fused into their consumers (so a pointwise chain, or a
// reduction with its prologue, is one generic), for the CPU the group is
// tiled and vectorized (lib/Codegen/CPU/TileAndVectorizeGroup.cpp, sizes
// from the target's vector width), and the group is inlined. Fusion is
// confined to the group: what --fuse decided is what runs.
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/CPU/TileAndVectorize.h"
#include "tcc/Codegen/Common/Passes.h"
#include "tcc/Dialect/Fusion/IR/FusionOps.h"
#include "tcc/Target/Target.h"
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

namespace mlir::tcc {
#define GEN_PASS_DEF_LOWERFUSIONGROUPSPASS
#include "tcc/Codegen/Common/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

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
    canonicalize = cpu::groupCanonicalizationPatterns(ctx);
    return success();
  }

  void runOnOperation() override {
    // f32 lanes of the target's widest vector registers.
    int64_t lanes = vectorLanes > 0
                        ? int64_t(vectorLanes)
                        : lookupTarget(getOperation()).getVectorLanes(32);
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
          failed(cpu::tileAndVectorizeGroup(group, lanes, canonicalize))) {
        group.emitError("failed to tile the group");
        return signalPassFailure();
      }
      inlineGroup(group);
    }
  }

  FrozenRewritePatternSet canonicalize;
};

} // namespace
