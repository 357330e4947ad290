//===- Reductions.cpp - reductions split across GPU threads -----*- C++ -*-===//
//
// See Reductions.h.
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/CUDA/Reductions.h"

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

void tcc::nameKernel(gpu::LaunchOp launch, StringRef kind) {
  auto func = launch->getParentOfType<FunctionOpInterface>();
  if (!func)
    return;
  MLIRContext *ctx = launch.getContext();
  launch.setFunctionAttr(
      FlatSymbolRefAttr::get(ctx, (func.getName() + "_" + kind).str()));
  // One gpu.module for all of a function's kernels: libdevice is linked,
  // NVPTX run and ptxas called once per module, not once per kernel.
  launch.setModuleAttr(
      FlatSymbolRefAttr::get(ctx, (func.getName() + "_kernels").str()));
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

bool tcc::alignedForVectors(MemRefType type, int64_t lanes) {
  if (type.getRank() == 0 || !type.getElementType().isIntOrFloat())
    return false;
  unsigned bits = type.getElementTypeBitWidth();
  if (bits < 8 || !llvm::isPowerOf2_32(bits))
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      strides.back() != 1 || ShapedType::isDynamic(offset))
    return false;
  int64_t bytes = bits / 8, size = lanes * bytes;
  if ((offset * bytes) % size != 0)
    return false;
  for (int64_t stride : ArrayRef<int64_t>(strides).drop_back())
    if (ShapedType::isDynamic(stride) || (stride * bytes) % size != 0)
      return false;
  return true;
}

Value tcc::basesAligned(OpBuilder &b, Location loc, ArrayRef<Value> memrefs,
                        int64_t lanes) {
  Value aligned = arith::ConstantIntOp::create(b, loc, 1, 1);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  for (Value m : memrefs) {
    auto type = cast<MemRefType>(m.getType());
    int64_t size = lanes * type.getElementTypeBitWidth() / 8;
    Value ptr = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, m);
    Value misalignment = arith::RemUIOp::create(
        b, loc, ptr, arith::ConstantIndexOp::create(b, loc, size));
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                     misalignment, zero);
    aligned = arith::AndIOp::create(b, loc, aligned, ok);
  }
  return aligned;
}
