//===- LowerVectors.cpp - vector ops down to AVX-512 shapes -----*- C++ -*-===//
#include "tcc/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_LOWERVECTORSPASS
#include "tcc/Conversion/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {
struct LowerVectorsPass
    : tcc::impl::LowerVectorsPassBase<LowerVectorsPass> {
  using Base::Base;
  void runOnOperation() override {
    // Tile loops may run zero times: only hoist when the trip count is
    // provably non-zero.
    linalg::hoistRedundantVectorTransfers(getOperation(),
                                          /*verifyNonZeroTrip=*/true);
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    // f32 exp/log/tanh/erf/... as polynomials: pure arith, so they stay
    // vectorized instead of becoming one libm call per lane.
    populateMathPolynomialApproximationPatterns(patterns);
    vector::populateVectorReductionToContractPatterns(patterns);
    vector::populateVectorContractLoweringPatterns(
        patterns, vector::VectorContractLowering::OuterProduct);
    vector::populateVectorOuterProductLoweringPatterns(patterns);
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerReduction);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorBroadcastLoweringPatterns(patterns);
    vector::populateVectorShapeCastLoweringPatterns(patterns);
    vector::populateVectorTransposeLoweringPatterns(
        patterns, vector::VectorTransposeLowering::Shuffle16x16);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
