//===- ExpandRecurrences.cpp - tcc.lstm as a loop over a cell ---*- C++ -*-===//
//
// A recurrence is a loop whose body depends on the previous step, which no
// fusion group expresses. tcc.lstm becomes what the rest of the pipeline
// handles well: the input projection of every step as one tcc.linear
// (hoisted out of the recurrence: T times fewer, larger GEMMs), and an
// scf.for over the steps that calls a private cell function of tcc ops.
// That function is fused (the recurrent product h @ w_hh^T with the
// gates as its epilogue), planned and vectorized like any other; the loop
// carries h, c and the output in tensors that bufferize in place.
//
//===----------------------------------------------------------------------===//

#include "tcc/Dialect/TCC/IR/TCCOps.h"
#include "tcc/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/SymbolTable.h"

#include <limits>

namespace mlir::tcc {
#define GEN_PASS_DEF_EXPANDRECURRENCESPASS
#include "tcc/Transforms/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

constexpr int64_t kToEnd = std::numeric_limits<int64_t>::max();

/// The cell: (x_t [B, 4H], h [B, H], c [B, H], w_hh [4H, H]) -> (h', c').
func::FuncOp buildCell(ModuleOp module, SymbolTable &symbols, Location loc,
                       FunctionType type) {
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto cell = func::FuncOp::create(b, loc, "__tcc_lstm_cell", type);
  cell.setPrivate();
  // One thread: the steps are serial, and a step's B x 4H x H is small at
  // the batch sizes recurrences run at (the input projection, T times
  // larger, runs across cores). The code generators read the same name
  // (kSerialFunctionAttr).
  cell->setAttr("tcc.serial", b.getUnitAttr());
  symbols.insert(cell); // Renames on a clash.
  Block *body = cell.addEntryBlock();
  b.setInsertionPointToStart(body);
  Value xt = body->getArgument(0), h = body->getArgument(1),
        c = body->getArgument(2), whh = body->getArgument(3);
  auto stateType = cast<RankedTensorType>(h.getType());
  int64_t hidden = stateType.getDimSize(1);
  Value gates = LinearOp::create(b, loc, h, whh, Value());
  gates = AddOp::create(b, loc, gates, xt);
  auto gate = [&](int64_t k) -> Value {
    return SliceOp::create(
        b, loc, stateType, gates, b.getDenseI64ArrayAttr({0, k * hidden}),
        b.getDenseI64ArrayAttr({kToEnd, (k + 1) * hidden}), nullptr);
  };
  Value in = SigmoidOp::create(b, loc, gate(0));
  Value forget = SigmoidOp::create(b, loc, gate(1));
  Value update = TanhOp::create(b, loc, gate(2));
  Value out = SigmoidOp::create(b, loc, gate(3));
  Value cNext = AddOp::create(b, loc, MulOp::create(b, loc, forget, c),
                              MulOp::create(b, loc, in, update));
  Value hNext = MulOp::create(b, loc, out, TanhOp::create(b, loc, cNext));
  func::ReturnOp::create(b, loc, ValueRange{hNext, cNext});
  return cell;
}

LogicalResult expand(LSTMOp op, ModuleOp module, SymbolTable &symbols,
                     DenseMap<Type, func::FuncOp> &cells) {
  Location loc = op.getLoc();
  OpBuilder b(op);
  auto stateType = cast<RankedTensorType>(op.getH().getType());
  auto yType = cast<RankedTensorType>(op.getY().getType());
  Type et = stateType.getElementType();
  int64_t hidden = stateType.getDimSize(1), batchSize = stateType.getDimSize(0);

  // Every step's input projection at once: [T, B, 4H].
  Value proj = LinearOp::create(b, loc, op.getX(), op.getWIh(), op.getBias());
  auto projType = cast<RankedTensorType>(proj.getType());

  auto stepType = RankedTensorType::get({batchSize, 4 * hidden}, et);
  auto cellType = b.getFunctionType(
      {stepType, stateType, stateType, op.getWHh().getType()},
      {stateType, stateType});
  func::FuncOp &cell = cells[cellType];
  if (!cell)
    cell = buildCell(module, symbols, loc, cellType);

  auto asState = [&](Value v) -> Value {
    return v.getType() == stateType
               ? v
               : tensor::CastOp::create(b, loc, stateType, v).getResult();
  };
  Value h0 = asState(op.getH0()), c0 = asState(op.getC0());
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value steps = tensor::DimOp::create(b, loc, op.getX(), 0);
  Value batch = tensor::DimOp::create(b, loc, h0, 0);
  // The carried state starts in buffers of its own (h0 and c0 may be
  // read-only inputs).
  // (alloc_tensor, not tensor.empty: CSE would merge two empties.)
  auto ownCopy = [&](Value v) -> Value {
    return bufferization::AllocTensorOp::create(b, loc, stateType,
                                                ValueRange{}, v)
        .getResult();
  };
  h0 = ownCopy(h0);
  c0 = ownCopy(c0);
  SmallVector<Value> yDims;
  if (yType.isDynamicDim(0))
    yDims.push_back(steps);
  if (yType.isDynamicDim(1))
    yDims.push_back(batch);
  Value y0 = tensor::EmptyOp::create(b, loc, yType, yDims);
  Value last = arith::SubIOp::create(b, loc, steps, one);

  auto loop = scf::ForOp::create(
      b, loc, zero, steps, one, ValueRange{h0, c0, y0},
      [&](OpBuilder &lb, Location l, Value t, ValueRange carried) {
        Value pos =
            op.getReverse() ? arith::SubIOp::create(lb, l, last, t).getResult()
                            : t;
        SmallVector<OpFoldResult> offsets = {pos, lb.getIndexAttr(0),
                                             lb.getIndexAttr(0)};
        SmallVector<OpFoldResult> strides(3, lb.getIndexAttr(1));
        OpFoldResult b0 = batchSize == ShapedType::kDynamic
                              ? OpFoldResult(batch)
                              : OpFoldResult(lb.getIndexAttr(batchSize));
        SmallVector<OpFoldResult> stepSizes = {lb.getIndexAttr(1), b0,
                                               lb.getIndexAttr(4 * hidden)};
        Value xt = tensor::ExtractSliceOp::create(lb, l, stepType, proj,
                                                  offsets, stepSizes, strides);
        auto call = func::CallOp::create(
            lb, l, cell, ValueRange{xt, carried[0], carried[1], op.getWHh()});
        SmallVector<OpFoldResult> outSizes = {lb.getIndexAttr(1), b0,
                                              lb.getIndexAttr(hidden)};
        Value y = tensor::InsertSliceOp::create(lb, l, call.getResult(0),
                                                carried[2], offsets, outSizes,
                                                strides);
        // The new state goes into the carried buffers (an scf.for yields
        // its iter_args' buffers): a copy of B x H per step.
        auto into = [&](Value v, Value dest) -> Value {
          return bufferization::MaterializeInDestinationOp::create(lb, l, v,
                                                                   dest)
              .getResult();
        };
        scf::YieldOp::create(lb, l,
                             ValueRange{into(call.getResult(0), carried[0]),
                                        into(call.getResult(1), carried[1]),
                                        y});
      });
  (void)projType;
  auto result = [&](Value v, Type type) -> Value {
    return v.getType() == type ? v
                               : tensor::CastOp::create(b, loc, type, v).getResult();
  };
  op.getY().replaceAllUsesWith(result(loop.getResult(2), op.getY().getType()));
  op.getH().replaceAllUsesWith(result(loop.getResult(0), op.getH().getType()));
  op.getC().replaceAllUsesWith(result(loop.getResult(1), op.getC().getType()));
  op.erase();
  return success();
}

struct ExpandRecurrencesPass
    : tcc::impl::ExpandRecurrencesPassBase<ExpandRecurrencesPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<LSTMOp> ops;
    module.walk([&](LSTMOp op) { ops.push_back(op); });
    if (ops.empty())
      return;
    SymbolTable symbols(module);
    DenseMap<Type, func::FuncOp> cells;
    for (LSTMOp op : ops)
      if (failed(expand(op, module, symbols, cells)))
        return signalPassFailure();
  }
};

} // namespace
