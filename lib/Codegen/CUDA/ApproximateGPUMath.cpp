//===- ApproximateGPUMath.cpp - GELU's 1 + erf on the GPU's MUFU ----------===//
//
// See the pass description (include/tcc/Conversion/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/CUDA/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_APPROXIMATEGPUMATHPASS
#include "tcc/Codegen/CUDA/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

Value f32Constant(PatternRewriter &rewriter, Location loc, float v) {
  return arith::ConstantOp::create(rewriter, loc, rewriter.getF32Type(),
                                   rewriter.getF32FloatAttr(v));
}

/// s erfc(b a) for f32 a >= 0, from A&S 7.1.26: s t P(t) e^(-(b a)^2)
/// with t = 1 / (1 + p b a), the scales folded into the constants (the
/// polynomial's by s, the reciprocal's by b, exp2's by b^2 log2 e).
Value scaledErfc(PatternRewriter &rewriter, Location loc, Value a, float b,
                 float s) {
  Type f32 = rewriter.getF32Type();
  auto constant = [&](float v) { return f32Constant(rewriter, loc, v); };
  Value d = math::FmaOp::create(rewriter, loc, a, constant(0.3275911f * b),
                                constant(1.0f));
  Value t = NVVM::RcpApproxFtzF32Op::create(rewriter, loc, f32, d);
  // P(t) = t (a1 + t (a2 + t (a3 + t (a4 + t a5))))
  Value p = constant(1.061405429f * s);
  for (float c : {-1.453152027f, 1.421413741f, -0.284496736f, 0.254829592f})
    p = math::FmaOp::create(rewriter, loc, p, t, constant(c * s));
  p = arith::MulFOp::create(rewriter, loc, p, t);
  // e^(-(b a)^2) = 2^(-b^2 log2(e) a^2)
  Value scaled =
      arith::MulFOp::create(rewriter, loc, a, constant(-1.44269504f * b * b));
  Value power = arith::MulFOp::create(rewriter, loc, scaled, a);
  Value e = math::Exp2Op::create(rewriter, loc, power);
  return arith::MulFOp::create(rewriter, loc, p, e);
}

/// 1 + erf(x) for f32 x: y = erfc(|x|), then 2 - y or y by x's sign.
Value onePlusErf(PatternRewriter &rewriter, Location loc, Value x) {
  auto constant = [&](float v) { return f32Constant(rewriter, loc, v); };
  Value ax = math::AbsFOp::create(rewriter, loc, x);
  Value y = scaledErfc(rewriter, loc, ax, 1.0f, 1.0f);
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

/// `x * c` (either order) with a constant f32 c: (x, c).
std::optional<std::pair<Value, float>> scaledBy(Value v) {
  auto mul = v.getDefiningOp<arith::MulFOp>();
  if (!mul || !mul.getType().isF32())
    return std::nullopt;
  for (auto [x, c] : {std::pair(mul.getLhs(), mul.getRhs()),
                      std::pair(mul.getRhs(), mul.getLhs())}) {
    FloatAttr attr;
    if (matchPattern(c, m_Constant(&attr)))
      return std::pair(x, static_cast<float>(attr.getValueAsDouble()));
  }
  return std::nullopt;
}

/// GELU y = x * a * (1 + erf(b x)) from `c`'s 0.5 x b: `y = x - x q` for
/// x >= 0 (1 + erf(u) = 2 - erfc(u)) and `x q` below (1 + erf(-u) =
/// erfc(u)), q = a erfc(b |x|) with the scales folded into the constants
/// (2a x - x q as an fma when 2a != 1). About 15 instructions instead of
/// the 19 of h (1 + erf(z)).
Value wholeGelu(PatternRewriter &rewriter, Location loc, Value x, float a,
                float b) {
  auto constant = [&](float v) { return f32Constant(rewriter, loc, v); };
  Value ax = math::AbsFOp::create(rewriter, loc, x);
  Value q = scaledErfc(rewriter, loc, ax, b, a);
  Value xq = arith::MulFOp::create(rewriter, loc, x, q);
  Value nonNegative = arith::CmpFOp::create(
      rewriter, loc, arith::CmpFPredicate::OGE, x, constant(0.0f));
  Value upper =
      2.0f * a == 1.0f
          ? arith::SubFOp::create(rewriter, loc, x, xq).getResult()
          : math::FmaOp::create(rewriter, loc, x, constant(2.0f * a),
                                arith::NegFOp::create(rewriter, loc, xq))
                .getResult();
  return arith::SelectOp::create(rewriter, loc, nonNegative, upper, xq);
}

/// `fma(h, erf(z), h)` = h (1 + erf(z)): GELU once canonicalization has
/// distributed 0.5 x over the sum. When h = a x and z = b x (b > 0) of the
/// same x (F.gelu: a = 1/2, b = 1/sqrt 2), GELU as a whole (wholeGelu):
/// neither product is computed. Otherwise h times onePlusErf.
struct ScaledOnePlusErf : OpRewritePattern<math::FmaOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::FmaOp fma,
                                PatternRewriter &rewriter) const override {
    for (auto [h, z] : {std::pair(fma.getA(), fma.getB()),
                        std::pair(fma.getB(), fma.getA())}) {
      math::ErfOp erf = erfOnlyFor(z, fma);
      if (!erf || h != fma.getC())
        continue;
      Location loc = fma.getLoc();
      auto half = scaledBy(h), inner = scaledBy(erf.getOperand());
      if (half && inner && half->first == inner->first &&
          inner->second > 0.0f)
        rewriter.replaceOp(fma, wholeGelu(rewriter, loc, half->first,
                                          half->second, inner->second));
      else
        rewriter.replaceOpWithNewOp<arith::MulFOp>(
            fma, h, onePlusErf(rewriter, loc, erf.getOperand()));
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
