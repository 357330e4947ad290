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
      inlineGroup(group);
    }
  }
};

} // namespace
