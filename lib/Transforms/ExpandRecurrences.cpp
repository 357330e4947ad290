//===- ExpandRecurrences.cpp - recurrences as loops over a cell -*- C++ -*-===//
//
// A recurrence is a loop whose body depends on the previous step, which no
// fusion group expresses. tcc.lstm, tcc.gru and tcc.rnn become what the
// rest of the pipeline handles well: the input projection of every step as one tcc.linear
// (hoisted out of the recurrence: T times fewer, larger GEMMs), and an
// scf.for over the steps that calls a private cell function of tcc ops.
// That function is fused (the recurrent product h @ w_hh^T with the
// gates as its epilogue), planned and vectorized like any other; the loop
// carries the states and the output in tensors that bufferize in place.
//
//===----------------------------------------------------------------------===//

#include "tcc/Dialect/TCC/IR/TCCOps.h"
#include "tcc/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSet.h"

#include <limits>

namespace mlir::tcc {
#define GEN_PASS_DEF_EXPANDRECURRENCESPASS
#include "tcc/Transforms/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

constexpr int64_t kToEnd = std::numeric_limits<int64_t>::max();

/// Builds a cell's body: (x_t [B, G*H], states, constants) -> new states.
using CellBody = function_ref<SmallVector<Value>(
    OpBuilder &, Location, Value, ValueRange, ValueRange)>;

/// What differs between the recurrences; the loop around the cell is one.
struct Recurrence {
  Operation *op;
  Value x, wIh, projBias;        // Input projection: x @ w_ih^T + projBias.
  SmallVector<Value> initial;    // h0 (, c0): the carried states.
  SmallVector<Value> constants;  // Cell operands that stay: w_hh (, b_hh).
  bool reverse;
  int64_t gates;
  std::string cellName;          // Names the cell's kind and attributes.
  CellBody body;
};

/// Columns [k*H, (k+1)*H) of a [B, G*H] tensor.
Value gate(OpBuilder &b, Location loc, Value v, RankedTensorType stateType,
           int64_t k) {
  int64_t hidden = stateType.getDimSize(1);
  return SliceOp::create(b, loc, stateType, v,
                         b.getDenseI64ArrayAttr({0, k * hidden}),
                         b.getDenseI64ArrayAttr({kToEnd, (k + 1) * hidden}),
                         nullptr);
}

/// LSTM: gates = x_t + h @ w_hh^T, PyTorch's order i, f, g, o.
SmallVector<Value> lstmCell(OpBuilder &b, Location loc, Value xt,
                            ValueRange states, ValueRange constants) {
  Value h = states[0], c = states[1];
  auto stateType = cast<RankedTensorType>(h.getType());
  Value gates = LinearOp::create(b, loc, h, constants[0], Value());
  gates = AddOp::create(b, loc, gates, xt);
  Value in = SigmoidOp::create(b, loc, gate(b, loc, gates, stateType, 0));
  Value forget = SigmoidOp::create(b, loc, gate(b, loc, gates, stateType, 1));
  Value update = TanhOp::create(b, loc, gate(b, loc, gates, stateType, 2));
  Value out = SigmoidOp::create(b, loc, gate(b, loc, gates, stateType, 3));
  Value cNext = AddOp::create(b, loc, MulOp::create(b, loc, forget, c),
                              MulOp::create(b, loc, in, update));
  Value hNext = MulOp::create(b, loc, out, TanhOp::create(b, loc, cNext));
  return {hNext, cNext};
}

/// GRU: x_t holds x @ w_ih^T + b_ih; the order is r, z, n.
SmallVector<Value> gruCell(OpBuilder &b, Location loc, Value xt,
                           ValueRange states, ValueRange constants,
                           bool linearBeforeReset) {
  Value h = states[0], whh = constants[0], bhh = constants[1];
  auto stateType = cast<RankedTensorType>(h.getType());
  int64_t hidden = stateType.getDimSize(1);
  Value r, z, hn;
  if (linearBeforeReset) {
    Value gh = LinearOp::create(b, loc, h, whh, bhh);
    r = SigmoidOp::create(b, loc,
                          AddOp::create(b, loc, gate(b, loc, xt, stateType, 0),
                                        gate(b, loc, gh, stateType, 0)));
    z = SigmoidOp::create(b, loc,
                          AddOp::create(b, loc, gate(b, loc, xt, stateType, 1),
                                        gate(b, loc, gh, stateType, 1)));
    hn = MulOp::create(b, loc, r, gate(b, loc, gh, stateType, 2));
  } else {
    // r and z from rows [0, 2H) of w_hh; n from (r * h) and rows [2H, 3H).
    auto rowsOf = [&](Value w, int64_t from, int64_t to) -> Value {
      auto t = cast<RankedTensorType>(w.getType());
      SmallVector<int64_t> shape(t.getShape());
      shape[0] = to - from;
      SmallVector<int64_t> starts(t.getRank(), 0), ends(t.getRank(), kToEnd);
      starts[0] = from;
      ends[0] = to;
      return SliceOp::create(b, loc, RankedTensorType::get(shape, t.getElementType()),
                             w, b.getDenseI64ArrayAttr(starts),
                             b.getDenseI64ArrayAttr(ends), nullptr);
    };
    Value ghRZ = LinearOp::create(b, loc, h, rowsOf(whh, 0, 2 * hidden),
                                  rowsOf(bhh, 0, 2 * hidden));
    r = SigmoidOp::create(b, loc,
                          AddOp::create(b, loc, gate(b, loc, xt, stateType, 0),
                                        gate(b, loc, ghRZ, stateType, 0)));
    z = SigmoidOp::create(b, loc,
                          AddOp::create(b, loc, gate(b, loc, xt, stateType, 1),
                                        gate(b, loc, ghRZ, stateType, 1)));
    hn = LinearOp::create(b, loc, MulOp::create(b, loc, r, h),
                          rowsOf(whh, 2 * hidden, 3 * hidden),
                          rowsOf(bhh, 2 * hidden, 3 * hidden));
  }
  Value n = TanhOp::create(
      b, loc, AddOp::create(b, loc, gate(b, loc, xt, stateType, 2), hn));
  // (1 - z) * n + z * h = n + z * (h - n).
  Value hNext = AddOp::create(
      b, loc, n, MulOp::create(b, loc, z, SubOp::create(b, loc, h, n)));
  return {hNext};
}

/// Elman RNN: act(x_t + h @ w_hh^T), x_t holding both biases.
SmallVector<Value> rnnCell(OpBuilder &b, Location loc, Value xt,
                           ValueRange states, ValueRange constants,
                           bool relu) {
  Value pre = AddOp::create(
      b, loc, LinearOp::create(b, loc, states[0], constants[0], Value()), xt);
  if (relu)
    return {ReluOp::create(b, loc, pre).getResult()};
  return {TanhOp::create(b, loc, pre).getResult()};
}

/// The cell function: (x_t, states..., constants...) -> new states.
func::FuncOp buildCell(ModuleOp module, SymbolTable &symbols, Location loc,
                       FunctionType type, const Recurrence &rec) {
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto cell = func::FuncOp::create(b, loc, "__tcc_" + rec.cellName, type);
  cell.setPrivate();
  // One thread: the steps are serial, and a step's B x G*H x H is small at
  // the batch sizes recurrences run at (the input projection, T times
  // larger, runs across cores). The code generators read the same name
  // (kSerialFunctionAttr).
  cell->setAttr("tcc.serial", b.getUnitAttr());
  symbols.insert(cell); // Renames on a clash.
  Block *body = cell.addEntryBlock();
  b.setInsertionPointToStart(body);
  size_t numStates = rec.initial.size();
  ValueRange args = body->getArguments();
  SmallVector<Value> next =
      rec.body(b, loc, args[0], args.slice(1, numStates),
               args.drop_front(1 + numStates));
  func::ReturnOp::create(b, loc, next);
  return cell;
}

/// Replaces the recurrence with its input projection and a loop over
/// calls of the cell; result 0 is y [T, B, H], then the final states.
LogicalResult expand(const Recurrence &rec, ModuleOp module,
                     SymbolTable &symbols,
                     DenseMap<std::pair<StringRef, Type>, func::FuncOp> &cells,
                     llvm::StringSet<> &names) {
  Operation *op = rec.op;
  Location loc = op->getLoc();
  OpBuilder b(op);
  auto stateType = cast<RankedTensorType>(op->getResult(1).getType());
  auto yType = cast<RankedTensorType>(op->getResult(0).getType());
  Type et = stateType.getElementType();
  int64_t hidden = stateType.getDimSize(1), batchSize = stateType.getDimSize(0);
  int64_t width = rec.gates * hidden;
  size_t numStates = rec.initial.size();

  // Every step's input projection at once: [T, B, G*H].
  Value proj = LinearOp::create(b, loc, rec.x, rec.wIh, rec.projBias);

  auto stepType = RankedTensorType::get({batchSize, width}, et);
  SmallVector<Type> inputs = {stepType};
  SmallVector<Type> stateTypes(numStates, stateType);
  llvm::append_range(inputs, stateTypes);
  for (Value v : rec.constants)
    inputs.push_back(v.getType());
  auto cellType = b.getFunctionType(inputs, stateTypes);
  StringRef key = names.insert(rec.cellName).first->getKey();
  func::FuncOp &cell = cells[{key, cellType}];
  if (!cell)
    cell = buildCell(module, symbols, loc, cellType, rec);

  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value steps = tensor::DimOp::create(b, loc, rec.x, 0);
  // The carried state starts in buffers of its own (h0 and c0 may be
  // read-only inputs).
  // (alloc_tensor, not tensor.empty: CSE would merge two empties.)
  SmallVector<Value> init;
  for (Value v : rec.initial) {
    if (v.getType() != stateType)
      v = tensor::CastOp::create(b, loc, stateType, v);
    init.push_back(bufferization::AllocTensorOp::create(b, loc, stateType,
                                                        ValueRange{}, v)
                       .getResult());
  }
  Value batch = tensor::DimOp::create(b, loc, init[0], 0);
  SmallVector<Value> yDims;
  if (yType.isDynamicDim(0))
    yDims.push_back(steps);
  if (yType.isDynamicDim(1))
    yDims.push_back(batch);
  init.push_back(tensor::EmptyOp::create(b, loc, yType, yDims));
  Value last = arith::SubIOp::create(b, loc, steps, one);

  auto loop = scf::ForOp::create(
      b, loc, zero, steps, one, init,
      [&](OpBuilder &lb, Location l, Value t, ValueRange carried) {
        Value pos =
            rec.reverse ? arith::SubIOp::create(lb, l, last, t).getResult() : t;
        SmallVector<OpFoldResult> offsets = {pos, lb.getIndexAttr(0),
                                             lb.getIndexAttr(0)};
        SmallVector<OpFoldResult> strides(3, lb.getIndexAttr(1));
        OpFoldResult b0 = batchSize == ShapedType::kDynamic
                              ? OpFoldResult(batch)
                              : OpFoldResult(lb.getIndexAttr(batchSize));
        SmallVector<OpFoldResult> stepSizes = {lb.getIndexAttr(1), b0,
                                               lb.getIndexAttr(width)};
        Value xt = tensor::ExtractSliceOp::create(lb, l, stepType, proj,
                                                  offsets, stepSizes, strides);
        SmallVector<Value> args = {xt};
        llvm::append_range(args, carried.take_front(numStates));
        llvm::append_range(args, rec.constants);
        auto call = func::CallOp::create(lb, l, cell, args);
        SmallVector<OpFoldResult> outSizes = {lb.getIndexAttr(1), b0,
                                              lb.getIndexAttr(hidden)};
        Value y = tensor::InsertSliceOp::create(lb, l, call.getResult(0),
                                                carried[numStates], offsets,
                                                outSizes, strides);
        // The new state goes into the carried buffers (an scf.for yields
        // its iter_args' buffers): a copy of B x H per step.
        SmallVector<Value> yields;
        for (size_t i = 0; i < numStates; ++i)
          yields.push_back(bufferization::MaterializeInDestinationOp::create(
                               lb, l, call.getResult(i), carried[i])
                               .getResult());
        yields.push_back(y);
        scf::YieldOp::create(lb, l, yields);
      });
  auto result = [&](Value v, Type type) -> Value {
    return v.getType() == type ? v
                               : tensor::CastOp::create(b, loc, type, v).getResult();
  };
  op->getResult(0).replaceAllUsesWith(
      result(loop.getResult(numStates), op->getResult(0).getType()));
  for (size_t i = 0; i < numStates; ++i)
    op->getResult(1 + i).replaceAllUsesWith(
        result(loop.getResult(i), op->getResult(1 + i).getType()));
  op->erase();
  return success();
}

struct ExpandRecurrencesPass
    : tcc::impl::ExpandRecurrencesPassBase<ExpandRecurrencesPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<LSTMOp, GRUOp, RNNOp>(op))
        ops.push_back(op);
    });
    if (ops.empty())
      return;
    SymbolTable symbols(module);
    DenseMap<std::pair<StringRef, Type>, func::FuncOp> cells;
    llvm::StringSet<> names;
    for (Operation *op : ops) {
      Recurrence rec;
      rec.op = op;
      if (auto lstm = dyn_cast<LSTMOp>(op)) {
        rec = {op, lstm.getX(), lstm.getWIh(), lstm.getBias(),
               {lstm.getH0(), lstm.getC0()}, {lstm.getWHh()},
               lstm.getReverse(), 4, "lstm_cell", lstmCell};
        if (failed(expand(rec, module, symbols, cells, names)))
          return signalPassFailure();
        continue;
      }
      if (auto gru = dyn_cast<GRUOp>(op)) {
        bool lbr = gru.getLinearBeforeReset();
        auto body = [lbr](OpBuilder &b, Location l, Value xt, ValueRange st,
                          ValueRange k) { return gruCell(b, l, xt, st, k, lbr); };
        rec = {op, gru.getX(), gru.getWIh(), gru.getBIh(), {gru.getH0()},
               {gru.getWHh(), gru.getBHh()}, gru.getReverse(), 3,
               lbr ? "gru_cell" : "gru_cell_reset_first", body};
        if (failed(expand(rec, module, symbols, cells, names)))
          return signalPassFailure();
        continue;
      }
      auto rnn = cast<RNNOp>(op);
      bool relu = rnn.getNonlinearity() == "relu";
      auto body = [relu](OpBuilder &b, Location l, Value xt, ValueRange st,
                         ValueRange k) { return rnnCell(b, l, xt, st, k, relu); };
      rec = {op, rnn.getX(), rnn.getWIh(), rnn.getBias(), {rnn.getH0()},
             {rnn.getWHh()}, rnn.getReverse(), 1,
             relu ? "rnn_relu_cell" : "rnn_tanh_cell", body};
      if (failed(expand(rec, module, symbols, cells, names)))
        return signalPassFailure();
    }
  }
};

} // namespace
