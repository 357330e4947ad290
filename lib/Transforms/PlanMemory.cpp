//===- PlanMemory.cpp - Arena planning for intermediate buffers -*- C++ -*-===//
//
// Intermediate buffers get offsets in one arena so that buffers whose live
// ranges do not overlap share memory. Sizes are expressions of the size
// symbols (SymbolicShapeAnalysis): buffers whose sizes are a constant times
// the same expression (B * S, or B * ((H - 1) floordiv 2 + 1) ** 2) are
// planned together in units of that expression, so one plan holds for every
// size. Several placement orders are tried and the smallest arena kept; a
// pointwise group may write its result over an input that dies there.
// Reshapes and slices alias their operand (they bufferize to views), so they
// get no buffer of their own but extend their operand's live range.
//
//===----------------------------------------------------------------------===//

#include "tcc/Analysis/SymbolicShapes.h"
#include "tcc/Dialect/Fusion/IR/FusionOps.h"
#include "tcc/Dialect/TCC/IR/TCCAttrs.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"
#include "tcc/Target/Target.h"
#include "tcc/Transforms/MemoryPlan.h"
#include "tcc/Transforms/MemoryPlanReport.h"
#include "tcc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <deque>
#include <set>

namespace mlir::tcc {
#define GEN_PASS_DEF_PLANMEMORYPASS
#include "tcc/Transforms/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

struct Buffer {
  Value value;
  Operation *def;
  unsigned resultIndex;
  int64_t start, end; // live range in top-level op indices (inclusive)
  int64_t size;       // bytes, in units of the region's scale
  AffineExpr scale;   // the symbolic factor of the size (1 when static)
  /// In-place chains share one slot: the buffer whose storage this one
  /// takes over (its input that dies at this buffer's definition).
  Buffer *reuses = nullptr;
  int64_t inPlaceOperand = -1;
  int64_t offset = -1;
};

/// Storage of one or more buffers chained in place: placed as one.
struct Slot {
  SmallVector<Buffer *> members;
  int64_t start, end, size;
  int64_t offset = -1;
};

/// Splits a size expression into constant * scale, the scale without a
/// constant factor (B * S * 768 -> 768, B * S).
std::pair<int64_t, AffineExpr> splitConstantFactor(AffineExpr e) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return {c.getValue(), getAffineConstantExpr(1, e.getContext())};
  if (e.getKind() == AffineExprKind::Mul) {
    auto bin = cast<AffineBinaryOpExpr>(e);
    auto [lc, ls] = splitConstantFactor(bin.getLHS());
    auto [rc, rs] = splitConstantFactor(bin.getRHS());
    return {lc * rc, ls * rs};
  }
  return {1, e};
}

int64_t alignTo(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

int64_t elementBytes(Type t) {
  return std::max<int64_t>(1, (t.getIntOrFloatBitWidth() + 7) / 8);
}

/// Places `slots` in the given order, each at the lowest aligned offset free
/// of every already placed slot whose live range overlaps. Returns the peak.
int64_t placeInOrder(ArrayRef<Slot *> order, int64_t align) {
  SmallVector<Slot *> placed;
  int64_t peak = 0;
  for (Slot *s : order) {
    SmallVector<std::pair<int64_t, int64_t>> busy;
    for (Slot *p : placed)
      if (p->start <= s->end && s->start <= p->end)
        busy.push_back({p->offset, p->offset + p->size});
    llvm::sort(busy);
    int64_t offset = 0;
    for (auto [lo, hi] : busy) {
      if (offset + s->size <= lo)
        break;
      offset = std::max(offset, alignTo(hi, align));
    }
    s->offset = offset;
    peak = std::max(peak, offset + s->size);
    placed.push_back(s);
  }
  return peak;
}

/// The placement orders tried, after TFLite's offset planner (Pisarchyk and
/// Lee 2020) and XLA's heap simulator: each sorts the slots, then places
/// them first-fit at the lowest offset.
enum class Strategy { Size, Breadth, Duration, Area, Order };
constexpr Strategy kStrategies[] = {Strategy::Size, Strategy::Breadth,
                                    Strategy::Duration, Strategy::Area,
                                    Strategy::Order};
StringRef strategyName(Strategy s) {
  switch (s) {
  case Strategy::Size: return "size";
  case Strategy::Breadth: return "breadth";
  case Strategy::Duration: return "duration";
  case Strategy::Area: return "area";
  case Strategy::Order: return "order";
  }
  return "";
}
std::optional<Strategy> parseStrategy(StringRef name) {
  for (Strategy s : kStrategies)
    if (strategyName(s) == name)
      return s;
  return std::nullopt;
}

SmallVector<Slot *> sortSlots(ArrayRef<Slot *> slots, Strategy strategy,
                              int64_t numOps) {
  SmallVector<Slot *> order(slots.begin(), slots.end());
  // Breadth: the largest total of live units at any point of a slot's range
  // (the slot that sits under the tallest stack goes first).
  SmallVector<int64_t> liveAt(numOps + 1, 0);
  for (Slot *s : slots)
    for (int64_t t = s->start; t <= s->end; ++t)
      liveAt[t] += s->size;
  auto breadth = [&](Slot *s) {
    int64_t b = 0;
    for (int64_t t = s->start; t <= s->end; ++t)
      b = std::max(b, liveAt[t]);
    return b;
  };
  auto key = [&](Slot *s) -> std::pair<int64_t, int64_t> {
    int64_t duration = s->end - s->start + 1;
    switch (strategy) {
    case Strategy::Size: return {s->size, -s->start};
    case Strategy::Breadth: return {breadth(s), s->size};
    case Strategy::Duration: return {duration, s->size};
    case Strategy::Area: return {duration * s->size, s->size};
    case Strategy::Order: return {-s->start, s->size};
    }
    return {0, 0};
  };
  llvm::stable_sort(order, [&](Slot *a, Slot *b) { return key(a) > key(b); });
  return order;
}

struct PlanMemoryPass : tcc::impl::PlanMemoryPassBase<PlanMemoryPass> {
  using Base::Base;

  std::map<std::string, int64_t> binding;
  MemoryPlanReport planReport;
  /// The target's alignment for planned buffers (the option overrides it).
  int64_t targetAlignment = 64;

  void runOnOperation() override {
    if (alignment < 0 || (alignment & (alignment - 1))) {
      emitError(getOperation().getLoc(),
                "plan-memory: alignment must be a positive power of two, got ")
          << static_cast<int64_t>(alignment);
      return signalPassFailure();
    }
    std::string error;
    FailureOr<TargetAttr> resolved =
        resolveTarget(getOperation(), target, error);
    if (failed(resolved)) {
      emitError(getOperation().getLoc(), "plan-memory: ") << error;
      return signalPassFailure();
    }
    targetAlignment = resolved->getAlignment();
    if (strategy != "best" && !parseStrategy(strategy)) {
      emitError(getOperation().getLoc(), "plan-memory: unknown strategy '")
          << strategy
          << "' (expected best, size, breadth, duration, area or order)";
      return signalPassFailure();
    }
    for (const std::string &entry : reportSizes) {
      std::optional<SizeBinding> size = parseSizeBinding(entry);
      if (!size) {
        emitError(getOperation().getLoc(), "plan-memory: report-sizes entry '")
            << entry << "' is not NAME=VALUE";
        return signalPassFailure();
      }
      binding[size->name] = size->value;
    }
    planReport.sizes = binding;
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal() && func.getBody().hasOneBlock())
        if (failed(planFunction(func)))
          return signalPassFailure();
    if (!reportFile.empty() &&
        failed(writeFile(reportFile, [&](raw_ostream &os) {
          planReport.writeJSON(os);
        })))
      return signalPassFailure();
    if (!svgFile.empty() && failed(writeFile(svgFile, [&](raw_ostream &os) {
          planReport.writeSVG(os);
        })))
      return signalPassFailure();
  }

  LogicalResult writeFile(StringRef path,
                          function_ref<void(raw_ostream &)> write) {
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> out = openOutputFile(path, &error);
    if (!out) {
      emitError(getOperation().getLoc(), "plan-memory: ") << error;
      return failure();
    }
    write(out->os());
    out->keep();
    return success();
  }

  /// Moves independent top-level ops so that fewer bytes are live at once:
  /// list scheduling that, among the ops whose operands are ready, runs the
  /// one that frees the most bytes (net of what it allocates) first. Kept
  /// only when the largest sum of live bytes (with symbols at the report
  /// binding, else 64) goes down. Every op must be free of side effects.
  bool reorderForPeak(func::FuncOp func, SymbolicShapeAnalysis &shapes,
                      ArrayRef<std::string> names);

  int64_t liveBytesPeak(Block &block, SymbolicShapeAnalysis &shapes,
                        ArrayRef<std::string> names);

  std::optional<int64_t> evaluate(AffineExpr e, ArrayRef<std::string> names,
                                  int64_t fallback = -1) {
    SmallVector<int64_t> values;
    for (const std::string &n : names) {
      auto it = binding.find(n);
      values.push_back(it != binding.end() ? it->second : fallback);
    }
    return evaluateSymbolicExpr(e, values);
  }

  LogicalResult planFunction(func::FuncOp func);
};

/// Bytes of `v` as an expression of the symbols, or null when unknown.
AffineExpr bytesOf(Value v, SymbolicShapeAnalysis &shapes) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  if (!t || !t.getElementType().isIntOrFloat())
    return {};
  SmallVector<AffineExpr> dims = shapes.getShape(v);
  if ((int64_t)dims.size() != t.getRank())
    return {};
  AffineExpr bytes =
      getAffineConstantExpr(elementBytes(t.getElementType()), v.getContext());
  for (AffineExpr d : dims)
    bytes = bytes * d;
  return bytes;
}

/// Whether the plan gives `op`'s results buffers of their own.
bool definesPlannableBuffers(Operation &op) {
  // Data-dependent results live in the bound-sized buffer their lowering
  // allocates, even when a static type promises the count: no offset.
  // Neither do the other ops outside groups (cumsum's, the scatters' and
  // sort's loops). Loops (an expanded recurrence) keep their carried
  // buffers, and an scf.if (an ONNX If) those its branch functions return.
  return !isa<MaskSelectOp, NonzeroOp, CumsumOp, ScatterElementsOp,
              ScatterNDOp, SortOp, TopKOp, NmsOp, ReshapeOp,
              SliceOp,
              scf::ForOp, scf::IfOp, tensor::EmptyOp, func::CallOp>(op) &&
         !op.hasTrait<OpTrait::ReturnLike>() &&
         !op.hasTrait<OpTrait::ConstantLike>();
}

int64_t PlanMemoryPass::liveBytesPeak(Block &block,
                                      SymbolicShapeAnalysis &shapes,
                                      ArrayRef<std::string> names) {
  BufferLiveness live = computeBufferLiveness(block);
  SmallVector<int64_t> at(block.getOperations().size() + 1, 0);
  for (auto &[v, range] : live.ranges) {
    Operation *def = v.getDefiningOp();
    if (!def || !definesPlannableBuffers(*def) || live.escaping.contains(v))
      continue;
    AffineExpr bytes = bytesOf(v, shapes);
    std::optional<int64_t> b = bytes ? evaluate(bytes, names, 64) : std::nullopt;
    if (!b)
      continue;
    for (int64_t t = range.first; t <= range.second; ++t)
      at[t] += *b;
  }
  return *llvm::max_element(at);
}

bool PlanMemoryPass::reorderForPeak(func::FuncOp func,
                                    SymbolicShapeAnalysis &shapes,
                                    ArrayRef<std::string> names) {
  Block &block = func.getBody().front();
  SmallVector<Operation *> ops;
  for (Operation &op : block.without_terminator()) {
    if (!isMemoryEffectFree(&op))
      return false;
    ops.push_back(&op);
  }
  int64_t before = liveBytesPeak(block, shapes, names);
  // Users (within the block) and remaining uses per buffer.
  DenseMap<Operation *, unsigned> pendingProducers;
  DenseMap<Operation *, SmallVector<Operation *>> consumers;
  DenseMap<Value, unsigned> remainingUsers;
  DenseMap<Operation *, SmallVector<Value>> buffersRead;
  for (Operation *op : ops) {
    SetVector<Operation *> producers;
    SetVector<Value> read;
    op->walk([&](Operation *inner) {
      for (Value v : inner->getOperands()) {
        Operation *def = v.getDefiningOp();
        while (def && def->getBlock() != &block)
          def = def->getParentOp();
        if (def && def != op && def->getBlock() == &block)
          producers.insert(def);
        // Only buffers of this block (not values inside the op).
        Value root = getBufferRoot(v);
        if (Operation *rootDef = root.getDefiningOp())
          if (rootDef->getBlock() == &block)
            read.insert(root);
      }
    });
    pendingProducers[op] = producers.size();
    for (Operation *p : producers)
      consumers[p].push_back(op);
    for (Value v : read)
      ++remainingUsers[v];
    buffersRead[op] = SmallVector<Value>(read.begin(), read.end());
  }
  auto bytes = [&](Value v) -> int64_t {
    AffineExpr e = bytesOf(v, shapes);
    std::optional<int64_t> b = e ? evaluate(e, names, 64) : std::nullopt;
    return b.value_or(0);
  };
  DenseMap<Operation *, int64_t> position;
  for (auto [i, op] : llvm::enumerate(ops))
    position[op] = i;
  SmallVector<Operation *> ready, order;
  for (Operation *op : ops)
    if (pendingProducers[op] == 0)
      ready.push_back(op);
  while (!ready.empty()) {
    // Net growth of live bytes if `op` ran now; ties keep program order.
    auto growth = [&](Operation *op) {
      int64_t g = 0;
      if (definesPlannableBuffers(*op))
        for (Value r : op->getResults())
          g += bytes(r);
      for (Value v : buffersRead[op])
        if (remainingUsers[v] == 1 && v.getDefiningOp())
          g -= bytes(v);
      return g;
    };
    auto best = llvm::min_element(ready, [&](Operation *a, Operation *b) {
      int64_t ga = growth(a), gb = growth(b);
      return ga != gb ? ga < gb : position[a] < position[b];
    });
    Operation *op = *best;
    ready.erase(best);
    order.push_back(op);
    for (Value v : buffersRead[op])
      --remainingUsers[v];
    for (Operation *c : consumers[op])
      if (--pendingProducers[c] == 0)
        ready.push_back(c);
  }
  if (order.size() != ops.size() || order == ops)
    return false;
  Operation *terminator = block.getTerminator();
  for (Operation *op : order)
    op->moveBefore(terminator);
  if (liveBytesPeak(block, shapes, names) < before)
    return true;
  for (Operation *op : ops) // Not better: the program's order back.
    op->moveBefore(terminator);
  return false;
}

LogicalResult PlanMemoryPass::planFunction(func::FuncOp func) {
  MLIRContext *ctx = &getContext();
  int64_t align = alignment ? int64_t(alignment) : targetAlignment;
  // Sizes are expressions of the function's size symbols; a buffer whose
  // size needs a symbol the entry cannot read from an argument dim (a
  // data-dependent size) keeps its own allocation.
  FailureOr<SymbolicShapeAnalysis> shapes = SymbolicShapeAnalysis::run(func);
  if (failed(shapes))
    return failure();
  SmallVector<std::string> names(shapes->getNames().begin(),
                                 shapes->getNames().end());
  bool reordered = reorder && reorderForPeak(func, *shapes, names);

  Block &block = func.getBody().front();
  BufferLiveness live = computeBufferLiveness(block);
  int64_t numOps = block.getOperations().size();
  llvm::MapVector<Value, Buffer> buffers;
  auto labelOf = [&](Operation *op) {
    std::string label = std::to_string(live.index[op]) + ":";
    if (auto group = dyn_cast<fusion::GroupOp>(op))
      return label + group.getKind().str();
    return label + op->getName().getStringRef().str();
  };
  for (Operation &op : block) {
    op.removeAttr(kBufferAttr);
    if (!definesPlannableBuffers(op))
      continue;
    for (auto [i, r] : llvm::enumerate(op.getResults())) {
      if (live.escaping.contains(r))
        continue;
      AffineExpr bytes = bytesOf(r, *shapes);
      // No size, or none at all (a static size-0 dim): nothing to place.
      if (!bytes || bytes == getAffineConstantExpr(0, op.getContext()))
        continue;
      bool plannable = true;
      bytes.walk([&](AffineExpr e) {
        if (auto sym = dyn_cast<AffineSymbolExpr>(e))
          plannable &= shapes->getSymbol(sym.getPosition()).fromInputs;
      });
      if (!plannable)
        continue;
      auto [size, scale] = splitConstantFactor(bytes);
      auto [start, end] = live.ranges.lookup(r);
      buffers.insert(
          {r, Buffer{r, &op, (unsigned)i, start, end, size, scale}});
    }
  }

  // In place: a pointwise group's result takes the storage of an input of
  // the same size and scale that dies at the group.
  if (inPlace) {
    DenseSet<Buffer *> donated;
    for (auto &[v, b] : buffers) {
      if (b.def->getNumResults() != 1)
        continue;
      for (auto [i, operand] : llvm::enumerate(b.def->getOperands())) {
        auto it = buffers.find(operand);
        if (it == buffers.end())
          continue;
        Buffer &x = it->second;
        if (x.end != b.start || x.size != b.size || x.scale != b.scale ||
            donated.contains(&x) || !mayWriteInPlace(b.def, i))
          continue;
        b.reuses = &x;
        b.inPlaceOperand = i;
        donated.insert(&x);
        break;
      }
    }
  }

  // Slots (in-place chains), grouped by scale, static sizes first.
  std::deque<Slot> slotStorage;
  DenseMap<Buffer *, Slot *> slotOf;
  llvm::MapVector<AffineExpr, SmallVector<Slot *>> regions;
  regions[getAffineConstantExpr(1, ctx)];
  for (auto &[v, b] : buffers) {
    Slot *slot;
    if (b.reuses) {
      slot = slotOf.lookup(b.reuses);
      slot->end = std::max(slot->end, b.end);
    } else {
      slot = &slotStorage.emplace_back(Slot{{}, b.start, b.end, b.size});
      regions[b.scale].push_back(slot);
    }
    slot->members.push_back(&b);
    slotOf[&b] = slot;
  }

  Builder builder(ctx);
  MemoryPlanFunction reportFunc;
  reportFunc.name = func.getName().str();
  reportFunc.alignment = align;
  reportFunc.reordered = reordered;
  reportFunc.numOps = numOps;
  SmallVector<Attribute> regionAttrs;
  std::set<unsigned> usedSymbols;
  SmallVector<AffineExpr> regionScales;
  SmallVector<SmallVector<int64_t>> liveUnits; // per region, per op index
  int64_t regionIndex = 0, naiveStatic = 0;
  std::set<std::string> strategiesUsed;
  DenseMap<Buffer *, int64_t> regionOf;
  for (auto &[scale, slots] : regions) {
    if (slots.empty())
      continue;
    // Every strategy (or the one asked for); the smallest peak wins, ties
    // to the earlier one.
    int64_t bestPeak = INT64_MAX;
    Strategy bestStrategy = Strategy::Size;
    SmallVector<int64_t> bestOffsets;
    for (Strategy s : kStrategies) {
      if (strategy != "best" && strategyName(s) != strategy)
        continue;
      int64_t peak = placeInOrder(sortSlots(slots, s, numOps), align);
      if (peak < bestPeak) {
        bestPeak = peak;
        bestStrategy = s;
        bestOffsets.clear();
        for (Slot *slot : slots)
          bestOffsets.push_back(slot->offset);
      }
    }
    for (auto [slot, offset] : llvm::zip(slots, bestOffsets))
      slot->offset = offset;
    strategiesUsed.insert(strategyName(bestStrategy).str());

    SmallVector<int64_t> units(numOps, 0);
    int64_t naive = 0;
    for (Slot *slot : slots) {
      for (Buffer *b : slot->members) {
        b->offset = slot->offset;
        naive += alignTo(b->size, align);
        regionOf[b] = regionIndex;
        for (int64_t t = b->start; t <= b->end; ++t)
          units[t] += b->size;
      }
    }
    int64_t lowerBound = *llvm::max_element(units);
    if (isa<AffineConstantExpr>(scale))
      naiveStatic = naive;
    scale.walk([&](AffineExpr e) {
      if (auto sym = dyn_cast<AffineSymbolExpr>(e))
        usedSymbols.insert(sym.getPosition());
    });
    std::string scaleText = printSymbolicExpr(scale, names);
    int64_t size = alignTo(bestPeak, align);
    regionAttrs.push_back(builder.getDictionaryAttr(
        {builder.getNamedAttr("size", builder.getI64IntegerAttr(size)),
         builder.getNamedAttr("naive", builder.getI64IntegerAttr(naive)),
         builder.getNamedAttr("scale", builder.getStringAttr(scaleText))}));
    reportFunc.regions.push_back({scaleText, size, naive, lowerBound});
    regionScales.push_back(scale);
    liveUnits.push_back(std::move(units));
    ++regionIndex;
  }

  // The plan, on the defining ops.
  DenseMap<Operation *, SmallVector<Attribute>> perOp;
  for (auto &[v, b] : buffers) {
    SmallVector<NamedAttribute> entry = {
        builder.getNamedAttr("region",
                             builder.getI64IntegerAttr(regionOf[&b])),
        builder.getNamedAttr("offset", builder.getI64IntegerAttr(b.offset)),
        builder.getNamedAttr("size", builder.getI64IntegerAttr(b.size))};
    if (b.reuses)
      entry.push_back(builder.getNamedAttr(
          "in_place", builder.getI64IntegerAttr(b.inPlaceOperand)));
    SmallVector<Attribute> &slots = perOp[b.def];
    slots.resize(b.def->getNumResults(), builder.getUnitAttr());
    slots[b.resultIndex] = builder.getDictionaryAttr(entry);
  }
  for (auto &[op, entries] : perOp)
    op->setAttr(kBufferAttr, entries.size() == 1
                                 ? entries.front()
                                 : builder.getArrayAttr(entries));

  // Which argument dim each symbol is read from.
  DenseMap<unsigned, std::pair<unsigned, int64_t>> definitions;
  for (BlockArgument arg : func.getArguments()) {
    SmallVector<AffineExpr> dims = shapes->getShape(arg);
    for (auto [d, e] : llvm::enumerate(dims))
      if (auto sym = dyn_cast<AffineSymbolExpr>(e))
        definitions.try_emplace(sym.getPosition(), arg.getArgNumber(), d);
  }
  SmallVector<NamedAttribute> symAttrs;
  for (unsigned s : usedSymbols) {
    auto [arg, dim] = definitions.lookup(s);
    symAttrs.push_back(builder.getNamedAttr(
        names[s], builder.getDenseI64ArrayAttr({(int64_t)arg, dim})));
  }
  func->setAttr(kSymbolsAttr, builder.getDictionaryAttr(symAttrs));
  func->setAttr(kArenaAttr, builder.getArrayAttr(regionAttrs));
  func->setAttr(kArenaAlignmentAttr, builder.getI64IntegerAttr(align));
  func->setAttr(kNaiveSizeAttr, builder.getI64IntegerAttr(naiveStatic));

  // Report: expressions, and numbers at the binding.
  auto bytesFor = [&](ArrayRef<int64_t> perRegion) {
    AffineExpr sum = getAffineConstantExpr(0, ctx);
    for (auto [units, scale] : llvm::zip(perRegion, regionScales))
      sum = sum + scale * units;
    return ReportBytes{printSymbolicExpr(sum, names), evaluate(sum, names)};
  };
  SmallVector<int64_t> sizes, naives;
  for (const MemoryPlanRegion &r : reportFunc.regions) {
    sizes.push_back(r.sizeUnits);
    naives.push_back(r.naiveUnits);
  }
  reportFunc.peak = bytesFor(sizes);
  reportFunc.naive = bytesFor(naives);
  // Lower bound: the largest sum of live bytes at any op. With several
  // scales the op that attains it can depend on the sizes: the maximum over
  // the ops whose live vectors no other op's dominates.
  SmallVector<SmallVector<int64_t>> candidates;
  for (int64_t t = 0; t < numOps; ++t) {
    SmallVector<int64_t> v;
    for (auto &units : liveUnits)
      v.push_back(units[t]);
    candidates.push_back(std::move(v));
  }
  auto dominated = [&](ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
    for (auto [x, y] : llvm::zip(a, b))
      if (x > y)
        return false;
    return a != b;
  };
  SmallVector<SmallVector<int64_t>> frontier;
  for (auto &c : candidates) {
    if (llvm::any_of(candidates, [&](auto &o) { return dominated(c, o); }) ||
        llvm::is_contained(frontier, c))
      continue;
    frontier.push_back(c);
  }
  if (frontier.empty())
    frontier.push_back(SmallVector<int64_t>(regionScales.size(), 0));
  std::string boundExpr;
  std::optional<int64_t> boundValue = 0;
  for (auto [i, c] : llvm::enumerate(frontier)) {
    ReportBytes b = bytesFor(c);
    boundExpr += (i ? ", " : "") + b.expr;
    if (b.value && boundValue)
      boundValue = std::max(*boundValue, *b.value);
    else
      boundValue = std::nullopt;
  }
  if (frontier.size() > 1)
    boundExpr = "max(" + boundExpr + ")";
  reportFunc.lowerBound = {boundExpr, boundValue};
  reportFunc.strategy = llvm::join(strategiesUsed, ",");
  if (strategiesUsed.empty())
    reportFunc.strategy = "none";

  SmallVector<int64_t> bases;
  int64_t base = 0; // at the binding; regions follow each other
  for (auto [i, scale] : llvm::enumerate(regionScales)) {
    bases.push_back(base);
    std::optional<int64_t> s = evaluate(scale, names);
    base += reportFunc.regions[i].sizeUnits * s.value_or(0);
  }
  DenseMap<Buffer *, std::string> nameOf;
  for (auto &[v, b] : buffers) {
    std::string name = labelOf(b.def);
    if (b.def->getNumResults() > 1)
      name += "#" + std::to_string(b.resultIndex);
    nameOf[&b] = name;
  }
  for (auto &[v, b] : buffers) {
    MemoryPlanBuffer rb;
    rb.name = nameOf[&b];
    rb.region = regionOf[&b];
    AffineExpr scale = regionScales[rb.region];
    rb.size = {printSymbolicExpr(scale * b.size, names),
               evaluate(scale * b.size, names)};
    AffineExpr offsetExpr = scale * b.offset;
    for (unsigned r = 0; r < rb.region; ++r)
      offsetExpr = offsetExpr + regionScales[r] * reportFunc.regions[r].sizeUnits;
    rb.offset = {printSymbolicExpr(offsetExpr, names),
                 evaluate(offsetExpr, names)};
    rb.firstUse = b.start;
    rb.lastUse = b.end;
    if (b.reuses)
      rb.inPlaceOf = nameOf[b.reuses];
    reportFunc.buffers.push_back(std::move(rb));
  }

  if (report) {
    llvm::errs() << "plan-memory: @" << func.getName() << ": "
                 << buffers.size() << " intermediate buffers, arena "
                 << reportFunc.peak.expr << " B (lower bound "
                 << reportFunc.lowerBound.expr << " B, without reuse "
                 << reportFunc.naive.expr << " B)";
    for (unsigned s : usedSymbols) {
      auto [arg, dim] = definitions.lookup(s);
      llvm::errs() << "; " << names[s] << " = arg" << arg << " dim " << dim;
    }
    llvm::errs() << "\n";
  }
  planReport.functions.push_back(std::move(reportFunc));
  return success();
}

} // namespace
