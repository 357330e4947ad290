//===- RowGroupsToGPU.cpp - a fused row group as one kernel -----*- C++ -*-===//
//
// See the pass description (include/tcc/Conversion/Passes.td).
//
// A run of consecutive linalg ops over the same rows (softmax: max, exp,
// sum, scale; layer_norm: mean, variance, normalize) becomes one
// gpu.launch with a block per row. Each thread owns the columns
// tid, tid + B, ...; with a static row length those are K = ceil(C / B)
// values per buffer, held in registers (SSA values of a fully unrolled
// column loop) from one op to the next, so the row is read from memory once
// and intermediates never leave the chip. Reductions are warp shuffles plus
// one shared-memory exchange; every thread then has the row's result.
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/CUDA/Passes.h"

#include "tcc/Codegen/CUDA/Reductions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_ROWGROUPSTOGPUPASS
#include "tcc/Codegen/CUDA/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

/// Column values per thread held in registers at most; longer static rows
/// and dynamic ones loop over global memory instead.
constexpr int64_t kMaxRegisterColumns = 32;
constexpr int64_t kWarp = 32;

enum class Kind { Elementwise, Reduction, RowScalar };

struct RowOp {
  Kind kind;
  linalg::GenericOp op;
  // Reductions: the combining op, which of its operands is the accumulator,
  // its neutral element, and the fill of the accumulator folded in (or null).
  Operation *combiner = nullptr;
  unsigned accOperand = 0;
  TypedAttr neutral;
  linalg::FillOp fill;
};

/// Where loop dim `d` of `op` gets its size: an operand and its dim.
std::optional<std::pair<Value, int64_t>> loopDimSource(linalg::GenericOp op,
                                                       unsigned d) {
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [i, e] : llvm::enumerate(map.getResults()))
      if (cast<AffineDimExpr>(e).getPosition() == d)
        return std::make_pair(operand.get(), static_cast<int64_t>(i));
  }
  return std::nullopt;
}

/// Maps are projected permutations that keep the loop order (no
/// transposes): each operand indexes with a subsequence of the loops.
bool hasOrderedMaps(linalg::GenericOp op) {
  for (AffineMap map : op.getIndexingMapsArray()) {
    if (!map.isProjectedPermutation())
      return false;
    int64_t last = -1;
    for (AffineExpr e : map.getResults()) {
      int64_t pos = cast<AffineDimExpr>(e).getPosition();
      if (pos <= last)
        return false;
      last = pos;
    }
  }
  return true;
}

bool isIdentityPrefix(AffineMap map, unsigned n) {
  if (map.getNumResults() != n)
    return false;
  for (auto [i, e] : llvm::enumerate(map.getResults()))
    if (cast<AffineDimExpr>(e).getPosition() != i)
      return false;
  return true;
}

/// `op` as a reduction of its innermost loop that combines the accumulator
/// once with a 32-bit value by an op with a neutral element.
std::optional<RowOp> matchReduction(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1 ||
      op.getIteratorTypesArray().back() != utils::IteratorType::reduction)
    return std::nullopt;
  OpOperand *init = op.getDpsInitOperand(0);
  if (!isIdentityPrefix(op.getMatchingIndexingMap(init), op.getNumLoops() - 1))
    return std::nullopt;
  std::optional<ReductionCombiner> match =
      matchReductionCombiner(op);
  if (!match)
    return std::nullopt;
  Operation *combiner = match->op;
  unsigned accOperand = match->accOperand;
  Type type = combiner->getResult(0).getType();
  if (!type.isIntOrFloat() || type.getIntOrFloatBitWidth() != 32)
    return std::nullopt; // warp shuffles move 32 bits
  std::optional<TypedAttr> neutral = arith::getNeutralElement(combiner);
  if (!neutral)
    return std::nullopt;
  RowOp r{Kind::Reduction, op};
  r.combiner = combiner;
  r.accOperand = accOperand;
  r.neutral = *neutral;
  return r;
}

Value combine(OpBuilder &b, Operation *combiner, Value lhs, Value rhs) {
  return combineLike(b, combiner, lhs, rhs);
}

/// A run of row ops being collected, and what the kernel needs to know.
struct Run {
  SmallVector<RowOp> ops;
  unsigned numRowDims = 0;
  // Sources and static sizes of the P row dims and the column dim.
  SmallVector<std::pair<Value, int64_t>> dimSources;
  SmallVector<int64_t> staticSizes;
  DenseSet<Value> written; // buffers (allocations) the run writes
  DenseSet<Value> bases;   // every base the run touches

  bool hasReduction() const {
    return llvm::any_of(
        ops, [](const RowOp &r) { return r.kind == Kind::Reduction; });
  }
};

/// Whether loop dim `d` of `op` has the size of the run's dim `runDim`.
bool sameSize(Run &run, linalg::GenericOp op, unsigned d, unsigned runDim) {
  int64_t mine = op.getStaticLoopRanges()[d];
  int64_t theirs = run.staticSizes[runDim];
  if (!ShapedType::isDynamic(mine) || !ShapedType::isDynamic(theirs))
    return mine == theirs;
  std::optional<std::pair<Value, int64_t>> src = loopDimSource(op, d);
  if (!src)
    return false;
  auto [v1, d1] = *src;
  auto [v2, d2] = run.dimSources[runDim];
  FailureOr<bool> eq = ValueBoundsConstraintSet::areEqual(
      ValueBoundsConstraintSet::Variable(v1, d1),
      ValueBoundsConstraintSet::Variable(v2, d2));
  return succeeded(eq) && *eq;
}

/// Classifies `op` against the run (which may be empty: `op` starts it).
std::optional<RowOp> classify(Run &run, linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || !hasOrderedMaps(op) ||
      op->getNumRegions() != 1)
    return std::nullopt;
  unsigned loops = op.getNumLoops();
  std::optional<RowOp> r;
  if (op.getNumReductionLoops() == 0) {
    // Elementwise over rows x columns, or a per-row scalar op.
    bool rowScalar = !run.ops.empty() && loops == run.numRowDims;
    if (!run.ops.empty() && !rowScalar && loops != run.numRowDims + 1)
      return std::nullopt;
    if (loops == 0)
      return std::nullopt;
    for (OpOperand &init : op.getDpsInitsMutable())
      if (!isIdentityPrefix(op.getMatchingIndexingMap(&init), loops))
        return std::nullopt;
    r = RowOp{rowScalar ? Kind::RowScalar : Kind::Elementwise, op};
  } else {
    r = matchReduction(op);
    if (!r)
      return std::nullopt;
  }
  // Start of a run: its row and column dims come from this op.
  if (run.ops.empty()) {
    if (r->kind == Kind::RowScalar || loops < 1)
      return std::nullopt;
    run.numRowDims = loops - 1;
    run.staticSizes.clear();
    run.dimSources.clear();
    for (unsigned d = 0; d < loops; ++d) {
      std::optional<std::pair<Value, int64_t>> src = loopDimSource(op, d);
      if (!src)
        return std::nullopt;
      run.dimSources.push_back(*src);
      run.staticSizes.push_back(op.getStaticLoopRanges()[d]);
    }
  }
  for (unsigned d = 0; d < loops; ++d)
    if (!sameSize(run, op, d, d))
      return std::nullopt;
  // Values another thread wrote come only through reductions' and row ops'
  // results, which every thread has; rows x columns buffers written here
  // must be read back by the thread that wrote them, with the same
  // indexing, and written buffers are allocations no other view touches.
  unsigned full = run.numRowDims + 1;
  for (OpOperand &operand : op->getOpOperands()) {
    Value v = operand.get();
    Value base = baseOf(v);
    bool isInit = op.isDpsInit(&operand);
    if (run.written.contains(base) || isInit) {
      if (base != v || !v.getDefiningOp<memref::AllocOp>())
        return std::nullopt;
      auto type = cast<MemRefType>(v.getType());
      AffineMap map = op.getMatchingIndexingMap(&operand);
      unsigned rank = type.getRank();
      if (rank != full && rank != run.numRowDims)
        return std::nullopt;
      if (!isIdentityPrefix(map, rank))
        return std::nullopt;
    }
  }
  for (OpOperand &init : op.getDpsInitsMutable()) {
    Value base = baseOf(init.get());
    // Thread 0 stores a row op's result with no barrier before it: other
    // threads must not be reading that buffer from memory in an earlier op
    // (once the run has written a per-row buffer, its readers take the
    // value every thread has, not memory).
    if (r->kind == Kind::RowScalar && run.bases.contains(init.get()) &&
        !run.written.contains(base))
      return std::nullopt;
    // A buffer read earlier in the run through another view cannot become
    // one the run writes.
    for (Value seen : run.bases)
      if (seen != base && baseOf(seen) == base)
        return std::nullopt;
  }
  return r;
}

struct RowGroupsToGPUPass
    : tcc::impl::RowGroupsToGPUPassBase<RowGroupsToGPUPass> {
  using Base::Base;

  /// Maximal runs in `block`, in order.
  SmallVector<Run> findRuns(Block &block) {
    SmallVector<Run> runs;
    Run run;
    auto close = [&] {
      if (run.hasReduction() && run.ops.size() >= 1)
        runs.push_back(run);
      run = Run();
    };
    for (Operation &op : block) {
      if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
        std::optional<RowOp> r = classify(run, generic);
        if (!r) {
          close();
          r = classify(run, generic);
          if (!r) {
            run = Run();
            continue;
          }
        }
        if (r->kind == Kind::Reduction)
          r->fill = precedingFill(generic);
        for (Value v : generic->getOperands())
          run.bases.insert(v);
        for (Value v : generic.getDpsInits())
          run.written.insert(baseOf(v));
        run.ops.push_back(*r);
        continue;
      }
      if (auto fill = dyn_cast<linalg::FillOp>(op)) {
        // Only a fill the next reduction folds in may sit inside a run.
        Operation *next = nextTouchingBuffers(fill);
        auto generic = dyn_cast_or_null<linalg::GenericOp>(next);
        if (generic && !run.ops.empty() && precedingFill(generic) == fill &&
            classify(run, generic) &&
            classify(run, generic)->kind == Kind::Reduction)
          continue;
        close();
        continue;
      }
      if (!isTransparentToBuffers(&op))
        close();
    }
    close();
    return runs;
  }

  /// The kernel's state while its ops are emitted.
  struct Emitter {
    Emitter(OpBuilder &b, Location loc, Run &run, int64_t threads,
            int64_t perThread)
        : b(b), loc(loc), run(run), threads(threads), perThread(perThread) {}
    OpBuilder &b;
    Location loc;
    Run &run;
    int64_t threads;
    int64_t perThread; // K columns per thread held in registers, 0: loop
    // Register form with vector accesses: the thread's K columns are runs
    // of `lanes` consecutive ones, `lanes x threads` apart; buffers read
    // and written along the row take one vector access per run.
    int64_t lanes = 1;
    Value columns, tid, lane;
    // A run's loaded lanes, per (op, operand, run), and the values of a
    // run waiting to be stored, per buffer.
    DenseMap<std::tuple<Operation *, unsigned, int64_t>, SmallVector<Value>>
        loadedLanes;
    DenseMap<Value, SmallVector<Value>> pendingStores;
    SmallVector<Value> rowIvs;
    // Register-held rows x columns values (K per buffer) and per-row values.
    DenseMap<Value, SmallVector<Value>> regs;
    DenseMap<Value, Value> rowValues;
    DenseSet<Value> internal; // allocations only the run uses
    DenseMap<Type, std::array<Value, 2>> shared;
    unsigned reductionCount = 0;

    Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

    /// Column k of this thread (register form).
    Value columnOf(int64_t k) {
      if (lanes == 1)
        return arith::AddIOp::create(b, loc, cst(k * threads), tid);
      Value start = arith::MulIOp::create(b, loc, tid, cst(lanes));
      int64_t offset = (k / lanes) * threads * lanes + k % lanes;
      if (offset == 0)
        return start;
      return arith::AddIOp::create(b, loc, start, cst(offset));
    }

    /// Whether `operand` of `op` is read or written a run of lanes at a
    /// time: indexed by row dims and, last, the column (contiguous and
    /// aligned).
    bool isVectorized(linalg::GenericOp op, OpOperand *operand) {
      return lanes > 1 && vectorizable(op, operand, lanes);
    }

    static bool vectorizable(linalg::GenericOp op, OpOperand *operand,
                             int64_t lanes) {
      if (op.getNumLoops() == 0)
        return false;
      unsigned column = op.getNumLoops() - 1;
      AffineMap map = op.getMatchingIndexingMap(operand);
      if (map.getNumResults() == 0 ||
          map.getResults().back() != getAffineDimExpr(column, op.getContext()))
        return false;
      for (AffineExpr e : map.getResults().drop_back())
        if (!isa<AffineDimExpr>(e) ||
            cast<AffineDimExpr>(e).getPosition() == column)
          return false;
      auto type = dyn_cast<MemRefType>(operand->get().getType());
      return type && alignedForVectors(type, lanes);
    }

    Value index(linalg::GenericOp op, OpOperand *operand, Value column,
                SmallVectorImpl<Value> &idx) {
      idx.clear();
      for (AffineExpr e : op.getMatchingIndexingMap(operand).getResults()) {
        unsigned pos = cast<AffineDimExpr>(e).getPosition();
        idx.push_back(pos < rowIvs.size() ? rowIvs[pos] : column);
      }
      return operand->get();
    }

    /// Operand `operand` of `op` at column `column` (the `k`-th of this
    /// thread's columns in the register form, -1 in the loop form).
    Value read(OpBuilder &lb, linalg::GenericOp op, OpOperand *operand,
               Value column, int64_t k, bool cacheLoads) {
      Value buffer = operand->get();
      auto rank = cast<MemRefType>(buffer.getType()).getRank();
      if (rank == static_cast<int64_t>(rowIvs.size()) &&
          rowValues.count(buffer) &&
          op.getMatchingIndexingMap(operand).getNumResults() == rank)
        return rowValues.lookup(buffer);
      bool full = rank == static_cast<int64_t>(rowIvs.size()) + 1 &&
                  isIdentityPrefix(op.getMatchingIndexingMap(operand), rank);
      if (k >= 0 && full) {
        auto it = regs.find(buffer);
        if (it != regs.end() && it->second[k])
          return it->second[k];
      }
      SmallVector<Value> idx;
      Value v;
      if (k >= 0 && isVectorized(op, operand)) {
        // The whole run of lanes at its first column; the others take
        // their lane.
        auto key = std::make_tuple(op.getOperation(),
                                   operand->getOperandNumber(), k / lanes);
        SmallVector<Value> &values = loadedLanes[key];
        if (values.empty()) {
          index(op, operand, column, idx);
          auto type = VectorType::get(
              {lanes}, cast<MemRefType>(buffer.getType()).getElementType());
          Value vec = vector::LoadOp::create(
              lb, loc, type, buffer, idx, /*nontemporal=*/false,
              llvm::MaybeAlign(lanes * type.getElementTypeBitWidth() / 8));
          for (int64_t l = 0; l < lanes; ++l)
            values.push_back(vector::ExtractOp::create(lb, loc, vec, l));
        }
        v = values[k % lanes];
      } else {
        index(op, operand, column, idx);
        v = memref::LoadOp::create(lb, loc, buffer, idx);
      }
      if (k >= 0 && full && cacheLoads && !run.written.contains(buffer)) {
        SmallVector<Value> &slot = regs[buffer];
        slot.resize(perThread);
        slot[k] = v;
      }
      return v;
    }

    /// The body of `op` at one column: block arguments from reads (the
    /// reduction's accumulator left out), its ops cloned; returns the
    /// yielded values (for a reduction: the value combined).
    SmallVector<Value> body(OpBuilder &lb, RowOp &r, Value column,
                            int64_t k, bool cacheLoads) {
      linalg::GenericOp op = r.op;
      IRMapping map;
      for (OpOperand &operand : op->getOpOperands()) {
        BlockArgument arg = op.getMatchingBlockArgument(&operand);
        if (arg.use_empty() || (r.kind == Kind::Reduction &&
                                op.isDpsInit(&operand)))
          continue;
        map.map(arg, read(lb, op, &operand, column, k, cacheLoads));
      }
      Block &block = op.getRegion().front();
      for (Operation &inner : block.without_terminator()) {
        if (&inner == r.combiner)
          continue;
        if (auto idx = dyn_cast<linalg::IndexOp>(inner)) {
          unsigned d = idx.getDim();
          map.map(idx.getResult(), d < rowIvs.size() ? rowIvs[d] : column);
          continue;
        }
        lb.clone(inner, map);
      }
      if (r.kind == Kind::Reduction)
        return {map.lookup(r.combiner->getOperand(1 - r.accOperand))};
      SmallVector<Value> out;
      for (Value v : block.getTerminator()->getOperands())
        out.push_back(map.lookupOrDefault(v));
      return out;
    }

    /// Whether op `i`'s write of `buffer` is overwritten later in the run
    /// before anything outside could see it (register form only).
    bool deadWrite(unsigned i, Value buffer) {
      if (internal.contains(buffer))
        return true;
      for (unsigned j = i + 1; j < run.ops.size(); ++j)
        if (run.ops[j].kind == Kind::Elementwise &&
            llvm::is_contained(run.ops[j].op.getDpsInits(), buffer))
          return true;
      return false;
    }

    Value warpReduce(Value v, Operation *combiner) {
      for (int32_t offset = kWarp / 2; offset > 0; offset /= 2) {
        auto shuffle = gpu::ShuffleOp::create(b, loc, v, offset, kWarp,
                                              gpu::ShuffleMode::XOR);
        v = combine(b, combiner, v, shuffle.getShuffleResult());
      }
      return v;
    }

    /// The block's combination of every thread's `partial`, in all threads.
    Value blockReduce(Value partial, RowOp &r) {
      Value v = warpReduce(partial, r.combiner);
      if (threads == kWarp) {
        // Thread 0 may store the result where the warp's threads read
        // before: they must all be past those reads.
        gpu::BarrierOp::create(b, loc);
        return v;
      }
      Value buffer = shared[v.getType()][reductionCount++ % 2];
      Value warp = arith::DivUIOp::create(b, loc, tid, cst(kWarp));
      Value leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           lane, cst(0));
      auto ifLeader = scf::IfOp::create(b, loc, leader, false);
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(&ifLeader.getThenRegion().front());
        memref::StoreOp::create(b, loc, v, buffer, warp);
      }
      gpu::BarrierOp::create(b, loc);
      // Every warp folds the warps' partials itself: no second barrier; the
      // next reduction uses the other buffer, so this one is not
      // overwritten while a warp still reads it.
      Value mine = memref::LoadOp::create(b, loc, buffer, lane);
      Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                            lane, cst(threads / kWarp));
      Value neutral = arith::ConstantOp::create(b, loc, r.neutral);
      Value x = arith::SelectOp::create(b, loc, inRange, mine, neutral);
      return warpReduce(x, r.combiner);
    }

    /// Stores `v` to `buffer` at this row from thread 0.
    void storeFromFirstThread(Value v, Value buffer) {
      Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          tid, cst(0));
      auto ifFirst = scf::IfOp::create(b, loc, first, false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&ifFirst.getThenRegion().front());
      memref::StoreOp::create(b, loc, v, buffer, rowIvs);
    }

    /// Stores `v`, op's result for column k of this thread, to `init`: at
    /// once, or with the run's other lanes when its last lane is in.
    void store(OpBuilder &lb, linalg::GenericOp op, Value v, Value init,
               Value column, int64_t k) {
      OpOperand *operand = llvm::find_if(op.getDpsInitsMutable(),
                                         [&](OpOperand &o) {
                                           return o.get() == init;
                                         });
      SmallVector<Value> idx(rowIvs);
      if (!isVectorized(op, operand)) {
        idx.push_back(column);
        memref::StoreOp::create(lb, loc, v, init, idx);
        return;
      }
      SmallVector<Value> &pending = pendingStores[init];
      pending.push_back(v);
      if (static_cast<int64_t>(pending.size()) < lanes)
        return;
      // The run's first column.
      idx.push_back(arith::SubIOp::create(lb, loc, column,
                                          cst(lanes - 1)));
      Value vec = vector::FromElementsOp::create(
          lb, loc, VectorType::get({lanes}, v.getType()), pending);
      vector::StoreOp::create(
          lb, loc, vec, init, idx, /*nontemporal=*/false,
          llvm::MaybeAlign(lanes * v.getType().getIntOrFloatBitWidth() / 8));
      pending.clear();
    }

    /// One column step of an elementwise op or a reduction's element work
    /// in the register form: column k of this thread, guarded when it may
    /// lie past the row's end. Returns the values (outputs, or the value to
    /// combine), with `fallback` where the column does not exist.
    SmallVector<Value> registerStep(unsigned i, int64_t k,
                                    ArrayRef<TypedAttr> fallback) {
      RowOp &r = run.ops[i];
      // The first column of k's run of lanes (column k with one lane).
      Value column = columnOf(k - k % lanes);
      if (k % lanes != 0)
        column = arith::AddIOp::create(b, loc, column, cst(k % lanes));
      int64_t length = run.staticSizes.back();
      bool guarded = lanes == 1 && (k + 1) * threads > length;
      auto emit = [&](OpBuilder &lb) {
        SmallVector<Value> values = body(lb, r, column, k, !guarded);
        if (r.kind == Kind::Elementwise)
          for (auto [v, init] : llvm::zip(values, r.op.getDpsInits()))
            if (!deadWrite(i, init))
              store(lb, r.op, v, init, column, k);
        return values;
      };
      if (!guarded)
        return emit(b);
      Value exists = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           column, columns);
      SmallVector<Type> types;
      for (TypedAttr a : fallback)
        types.push_back(a.getType());
      auto ifOp = scf::IfOp::create(b, loc, types, exists, true);
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
        scf::YieldOp::create(b, loc, emit(b));
        b.setInsertionPointToStart(&ifOp.getElseRegion().front());
        SmallVector<Value> other;
        for (TypedAttr a : fallback)
          other.push_back(arith::ConstantOp::create(b, loc, a));
        scf::YieldOp::create(b, loc, other);
      }
      return SmallVector<Value>(ifOp.getResults());
    }

    void emitElementwise(unsigned i) {
      RowOp &r = run.ops[i];
      if (perThread == 0) {
        scf::ForOp::create(
            b, loc, tid, columns, cst(threads), ValueRange{},
            [&](OpBuilder &lb, Location l, Value c, ValueRange) {
              SmallVector<Value> values = body(lb, r, c, -1, false);
              for (auto [v, init] : llvm::zip(values, r.op.getDpsInits())) {
                SmallVector<Value> idx(rowIvs);
                idx.push_back(c);
                memref::StoreOp::create(lb, l, v, init, idx);
              }
              scf::YieldOp::create(lb, l);
            });
        return;
      }
      SmallVector<TypedAttr> zeros;
      for (Value init : r.op.getDpsInits())
        zeros.push_back(b.getZeroAttr(
            cast<MemRefType>(init.getType()).getElementType()));
      SmallVector<SmallVector<Value>> perOutput(r.op.getNumDpsInits());
      for (int64_t k = 0; k < perThread; ++k) {
        SmallVector<Value> values = registerStep(i, k, zeros);
        for (auto [o, v] : llvm::enumerate(values))
          perOutput[o].push_back(v);
      }
      for (auto [o, init] : llvm::enumerate(r.op.getDpsInits()))
        regs[init] = perOutput[o];
    }

    void emitReduction(unsigned i) {
      RowOp &r = run.ops[i];
      Value neutral = arith::ConstantOp::create(b, loc, r.neutral);
      Value partial;
      if (perThread == 0) {
        auto loop = scf::ForOp::create(
            b, loc, tid, columns, cst(threads), ValueRange{neutral},
            [&](OpBuilder &lb, Location l, Value c, ValueRange iter) {
              Value v = body(lb, r, c, -1, false)[0];
              scf::YieldOp::create(lb, l, combine(lb, r.combiner, iter[0], v));
            });
        partial = loop.getResult(0);
      } else {
        partial = neutral;
        for (int64_t k = 0; k < perThread; ++k) {
          Value v = registerStep(i, k, {r.neutral})[0];
          partial = combine(b, r.combiner, partial, v);
        }
      }
      Value total = blockReduce(partial, r);
      Value out = r.op.getDpsInitOperand(0)->get();
      Value acc;
      if (r.fill)
        acc = r.fill.getInputs()[0];
      else if (rowValues.count(out))
        acc = rowValues.lookup(out);
      else
        acc = memref::LoadOp::create(b, loc, out, rowIvs);
      Value result = r.accOperand == 0 ? combine(b, r.combiner, acc, total)
                                       : combine(b, r.combiner, total, acc);
      if (!internal.contains(out))
        storeFromFirstThread(result, out);
      rowValues[out] = result;
    }

    void emitRowScalar(unsigned i) {
      RowOp &r = run.ops[i];
      SmallVector<Value> values = body(b, r, Value(), -1, false);
      for (auto [v, init] : llvm::zip(values, r.op.getDpsInits())) {
        if (!internal.contains(init))
          storeFromFirstThread(v, init);
        rowValues[init] = v;
      }
    }
  };

  /// Allocations whose every use is in the run (or frees them): kept in
  /// registers only, never written to memory.
  static DenseSet<Value> internalBuffers(Run &run, bool registers) {
    DenseSet<Operation *> members;
    for (RowOp &r : run.ops) {
      members.insert(r.op);
      if (r.fill)
        members.insert(r.fill);
    }
    DenseSet<Value> internal;
    for (Value buffer : run.written) {
      auto rank = cast<MemRefType>(buffer.getType()).getRank();
      if (!registers && rank == run.numRowDims + 1)
        continue; // the loop form reads them back from memory
      bool onlyRun = llvm::all_of(buffer.getUsers(), [&](Operation *user) {
        return members.contains(user) || isa<memref::DeallocOp>(user);
      });
      if (onlyRun)
        internal.insert(buffer);
    }
    return internal;
  }

  /// Lanes of 16 bytes of the widest element the run reads or writes
  /// along its rows (1 if none).
  static int64_t maxLanes(Run &run, const DenseSet<Value> &internal) {
    int64_t widest = 0;
    for (RowOp &r : run.ops)
      for (OpOperand &operand : r.op->getOpOperands()) {
        auto type = dyn_cast<MemRefType>(operand.get().getType());
        if (type && type.getElementType().isIntOrFloat() &&
            !internal.contains(operand.get()) &&
            Emitter::vectorizable(r.op, &operand, 1))
          widest = std::max<int64_t>(widest,
                                     type.getElementTypeBitWidth() / 8);
      }
    return widest == 0 || widest > 8 ? 1 : 16 / widest;
  }

  void convert(Run &run) {
    linalg::GenericOp last = run.ops.back().op;
    OpBuilder b(last);
    Location loc = last.getLoc();
    auto cst = [&](int64_t v) {
      return arith::ConstantIndexOp::create(b, loc, v).getResult();
    };
    SmallVector<Value> sizes;
    for (auto [src, size] : llvm::zip(run.dimSources, run.staticSizes))
      sizes.push_back(ShapedType::isDynamic(size)
                          ? memref::DimOp::create(b, loc, src.first,
                                                  src.second)
                                .getResult()
                          : cst(size));
    Value rows = cst(1);
    for (unsigned d = 0; d < run.numRowDims; ++d)
      rows = arith::MulIOp::create(b, loc, rows, sizes[d]);
    // Threads: enough that each holds at most 4 runs of 16 bytes of a
    // static row (16 f32 or 32 bf16 columns, at least 16; a multiple of the
    // warp, 32 to 1024); dynamic rows take block-size. Fewer threads per
    // row (with half-width elements) keep more rows in flight per SM
    // while blocks wait in their reductions.
    int64_t length = run.staticSizes.back();
    int64_t threads = blockSize, perThread = 0;
    if (!ShapedType::isDynamic(length)) {
      int64_t columns = std::min<int64_t>(
          kMaxRegisterColumns,
          std::max<int64_t>(16, 4 * maxLanes(run, internalBuffers(run, true))));
      threads =
          llvm::divideCeil(llvm::divideCeil(length, columns), kWarp) * kWarp;
      threads = std::clamp<int64_t>(threads, kWarp, 1024);
      perThread = llvm::divideCeil(length, threads);
      if (perThread > kMaxRegisterColumns)
        perThread = 0;
    }
    if (threads % kWarp != 0 || threads > 1024)
      threads = 256;
    // Vector accesses: runs of `lanes` consecutive columns (16 bytes of the
    // widest element read or written along the rows), with the threads
    // (at least as many) chosen so that a row is whole runs.
    // (Before the alignment check below adds uses of the buffers.)
    DenseSet<Value> internal = internalBuffers(run, perThread > 0);
    int64_t lanes = 1;
    if (perThread > 0)
      for (int64_t l = maxLanes(run, internal); l > 1 && lanes == 1; l /= 2)
        for (int64_t t = threads; t <= 1024; t += kWarp)
          if (length % (t * l) == 0) {
            threads = t;
            lanes = l;
            perThread = length / t;
            break;
          }

    SmallVector<Type> workgroupTypes;
    SmallVector<Type> sharedElementTypes;
    for (RowOp &r : run.ops)
      if (r.kind == Kind::Reduction) {
        Type t = r.combiner->getResult(0).getType();
        if (!llvm::is_contained(sharedElementTypes, t))
          sharedElementTypes.push_back(t);
      }
    auto workgroup = gpu::AddressSpaceAttr::get(
        b.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
    for (Type t : sharedElementTypes)
      for (int i = 0; i < 2; ++i)
        workgroupTypes.push_back(
            MemRefType::get({kWarp}, t, AffineMap(), workgroup));
    Value one = cst(1);
    Value grid = arith::MaxSIOp::create(b, loc, rows, one);
    auto launch = gpu::LaunchOp::create(
        b, loc, grid, one, one, cst(threads), one, one, nullptr, nullptr, {},
        workgroupTypes, TypeRange{});
    nameKernel(launch, "row_group");
    Value tid = launch.getThreadIds().x;
    SmallVector<Value> rowIvs =
        enterRow(b, loc, launch, rows,
                 ArrayRef<Value>(sizes).take_front(run.numRowDims));

    Value lane = arith::RemUIOp::create(b, loc, tid, cst(kWarp));
    auto emitRun = [&](int64_t withLanes) {
      Emitter e(b, loc, run, threads, perThread);
      e.lanes = withLanes;
      e.rowIvs = rowIvs;
      e.columns = sizes.back();
      e.tid = tid;
      e.lane = lane;
      e.internal = internal;
      for (auto [i, t] : llvm::enumerate(sharedElementTypes))
        e.shared[t] = {launch.getWorkgroupAttributions()[2 * i],
                       launch.getWorkgroupAttributions()[2 * i + 1]};
      for (unsigned i = 0; i < run.ops.size(); ++i) {
        switch (run.ops[i].kind) {
        case Kind::Elementwise:
          e.emitElementwise(i);
          break;
        case Kind::Reduction:
          e.emitReduction(i);
          break;
        case Kind::RowScalar:
          e.emitRowScalar(i);
          break;
        }
      }
    };
    llvm::SetVector<Value> vectorized;
    for (RowOp &r : run.ops)
      for (OpOperand &operand : r.op->getOpOperands())
        if (lanes > 1 && !internal.contains(operand.get()) &&
            Emitter::vectorizable(r.op, &operand, lanes))
          vectorized.insert(operand.get());
    if (vectorized.empty()) {
      emitRun(1);
    } else {
      // Vector accesses need aligned base pointers (checked once, the same
      // in every thread); the scalar form is the fallback.
      Value aligned = basesAligned(b, loc, vectorized.getArrayRef(), lanes);
      auto branch = scf::IfOp::create(b, loc, aligned, /*withElse=*/true);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&branch.getThenRegion().front());
      emitRun(lanes);
      b.setInsertionPointToStart(&branch.getElseRegion().front());
      emitRun(1);
    }
    for (RowOp &r : llvm::reverse(run.ops)) {
      r.op.erase();
      if (r.fill)
        r.fill.erase();
    }
  }

  void runOnOperation() override {
    SmallVector<Block *> blocks;
    getOperation().walk([&](Block *block) {
      if (!block->getParentOp()->getParentOfType<gpu::LaunchOp>() &&
          !isa<gpu::LaunchOp>(block->getParentOp()))
        blocks.push_back(block);
    });
    for (Block *block : blocks) {
      foldCopiesOfFills(*block);
      foldTransposesIntoReaders(*block);
      for (Run &run : findRuns(*block))
        convert(run);
    }
  }
};

} // namespace
