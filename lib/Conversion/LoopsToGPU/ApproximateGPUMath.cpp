//===- ApproximateGPUMath.cpp - GELU's 1 + erf on the GPU's MUFU ----------===//
//
// See the pass description (include/tcc/Conversion/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tcc/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_APPROXIMATEGPUMATHPASS
#include "tcc/Conversion/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

/// 1 + erf(x) for f32 x: y = erfc(|x|) from A&S 7.1.26, then 2 - y or y.
Value onePlusErf(PatternRewriter &rewriter, Location loc, Value x) {
  Type f32 = rewriter.getF32Type();
  auto constant = [&](float v) -> Value {
    return arith::ConstantOp::create(rewriter, loc, f32,
                                     rewriter.getF32FloatAttr(v));
  };
  Value ax = math::AbsFOp::create(rewriter, loc, x);
  // t = 1 / (1 + p |x|)
  Value d = math::FmaOp::create(rewriter, loc, ax, constant(0.3275911f),
                                constant(1.0f));
  Value t = NVVM::RcpApproxFtzF32Op::create(rewriter, loc, f32, d);
  // P(t) = t (a1 + t (a2 + t (a3 + t (a4 + t a5))))
  Value p = constant(1.061405429f);
  for (float a : {-1.453152027f, 1.421413741f, -0.284496736f, 0.254829592f})
    p = math::FmaOp::create(rewriter, loc, p, t, constant(a));
  p = arith::MulFOp::create(rewriter, loc, p, t);
  // e^(-x^2) = 2^(-x^2 log2 e)
  Value scaled =
      arith::MulFOp::create(rewriter, loc, ax, constant(-1.44269504f));
  Value power = arith::MulFOp::create(rewriter, loc, scaled, ax);
  Value e = math::Exp2Op::create(rewriter, loc, power);
  Value y = arith::MulFOp::create(rewriter, loc, p, e); // erfc(|x|)
  Value twoMinus = arith::SubFOp::create(rewriter, loc, constant(2.0f), y);
  Value nonNegative = arith::CmpFOp::create(
      rewriter, loc, arith::CmpFPredicate::OGE, x, constant(0.0f));
  return arith::SelectOp::create(rewriter, loc, nonNegative, twoMinus, y);
}

/// An f32 erf with `user` as its only use.
math::ErfOp erfOnlyFor(Value v, Operation *user) {
  auto erf = v.getDefiningOp<math::ErfOp>();
  if (!erf || !erf.getType().isF32() || !erf->hasOneUse() ||
      *erf->getUsers().begin() != user)
    return nullptr;
  return erf;
}

/// `1 + erf(x)`, either order.
struct OnePlusErf : OpRewritePattern<arith::AddFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::AddFOp add,
                                PatternRewriter &rewriter) const override {
    for (auto [a, b] : {std::pair(add.getLhs(), add.getRhs()),
                        std::pair(add.getRhs(), add.getLhs())}) {
      math::ErfOp erf = erfOnlyFor(a, add);
      if (!erf || !matchPattern(b, m_OneFloat()))
        continue;
      rewriter.replaceOp(add,
                         onePlusErf(rewriter, add.getLoc(), erf.getOperand()));
      rewriter.eraseOp(erf);
      return success();
    }
    return failure();
  }
};

/// `fma(h, erf(x), h)` = h (1 + erf(x)): GELU once canonicalization has
/// distributed 0.5 x over the sum.
struct ScaledOnePlusErf : OpRewritePattern<math::FmaOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::FmaOp fma,
                                PatternRewriter &rewriter) const override {
    for (auto [a, b] : {std::pair(fma.getA(), fma.getB()),
                        std::pair(fma.getB(), fma.getA())}) {
      math::ErfOp erf = erfOnlyFor(b, fma);
      if (!erf || a != fma.getC())
        continue;
      Location loc = fma.getLoc();
      Value sum = onePlusErf(rewriter, loc, erf.getOperand());
      rewriter.replaceOpWithNewOp<arith::MulFOp>(fma, a, sum);
      rewriter.eraseOp(erf);
      return success();
    }
    return failure();
  }
};

struct ApproximateGPUMathPass
    : tcc::impl::ApproximateGPUMathPassBase<ApproximateGPUMathPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<OnePlusErf, ScaledOnePlusErf>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
