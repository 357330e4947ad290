//===- ParallelizeTileLoops.cpp - tile loops across cores -------*- C++ -*-===//
//
// A marked tile loop writes disjoint tiles of its group's result and reads
// only values defined before it, so its iterations are independent. After
// bufferization such a loop carries no values; it becomes scf.parallel, which
// the pipeline lowers to OpenMP (one thread per core).
//
//===----------------------------------------------------------------------===//

#include "tcc/Conversion/Passes.h"

#include "mlir/IR/IRMapping.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_PARALLELIZETILELOOPSPASS
#include "tcc/Conversion/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {
struct ParallelizeTileLoopsPass
    : tcc::impl::ParallelizeTileLoopsPassBase<ParallelizeTileLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<scf::ForOp> marked;
    getOperation().walk([&](scf::ForOp forOp) {
      if (forOp->hasAttr(tcc::kParallelLoopAttr))
        marked.push_back(forOp);
    });
    for (scf::ForOp forOp : marked) {
      forOp->removeAttr(tcc::kParallelLoopAttr);
      if (forOp.getNumResults() != 0)
        continue; // Still carries values (not bufferized in place): serial.
      OpBuilder b(forOp);
      auto parallel = scf::ParallelOp::create(
          b, forOp.getLoc(), ValueRange{forOp.getLowerBound()},
          ValueRange{forOp.getUpperBound()}, ValueRange{forOp.getStep()});
      Block *body = parallel.getBody();
      IRMapping mapping;
      mapping.map(forOp.getInductionVar(), parallel.getInductionVars()[0]);
      b.setInsertionPointToStart(body);
      for (Operation &op : forOp.getBody()->without_terminator())
        b.clone(op, mapping);
      forOp.erase();
    }
  }
};
} // namespace
