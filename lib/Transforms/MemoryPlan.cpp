//===- MemoryPlan.cpp - liveness and in-place rules of the plan -*- C++ -*-===//
//
// Shared by --plan-memory, --verify-memory-plan and the lowering; see
// include/tcc/Transforms/MemoryPlan.h.
//
//===----------------------------------------------------------------------===//

#include "tcc/Transforms/MemoryPlan.h"

#include "tcc/Dialect/Fusion/IR/FusionOps.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace mlir::tcc;

DictionaryAttr mlir::tcc::getBufferPlan(Operation *op, unsigned i) {
  Attribute plan = op->getAttr(kBufferAttr);
  if (auto dict = dyn_cast_or_null<DictionaryAttr>(plan))
    return i == 0 ? dict : DictionaryAttr();
  if (auto array = dyn_cast_or_null<ArrayAttr>(plan))
    if (i < array.size())
      return dyn_cast<DictionaryAttr>(array[i]);
  return {};
}

Value mlir::tcc::getBufferRoot(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<ReshapeOp, SliceOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

BufferLiveness mlir::tcc::computeBufferLiveness(Block &block) {
  BufferLiveness live;
  int64_t i = 0;
  for (Operation &op : block)
    live.index[&op] = i++;
  for (Operation &op : block) {
    int64_t at = live.index[&op];
    // Uses, including those inside the op's regions of values from outside.
    op.walk([&](Operation *user) {
      for (Value operand : user->getOperands()) {
        Value root = getBufferRoot(operand);
        auto it = live.ranges.find(root);
        if (it != live.ranges.end())
          it->second.second = std::max(it->second.second, at);
      }
    });
    if (op.hasTrait<OpTrait::ReturnLike>())
      for (Value v : op.getOperands())
        live.escaping.insert(getBufferRoot(v));
    if (isa<ReshapeOp, SliceOp>(op))
      continue;
    for (Value r : op.getResults())
      live.ranges.insert({r, {at, at}});
  }
  return live;
}

/// Whether an operand of `shapeOf(derived)` shape can stretch `derived`
/// under numpy broadcasting: it cannot when, aligned from the right, each of
/// its dims is a static 1 or the same static size as a static `derived` dim.
static bool cannotStretch(Value other, ShapedType derived) {
  auto t = dyn_cast<ShapedType>(other.getType());
  if (!t || !t.hasRank())
    return false;
  if (t.getRank() > derived.getRank())
    return false;
  int64_t shift = derived.getRank() - t.getRank();
  for (int64_t d = 0; d < t.getRank(); ++d) {
    int64_t o = t.getDimSize(d), x = derived.getDimSize(d + shift);
    if (o == 1)
      continue;
    if (ShapedType::isDynamic(o) || ShapedType::isDynamic(x) || o != x)
      return false;
  }
  return true;
}

bool mlir::tcc::mayWriteInPlace(Operation *op, unsigned operandIndex) {
  auto group = dyn_cast<fusion::GroupOp>(op);
  if (!group || group.getKind() != "pointwise" || group->getNumResults() != 1 ||
      operandIndex >= group->getNumOperands())
    return false;
  // The same buffer passed again (itself or a view) would be read through
  // the other argument after it is overwritten.
  Value buffer = getBufferRoot(group->getOperand(operandIndex));
  for (auto [j, other] : llvm::enumerate(group->getOperands()))
    if (j != operandIndex && getBufferRoot(other) == buffer)
      return false;
  auto in = dyn_cast<RankedTensorType>(group->getOperand(operandIndex).getType());
  auto out = dyn_cast<RankedTensorType>(group->getResult(0).getType());
  if (!in || !out || in.getShape() != out.getShape() ||
      !in.getElementType().isIntOrFloat() ||
      !out.getElementType().isIntOrFloat() ||
      in.getElementType().getIntOrFloatBitWidth() !=
          out.getElementType().getIntOrFloatBitWidth())
    return false;
  // Follow the input through the body: every user an elementwise op whose
  // other operands cannot stretch it, so every derived value keeps the
  // input's shape and element i depends on input element i only.
  Block &body = group.getBodyBlock();
  SmallVector<Value> work = {body.getArgument(operandIndex)};
  DenseSet<Value> derived(work.begin(), work.end());
  bool reachesResult = false;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (isa<fusion::YieldOp>(user)) {
        reachesResult = true;
        continue;
      }
      bool elementwise =
          isUnaryElementwise(user) || isBinaryElementwise(user) ||
          isa<CmpOp, SelectOp, GeluOp, CastOp>(user);
      if (!elementwise || user->getNumResults() != 1 ||
          cast<ShapedType>(user->getResult(0).getType()).getShape() !=
              in.getShape())
        return false;
      for (Value other : user->getOperands())
        if (!derived.contains(other) && !cannotStretch(other, in))
          return false;
      if (derived.insert(user->getResult(0)).second)
        work.push_back(user->getResult(0));
    }
  }
  return reachesResult;
}
