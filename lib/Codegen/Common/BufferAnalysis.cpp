//===- BufferAnalysis.cpp - what touches a buffer, after bufferization ----===//
//
// See BufferAnalysis.h.
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/Common/BufferAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

Value tcc::baseOf(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

bool tcc::isTransparentToBuffers(Operation *op) {
  return isa<memref::AllocOp, memref::DimOp, cf::AssertOp>(op) ||
         (isMemoryEffectFree(op) && op->getNumRegions() == 0);
}

Operation *tcc::nextTouchingBuffers(Operation *op) {
  Operation *next = op->getNextNode();
  while (next && isTransparentToBuffers(next))
    next = next->getNextNode();
  return next;
}

bool tcc::leavesAlone(Operation *op, Value buffer) {
  if (isTransparentToBuffers(op))
    return true;
  auto touches = [&](Value v) { return baseOf(v) == baseOf(buffer); };
  if (isa<linalg::LinalgOp>(op))
    return llvm::none_of(op->getOperands(), touches);
  // Ops whose every effect names the value it reads or writes (a copy, a
  // library call): alone if none of those is a view of `buffer`.
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects || op->getNumRegions() != 0)
    return false;
  SmallVector<MemoryEffects::EffectInstance> list;
  effects.getEffects(list);
  return llvm::all_of(list, [&](const MemoryEffects::EffectInstance &e) {
    Value v = e.getValue();
    return v && !touches(v);
  });
}

linalg::FillOp tcc::precedingFill(linalg::GenericOp op) {
  Value out = op.getDpsInitOperand(0)->get();
  if (llvm::is_contained(op.getDpsInputs(), out))
    return nullptr;
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(prev))
      if (fill.hasPureBufferSemantics() && fill.getOutputs()[0] == out)
        return fill;
    if (!leavesAlone(prev, out))
      return nullptr;
  }
  return nullptr;
}


/// A copy of a buffer whose last write was a fill becomes a fill of the
/// copy's target (bufferization copies a filled accumulator for a second
/// reduction; as a fill, the reduction folds it in).
void tcc::foldCopiesOfFills(Block &block) {
  for (auto copy : llvm::make_early_inc_range(block.getOps<memref::CopyOp>())) {
    Value source = copy.getSource();
    for (Operation *prev = copy->getPrevNode(); prev;
         prev = prev->getPrevNode()) {
      auto fill = dyn_cast<linalg::FillOp>(prev);
      if (fill && fill.hasPureBufferSemantics() &&
          fill.getOutputs()[0] == source) {
        OpBuilder b(copy);
        linalg::FillOp::create(b, copy.getLoc(), fill.getInputs()[0],
                               copy.getTarget());
        copy.erase();
        break;
      }
      if (!leavesAlone(prev, source) || !leavesAlone(prev, copy.getTarget()))
        break;
    }
  }
}

/// A transpose into a buffer that only generic ops read (and a dealloc
/// frees) is folded into their indexing maps: they read the source
/// directly. A linear's weight, transposed for a (k, n) matmul on every
/// call, is read as (n, k) again: no transpose kernel, and the matmul's
/// maps keep the loop order, so it can be a row group over K.
void tcc::foldTransposesIntoReaders(Block &block) {
  for (auto transpose :
       llvm::make_early_inc_range(block.getOps<linalg::TransposeOp>())) {
    if (!transpose.hasPureBufferSemantics())
      continue;
    Value dst = transpose.getInit();
    if (!dst.getDefiningOp<memref::AllocOp>())
      continue;
    // Bufferization may reuse one scratch buffer for several transposes
    // (each block's weight): this one's values are read up to the next
    // transpose into the buffer.
    SmallVector<std::pair<linalg::GenericOp, OpOperand *>> uses;
    Operation *nextWrite = nullptr;
    bool onlyReaders = true;
    for (OpOperand &use : dst.getUses()) {
      Operation *user = use.getOwner();
      if (user == transpose || isa<memref::DeallocOp>(user))
        continue;
      if (auto other = dyn_cast<linalg::TransposeOp>(user);
          other && other.getInit() == dst && other->getBlock() == &block) {
        if (transpose->isBeforeInBlock(other) &&
            (!nextWrite || other->isBeforeInBlock(nextWrite)))
          nextWrite = other;
        continue;
      }
      auto generic = dyn_cast<linalg::GenericOp>(user);
      if (!generic || !generic.isDpsInput(&use) ||
          generic->getBlock() != &block) {
        onlyReaders = false;
        break;
      }
      uses.push_back({generic, &use});
    }
    SmallVector<std::pair<linalg::GenericOp, OpOperand *>> readers;
    for (auto [generic, use] : uses)
      if (transpose->isBeforeInBlock(generic) &&
          (!nextWrite || generic->isBeforeInBlock(nextWrite)))
        readers.push_back({generic, use});
    // The source must still hold the same values when the readers run:
    // nothing between writes to it.
    Value src = transpose.getInput();
    for (auto [generic, use] : readers)
      for (Operation *op = transpose->getNextNode(); op != generic;
           op = op->getNextNode())
        if (!leavesAlone(op, src) &&
            !(isa<linalg::LinalgOp>(op) &&
              llvm::none_of(cast<linalg::LinalgOp>(op).getDpsInits(),
                            [&](Value v) { return baseOf(v) == baseOf(src); })))
          onlyReaders = false;
    if (!onlyReaders || readers.empty())
      continue;
    // dst[i] = src[j] with j[perm[i]] = i: src's map puts result i of the
    // old map at position perm[i].
    ArrayRef<int64_t> perm = transpose.getPermutation();
    for (auto [generic, use] : readers) {
      AffineMap old = generic.getMatchingIndexingMap(use);
      SmallVector<AffineExpr> results(old.getNumResults());
      for (auto [i, p] : llvm::enumerate(perm))
        results[p] = old.getResult(i);
      SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
      maps[use->getOperandNumber()] =
          AffineMap::get(old.getNumDims(), 0, results, old.getContext());
      use->set(src);
      generic.setIndexingMapsAttr(
          OpBuilder(generic).getAffineMapArrayAttr(maps));
    }
    transpose.erase();
    if (llvm::all_of(dst.getUsers(),
                     [](Operation *u) { return isa<memref::DeallocOp>(u); })) {
      for (Operation *u : llvm::make_early_inc_range(dst.getUsers()))
        u->erase();
      dst.getDefiningOp()->erase();
    }
  }
}
