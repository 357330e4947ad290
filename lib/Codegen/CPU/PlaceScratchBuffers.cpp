//===- PlaceScratchBuffers.cpp - group temporaries off the heap -*- C++ -*-===//
//
// See the pass description (include/tcc/Conversion/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/CPU/Passes.h"
#include "tcc/Transforms/MemoryPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_PLACESCRATCHBUFFERSPASS
#include "tcc/Codegen/CPU/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

constexpr int64_t kAlign = 64;
int64_t alignTo(int64_t v) { return (v + kAlign - 1) / kAlign * kAlign; }

/// A stack buffer of a page or more (a row's scratch) starts on a page, as
/// large heap blocks do (lib/Runtime/CachingAllocator.cpp): a row pass
/// that loads x[j] and stores scratch[j] stalls when the scratch sits a
/// little above the input modulo 4 KiB ("4K aliasing": the loads of the
/// next columns wait for stores that only look like theirs). Inputs start
/// at or just past a page, so a page-aligned scratch is at or below them.
constexpr int64_t kPageBytes = 4096;
int64_t stackAlignment(MemRefType type) {
  if (!type.hasStaticShape())
    return kAlign;
  int64_t bits = type.getNumElements() *
                 std::max<int64_t>(8, type.getElementTypeBitWidth());
  return bits / 8 >= kPageBytes ? kPageBytes : kAlign;
}

/// Where per-thread scratch for `op` lives: the body of the nearest
/// enclosing parallel loop (each iteration runs on one thread, and
/// SCF-to-OpenMP frees its allocas after every iteration), else the
/// function-level block that contains `op` (allocas live for the call).
Block *scopeBlock(Operation *op) {
  Operation *child = op;
  for (Operation *p = op->getParentOp(); p; child = p, p = p->getParentOp()) {
    if (isa<scf::ParallelOp, scf::ForallOp>(p))
      return &p->getRegion(0).front();
    if (isa<func::FuncOp>(p))
      return child->getBlock();
  }
  return nullptr;
}

int64_t elementBytes(MemRefType type) {
  return std::max<int64_t>(
      1, (type.getElementType().getIntOrFloatBitWidth() + 7) / 8);
}

/// A temporary: allocated and freed in one block, never returned.
struct Temporary {
  memref::AllocOp alloc;
  SmallVector<memref::DeallocOp> deallocs;
  Block *scope;
  /// Bytes to reserve at the scope's start: a constant, or (when a dim is
  /// only known at run time but before the scope) constant * dims.
  int64_t constantFactor = 1;
  SmallVector<Value> dynamicFactors;
  bool isStatic() const { return dynamicFactors.empty(); }
};

struct PlaceScratchBuffersPass
    : tcc::impl::PlaceScratchBuffersPassBase<PlaceScratchBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    DominanceInfo dominance(func);
    SmallVector<Temporary> temporaries;
    func.walk([&](memref::AllocOp alloc) {
      if (std::optional<Temporary> t = asTemporary(alloc, dominance))
        temporaries.push_back(*t);
    });

    DenseMap<Block *, int64_t> stackUsed;
    llvm::MapVector<Block *, SmallVector<Temporary *>> forArena;
    for (Temporary &t : temporaries) {
      int64_t &used = stackUsed[t.scope];
      bool functionLevel = isa<func::FuncOp>(t.scope->getParentOp()) &&
                           runsOncePerCall(t.alloc, t.scope);
      int64_t bytes = t.constantFactor;
      bool fitsStack = t.isStatic() && bytes <= maxStackBytes &&
                       used + alignTo(bytes) <= maxScopeBytes;
      if (fitsStack) {
        used += alignTo(bytes);
        toStack(t);
      } else if (functionLevel) {
        // Lives for a stretch of the call: a slice of the arena.
        forArena[t.scope].push_back(&t);
      } else if (!t.isStatic() && used + maxStackBytes <= maxScopeBytes) {
        // Per tile, known at run time only: on the stack when it fits then.
        used += maxStackBytes;
        toStackWhenSmall(t);
      }
    }
    for (auto &[block, temps] : forArena)
      intoArena(func, block, temps);
  }

  std::optional<Temporary> asTemporary(memref::AllocOp alloc,
                                       DominanceInfo &dominance) {
    if (alloc->hasAttr(tcc::kArenaAllocAttr))
      return std::nullopt;
    MemRefType type = alloc.getType();
    if (!type.getLayout().isIdentity() ||
        !type.getElementType().isIntOrFloat())
      return std::nullopt;
    Temporary t{alloc, {}, scopeBlock(alloc)};
    if (!t.scope)
      return std::nullopt;
    for (Operation *user : alloc->getUsers()) {
      if (auto d = dyn_cast<memref::DeallocOp>(user)) {
        if (d->getBlock() != alloc->getBlock())
          return std::nullopt;
        t.deallocs.push_back(d);
      } else if (user->hasTrait<OpTrait::ReturnLike>()) {
        return std::nullopt;
      }
    }
    // Freed in the block that allocates it: a temporary of one iteration.
    if (t.deallocs.empty())
      return std::nullopt;
    // Every dim at the scope's start: static, a value computed before the
    // scope, or a constant upper bound (an edge tile's affine.min).
    t.constantFactor = elementBytes(type);
    unsigned dynamicIndex = 0;
    Operation *anchor = t.scope->findAncestorOpInBlock(*alloc);
    for (int64_t d : type.getShape()) {
      if (!ShapedType::isDynamic(d)) {
        t.constantFactor *= d;
        continue;
      }
      Value size = alloc.getDynamicSizes()[dynamicIndex++];
      FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
          presburger::BoundType::UB, ValueBoundsConstraintSet::Variable(size),
          /*stopCondition=*/nullptr, /*closedUB=*/true);
      if (succeeded(bound) && *bound >= 0) {
        t.constantFactor *= *bound;
        continue;
      }
      if (!isa<BlockArgument>(size) &&
          dominance.properlyDominates(size.getDefiningOp(), anchor)) {
        t.dynamicFactors.push_back(size);
        continue;
      }
      if (auto arg = dyn_cast<BlockArgument>(size))
        if (dominance.dominates(arg.getOwner(), t.scope)) {
          t.dynamicFactors.push_back(size);
          continue;
        }
      return std::nullopt;
    }
    return t;
  }

  /// The temporary's uses now read `buffer` (an i8 buffer of at least its
  /// size, or a buffer of its own type): a view at the old place.
  void replaceWith(Temporary &t, Value buffer) {
    Value replacement = buffer;
    if (buffer.getType() != t.alloc.getType()) {
      OpBuilder at(t.alloc);
      Value zero = arith::ConstantIndexOp::create(at, t.alloc.getLoc(), 0);
      replacement = memref::ViewOp::create(at, t.alloc.getLoc(),
                                           t.alloc.getType(), buffer, zero,
                                           t.alloc.getDynamicSizes());
    }
    for (memref::DeallocOp d : t.deallocs)
      d->erase();
    t.alloc->replaceAllUsesWith(ValueRange{replacement});
    t.alloc->erase();
  }

  /// One alloca at the start of the scope, reused by every loop iteration
  /// inside it.
  void toStack(Temporary &t) {
    OpBuilder b = OpBuilder::atBlockBegin(t.scope);
    Location loc = t.alloc.getLoc();
    MemRefType type = t.alloc.getType();
    MemRefType bufType =
        type.hasStaticShape()
            ? type
            : MemRefType::get({t.constantFactor}, b.getI8Type());
    IntegerAttr align = b.getI64IntegerAttr(stackAlignment(bufType));
    replaceWith(t, memref::AllocaOp::create(b, loc, bufType, ValueRange{},
                                            ValueRange{}, align));
  }

  /// At the scope's start: an alloca when the size (known there at run
  /// time) is at most max-stack-bytes, else a heap block freed at the
  /// scope's end.
  void toStackWhenSmall(Temporary &t) {
    // After the last dim it needs, if that is computed in the scope block.
    Operation *after = nullptr;
    for (Value v : t.dynamicFactors)
      if (Operation *def = v.getDefiningOp())
        if (def->getBlock() == t.scope &&
            (!after || after->isBeforeInBlock(def)))
          after = def;
    OpBuilder b = OpBuilder::atBlockBegin(t.scope);
    if (after)
      b.setInsertionPointAfter(after);
    Location loc = t.alloc.getLoc();
    Value bytes = arith::ConstantIndexOp::create(b, loc, t.constantFactor);
    for (Value v : t.dynamicFactors)
      bytes = arith::MulIOp::create(b, loc, bytes, v);
    Value fits = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ule, bytes,
        arith::ConstantIndexOp::create(b, loc, maxStackBytes));
    auto bufType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type());
    IntegerAttr align = b.getI64IntegerAttr(kAlign);
    auto choice = scf::IfOp::create(b, loc, TypeRange{bufType}, fits,
                                    /*withElseRegion=*/true);
    {
      OpBuilder then = choice.getThenBodyBuilder();
      Value a = memref::AllocaOp::create(then, loc, bufType, ValueRange{bytes},
                                         ValueRange{}, align);
      scf::YieldOp::create(then, loc, a);
      OpBuilder other = choice.getElseBodyBuilder();
      Value h = memref::AllocOp::create(other, loc, bufType, ValueRange{bytes},
                                        ValueRange{}, align);
      scf::YieldOp::create(other, loc, h);
    }
    Value buf = choice.getResult(0);
    OpBuilder end(t.scope->getTerminator());
    auto onHeap = scf::IfOp::create(end, loc, TypeRange{}, fits,
                                    /*withElseRegion=*/true);
    OpBuilder other = onHeap.getElseBodyBuilder();
    memref::DeallocOp::create(other, loc, buf);
    replaceWith(t, buf);
  }

  /// Whether `op`, nested in `block` (a function's body), runs at most
  /// once per call: only scf.ifs (a per-call library dispatch) lie
  /// between them, no loop.
  static bool runsOncePerCall(Operation *op, Block *block) {
    for (Operation *p = op->getParentOp(); p && op->getBlock() != block;
         op = p, p = p->getParentOp())
      if (!isa<scf::IfOp>(p))
        return false;
    return op->getBlock() == block;
  }

  /// Slices of the arena for `temps` (all in `block`, the function level,
  /// or in scf.ifs there),
  /// grouped by their run-time factors (none: static): within a group,
  /// first-fit by size over their alloc-to-last-free spans in the block, in
  /// units of the group's factor product; groups follow each other.
  void intoArena(func::FuncOp func, Block *block,
                 ArrayRef<Temporary *> temps) {
    memref::AllocOp arena;
    func.walk([&](memref::AllocOp a) {
      if (a->hasAttr(tcc::kArenaAllocAttr))
        arena = a;
    });
    DominanceInfo dominance(func);
    struct Span {
      Temporary *t;
      int64_t start, end, offset = 0;
    };
    // Without the plan's arena, one of their own goes before the first of
    // them.
    Operation *first = nullptr;
    if (!arena)
      for (Temporary *t : temps) {
        Operation *at = block->findAncestorOpInBlock(*t->alloc);
        if (!first || at->isBeforeInBlock(first))
          first = at;
      }
    Operation *where = arena ? arena.getOperation() : first;
    // A size read after the arena's place (a dim of an argument) moves up
    // when it can: pure, its operands known there.
    for (Temporary *t : temps)
      for (Value v : t->dynamicFactors) {
        Operation *def = v.getDefiningOp();
        if (def && def->getBlock() == block && where->isBeforeInBlock(def) &&
            isMemoryEffectFree(def) && def->getNumRegions() == 0 &&
            llvm::all_of(def->getOperands(), [&](Value operand) {
              return dominance.properlyDominates(operand, where);
            }))
          def->moveBefore(where);
      }
    llvm::MapVector<SmallVector<Value>, SmallVector<Span>> groups;
    for (Temporary *t : temps) {
      // The factors must be known where the arena is allocated.
      if (llvm::any_of(t->dynamicFactors, [&](Value v) {
            return !dominance.properlyDominates(v, where);
          }))
        continue;
      // Live from the alloc to the last op of the block that reads or
      // writes it or any memref that may alias it (the frees come late, at
      // the block's end). Not only views: memref.cast and memref.transpose
      // are none, and a conv whose output is a transpose of its buffer
      // would otherwise share the buffer with the next temporary.
      DenseMap<Operation *, int64_t> index;
      int64_t i = 0;
      for (Operation &op : *block)
        index[&op] = i++;
      int64_t start = index[block->findAncestorOpInBlock(*t->alloc)];
      int64_t end = start;
      SmallVector<Value> work = {t->alloc.getResult()};
      DenseSet<Value> seen;
      auto mayAlias = [&](Operation *op) {
        for (Value r : op->getResults())
          if (isa<BaseMemRefType>(r.getType()) && seen.insert(r).second)
            work.push_back(r);
      };
      while (!work.empty()) {
        Value v = work.pop_back_val();
        for (Operation *user : v.getUsers()) {
          if (isa<memref::DeallocOp>(user))
            continue;
          if (Operation *a = block->findAncestorOpInBlock(*user))
            end = std::max(end, index[a]);
          mayAlias(user);
          // Yielded out of a region: the parent's results.
          if (user->hasTrait<OpTrait::IsTerminator>())
            if (Operation *parent = user->getParentOp())
              mayAlias(parent);
        }
      }
      groups[t->dynamicFactors].push_back({t, start, end});
    }
    if (groups.empty())
      return;

    Location loc = func.getLoc();
    Value total, buffer;
    OpBuilder b(func.getContext());
    memref::AllocOp own;
    if (arena) {
      b.setInsertionPoint(arena);
      total = arena.getDynamicSizes().empty()
                  ? arith::ConstantIndexOp::create(
                        b, loc, arena.getType().getNumElements())
                        .getResult()
                  : arena.getDynamicSizes()[0];
    } else {
      b.setInsertionPoint(first);
      total = arith::ConstantIndexOp::create(b, loc, 0);
    }
    SmallVector<std::pair<Span *, Value>> placed; // span, byte offset
    for (auto &[factors, spans] : groups) {
      llvm::stable_sort(spans, [](const Span &a, const Span &b) {
        return a.t->constantFactor > b.t->constantFactor;
      });
      int64_t units = 0;
      for (size_t i = 0; i < spans.size(); ++i) {
        int64_t size = spans[i].t->constantFactor;
        SmallVector<std::pair<int64_t, int64_t>> busy;
        for (size_t j = 0; j < i; ++j)
          if (spans[j].start <= spans[i].end && spans[i].start <= spans[j].end)
            busy.push_back({spans[j].offset,
                            spans[j].offset + spans[j].t->constantFactor});
        llvm::sort(busy);
        int64_t offset = 0;
        for (auto [lo, hi] : busy) {
          if (offset + size <= lo)
            break;
          offset = std::max(offset, alignTo(hi));
        }
        spans[i].offset = offset;
        units = std::max(units, alignTo(offset + size));
      }
      Value scale = arith::ConstantIndexOp::create(b, loc, 1);
      for (Value v : factors)
        scale = arith::MulIOp::create(b, loc, scale, v);
      for (Span &span : spans)
        placed.push_back(
            {&span, arith::AddIOp::create(
                        b, loc, total,
                        arith::MulIOp::create(
                            b, loc, scale,
                            arith::ConstantIndexOp::create(b, loc,
                                                           span.offset)))});
      total = arith::AddIOp::create(
          b, loc, total,
          arith::MulIOp::create(b, loc, scale,
                                arith::ConstantIndexOp::create(b, loc, units)));
    }
    // A size known at compile time (a static arena and static scratch)
    // makes a static alloc: the canonicalizer would rewrite a dynamic alloc
    // of a constant size and drop its marker (tcc-use-workspace could not
    // find the arena).
    FailureOr<int64_t> known = ValueBoundsConstraintSet::computeConstantBound(
        presburger::BoundType::EQ, ValueBoundsConstraintSet::Variable(total));
    auto type = MemRefType::get(
        {succeeded(known) ? *known : ShapedType::kDynamic}, b.getI8Type());
    SmallVector<Value, 1> sizes;
    if (failed(known))
      sizes.push_back(total);
    if (arena) {
      // The grown arena in its place (its users, views and its free, take
      // any i8 buffer).
      auto grown = memref::AllocOp::create(b, loc, type, sizes, ValueRange{},
                                           arena.getAlignmentAttr());
      grown->setDiscardableAttrs(arena->getDiscardableAttrDictionary());
      for (OpOperand &use : llvm::make_early_inc_range(arena->getUses()))
        use.set(grown);
      arena->erase();
      buffer = grown;
    } else {
      own = memref::AllocOp::create(b, loc, type, sizes, ValueRange{},
                                    b.getI64IntegerAttr(kAlign));
      // The arena of this call from now on (tcc-use-workspace finds it).
      own->setAttr(tcc::kArenaAllocAttr, b.getUnitAttr());
      buffer = own;
      OpBuilder end(block->getTerminator());
      memref::DeallocOp::create(end, loc, own);
    }
    for (auto [span, offset] : placed) {
      Temporary *t = span->t;
      OpBuilder at(t->alloc);
      Value view = memref::ViewOp::create(at, t->alloc.getLoc(),
                                          t->alloc.getType(), buffer, offset,
                                          t->alloc.getDynamicSizes());
      for (memref::DeallocOp d : t->deallocs)
        d->erase();
      t->alloc->replaceAllUsesWith(ValueRange{view});
      t->alloc->erase();
    }
  }
};

} // namespace
