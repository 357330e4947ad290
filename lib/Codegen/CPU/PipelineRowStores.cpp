//===- PipelineRowStores.cpp - a row's stores under the next row's work ---===//
//
// See the pass description (include/tcc/Conversion/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/CPU/Passes.h"

#include "ViewRoot.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_PIPELINEROWSTORESPASS
#include "tcc/Codegen/CPU/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using mlir::tcc::viewRoot;

namespace {

/// What the store pass of a row reads that the row computes: how each such
/// value is had for the previous row.
struct RowInputs {
  SmallVector<memref::AllocaOp> scratch; // double-buffered
  SmallVector<Value> carried;            // passed on by the row loop
  SmallVector<Value> recomputed;         // cloned for the previous row
};

/// The most stack bytes the second copy of the scratch may take (per
/// thread): a row of 4096 f32 is 16 KiB.
constexpr int64_t kMaxExtraScratchBytes = 256 * 1024;

/// A row loop whose last pass can run during the next row's work.
struct Candidate {
  scf::ParallelOp rows;
  scf::ForOp host, last;
  RowInputs inputs;
};

bool sameValue(Value a, Value b) {
  if (a == b)
    return true;
  std::optional<int64_t> x = getConstantIntValue(a);
  std::optional<int64_t> y = getConstantIntValue(b);
  return x && y && *x == *y;
}

bool isDefinedIn(Value v, Block *body) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return arg.getOwner() == body;
  return v.getDefiningOp()->getBlock() == body;
}

/// Whether `a` and `b` run over the same columns in every row: the same
/// induction type and comparison, and bounds that are constants or come
/// from outside the row loop (a row-dependent bound would give the
/// previous row's pass the current row's columns).
bool sameIterationSpace(scf::ForOp a, scf::ForOp b, Block *body) {
  auto rowInvariant = [&](Value v) {
    return getConstantIntValue(v) || !isDefinedIn(v, body);
  };
  for (scf::ForOp loop : {a, b})
    if (!rowInvariant(loop.getLowerBound()) ||
        !rowInvariant(loop.getUpperBound()) || !rowInvariant(loop.getStep()))
      return false;
  return a.getInductionVar().getType() == b.getInductionVar().getType() &&
         a.getUnsignedCmp() == b.getUnsignedCmp() &&
         sameValue(a.getLowerBound(), b.getLowerBound()) &&
         sameValue(a.getUpperBound(), b.getUpperBound()) &&
         sameValue(a.getStep(), b.getStep());
}

/// Whether `v` can be computed again for another row: built without
/// touching memory from the row index, constants and values from outside
/// the row loop (views of the row, their indices).
bool isRecomputable(Value v, Block *body, DenseMap<Value, bool> &known,
                    int depth = 0) {
  if (!isDefinedIn(v, body))
    return true;
  if (isa<BlockArgument>(v))
    return true; // the row index
  if (auto it = known.find(v); it != known.end())
    return it->second;
  Operation *def = v.getDefiningOp();
  bool result = depth <= 16 && def->getNumRegions() == 0 &&
                isMemoryEffectFree(def) &&
                llvm::all_of(def->getOperands(), [&](Value operand) {
                  return isRecomputable(operand, body, known, depth + 1);
                });
  known[v] = result;
  return result;
}

/// Whether `v` is computed, without reading memory, from a buffer the row
/// loop allocates (an address: an aligned pointer, a view's metadata).
/// Such a value would point into the one hoisted copy of that buffer,
/// which the next row overwrites; a value loaded from it is data and is
/// safe to carry.
bool addressesRowBuffer(Value v, Block *body, DenseSet<Value> &seen) {
  if (!isDefinedIn(v, body) || isa<BlockArgument>(v) || !seen.insert(v).second)
    return false;
  Operation *def = v.getDefiningOp();
  if (isa<memref::AllocaOp, memref::AllocOp>(def))
    return true;
  if (def->getNumRegions() != 0 || !isMemoryEffectFree(def))
    return false;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return addressesRowBuffer(operand, body, seen);
  });
}

/// Whether `op` may read or write a buffer in `roots`. An op can only
/// reach a buffer through a memref or pointer operand; one with such an
/// operand and no declared effects is assumed to.
bool touches(Operation *op, const DenseSet<Value> &roots) {
  if (auto effects = dyn_cast<MemoryEffectOpInterface>(op)) {
    SmallVector<MemoryEffects::EffectInstance> list;
    effects.getEffects(list);
    for (const MemoryEffects::EffectInstance &e : list) {
      if (isa<MemoryEffects::Allocate, MemoryEffects::Free>(e.getEffect()))
        continue;
      if (!e.getValue() || roots.contains(viewRoot(e.getValue())))
        return true;
    }
    return false;
  }
  if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
    return false; // its nested ops are walked
  return llvm::any_of(op->getOperandTypes(), [](Type t) {
    return isa<BaseMemRefType>(t) || isa<LLVM::LLVMPointerType>(t);
  });
}

/// The row loop's last pass, if it streams the row's result out and
/// nothing else in the loop reads or writes that result.
FailureOr<Candidate> analyze(scf::ParallelOp rows) {
  if (rows.getNumLoops() != 1 || rows.getNumResults() != 0)
    return failure();
  // Fewer than two chunks' worth of rows per 64 threads: every chunk would
  // be one row, nothing to overlap.
  std::optional<int64_t> lb = getConstantIntValue(rows.getLowerBound()[0]);
  std::optional<int64_t> ub = getConstantIntValue(rows.getUpperBound()[0]);
  std::optional<int64_t> step = getConstantIntValue(rows.getStep()[0]);
  if (lb && ub && step && *step > 0 && (*ub - *lb) / *step < 2 * 64)
    return failure();
  Block *body = rows.getBody();
  auto last =
      dyn_cast_or_null<scf::ForOp>(body->getTerminator()->getPrevNode());
  if (!last || last.getNumResults() != 0)
    return failure();

  // The last pass's writes: streaming stores into fresh buffers allocated
  // outside the loop (results, not inputs that could alias).
  DenseSet<Value> outputs;
  bool streams = false, writesOther = false;
  last.walk([&](Operation *op) {
    if (isa<memref::PrefetchOp>(op)) // a hint: changes nothing
      return;
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects) {
      // Unknown effects: it may write through any buffer it is given.
      DenseSet<Value> none;
      writesOther |= op != last.getOperation() && touches(op, none);
      return;
    }
    SmallVector<MemoryEffects::EffectInstance> list;
    effects.getEffects(list);
    for (const MemoryEffects::EffectInstance &e : list) {
      if (!isa<MemoryEffects::Write>(e.getEffect()))
        continue;
      Value root = e.getValue() ? viewRoot(e.getValue()) : Value();
      if (!root || !tcc::allocationAlignment(root) ||
          (root.getDefiningOp() && rows->isAncestor(root.getDefiningOp()))) {
        writesOther = true;
        continue;
      }
      outputs.insert(root);
      if (auto store = dyn_cast<vector::StoreOp>(op))
        streams |= store.getNontemporal();
    }
  });
  if (!streams || writesOther || outputs.empty())
    return failure();
  // A stack buffer inside the last pass would be allocated once per row of
  // a chunk (the serial row loop is not an allocation scope).
  if (last->walk([](memref::AllocaOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    return failure();

  // Nothing else in the row loop touches those buffers, and every stack
  // buffer can be hoisted (the chunk's row loop is not an allocation
  // scope).
  bool blocked = false;
  for (Operation &op : body->without_terminator()) {
    if (&op == last.getOperation())
      continue;
    op.walk([&](Operation *nested) {
      if (touches(nested, outputs))
        blocked = true;
      if (auto alloca = dyn_cast<memref::AllocaOp>(nested))
        if (nested->getBlock() != body ||
            llvm::any_of(alloca->getOperands(), [&](Value v) {
              return isDefinedIn(v, body) ||
                     rows->isProperAncestor(v.getParentBlock()->getParentOp());
            }))
          blocked = true;
    });
  }
  if (blocked)
    return failure();

  // The pass to run it under: over the same columns, the one carrying the
  // next row's prefetches (tcc-prefetch-rows put them in the pass with
  // the most arithmetic), else the largest.
  scf::ForOp host;
  int64_t hostSize = -1;
  for (Operation &op : body->without_terminator()) {
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop || loop == last || !sameIterationSpace(loop, last, body))
      continue;
    int64_t size = 0;
    bool prefetches = false;
    loop.walk([&](Operation *nested) {
      ++size;
      prefetches |= isa<memref::PrefetchOp>(nested);
    });
    if (prefetches)
      size += int64_t(1) << 40;
    if (size > hostSize) {
      host = loop;
      hostSize = size;
    }
  }
  if (!host)
    return failure();

  // How the last pass gets each value the row computes.
  Candidate c{rows, host, last, {}};
  llvm::SetVector<Value> used;
  getUsedValuesDefinedAbove(last.getRegion(), used);
  for (Value v : last->getOperands())
    used.insert(v);
  DenseMap<Value, bool> known;
  int64_t scratchBytes = 0;
  for (Value v : used) {
    if (!isDefinedIn(v, body))
      continue;
    DenseSet<Value> seen;
    if (auto alloca = v.getDefiningOp<memref::AllocaOp>()) {
      // Its second copy must fit the stack as the first did.
      MemRefType type = alloca.getType();
      if (!type.hasStaticShape())
        return failure();
      scratchBytes += type.getNumElements() *
                      std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
      c.inputs.scratch.push_back(alloca);
    } else if (isRecomputable(v, body, known)) {
      c.inputs.recomputed.push_back(v);
    } else if (!isa<BaseMemRefType>(v.getType()) &&
               !addressesRowBuffer(v, body, seen)) {
      c.inputs.carried.push_back(v);
    } else {
      return failure();
    }
  }
  if (scratchBytes > kMaxExtraScratchBytes)
    return failure();
  return c;
}

/// Clones into `b`'s insertion point what `v` is built from, for the row
/// `mapping` maps the row index to.
void materialize(Value v, Block *body, IRMapping &mapping, OpBuilder &b) {
  if (mapping.contains(v) || !isDefinedIn(v, body) || isa<BlockArgument>(v))
    return;
  Operation *def = v.getDefiningOp();
  for (Value operand : def->getOperands())
    materialize(operand, body, mapping, b);
  b.clone(*def, mapping);
}

struct PipelineRowStoresPass
    : tcc::impl::PipelineRowStoresPassBase<PipelineRowStoresPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Candidate> candidates;
    getOperation().walk([&](scf::ParallelOp rows) {
      if (FailureOr<Candidate> c = analyze(rows); succeeded(c))
        candidates.push_back(*c);
    });
    for (Candidate &c : candidates)
      pipeline(c);
  }

  /// The last pass for a row other than the current one: `mapping` holds
  /// that row's index, scratch and carried values; the recomputed ones are
  /// cloned here.
  void mapRow(Candidate &c, IRMapping &mapping, OpBuilder &b) {
    for (Value v : c.inputs.recomputed)
      materialize(v, c.rows.getBody(), mapping, b);
  }

  void pipeline(Candidate &c) {
    scf::ParallelOp rows = c.rows;
    Block *body = rows.getBody();
    Value row = rows.getInductionVars()[0];
    Location loc = rows.getLoc();
    OpBuilder b(rows);

    // Chunks of consecutive rows, one serial row loop each: up to
    // `chunkRows` rows, fewer when there are fewer than 64 chunks' worth
    // (the threads still get even shares). Each chunk's last row has no
    // next row to hide its stores under.
    Value lb = rows.getLowerBound()[0], ub = rows.getUpperBound()[0],
          step = rows.getStep()[0];
    auto cst = [&](int64_t v) {
      return arith::ConstantIndexOp::create(b, loc, v).getResult();
    };
    Value trips = arith::CeilDivSIOp::create(
        b, loc, arith::SubIOp::create(b, loc, ub, lb), step);
    Value perChunk = arith::MaxSIOp::create(
        b, loc, cst(1),
        arith::MinSIOp::create(b, loc, cst(chunkRows),
                               arith::DivSIOp::create(b, loc, trips, cst(64))));
    Value chunkStep = arith::MulIOp::create(b, loc, step, perChunk);
    auto chunks = scf::ParallelOp::create(
        b, loc, ValueRange{lb}, ValueRange{ub}, ValueRange{chunkStep});
    chunks->setDiscardableAttrs(rows->getDiscardableAttrDictionary());

    b.setInsertionPoint(chunks.getBody()->getTerminator());
    Value first = chunks.getInductionVars()[0];
    Value end = arith::MinSIOp::create(
        b, loc, arith::AddIOp::create(b, loc, first, chunkStep), ub);

    // Stack buffers once per chunk; the last pass's scratch twice, for the
    // current and the previous row.
    IRMapping hoisted;
    llvm::MapVector<Operation *, std::pair<Value, Value>> buffers;
    for (Operation &op : llvm::make_early_inc_range(*body))
      if (auto alloca = dyn_cast<memref::AllocaOp>(op)) {
        Value a0 = b.clone(op, hoisted)->getResult(0);
        if (llvm::is_contained(c.inputs.scratch, alloca))
          buffers[alloca] = {a0, b.clone(op)->getResult(0)};
      }

    SmallVector<Value> inits = {
        first, arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0)};
    for (Value v : c.inputs.carried)
      inits.push_back(ub::PoisonOp::create(b, loc, v.getType()));
    auto rowLoop = scf::ForOp::create(b, loc, first, end, step, inits);

    // One row: the original body, its last pass left out and the previous
    // row's run inside the host pass.
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(rowLoop.getBody());
      Value r = rowLoop.getInductionVar();
      ValueRange args = rowLoop.getRegionIterArgs();
      Value prevRow = args[0], parity = args[1];
      IRMapping current = hoisted, previous = hoisted;
      current.map(row, r);
      previous.map(row, prevRow);
      for (auto [alloca, pair] : buffers) {
        Value cur =
            arith::SelectOp::create(b, loc, parity, pair.second, pair.first);
        Value prev =
            arith::SelectOp::create(b, loc, parity, pair.first, pair.second);
        current.map(alloca->getResult(0), cur);
        previous.map(alloca->getResult(0), prev);
      }
      for (auto [v, arg] : llvm::zip(c.inputs.carried, args.drop_front(2)))
        previous.map(v, arg);
      Value hasPrev =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, r, first);

      for (Operation &op : body->without_terminator()) {
        if (isa<memref::AllocaOp>(op) || &op == c.last.getOperation())
          continue;
        if (&op != c.host.getOperation()) {
          b.clone(op, current);
          continue;
        }
        mapRow(c, previous, b);
        // Prefetches in the last pass (of the row after the one it
        // stores) keep aiming one row past the current row.
        mapRow(c, current, b);
        IRMapping ahead = previous;
        for (Value v : c.inputs.recomputed)
          ahead.map(v, current.lookupOrDefault(v));
        ahead.map(row, r);
        auto choice = scf::IfOp::create(b, loc, c.host.getResultTypes(),
                                        hasPrev, /*withElseRegion=*/true);
        {
          OpBuilder::InsertionGuard inner(b);
          b.setInsertionPointToStart(&choice.getThenRegion().front());
          // A fresh mapping per copy of the pass: cloning a region records
          // its block arguments, and a second clone through the same
          // mapping would drop them.
          IRMapping fusedMap = current;
          auto fused = cast<scf::ForOp>(b.clone(op, fusedMap));
          IRMapping lastMap = previous;
          lastMap.map(c.last.getInductionVar(), fused.getInductionVar());
          ahead.map(c.last.getInductionVar(), fused.getInductionVar());
          // The previous row's stores after this row's work: issued first,
          // the streaming stores stalled the loop (see the description).
          b.setInsertionPoint(fused.getBody()->getTerminator());
          for (Operation &inner : c.last.getBody()->without_terminator()) {
            Operation *copy = b.clone(
                inner, isa<memref::PrefetchOp>(inner) ? ahead : lastMap);
            for (auto [from, to] :
                 llvm::zip(inner.getResults(), copy->getResults()))
              ahead.map(from, to);
          }
          // Without results scf.if already ends its blocks with a yield.
          if (fused.getNumResults() != 0) {
            b.setInsertionPointAfter(fused);
            scf::YieldOp::create(b, loc, fused.getResults());
          }
          b.setInsertionPointToStart(&choice.getElseRegion().front());
          IRMapping plainMap = current;
          Operation *plain = b.clone(op, plainMap);
          if (plain->getNumResults() != 0)
            scf::YieldOp::create(b, loc, plain->getResults());
        }
        for (auto [from, to] : llvm::zip(op.getResults(), choice.getResults()))
          current.map(from, to);
      }

      SmallVector<Value> next = {
          r, arith::XOrIOp::create(
                 b, loc, parity,
                 arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1))};
      for (Value v : c.inputs.carried)
        next.push_back(current.lookup(v));
      scf::YieldOp::create(b, loc, next);
    }

    // The chunk's last row.
    IRMapping tail = hoisted;
    ValueRange results = rowLoop.getResults();
    tail.map(row, results[0]);
    for (auto [alloca, pair] : buffers)
      tail.map(
          alloca->getResult(0),
          arith::SelectOp::create(b, loc, results[1], pair.first, pair.second));
    for (auto [v, result] : llvm::zip(c.inputs.carried, results.drop_front(2)))
      tail.map(v, result);
    mapRow(c, tail, b);
    b.clone(*c.last, tail);

    rows.erase();
  }
};

} // namespace
