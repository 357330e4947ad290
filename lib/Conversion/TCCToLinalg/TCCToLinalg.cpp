//===- TCCToLinalg.cpp - the convert-tcc-to-linalg pass ---------*- C++ -*-===//
#include "tcc/Conversion/TCCToLinalg/TCCToLinalg.h"
#include "tcc/Conversion/Passes.h"
#include "tcc/Dialect/Fusion/IR/FusionOps.h"
#include "tcc/Dialect/TCC/IR/TCCOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_CONVERTTCCTOLINALGPASS
#include "tcc/Conversion/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

void mlir::tcc::populateTCCToLinalgPatterns(RewritePatternSet &patterns) {
  populateTCCElementwiseToLinalgPatterns(patterns);
  populateTCCReductionToLinalgPatterns(patterns);
  populateTCCLinearToLinalgPatterns(patterns);
  populateTCCDataMovementToLinalgPatterns(patterns);
  populateTCCDataDependentToLinalgPatterns(patterns);
  populateTCCScanToLinalgPatterns(patterns);
  populateTCCScatterToLinalgPatterns(patterns);
  populateTCCSamplingToLinalgPatterns(patterns);
  populateTCCSortToLinalgPatterns(patterns);
}

namespace {
struct ConvertTCCToLinalgPass
    : tcc::impl::ConvertTCCToLinalgPassBase<ConvertTCCToLinalgPass> {
  using Base::Base;
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    if (hasUnsignedTypes(getOperation()) &&
        failed(convertUnsignedToSignless(getOperation())))
      return signalPassFailure();
    ConversionTarget target(*ctx);
    target.addIllegalDialect<TCCDialect>();
    target.addLegalDialect<linalg::LinalgDialect, tensor::TensorDialect,
                           arith::ArithDialect, math::MathDialect,
                           cf::ControlFlowDialect, fusion::FusionDialect,
                           func::FuncDialect, scf::SCFDialect,
                           bufferization::BufferizationDialect>();
    RewritePatternSet patterns(ctx);
    populateTCCToLinalgPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
    // linalg and arith take signless integers only.
    if (hasUnsignedTypes(getOperation())) {
      getOperation().emitError("an unsigned type is left after lowering");
      signalPassFailure();
    }
  }
};
} // namespace
