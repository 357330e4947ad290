//===- ParallelizeTileLoops.cpp - tile loops across cores -------*- C++ -*-===//
//
// A marked tile loop writes disjoint tiles of its group's result and reads
// only values defined before it, so its iterations are independent. After
// bufferization such a loop carries no values; it becomes scf.parallel, which
// the pipeline lowers to OpenMP (one thread per core).
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/CPU/Passes.h"

#include "mlir/IR/IRMapping.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_PARALLELIZETILELOOPSPASS
#include "tcc/Codegen/CPU/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {
struct ParallelizeTileLoopsPass
    : tcc::impl::ParallelizeTileLoopsPassBase<ParallelizeTileLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    // Outermost marked loop first, until none is left: a band of marked
    // loops perfectly nested in it becomes one scf.parallel (the dims
    // collapse into one OpenMP loop), and marks inside it are dropped (one
    // level of parallelism).
    while (true) {
      scf::ForOp forOp;
      getOperation().walk<WalkOrder::PreOrder>([&](scf::ForOp op) {
        if (!op->hasAttr(tcc::kParallelLoopAttr))
          return WalkResult::advance();
        forOp = op;
        return WalkResult::interrupt();
      });
      if (!forOp)
        return;
      forOp->removeAttr(tcc::kParallelLoopAttr);
      if (forOp.getNumResults() != 0)
        continue; // Still carries values (not bufferized in place): serial.
      SmallVector<scf::ForOp> band = {forOp};
      while (true) {
        Block *body = band.back().getBody();
        auto inner = dyn_cast<scf::ForOp>(&body->front());
        if (!inner || body->getOperations().size() != 2 ||
            !inner->hasAttr(tcc::kParallelLoopAttr) ||
            inner.getNumResults() != 0 ||
            !llvm::all_of(ValueRange{inner.getLowerBound(),
                                     inner.getUpperBound(), inner.getStep()},
                          [&](Value v) {
                            return v.getParentRegion()->isProperAncestor(
                                &forOp.getRegion());
                          }))
          break;
        band.push_back(inner);
      }
      SmallVector<Value> lbs, ubs, steps;
      for (scf::ForOp loop : band) {
        lbs.push_back(loop.getLowerBound());
        ubs.push_back(loop.getUpperBound());
        steps.push_back(loop.getStep());
      }
      OpBuilder b(forOp);
      auto parallel =
          scf::ParallelOp::create(b, forOp.getLoc(), lbs, ubs, steps);
      IRMapping mapping;
      for (auto [loop, iv] : llvm::zip(band, parallel.getInductionVars()))
        mapping.map(loop.getInductionVar(), iv);
      b.setInsertionPointToStart(parallel.getBody());
      for (Operation &op : band.back().getBody()->without_terminator())
        b.clone(op, mapping);
      forOp.erase();
      parallel.walk([](scf::ForOp inner) {
        inner->removeAttr(tcc::kParallelLoopAttr);
      });
    }
  }
};
} // namespace
