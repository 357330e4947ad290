//===- Fuse.cpp - Operator fusion: form fusion groups -----------*- C++ -*-===//
//
// Per function:
//   1. preparation (FusionPreparation.h, RecognizeComposites.h): hand-written
//      norms, softmax and attention become their tcc ops, transposes sink
//      to their consumers, linears sharing an input merge, cheap producers
//      with several consumer groups are cloned into each;
//   2. groups grow backwards from a consumer: starting at the last op not
//      yet in a group, a producer joins when it is fusible and every use of
//      its result is inside the group, or (multi-output) its other uses come
//      after the group, which then also yields it. A group holds at most one
//      anchor (reduction, matmul, conv, attention, pool), which names its
//      kind; elementwise producers are pulled into reductions (prologues)
//      but not into contraction operands, where they would be recomputed
//      per tile. Attention also takes the transposes of its operands and of
//      its result (folded into its indexing maps by the lowering) and a
//      merged matmul the concats that pack its weights;
//   3. the report (FusionReport.h) says what was formed and what it moves.
//
//===----------------------------------------------------------------------===//

#include "tcc/Analysis/SymbolicShapes.h"
#include "tcc/Dialect/Fusion/IR/FusionOps.h"
#include "tcc/Dialect/TCC/IR/TCCAttrs.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"
#include "tcc/Target/Target.h"
#include "tcc/Transforms/FusionCostModel.h"
#include "tcc/Transforms/FusionPreparation.h"
#include "tcc/Transforms/FusionReport.h"
#include "tcc/Transforms/Passes.h"
#include "tcc/Transforms/RecognizeComposites.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

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
  if (isUnaryElementwise(op) || isBinaryElementwise(op) ||
      isa<CmpOp, SelectOp, GeluOp, CastOp, BroadcastToOp, BatchNormOp>(op))
    return Role::Elementwise;
  if (isa<ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp, ReduceProdOp,
          SoftmaxOp,
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
  if (isa<TransposeOp, ConcatOp, GatherOp, GatherElementsOp, IotaOp,
          GridSampleOp>(op))
    return Role::Copy;
  return Role::None;
}

/// Ops that run as a kernel of their own but never join a group: the
/// data-dependent ones, cumsum, a loop over its axis, the scatters, a
/// loop over their updates, and sort, a loop over the stages of a sorting
/// network (each lowered to an scf.for of its own, not tiled).
bool isStandaloneKernel(Operation *op) {
  return isa<MaskSelectOp, NonzeroOp, CumsumOp, ScatterElementsOp,
             ScatterNDOp, SortOp, TopKOp, NmsOp>(op);
}

/// Ops whose result is a view of their input (no kernel, no copy).
bool isView(Operation *op) { return isa<ReshapeOp, SliceOp>(op); }

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

/// Whether `op` reads the result of a contraction, conv, attention or pool
/// (as whose epilogue it is better placed than anywhere else).
bool isFedByAnchor(Operation *op) {
  return llvm::any_of(op->getOperands(), [](Value v) {
    Operation *def = v.getDefiningOp();
    if (!def)
      return false;
    Role r = classify(def);
    return r == Role::Matmul || r == Role::Conv || r == Role::Attention ||
           r == Role::Pool;
  });
}

/// A group being formed.
struct Group {
  SmallVector<Operation *> ops; // program order; the last is the root
  Role anchor = Role::None;
  /// Members whose results are also needed after the group.
  llvm::SetVector<Operation *> extraOutputs;
  std::vector<std::string> notes;
  Operation *root() const { return ops.back(); }
};

/// Size expressions of a function's values, for the report.
struct Sizes {
  std::optional<SymbolicShapeAnalysis> analysis;
  SmallVector<std::string> names;

  Sizes(func::FuncOp func) {
    // The report must not fail the pass: shapes the analysis rejects (it
    // already reported them in --symbolic-shapes) fall back to the types.
    ScopedDiagnosticHandler quiet(func.getContext(),
                                  [](Diagnostic &) { return success(); });
    FailureOr<SymbolicShapeAnalysis> a = SymbolicShapeAnalysis::run(func);
    if (succeeded(a)) {
      analysis.emplace(std::move(*a));
      names.assign(analysis->getNames().begin(), analysis->getNames().end());
    }
  }

  SmallVector<AffineExpr> shape(Value v) {
    auto type = cast<RankedTensorType>(v.getType());
    SmallVector<AffineExpr> dims;
    if (analysis) {
      dims = analysis->getShape(v);
      if (dims.size() == (size_t)type.getRank())
        return dims;
      dims.clear();
    }
    for (int64_t d : type.getShape()) {
      if (!ShapedType::isDynamic(d)) {
        dims.push_back(getAffineConstantExpr(d, v.getContext()));
        continue;
      }
      unsigned id = llvm::find(names, "?") - names.begin();
      if (id == names.size())
        names.push_back("?");
      dims.push_back(getAffineSymbolExpr(id, v.getContext()));
    }
    return dims;
  }

  AffineExpr bytes(Value v) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type)
      return getAffineConstantExpr(0, v.getContext());
    int64_t width =
        std::max<int64_t>(1, type.getElementType().getIntOrFloatBitWidth() / 8);
    AffineExpr e = getAffineConstantExpr(width, v.getContext());
    for (AffineExpr d : shape(v))
      e = e * d;
    return e;
  }

  /// Bytes one op reads and writes as a kernel of its own.
  AffineExpr opBytes(Operation *op) {
    AffineExpr e = getAffineConstantExpr(0, op->getContext());
    llvm::SetVector<Value> values(op->operand_begin(), op->operand_end());
    values.insert(op->result_begin(), op->result_end());
    for (Value v : values)
      e = e + bytes(v);
    return e;
  }
};

struct FusePass : tcc::impl::FusePassBase<FusePass> {
  using Base::Base;

  void runOnOperation() override {
    std::string error;
    FailureOr<TargetAttr> targetAttr =
        resolveTarget(getOperation(), targetName, error);
    if (failed(targetAttr)) {
      getOperation().emitError() << "fuse: " << error;
      return signalPassFailure();
    }
    FusionTarget target = FusionTarget::of(*targetAttr);
    FusionReport fusionReport;
    fusionReport.target = target.name.str();
    for (const std::string &entry : reportSizes) {
      std::optional<SizeBinding> binding = parseSizeBinding(entry);
      if (!binding) {
        getOperation().emitError()
            << "fuse: report-sizes entry '" << entry
            << "' is not NAME=VALUE";
        return signalPassFailure();
      }
      fusionReport.sizes[binding->name] = binding->value;
    }
    bool wantReport = !reportFile.empty() || !dotFile.empty() || report;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || !func.getBody().hasOneBlock())
        continue;
      ReportFunction reportFunc;
      if (failed(fuseFunction(func, target, wantReport, fusionReport.sizes,
                              reportFunc)))
        return signalPassFailure();
      if (wantReport)
        fusionReport.functions.push_back(std::move(reportFunc));
    }
    if (report)
      printReport(fusionReport);
    if (!reportFile.empty() &&
        failed(writeFile(reportFile, [&](raw_ostream &os) {
          fusionReport.writeJSON(os);
        })))
      return signalPassFailure();
    if (!dotFile.empty() &&
        failed(writeFile(dotFile, [&](raw_ostream &os) {
          fusionReport.writeDot(os);
        })))
      return signalPassFailure();
  }

  LogicalResult writeFile(StringRef path,
                          function_ref<void(raw_ostream &)> write) {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Text);
    if (ec)
      return getOperation().emitError()
             << "fuse: cannot write '" << path << "': " << ec.message();
    write(os);
    return success();
  }

  void printReport(const FusionReport &r) {
    for (const ReportFunction &f : r.functions) {
      for (const ReportGroup &g : f.groups) {
        llvm::errs() << "fuse: @" << f.name << " group " << g.id << " ("
                     << g.kind << "):";
        for (const std::string &op : g.ops)
          llvm::errs() << " " << op;
        for (const std::string &n : g.notes)
          llvm::errs() << " [" << n << "]";
        llvm::errs() << "\n";
      }
      llvm::errs() << "fuse: @" << f.name << " kernels " << f.kernelsBefore
                   << " -> " << f.kernelsAfter << ", bytes "
                   << f.bytesBefore.expr << " -> " << f.bytesAfter.expr
                   << "\n";
    }
  }

  //===--------------------------------------------------------------------===//
  // One function
  //===--------------------------------------------------------------------===//

  LogicalResult fuseFunction(func::FuncOp func, const FusionTarget &target,
                             bool wantReport,
                             const std::map<std::string, int64_t> &sizes,
                             ReportFunction &out) {
    Block &block = func.getBody().front();
    out.name = func.getName().str();
    // "Before": the graph as written.
    std::optional<Sizes> before;
    AffineExpr bytesBefore;
    if (wantReport) {
      before.emplace(func);
      bytesBefore = getAffineConstantExpr(0, func.getContext());
      for (Operation &op : block)
        if (classify(&op) != Role::None || isStandaloneKernel(&op)) {
          ++out.kernelsBefore;
          bytesBefore = bytesBefore + before->opBytes(&op);
        }
    }

    // The unfused baseline: one group per kernel op, nothing prepared.
    if (singletons) {
      SmallVector<Group> groups;
      for (Operation &op : block) {
        Role role = classify(&op);
        if (role == Role::None)
          continue;
        Group g;
        g.ops.push_back(&op);
        g.anchor = role == Role::Elementwise ? Role::None : role;
        groups.push_back(std::move(g));
      }
      if (wantReport) {
        Sizes after(func);
        describeGroups(func, groups, *before, after, bytesBefore, sizes, out);
      }
      for (Group &g : groups)
        materialize(g);
      return success();
    }

    // 1. Preparation.
    if (recognize || sinkTransposes || patchConvs || flattenRows) {
      RewritePatternSet patterns(func.getContext());
      if (recognize)
        populateRecognizeCompositesPatterns(patterns);
      if (sinkTransposes)
        populateSinkTransposePatterns(patterns);
      if (patchConvs)
        populatePatchConvToLinearPatterns(patterns);
      if (flattenRows)
        populateFlattenProductRowsPatterns(patterns);
      GreedyRewriteConfig config;
      // Only these rewrites: folding stays with the canonicalizer.
      config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
      config.enableFolding(false);
      config.enableConstantCSE(false);
      if (failed(applyPatternsGreedily(func, std::move(patterns), config)))
        return func.emitError("fuse: preparation did not converge");
    }
    if (horizontal)
      numHorizontal += mergeHorizontalContractions(func, target);

    // 2. Groups, from the last op backwards.
    SmallVector<Operation *> ops;
    for (Operation &op : block)
      ops.push_back(&op);
    DenseSet<Operation *> assigned;
    SmallVector<Group> groups;
    for (Operation *root : llvm::reverse(ops)) {
      if (assigned.contains(root) || classify(root) == Role::None)
        continue;
      groups.push_back(growGroup(root, assigned, target));
    }
    std::reverse(groups.begin(), groups.end());
    if (horizontal)
      mergeIndependentSmallGroups(groups, target);

    // 3. The report, on the values as they are before materialization.
    std::optional<Sizes> after;
    if (wantReport) {
      after.emplace(func);
      describeGroups(func, groups, *before, *after, bytesBefore, sizes, out);
    }
    for (Group &g : groups)
      materialize(g);
    return success();
  }

  /// Collects the group rooted at `root`.
  Group growGroup(Operation *root, DenseSet<Operation *> &assigned,
                  const FusionTarget &target) {
    Group group;
    llvm::SetVector<Operation *> members;
    members.insert(root);
    Role rootRole = classify(root);
    group.anchor = rootRole == Role::Elementwise ? Role::None : rootRole;
    auto available = [&](Operation *producer) {
      return producer && producer->getBlock() == root->getBlock() &&
             !members.contains(producer) && !assigned.contains(producer);
    };
    // Operands of members still to look at. The latest producer goes
    // first: by then each of its later users that will join has joined, so
    // "are all uses inside" is answered on the final group.
    SmallVector<OpOperand *> pending;
    auto enqueue = [&](Operation *consumer) {
      for (OpOperand &use : consumer->getOpOperands())
        pending.push_back(&use);
    };
    auto earlier = [](OpOperand *a, OpOperand *b) {
      Operation *da = a->get().getDefiningOp(), *db = b->get().getDefiningOp();
      if (!da || !db || da->getBlock() != db->getBlock())
        return !da && db;
      return da->isBeforeInBlock(db);
    };
    enqueue(root);
    while (!pending.empty()) {
      auto next = llvm::max_element(pending, earlier);
      OpOperand &use = **next;
      pending.erase(next);
      Operation *consumer = use.getOwner();
      Role consumerRole = classify(consumer);
      {
        Operation *producer = use.get().getDefiningOp();
        if (!available(producer))
          continue;
        Role role = classify(producer);
        // Attention reads permuted q/k/v through its indexing maps.
        if (consumerRole == Role::Attention && isa<TransposeOp>(producer) &&
            use.getOperandNumber() < 3 && producer->hasOneUse()) {
          members.insert(producer);
          group.notes.push_back("operand " +
                                std::to_string(use.getOperandNumber()) +
                                " transpose folded into attention's reads");
          continue;
        }
        // ... and writes its result in the permuted order asked for.
        if (consumer == root && isa<TransposeOp>(root) &&
            isa<AttentionOp>(producer) && producer->hasOneUse()) {
          group.anchor = Role::Attention;
          members.insert(producer);
          enqueue(producer);
          group.notes.push_back(
              "result transpose folded into attention's writes");
          continue;
        }
        // A horizontally merged contraction packs its weights in-group.
        if (consumerRole == Role::Matmul && use.getOperandNumber() >= 1 &&
            isa<ConcatOp>(producer) && producer->hasOneUse()) {
          members.insert(producer);
          group.notes.push_back("weights packed in the group");
          continue;
        }
        // Never pull producers into contraction/window/copy operands.
        if (consumerRole != Role::Elementwise &&
            consumerRole != Role::Reduction)
          continue;
        if (role == Role::None || role == Role::Copy)
          continue;
        // At most one anchor (reduction, matmul, ...) per group.
        if (role != Role::Elementwise && group.anchor != Role::None)
          continue;
        // Every use inside the group, as a fusible (elementwise or
        // reduction) operand; or, for pointwise and reduction groups, the
        // other uses after the group, which then yields the value too.
        bool fusibleUsesInside = true, usesAfter = true;
        for (Operation *u : producer->getUsers()) {
          if (members.contains(u)) {
            Role r = classify(u);
            fusibleUsesInside &= r == Role::Elementwise || r == Role::Reduction;
          } else {
            fusibleUsesInside = false;
            usesAfter &= u->getBlock() == root->getBlock() &&
                         root->isBeforeInBlock(u);
          }
        }
        bool insideUsesFusible = llvm::all_of(producer->getUsers(), [&](Operation *u) {
          if (!members.contains(u))
            return true;
          Role r = classify(u);
          return r == Role::Elementwise || r == Role::Reduction;
        });
        bool extraOutput = false, recomputed = false;
        if (!fusibleUsesInside) {
          if (!insideUsesFusible)
            continue;
          if (multiOutput && usesAfter &&
              canBeExtraOutput(producer, group.anchor, role))
            extraOutput = true;
          // Recomputing pays only when no buffer is left: every user
          // fuses it (none reads it as a contraction or window operand).
          else if (recompute && role == Role::Elementwise &&
                   !isFedByAnchor(producer) &&
                   llvm::all_of(producer->getUsers(),
                                [](Operation *u) {
                                  Role r = classify(u);
                                  return r == Role::Elementwise ||
                                         r == Role::Reduction;
                                }) &&
                   isRecomputeProfitable(
                       producer, llvm::range_size(producer->getUsers()),
                       target))
            recomputed = true;
          else
            continue;
        }
        // Register / on-chip pressure of the target.
        if (std::optional<std::string> why =
                pressureExceeded(members, producer, target)) {
          group.notes.push_back(producer->getName().getStringRef().str() +
                                " left out: " + *why);
          continue;
        }
        if (recomputed) {
          // Cheaper to compute it again here than to read it from a
          // buffer: this group gets its own copy.
          producer = recomputeInGroup(producer, members);
          group.notes.push_back(producer->getName().getStringRef().str() +
                                " recomputed here (cheaper than a buffer)");
          ++numRecomputed;
        }
        if (role != Role::Elementwise)
          group.anchor = role;
        members.insert(producer);
        if (extraOutput) {
          group.extraOutputs.insert(producer);
          group.notes.push_back(producer->getName().getStringRef().str() +
                                " is also an output (used after the group)");
        }
        enqueue(producer);
      }
    }
    group.ops.assign(members.begin(), members.end());
    llvm::sort(group.ops, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    // The root must stay last: everything else feeds it or an output.
    for (Operation *op : group.ops)
      assigned.insert(op);
    for (Operation *op : group.ops) {
      if (auto n = op->getAttrOfType<IntegerAttr>(kHorizontalAttr))
        group.notes.push_back("horizontal: " + std::to_string(n.getInt()) +
                              " " + op->getName().getStringRef().str() +
                              " ops sharing an input merged");
    }
    return group;
  }

  /// Horizontal loop fusion (XLA's): pointwise and reduction groups over
  /// the same iteration space whose outputs are small enough that a launch
  /// costs more than their traffic, and that do not depend on each other,
  /// share one kernel. An earlier group joins a later one when everything
  /// that uses its results comes after the later group (which then yields
  /// them too), so neither can feed the other.
  void mergeIndependentSmallGroups(SmallVector<Group> &groups,
                                   const FusionTarget &target) {
    auto mergeable = [&](const Group &a, const Group &b) {
      auto loopish = [](Role r) {
        return r == Role::None || r == Role::Reduction;
      };
      Operation *ra = a.root(), *rb = b.root();
      if (!loopish(a.anchor) || !loopish(b.anchor) ||
          ra->getNumResults() != 1 ||
          ra->getResultTypes() != rb->getResultTypes())
        return false;
      auto type = dyn_cast<RankedTensorType>(ra->getResult(0).getType());
      if (!type || !type.hasStaticShape() ||
          estimateBytes(ra->getResult(0)) > target.launchBytes)
        return false;
      DenseSet<Operation *> members(a.ops.begin(), a.ops.end());
      for (Operation *op : a.ops)
        for (Operation *user : op->getUsers())
          if (!members.contains(user) &&
              (user->getBlock() != rb->getBlock() ||
               !rb->isBeforeInBlock(user)))
            return false;
      llvm::SetVector<Operation *> all(b.ops.begin(), b.ops.end());
      all.insert(a.ops.begin(), a.ops.end());
      llvm::SetVector<Value> inputs;
      for (Operation *op : all)
        for (Value v : op->getOperands()) {
          Operation *def = v.getDefiningOp();
          if ((!def || !all.contains(def)) && isa<RankedTensorType>(v.getType()))
            inputs.insert(v);
        }
      return (int64_t)inputs.size() <= target.maxGroupInputs;
    };
    for (size_t i = 0; i < groups.size(); ++i) {
      for (size_t j = i + 1; j < groups.size(); ++j) {
        if (!mergeable(groups[i], groups[j]))
          continue;
        Group &a = groups[i], &b = groups[j];
        Group merged;
        merged.anchor = a.anchor == Role::Reduction ? a.anchor : b.anchor;
        merged.ops.append(a.ops.begin(), a.ops.end());
        merged.ops.append(b.ops.begin(), b.ops.end());
        llvm::sort(merged.ops, [](Operation *x, Operation *y) {
          return x->isBeforeInBlock(y);
        });
        merged.extraOutputs.insert(a.root());
        merged.extraOutputs.insert(a.extraOutputs.begin(), a.extraOutputs.end());
        merged.extraOutputs.insert(b.extraOutputs.begin(), b.extraOutputs.end());
        merged.notes = b.notes;
        merged.notes.insert(merged.notes.end(), a.notes.begin(), a.notes.end());
        merged.notes.push_back("horizontal: an independent " +
                               kindName(a.anchor).str() +
                               " group over the same iteration space merged");
        b = std::move(merged);
        groups.erase(groups.begin() + i);
        --i;
        ++numHorizontal;
        break;
      }
    }
  }

  /// Clones `producer` for the members of a group that use it (placed
  /// right after the producer) and returns the clone; uses outside keep the
  /// original.
  Operation *recomputeInGroup(Operation *producer,
                              const llvm::SetVector<Operation *> &members) {
    OpBuilder b(producer->getContext());
    b.setInsertionPointAfter(producer);
    Operation *clone = b.clone(*producer);
    producer->getResult(0).replaceUsesWithIf(
        clone->getResult(0),
        [&](OpOperand &use) { return members.contains(use.getOwner()); });
    return clone;
  }

  /// A producer with uses after the group may become an extra output of a
  /// pointwise or reduction group, unless it is better placed as the
  /// epilogue of the contraction (or conv, attention, pool) that feeds it.
  bool canBeExtraOutput(Operation *producer, Role anchor, Role role) {
    if (role != Role::Elementwise && role != Role::Reduction)
      return false;
    if (anchor != Role::None && anchor != Role::Reduction)
      return false;
    return !isFedByAnchor(producer);
  }

  /// Why adding `producer` would exceed the target's pressure limits: more
  /// distinct input streams than it handles well, or a reduction's live
  /// rows beyond its on-chip memory. std::nullopt when within them.
  std::optional<std::string>
  pressureExceeded(const llvm::SetVector<Operation *> &members,
                   Operation *producer, const FusionTarget &target) {
    llvm::SetVector<Value> inputs;
    auto addInputs = [&](Operation *op) {
      for (Value v : op->getOperands()) {
        Operation *def = v.getDefiningOp();
        if ((!def || (!members.contains(def) && def != producer)) &&
            isa<RankedTensorType>(v.getType()))
          inputs.insert(v);
      }
    };
    for (Operation *op : members)
      addInputs(op);
    addInputs(producer);
    if ((int64_t)inputs.size() > target.maxGroupInputs)
      return "too many streams for " + target.name.str();
    // A reduction keeps one row of each member live per row block.
    if (classify(producer) == Role::Reduction) {
      auto type = cast<RankedTensorType>(producer->getOperand(0).getType());
      int64_t row = type.getRank() ? type.getShape().back() : 1;
      if (ShapedType::isDynamic(row))
        row = kDynamicDimEstimate;
      int64_t width =
          std::max<int64_t>(1, type.getElementType().getIntOrFloatBitWidth() / 8);
      if (!reductionRowsFitOnChip(row, width, members.size() + 1, target))
        return "its rows do not fit on chip for " + target.name.str();
    }
    return std::nullopt;
  }

  //===--------------------------------------------------------------------===//
  // Report
  //===--------------------------------------------------------------------===//

  ReportBytes toBytes(AffineExpr e, ArrayRef<std::string> names,
                      const std::map<std::string, int64_t> &sizes) {
    e = simplifyAffineExpr(e, 0, names.size());
    ReportBytes b{printSymbolicExpr(e, names), std::nullopt};
    SmallVector<int64_t> values;
    for (const std::string &n : names) {
      auto it = sizes.find(n);
      values.push_back(it == sizes.end() ? -1 : it->second);
    }
    b.value = evaluateSymbolicExpr(e, values);
    return b;
  }

  void describeGroups(func::FuncOp func, ArrayRef<Group> groups,
                      Sizes &before, Sizes &after, AffineExpr bytesBefore,
                      const std::map<std::string, int64_t> &sizes,
                      ReportFunction &out) {
    MLIRContext *ctx = func.getContext();
    AsmState asmState(func);
    auto valueName = [&](Value v) {
      if (auto arg = dyn_cast<BlockArgument>(v))
        if (auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                          kArgNameAttr))
          return name.str();
      std::string s;
      llvm::raw_string_ostream os(s);
      v.printAsOperand(os, asmState);
      return s;
    };
    auto shapeString = [&](Value v) {
      std::string s = "[";
      for (auto [i, d] : llvm::enumerate(after.shape(v)))
        s += (i ? ", " : "") + printSymbolicExpr(d, after.names);
      return s + "]";
    };
    auto typeString = [](Value v) {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << v.getType();
      return s;
    };
    // Which group (or argument) produces a value, through views.
    DenseMap<Operation *, unsigned> groupOf;
    for (auto [i, g] : llvm::enumerate(groups))
      for (Operation *op : g.ops)
        groupOf[op] = i;
    std::function<std::string(Value)> producerOf = [&](Value v) -> std::string {
      if (auto arg = dyn_cast<BlockArgument>(v))
        return "arg:" + valueName(v);
      Operation *def = v.getDefiningOp();
      auto it = groupOf.find(def);
      if (it != groupOf.end())
        return std::to_string(it->second);
      if (isView(def) || isa<tensor::CastOp>(def))
        return producerOf(def->getOperand(0));
      return "";
    };

    AffineExpr bytesAfter = getAffineConstantExpr(0, ctx);
    for (auto [i, g] : llvm::enumerate(groups)) {
      ReportGroup r;
      r.id = i;
      r.kind = kindName(g.anchor).str();
      r.notes = g.notes;
      DenseSet<Operation *> members(g.ops.begin(), g.ops.end());
      llvm::SetVector<Value> inputs, outputs;
      AffineExpr unfused = getAffineConstantExpr(0, ctx);
      for (Operation *op : g.ops) {
        r.ops.push_back(op->getName().getStringRef().str());
        for (Value v : op->getOperands()) {
          Operation *def = v.getDefiningOp();
          if ((!def || !members.contains(def)) &&
              isa<RankedTensorType>(v.getType()))
            inputs.insert(v);
        }
        if (classify(op) != Role::None) {
          ++r.unfusedKernels;
          unfused = unfused + after.opBytes(op);
        }
      }
      outputs.insert(g.root()->result_begin(), g.root()->result_end());
      for (Operation *op : g.extraOutputs)
        outputs.insert(op->result_begin(), op->result_end());
      AffineExpr read = getAffineConstantExpr(0, ctx);
      AffineExpr written = getAffineConstantExpr(0, ctx);
      std::set<std::string> producers;
      for (Value v : inputs) {
        r.inputs.push_back({valueName(v), typeString(v), shapeString(v),
                            toBytes(after.bytes(v), after.names, sizes)});
        read = read + after.bytes(v);
        std::string p = producerOf(v);
        if (!p.empty())
          producers.insert(p);
      }
      r.producers.assign(producers.begin(), producers.end());
      for (Value v : outputs) {
        r.outputs.push_back({valueName(v), typeString(v), shapeString(v),
                             toBytes(after.bytes(v), after.names, sizes)});
        written = written + after.bytes(v);
      }
      r.bytesRead = toBytes(read, after.names, sizes);
      r.bytesWritten = toBytes(written, after.names, sizes);
      r.unfusedBytes = toBytes(unfused, after.names, sizes);
      bytesAfter = bytesAfter + read + written;
      out.groups.push_back(std::move(r));
    }
    out.kernelsAfter = groups.size();
    for (Operation &op : func.getBody().front())
      if (isStandaloneKernel(&op)) {
        ++out.kernelsAfter;
        bytesAfter = bytesAfter + after.opBytes(&op);
      }
    for (Value v : func.getBody().front().getTerminator()->getOperands()) {
      std::string p = producerOf(v);
      if (!p.empty())
        out.returned.push_back(p);
    }
    // Before and after share symbol names where the analysis agrees (the
    // same arguments name the same symbols); print each with its own.
    out.bytesBefore = toBytes(bytesBefore, before.names, sizes);
    out.bytesAfter = toBytes(bytesAfter, after.names, sizes);
    out.bytesSaved = {"(" + out.bytesBefore.expr + ") - (" +
                          out.bytesAfter.expr + ")",
                      std::nullopt};
    if (out.bytesBefore.value && out.bytesAfter.value)
      out.bytesSaved.value = *out.bytesBefore.value - *out.bytesAfter.value;
    if (before.names == after.names) {
      AffineExpr saved = simplifyAffineExpr(bytesBefore - bytesAfter, 0,
                                            after.names.size());
      out.bytesSaved.expr = printSymbolicExpr(saved, after.names);
    }
  }

  //===--------------------------------------------------------------------===//
  // Materialization
  //===--------------------------------------------------------------------===//

  /// Replaces the ops of `group` with one fusion.group (inserted at its
  /// root) whose results are the root's results and then the extra outputs.
  void materialize(Group &group) {
    Operation *root = group.root();
    DenseSet<Operation *> members(group.ops.begin(), group.ops.end());
    llvm::SetVector<Value> inputs;
    for (Operation *op : group.ops)
      for (Value v : op->getOperands()) {
        Operation *def = v.getDefiningOp();
        if (!def || !members.contains(def))
          inputs.insert(v);
      }
    SmallVector<Value> results(root->getResults());
    for (Operation *op : group.extraOutputs)
      llvm::append_range(results, op->getResults());
    SmallVector<Type> resultTypes;
    for (Value v : results)
      resultTypes.push_back(v.getType());
    OpBuilder builder(root);
    auto groupOp = fusion::GroupOp::create(builder, root->getLoc(),
                                           resultTypes, inputs.getArrayRef(),
                                           kindName(group.anchor));
    Block &body = groupOp.getBodyBlock();
    IRMapping mapping;
    for (auto [v, arg] : llvm::zip(inputs, body.getArguments()))
      mapping.map(v, arg);
    builder.setInsertionPointToStart(&body);
    for (Operation *op : group.ops) {
      Operation *clone = builder.clone(*op, mapping);
      clone->removeAttr(kHorizontalAttr);
    }
    SmallVector<Value> yielded;
    for (Value r : results)
      yielded.push_back(mapping.lookup(r));
    fusion::YieldOp::create(builder, root->getLoc(), yielded);
    // Copies of one producer recomputed for two groups that were then
    // merged horizontally are one op again.
    IRRewriter rewriter(builder);
    DominanceInfo dominance;
    eliminateCommonSubExpressions(rewriter, dominance, groupOp);
    for (auto [r, g] : llvm::zip(results, groupOp.getResults()))
      r.replaceUsesWithIf(g, [&](OpOperand &use) {
        return !members.contains(use.getOwner());
      });
    for (Operation *op : llvm::reverse(group.ops)) {
      op->dropAllUses();
      op->erase();
    }
    ++numGroups;
    numFusedOps += group.ops.size();
  }
};

} // namespace
