//===- ParallelLoopsToGPU.cpp - scf.parallel to gpu.launch ------*- C++ -*-===//
//
// See the pass description (include/tcc/Conversion/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tcc/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_PARALLELLOOPSTOGPUPASS
#include "tcc/Conversion/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

struct ParallelLoopsToGPUPass
    : tcc::impl::ParallelLoopsToGPUPassBase<ParallelLoopsToGPUPass> {
  using Base::Base;

  LogicalResult convert(scf::ParallelOp loop) {
    if (loop.getNumReductions() != 0)
      return loop.emitError("a parallel loop with reductions cannot become "
                            "a GPU kernel yet");
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    auto cst = [&](int64_t v) {
      return arith::ConstantIndexOp::create(b, loc, v).getResult();
    };
    Value one = cst(1), zero = cst(0);
    // Trip counts per dim, and their product.
    SmallVector<Value> counts;
    Value total = one;
    for (auto [lb, ub, step] :
         llvm::zip(loop.getLowerBound(), loop.getUpperBound(),
                   loop.getStep())) {
      Value span = arith::SubIOp::create(b, loc, ub, lb);
      Value count = arith::CeilDivSIOp::create(b, loc, span, step);
      count = arith::MaxSIOp::create(b, loc, count, zero);
      counts.push_back(count);
      total = arith::MulIOp::create(b, loc, total, count);
    }
    Value threads = cst(blockSize);
    // At least one block (a grid of 0 is an error): with nothing to do its
    // threads all fail the bounds check. No branch around the launch, so
    // gpu-async-region can chain it with its neighbours.
    Value blocks = arith::MaxSIOp::create(
        b, loc, arith::CeilDivSIOp::create(b, loc, total, threads), one);
    auto launch = gpu::LaunchOp::create(b, loc, blocks, one, one, threads,
                                        one, one);
    b.setInsertionPointToStart(&launch.getBody().front());
    Value linear = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, launch.getBlockIds().x, threads),
        launch.getThreadIds().x);
    Value inside =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, linear, total);
    auto body = scf::IfOp::create(b, loc, inside, /*withElse=*/false);
    gpu::TerminatorOp::create(b, loc);
    b.setInsertionPointToStart(&body.getThenRegion().front());
    // Row-major delinearization: the innermost dim varies fastest.
    IRMapping map;
    Value rest = linear;
    int64_t rank = counts.size();
    SmallVector<Value> ivs(rank);
    for (int64_t d = rank - 1; d >= 0; --d) {
      Value idx =
          d == 0 ? rest : arith::RemSIOp::create(b, loc, rest, counts[d]);
      if (d > 0)
        rest = arith::DivSIOp::create(b, loc, rest, counts[d]);
      ivs[d] = arith::AddIOp::create(
          b, loc, loop.getLowerBound()[d],
          arith::MulIOp::create(b, loc, idx, loop.getStep()[d]));
    }
    for (auto [iv, v] : llvm::zip(loop.getInductionVars(), ivs))
      map.map(iv, v);
    for (Operation &op : loop.getBody()->without_terminator())
      b.clone(op, map);
    loop.erase();
    return success();
  }

  void runOnOperation() override {
    SmallVector<scf::ParallelOp> outermost;
    getOperation().walk([&](scf::ParallelOp loop) {
      if (!loop->getParentOfType<scf::ParallelOp>() &&
          !loop->getParentOfType<gpu::LaunchOp>())
        outermost.push_back(loop);
    });
    for (scf::ParallelOp loop : outermost)
      if (failed(convert(loop)))
        return signalPassFailure();
  }
};

} // namespace
