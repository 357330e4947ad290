//===- SerialLinalgToKernels.cpp - linalg without parallel dims on the GPU ===//
//
// See the pass description (include/tcc/Conversion/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/CUDA/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_SERIALLINALGTOKERNELSPASS
#include "tcc/Codegen/CUDA/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

/// Whether `op` is a linalg op on buffers, in host code, with no parallel
/// loop for tcc-parallel-loops-to-gpu to spread over threads.
bool isSerialOnHost(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() ||
      op->getParentOfType<scf::ParallelOp>() ||
      op->getParentOfType<gpu::LaunchOp>())
    return false;
  return op.getNumParallelLoops() == 0;
}

struct SerialLinalgToKernelsPass
    : tcc::impl::SerialLinalgToKernelsPassBase<SerialLinalgToKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> serial;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isSerialOnHost(op))
        serial.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : serial) {
      Location loc = op.getLoc();
      rewriter.setInsertionPoint(op);
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      auto loop = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                          ValueRange{one}, ValueRange{one});
      loop->setAttr(tcc::kKernelKindAttr, rewriter.getStringAttr("serial"));
      op->moveBefore(loop.getBody()->getTerminator());
    }
  }
};

} // namespace
