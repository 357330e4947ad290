//===- LowerFunctionLevelIfs.cpp - a function's own scf.ifs to cf ---------===//
//
// See the pass description (include/tcc/Conversion/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/CPU/Passes.h"

#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_LOWERFUNCTIONLEVELIFSPASS
#include "tcc/Codegen/CPU/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

struct LowerFunctionLevelIfsPass
    : tcc::impl::LowerFunctionLevelIfsPassBase<LowerFunctionLevelIfsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // Only the ifs whose parent is the function are illegal: the SCF-to-CF
    // patterns rewrite those and leave every other op alone.
    ConversionTarget target(getContext());
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    target.addDynamicallyLegalOp<scf::IfOp>(
        [](scf::IfOp op) { return !isa<func::FuncOp>(op->getParentOp()); });
    RewritePatternSet patterns(&getContext());
    populateSCFToControlFlowConversionPatterns(patterns);
    if (failed(applyPartialConversion(func, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
