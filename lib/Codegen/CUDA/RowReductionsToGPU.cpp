//===- RowReductionsToGPU.cpp - a block per reduced row ---------*- C++ -*-===//
//
// See the pass description (include/tcc/Conversion/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/CUDA/Passes.h"

#include "tcc/Codegen/CUDA/Reductions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_ROWREDUCTIONSTOGPUPASS
#include "tcc/Codegen/CUDA/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

/// A reduction the pass can split across a block: the innermost loop is
/// the only reduction, every map is a projected permutation, the result's
/// accumulator is combined exactly once, by an associative and commutative
/// operation, with a value computed from the inputs.
struct RowReduction {
  linalg::GenericOp op;
  Operation *combiner;
  unsigned accOperand; // which operand of the combiner is the accumulator
  linalg::FillOp fill; // fills the accumulator right before, or null
};

std::optional<RowReduction> match(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 1 ||
      op.getIteratorTypesArray().back() != utils::IteratorType::reduction)
    return std::nullopt;
  for (AffineMap map : op.getIndexingMapsArray())
    if (!map.isProjectedPermutation())
      return std::nullopt;
  unsigned inner = op.getNumLoops() - 1;
  OpOperand *init = op.getDpsInitOperand(0);
  if (op.getMatchingIndexingMap(init).isFunctionOfDim(inner))
    return std::nullopt;
  if (!op.getRegion().front().getOps<linalg::IndexOp>().empty())
    return std::nullopt;
  std::optional<ReductionCombiner> combiner =
      matchReductionCombiner(op);
  if (!combiner)
    return std::nullopt;
  Operation *combinerOp = combiner->op;
  unsigned accOperand = combiner->accOperand;
  return RowReduction{op, combinerOp, accOperand, precedingFill(op)};
}

struct RowReductionsToGPUPass
    : tcc::impl::RowReductionsToGPUPassBase<RowReductionsToGPUPass> {
  using Base::Base;

  static Value combine(OpBuilder &b, Operation *combiner, Value lhs,
                       Value rhs) {
    return combineLike(b, combiner, lhs, rhs);
  }

  void convert(RowReduction r) {
    linalg::GenericOp op = r.op;
    OpBuilder b(op);
    Location loc = op.getLoc();
    auto cst = [&](int64_t v) {
      return arith::ConstantIndexOp::create(b, loc, v).getResult();
    };
    Value zero = cst(0), one = cst(1), threads = cst(blockSize);
    // Loop ranges from the operands' dims.
    SmallVector<Value> sizes;
    for (Range range : cast<linalg::LinalgOp>(op.getOperation())
                           .createLoopRanges(b, loc))
      sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, range.size));
    int64_t numParallel = sizes.size() - 1;
    Value rows = one;
    for (int64_t d = 0; d < numParallel; ++d)
      rows = arith::MulIOp::create(b, loc, rows, sizes[d]);
    Value columns = sizes.back();
    Type elementType = r.combiner->getResult(0).getType();
    // At least one block (a grid of 0 is an error); a block past the last
    // row skips the whole body (a block-uniform branch, so its barriers are
    // reached by all of the block's threads or none).
    Value grid = arith::MaxSIOp::create(b, loc, rows, one);

    auto workgroup = gpu::AddressSpaceAttr::get(
        b.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
    auto valuesType =
        MemRefType::get({blockSize}, elementType, AffineMap(), workgroup);
    auto flagsType =
        MemRefType::get({blockSize}, b.getI32Type(), AffineMap(), workgroup);
    auto launch = gpu::LaunchOp::create(
        b, loc, grid, one, one, threads, one, one, /*dynamicSharedMemory=*/
        nullptr, /*asyncTokenType=*/nullptr, /*asyncDependencies=*/{},
        TypeRange{valuesType, flagsType}, TypeRange{});
    tcc::nameKernel(launch, "row_reduction");
    Value shared = launch.getWorkgroupAttributions()[0];
    Value flags = launch.getWorkgroupAttributions()[1];
    Value tid = launch.getThreadIds().x;
    // The row's parallel indices, row-major, and the column's slot.
    SmallVector<Value> ivs = enterRow(
        b, loc, launch, rows, ArrayRef<Value>(sizes).take_front(numParallel));
    ivs.push_back(Value());
    // This thread's partial over columns tid, tid + blockSize, ...
    // Until a thread has a value its flag is 0 and `unset` is not used.
    Value unset =
        arith::ConstantOp::create(b, loc, b.getZeroAttr(elementType));
    Value falseI32 = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
    Value trueI32 = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 1);
    auto partial = scf::ForOp::create(
        b, loc, tid, columns, threads, ValueRange{unset, falseI32},
        [&](OpBuilder &lb, Location l, Value k, ValueRange iter) {
          ivs.back() = k;
          IRMapping map;
          Block &body = op.getRegion().front();
          for (OpOperand *in : op.getDpsInputOperands()) {
            AffineMap m = op.getMatchingIndexingMap(in);
            SmallVector<Value> idx;
            for (AffineExpr e : m.getResults())
              idx.push_back(ivs[cast<AffineDimExpr>(e).getPosition()]);
            Value v = memref::LoadOp::create(lb, l, in->get(), idx);
            map.map(op.getMatchingBlockArgument(in), v);
          }
          for (Operation &inner : body.without_terminator())
            if (&inner != r.combiner)
              lb.clone(inner, map);
          Value value = map.lookup(r.combiner->getOperand(1 - r.accOperand));
          Value have = arith::CmpIOp::create(lb, l, arith::CmpIPredicate::ne,
                                             iter[1], falseI32);
          Value merged = combine(lb, r.combiner, iter[0], value);
          Value next = arith::SelectOp::create(lb, l, have, merged, value);
          scf::YieldOp::create(lb, l, ValueRange{next, trueI32});
        });
    memref::StoreOp::create(b, loc, partial.getResult(0), shared, tid);
    memref::StoreOp::create(b, loc, partial.getResult(1), flags, tid);
    gpu::BarrierOp::create(b, loc);
    // Tree over the block: step s combines t and t + s for t < s.
    for (int64_t s = blockSize / 2; s > 0; s /= 2) {
      Value step = cst(s);
      Value lower = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                          tid, step);
      auto stepIf = scf::IfOp::create(b, loc, lower, /*withElse=*/false);
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(&stepIf.getThenRegion().front());
        Value other = arith::AddIOp::create(b, loc, tid, step);
        Value otherOk = memref::LoadOp::create(b, loc, flags, other);
        Value has = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                          otherOk, falseI32);
        auto takeIf = scf::IfOp::create(b, loc, has, /*withElse=*/false);
        b.setInsertionPointToStart(&takeIf.getThenRegion().front());
        Value mine = memref::LoadOp::create(b, loc, shared, tid);
        Value mineOk = memref::LoadOp::create(b, loc, flags, tid);
        Value theirs = memref::LoadOp::create(b, loc, shared, other);
        Value haveMine = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::ne, mineOk, falseI32);
        Value merged = combine(b, r.combiner, mine, theirs);
        Value v = arith::SelectOp::create(b, loc, haveMine, merged, theirs);
        memref::StoreOp::create(b, loc, v, shared, tid);
        memref::StoreOp::create(b, loc, trueI32, flags, tid);
      }
      gpu::BarrierOp::create(b, loc);
    }
    // Thread 0 folds the block's result into the accumulator.
    Value first =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, zero);
    auto finalIf = scf::IfOp::create(b, loc, first, /*withElse=*/false);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&finalIf.getThenRegion().front());
      OpOperand *init = op.getDpsInitOperand(0);
      AffineMap m = op.getMatchingIndexingMap(init);
      SmallVector<Value> idx;
      for (AffineExpr e : m.getResults())
        idx.push_back(ivs[cast<AffineDimExpr>(e).getPosition()]);
      Value acc =
          r.fill ? r.fill.getInputs()[0]
                 : memref::LoadOp::create(b, loc, init->get(), idx).getResult();
      Value total = memref::LoadOp::create(b, loc, shared, zero);
      Value ok = memref::LoadOp::create(b, loc, flags, zero);
      Value has =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, ok, falseI32);
      Value lhs = r.accOperand == 0 ? acc : total;
      Value rhs = r.accOperand == 0 ? total : acc;
      Value merged = combine(b, r.combiner, lhs, rhs);
      Value result = arith::SelectOp::create(b, loc, has, merged, acc);
      memref::StoreOp::create(b, loc, result, init->get(), idx);
    }
    op.erase();
    if (r.fill)
      r.fill.erase();
  }

  void runOnOperation() override {
    SmallVector<RowReduction> found;
    getOperation().walk([&](linalg::GenericOp op) {
      if (op->getParentOfType<gpu::LaunchOp>())
        return;
      if (std::optional<RowReduction> r = match(op))
        found.push_back(*r);
    });
    for (RowReduction r : found)
      convert(r);
  }
};

} // namespace
