//===- FusionCostModel.cpp - what --fuse weighs before fusing ---*- C++ -*-===//

#include "tcc/Transforms/FusionCostModel.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tcc;

FusionTarget FusionTarget::of(TargetAttr target) {
  double bandwidth = double(target.getBandwidth());
  FusionTarget t;
  t.name = target.getKind();
  t.flopsPerByte = double(target.getPeakFlops()) / bandwidth;
  t.launchBytes = double(target.getLaunchNs()) * bandwidth / 1e9;
  t.onChipBytes = target.getOnChipBytes();
  // A CPU loop body streams its inputs through 32 vector registers and the
  // prefetchers; a GPU thread has more registers to hold them.
  t.maxGroupInputs = target.isCPU() ? 16 : 32;
  // The CPU packs a merged contraction's weights in the group's own loops;
  // on the GPU each strided copy is a launch of its own.
  t.packsInGroup = target.isCPU();
  return t;
}

int64_t mlir::tcc::estimateElements(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type)
    return 0;
  int64_t n = 1;
  for (int64_t d : type.getShape())
    n *= ShapedType::isDynamic(d) ? kDynamicDimEstimate : d;
  return n;
}

int64_t mlir::tcc::estimateBytes(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type)
    return 0;
  int64_t bits = type.getElementType().getIntOrFloatBitWidth();
  return estimateElements(v) * std::max<int64_t>(1, bits / 8);
}

double mlir::tcc::flopsPerElement(Operation *op) {
  if (isa<ExpOp, LogOp, TanhOp, SigmoidOp, SiluOp, ErfOp, GeluOp, PowOp,
          SinOp, CosOp, TanOp, AsinOp, AcosOp, AtanOp, SinhOp, CoshOp, AsinhOp,
          AcoshOp, AtanhOp>(op))
    return 20;
  if (isa<RemOp>(op))
    return 4;
  if (isa<DivOp, SqrtOp, RsqrtOp>(op))
    return 4;
  if (isa<BatchNormOp>(op))
    return 4;
  if (isa<BroadcastToOp>(op))
    return 0;
  return 1;
}

bool mlir::tcc::isRecomputeProfitable(Operation *producer, unsigned uses,
                                      const FusionTarget &target) {
  if (uses < 2 || producer->getNumResults() != 1)
    return false;
  llvm::SetVector<Value> inputs(producer->operand_begin(),
                                producer->operand_end());
  double in = 0;
  for (Value v : inputs)
    in += estimateBytes(v);
  double out = estimateBytes(producer->getResult(0));
  double extraFlops = (uses - 1) * double(estimateElements(producer->getResult(0))) *
                      flopsPerElement(producer);
  // Written once and read by each consumer group, versus its inputs read by
  // each consumer group and the arithmetic done again.
  double materialize = in + (1 + uses) * out;
  double recompute = uses * in + extraFlops / target.flopsPerByte;
  return recompute < materialize;
}

bool mlir::tcc::isHorizontalMergeProfitable(ArrayRef<Operation *> ops,
                                            int64_t packedWeightBytes,
                                            int64_t packedTensors,
                                            const FusionTarget &target) {
  if (ops.size() < 2)
    return false;
  double shared = estimateBytes(ops.front()->getOperand(0));
  double saved = (ops.size() - 1) * (shared + target.launchBytes);
  // Packing reads the weights and writes the packed copy; where it is not
  // part of the group, each packed tensor is a kernel of its own.
  double cost = 2.0 * packedWeightBytes;
  if (!target.packsInGroup)
    cost += packedTensors * target.launchBytes;
  return saved > cost;
}

bool mlir::tcc::reductionRowsFitOnChip(int64_t rowElements,
                                       int64_t elementBytes, int64_t liveRows,
                                       const FusionTarget &target) {
  return rowElements * elementBytes * liveRows <= target.onChipBytes;
}
