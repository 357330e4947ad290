//===- Fuse.cpp - Operator fusion: form fusion groups -----------*- C++ -*-===//
//
// Groups grow backwards from a consumer: starting at the last op not yet in a
// group, a producer joins when it is fusible and every use of its result is
// already inside the group (so nothing is computed twice and no cycle can
// form). A group holds at most one "anchor" (reduction, matmul, conv,
// attention, pool), which names its kind; elementwise producers are pulled
// into reductions (prologues) but not into contraction operands, where they
// would be recomputed per tile.
//
//===----------------------------------------------------------------------===//

#include "tcc/Dialect/Fusion/IR/FusionOps.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"
#include "tcc/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_FUSEPASS
#include "tcc/Transforms/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

enum class Role {
  None,
  Elementwise,
  Reduction,
  Matmul,
  Conv,
  Attention,
  Pool,
  Copy
};

Role classify(Operation *op) {
  if (isa<AddOp, SubOp, MulOp, DivOp, MaximumOp, MinimumOp, PowOp, CmpOp,
          SelectOp, NegOp, ExpOp, LogOp, SqrtOp, RsqrtOp, AbsOp, TanhOp,
          SigmoidOp, ReluOp, SiluOp, ErfOp, GeluOp, CastOp, BroadcastToOp,
          BatchNormOp>(op))
    return Role::Elementwise;
  if (isa<ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp, SoftmaxOp,
          LogSoftmaxOp, LayerNormOp, RmsNormOp>(op))
    return Role::Reduction;
  if (isa<MatmulOp, LinearOp>(op))
    return Role::Matmul;
  if (isa<Conv2dOp>(op))
    return Role::Conv;
  if (isa<AttentionOp>(op))
    return Role::Attention;
  if (isa<MaxPool2dOp, AvgPool2dOp>(op))
    return Role::Pool;
  // Data movement that writes a new buffer: a kernel (and a planned buffer)
  // of its own. Reshapes and slices are views and stay outside groups, and
  // so do mask_select and nonzero: their result size is only known once
  // they have run, they lower to loops of their own (no tiling) and their
  // buffer cannot be planned.
  if (isa<TransposeOp, ConcatOp, GatherOp>(op))
    return Role::Copy;
  return Role::None;
}

StringRef kindName(Role anchor) {
  switch (anchor) {
  case Role::Reduction:
    return "reduction";
  case Role::Matmul:
    return "matmul";
  case Role::Conv:
    return "conv";
  case Role::Attention:
    return "attention";
  case Role::Pool:
    return "pool";
  case Role::Copy:
    return "copy";
  default:
    return "pointwise";
  }
}

struct FusePass : tcc::impl::FusePassBase<FusePass> {
  using Base::Base;

  void runOnOperation() override {
    groupIndex = 0;
    func::FuncOp func = getOperation();
    // Only top-level ops of single-block functions are grouped.
    if (!func.getBody().hasOneBlock())
      return;
    Block &block = func.getBody().front();
    SmallVector<Operation *> ops;
    for (Operation &op : block)
      ops.push_back(&op);
    DenseSet<Operation *> assigned;
    SmallVector<SmallVector<Operation *>> groups;
    for (Operation *root : llvm::reverse(ops)) {
      if (assigned.contains(root) || classify(root) == Role::None)
        continue;
      groups.push_back(growGroup(root, assigned));
    }
    for (auto &group : llvm::reverse(groups))
      materialize(group);
  }

  /// Collects the group rooted at `root` (in program order).
  SmallVector<Operation *> growGroup(Operation *root,
                                     DenseSet<Operation *> &assigned) {
    llvm::SetVector<Operation *> members;
    members.insert(root);
    Role anchor = classify(root) == Role::Elementwise ? Role::None
                                                      : classify(root);
    // Worklist of (consumer) ops whose operands may bring in producers.
    SmallVector<Operation *> worklist = {root};
    while (!worklist.empty()) {
      Operation *consumer = worklist.pop_back_val();
      Role consumerRole = classify(consumer);
      // Never pull producers into contraction/window/copy operands.
      if (consumerRole != Role::Elementwise && consumerRole != Role::Reduction)
        continue;
      for (Value operand : consumer->getOperands()) {
        Operation *producer = operand.getDefiningOp();
        if (!producer || producer->getBlock() != root->getBlock() ||
            members.contains(producer) || assigned.contains(producer))
          continue;
        Role role = classify(producer);
        if (role == Role::None || role == Role::Copy)
          continue;
        // At most one anchor (reduction, matmul, ...) per group.
        if (role != Role::Elementwise && anchor != Role::None)
          continue;
        // Every use must be inside the group, and none may be an operand of
        // a contraction, conv, attention or pool (their operands are read
        // many times per tile: a fused producer would be recomputed).
        bool allUsesInside = llvm::all_of(producer->getUsers(), [&](Operation *u) {
          Role r = classify(u);
          return members.contains(u) &&
                 (r == Role::Elementwise || r == Role::Reduction);
        });
        if (!allUsesInside)
          continue;
        if (role != Role::Elementwise)
          anchor = role;
        members.insert(producer);
        worklist.push_back(producer);
      }
    }
    SmallVector<Operation *> sorted(members.begin(), members.end());
    llvm::sort(sorted, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    for (Operation *op : sorted)
      assigned.insert(op);
    sortedAnchors.push_back(anchor);
    return sorted;
  }

  /// Replaces the ops of `group` with one fusion.group (inserted at its last
  /// op, whose results are the group's results).
  void materialize(ArrayRef<Operation *> group) {
    Role anchor = sortedAnchors.pop_back_val();
    Operation *root = group.back();
    DenseSet<Operation *> members(group.begin(), group.end());
    llvm::SetVector<Value> inputs;
    for (Operation *op : group)
      for (Value v : op->getOperands()) {
        Operation *def = v.getDefiningOp();
        if (!def || !members.contains(def))
          inputs.insert(v);
      }
    OpBuilder builder(root);
    auto groupOp = fusion::GroupOp::create(
        builder, root->getLoc(), root->getResultTypes(),
        inputs.getArrayRef(), kindName(anchor));
    Block &body = groupOp.getBodyBlock();
    IRMapping mapping;
    for (auto [v, arg] : llvm::zip(inputs, body.getArguments()))
      mapping.map(v, arg);
    builder.setInsertionPointToStart(&body);
    for (Operation *op : group)
      builder.clone(*op, mapping);
    SmallVector<Value> yielded;
    for (Value r : root->getResults())
      yielded.push_back(mapping.lookup(r));
    fusion::YieldOp::create(builder, root->getLoc(), yielded);
    if (report) {
      llvm::errs() << "fuse: @" << getOperation().getName() << " group "
                   << groupIndex << " (" << kindName(anchor) << "):";
      for (Operation *op : group)
        llvm::errs() << " " << op->getName().getStringRef();
      llvm::errs() << "\n";
    }
    root->replaceAllUsesWith(groupOp.getResults());
    for (Operation *op : llvm::reverse(group))
      op->erase();
    ++numGroups;
    ++groupIndex;
    numFusedOps += group.size();
  }

  // Anchors of the groups in formation order (consumed in reverse).
  SmallVector<Role> sortedAnchors;
  // Groups made so far in this function (for the report).
  unsigned groupIndex = 0;
};

} // namespace
