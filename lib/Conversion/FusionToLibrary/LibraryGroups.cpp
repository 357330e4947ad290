//===- LibraryGroups.cpp - taking an op out of its fusion group -----------===//

#include "LibraryGroups.h"

#include "tcc/Analysis/SymbolicShapes.h"
#include "tcc/Transforms/MemoryPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

bool tcc::isGroupArgument(Value v, fusion::GroupOp group) {
  auto arg = dyn_cast<BlockArgument>(v);
  return arg && arg.getOwner() == &group.getBodyBlock();
}

bool tcc::isConstantGroupInput(fusion::GroupOp group, Value arg) {
  Value input = group.getInputs()[cast<BlockArgument>(arg).getArgNumber()];
  return matchPattern(input, m_Constant());
}

Operation *tcc::onlyUser(Value v) {
  return v.hasOneUse() ? *v.getUsers().begin() : nullptr;
}

tcc::AddOp tcc::residualAddOf(Value v, fusion::GroupOp group,
                              BlockArgument &residual) {
  auto add = dyn_cast_or_null<AddOp>(onlyUser(v));
  if (!add)
    return nullptr;
  Value other = add.getLhs() == v ? add.getRhs() : add.getLhs();
  if (other == v || !isGroupArgument(other, group) ||
      other.getType() != v.getType() || add.getType() != v.getType())
    return nullptr;
  residual = cast<BlockArgument>(other);
  return add;
}

Value tcc::readGroupInput(OpBuilder &b, Location loc, fusion::GroupOp group,
                          BlockArgument arg) {
  Value input = group.getInputs()[arg.getArgNumber()];
  auto t = cast<RankedTensorType>(input.getType());
  auto layout = StridedLayoutAttr::get(
      b.getContext(), ShapedType::kDynamic,
      SmallVector<int64_t>(t.getRank(), ShapedType::kDynamic));
  auto type = MemRefType::get(t.getShape(), t.getElementType(), layout);
  return bufferization::ToBufferOp::create(b, loc, type, input,
                                           /*read_only=*/true);
}

void tcc::assertDimsAgree(OpBuilder &b, Location loc, Value x, int64_t dx,
                          Value y, int64_t dy, StringRef message,
                          int64_t factor) {
  auto xt = cast<MemRefType>(x.getType());
  auto yt = cast<MemRefType>(y.getType());
  if (!xt.isDynamicDim(dx) && !yt.isDynamicDim(dy))
    return; // the verifier compared them
  Value ySize = memref::DimOp::create(b, loc, y, dy);
  if (factor != 1)
    ySize = arith::MulIOp::create(
        b, loc, ySize, arith::ConstantIndexOp::create(b, loc, factor));
  Value eq = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                   memref::DimOp::create(b, loc, x, dx), ySize);
  cf::AssertOp::create(b, loc, eq, message);
}

Value tcc::allocateLibraryScratch(OpBuilder &b, Location loc,
                                  int64_t bytes) {
  if (bytes <= 0)
    return nullptr;
  return memref::AllocOp::create(b, loc,
                                 MemRefType::get({bytes}, b.getI8Type()),
                                 ValueRange{}, b.getI64IntegerAttr(64));
}

void tcc::computeOutsideGroup(IRRewriter &b, fusion::GroupOp group,
                              Value replaced, ArrayRef<Operation *> erase,
                              Value computed, memref::AllocOp out) {
  Block &body = group.getBodyBlock();
  group->insertOperands(group->getNumOperands(), computed);
  BlockArgument arg = body.addArgument(computed.getType(), computed.getLoc());
  b.replaceAllUsesWith(replaced, arg);
  for (Operation *op : erase)
    if (op)
      b.eraseOp(op);
  for (int64_t i = body.getNumArguments() - 1; i >= 0; --i) {
    if (!body.getArgument(i).use_empty())
      continue;
    body.eraseArgument(i);
    group->eraseOperand(i);
  }

  // What is left is pointwise, or nothing: a group that only yields its
  // inputs is replaced by them.
  auto yield = cast<fusion::YieldOp>(body.getTerminator());
  if (&body.front() != yield.getOperation()) {
    group.setKind("pointwise");
    return;
  }
  SmallVector<Value> results;
  for (Value v : yield.getValues())
    results.push_back(group.getInputs()[cast<BlockArgument>(v).getArgNumber()]);
  if (results.size() == 1 && results[0] == computed) {
    // The group's size expressions (--symbolic-shapes) stay with the
    // value: a reshape of it still lowers to a view.
    if (Attribute shape = group->getAttr(kShapeAttr))
      computed.getDefiningOp()->setAttr(kShapeAttr, shape);
    // So does its place in the memory plan: the library writes there
    // (tcc-materialize-memory-plan).
    if (Attribute plan = group->getAttr(kBufferAttr))
      out->setAttr(kBufferAttr, plan);
  }
  b.replaceOp(group, results);
}
