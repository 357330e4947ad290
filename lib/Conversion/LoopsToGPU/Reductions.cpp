//===- Reductions.cpp - reductions split across GPU threads -----*- C++ -*-===//
//
// See Reductions.h.
//
//===----------------------------------------------------------------------===//

#include "Reductions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

std::optional<tcc::ReductionCombiner>
tcc::matchReductionCombiner(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1)
    return std::nullopt;
  Block &body = op.getRegion().front();
  BlockArgument acc = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  if (!acc.hasOneUse())
    return std::nullopt;
  Operation *combiner = *acc.getUsers().begin();
  if (!isa<arith::AddFOp, arith::MulFOp, arith::MaximumFOp,
           arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp,
           arith::AddIOp, arith::MulIOp, arith::MaxSIOp, arith::MinSIOp,
           arith::MaxUIOp, arith::MinUIOp, arith::AndIOp, arith::OrIOp>(
          combiner))
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (yield.getValues().size() != 1 ||
      yield.getValues()[0] != combiner->getResult(0))
    return std::nullopt;
  unsigned accOperand = combiner->getOperand(0) == acc ? 0 : 1;
  if (combiner->getOperand(1 - accOperand) == acc)
    return std::nullopt; // acc combined with itself
  return ReductionCombiner{combiner, accOperand};
}

Value tcc::combineLike(OpBuilder &b, Operation *combiner, Value lhs,
                       Value rhs) {
  OperationState state(combiner->getLoc(), combiner->getName());
  state.addOperands({lhs, rhs});
  state.addTypes(combiner->getResultTypes());
  state.addAttributes(combiner->getAttrs());
  return b.create(state)->getResult(0);
}

Value tcc::baseOf(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

bool tcc::isTransparentToBuffers(Operation *op) {
  return isa<memref::AllocOp, memref::DimOp, cf::AssertOp>(op) ||
         (isMemoryEffectFree(op) && op->getNumRegions() == 0);
}

bool tcc::leavesAlone(Operation *op, Value buffer) {
  if (isTransparentToBuffers(op))
    return true;
  if (!isa<linalg::LinalgOp>(op))
    return false;
  return llvm::none_of(op->getOperands(), [&](Value v) {
    return baseOf(v) == baseOf(buffer);
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


SmallVector<Value> tcc::enterRow(OpBuilder &b, Location loc,
                                 gpu::LaunchOp launch, Value rows,
                                 ArrayRef<Value> rowSizes) {
  b.setInsertionPointToStart(&launch.getBody().front());
  Value row = launch.getBlockIds().x;
  Value realRow =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, row, rows);
  auto rowIf = scf::IfOp::create(b, loc, realRow, /*withElse=*/false);
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPointToStart(&rowIf.getThenRegion().front());
  SmallVector<Value> ivs(rowSizes.size());
  Value rest = row;
  for (int64_t d = rowSizes.size() - 1; d >= 0; --d) {
    ivs[d] = d == 0 ? rest : arith::RemSIOp::create(b, loc, rest, rowSizes[d]);
    if (d > 0)
      rest = arith::DivSIOp::create(b, loc, rest, rowSizes[d]);
  }
  return ivs;
}
