//===- MathApproximations.cpp - cheaper f32 math polynomials ----*- C++ -*-===//
//
// See include/tcc/Conversion/FusionToLoops/MathApproximations.h.
//
//===----------------------------------------------------------------------===//

#include "tcc/Conversion/FusionToLoops/MathApproximations.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

#include <limits>

using namespace mlir;

namespace {

/// `attr` as a constant of `type`: the scalar, or its splat when `type` is
/// a vector.
Value splatOf(OpBuilder &b, Location loc, Type type, TypedAttr attr) {
  if (auto vec = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc, vec,
                                     DenseElementsAttr::get(vec, attr));
  return arith::ConstantOp::create(b, loc, attr);
}

/// A splat f32 constant of `type` (f32 or a vector of f32).
Value splat(OpBuilder &b, Location loc, Type type, float value) {
  return splatOf(b, loc, type, b.getF32FloatAttr(value));
}

/// clamp(x, lo, hi) as compare + select with unordered predicates, so a NaN
/// passes through (x86 lowers each pair to one vmaxps / vminps).
Value clampKeepingNaN(OpBuilder &b, Location loc, Value x, Value lo,
                      Value hi) {
  Value aboveLo =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UGE, x, lo);
  x = arith::SelectOp::create(b, loc, aboveLo, x, lo);
  Value belowHi =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ULE, x, hi);
  return arith::SelectOp::create(b, loc, belowHi, x, hi);
}

/// Horner's scheme, highest coefficient first.
Value horner(OpBuilder &b, Location loc, Value x, ArrayRef<float> coeffs) {
  Type type = x.getType();
  Value acc = splat(b, loc, type, coeffs.front());
  for (float c : coeffs.drop_front())
    acc = math::FmaOp::create(b, loc, acc, x, splat(b, loc, type, c));
  return acc;
}

/// exp's argument reduction: n = round(x / ln 2) by the 1.5 * 2^23
/// magic-number add (t keeps n in its low mantissa bits), and
/// r = x - n * ln 2 in two steps (Cody-Waite: ln 2 = hi + lo), so that
/// |r| <= ln 2 / 2.
struct ExpReduction {
  Value t, n, r;
};
ExpReduction reduceExpArgument(OpBuilder &b, Location loc, Value x) {
  Type type = x.getType();
  const float magic = 12582912.0f; // 1.5 * 2^23
  Value t = math::FmaOp::create(b, loc, x, splat(b, loc, type, 1.44269504f),
                                splat(b, loc, type, magic));
  Value n = arith::SubFOp::create(b, loc, t, splat(b, loc, type, magic));
  Value r = math::FmaOp::create(b, loc, n,
                                splat(b, loc, type, -0.693359375f), x);
  r = math::FmaOp::create(b, loc, n, splat(b, loc, type, 2.12194440e-4f), r);
  return {t, n, r};
}

/// When erf's operand is c * x for a positive constant c and that product
/// has no other use (GELU's erf(x / sqrt(2))): c, with `x` set to x.
/// Otherwise 1, with `x` left as erf's operand.
double erfArgumentScale(math::ErfOp op, Value &x) {
  auto mul = op.getOperand().getDefiningOp<arith::MulFOp>();
  if (!mul || !mul->hasOneUse())
    return 1.0;
  for (int side = 0; side < 2; ++side) {
    APFloat c(APFloat::Bogus());
    if (matchPattern(mul->getOperand(side), m_ConstantFloat(&c)) &&
        c.isFiniteNonZero() && !c.isNegative()) {
      x = mul->getOperand(1 - side);
      return c.convertToDouble();
    }
  }
  return 1.0;
}

struct ErfAsRational : OpRewritePattern<math::ErfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::ErfOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return failure();
    Location loc = op.getLoc();
    // erf(c * x) for a constant c > 0 takes c into the coefficients
    // (coefficient k of a polynomial in x^2 times c^(2k), the numerator's
    // once more), so the product is never formed: one multiply fewer per
    // vector in GELU.
    Value operand = op.getOperand();
    double c = erfArgumentScale(op, operand);
    // |c x| >= 4 gives erf = +-1 in f32.
    float bound = static_cast<float>(4.0 / c);
    Value x = clampKeepingNaN(rewriter, loc, operand,
                              splat(rewriter, loc, type, -bound),
                              splat(rewriter, loc, type, bound));
    Value x2 = arith::MulFOp::create(rewriter, loc, x, x);
    // Highest power of x^2 first.
    static constexpr double kNumerator[] = {
        -2.72614225801306e-10, 2.77068142495902e-08, -2.10102402082508e-06,
        -5.69250639462346e-05, -7.34990630326855e-04, -2.95459980854025e-03,
        -1.60960333262415e-02};
    static constexpr double kDenominator[] = {
        -1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03,
        -7.37332916720468e-03, -1.42647390514189e-02};
    auto scaled = [&](ArrayRef<double> coeffs, double factor) {
      SmallVector<float> result(coeffs.size());
      double power = factor; // c^(2k) for the lowest power k = 0
      for (size_t i = coeffs.size(); i-- > 0; power *= c * c)
        result[i] = static_cast<float>(coeffs[i] * power);
      return result;
    };
    Value p = arith::MulFOp::create(
        rewriter, loc, x, horner(rewriter, loc, x2, scaled(kNumerator, c)));
    Value q = horner(rewriter, loc, x2, scaled(kDenominator, 1.0));
    // A true division, not a reciprocal estimate refined once (arcp:
    // vrcp14ps, two FMAs and a multiply). The polynomials keep the FMA
    // units busy; vdivps runs in the divider beside them. bias+GELU
    // [16384, 4096] is 8 % faster this way, 8-11 % in cache.
    Value r = arith::DivFOp::create(rewriter, loc, p, q);
    // Near |x| = 4 the quotient overshoots 1 by up to 3.6e-7.
    rewriter.replaceOp(op, clampKeepingNaN(rewriter, loc, r,
                                           splat(rewriter, loc, type, -1.0f),
                                           splat(rewriter, loc, type, 1.0f)));
    return success();
  }
};

/// exp(x) = 2^n * e^r with n = round(x / ln 2), |r| <= ln 2 / 2. The
/// rounding is the 1.5 * 2^23 magic-number add, whose low mantissa bits
/// then hold n, so 2^(n-1) is an integer add and a shift of those bits;
/// the polynomial approximates 2 * e^r (degree 5, relative error below
/// 1.7e-7 on the range) so that n = 128 (x up to ln FLT_MAX) still
/// has an exponent field. Beyond ln FLT_MAX the result is +inf, below
/// ln FLT_MIN it is 0 (results under about 1.7e-38 flush to zero); NaN
/// stays NaN.
struct ExpAsScaledPolynomial : OpRewritePattern<math::ExpOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return failure();
    Location loc = op.getLoc();
    Value x = op.getOperand();
    Type intType = rewriter.getI32Type();
    if (auto vec = dyn_cast<VectorType>(type))
      intType = vec.clone(rewriter.getI32Type());
    auto intSplat = [&](int32_t v) {
      return splatOf(rewriter, loc, intType, rewriter.getI32IntegerAttr(v));
    };
    auto [t, n, r] = reduceExpArgument(rewriter, loc, x);
    // 2 * e^r, highest power first: twice the degree-5 minimax polynomial
    // of XNNPACK's p5 exp (relative error below 1.7e-7 on the range, one
    // FMA fewer than Taylor to degree 6 at 2.3e-7).
    static constexpr float kTwiceMinimax[] = {
        2 * 0x1.0F9F9Cp-7f, 2 * 0x1.573A1Ap-5f, 2 * 0x1.555A80p-3f,
        2 * 0x1.FFFDC6p-2f, 2 * 0x1.FFFFF6p-1f, 2.0f};
    Value p = horner(rewriter, loc, r, kTwiceMinimax);
    // 2^(n-1): the low bits of t are n (two's complement), so
    // (bits(t) + 126) << 23 is the exponent field of 2^(n-1); the magic's
    // own bits shift out.
    Value bits = arith::BitcastOp::create(rewriter, loc, intType, t);
    Value field = arith::ShLIOp::create(
        rewriter, loc, arith::AddIOp::create(rewriter, loc, bits, intSplat(126)),
        intSplat(23));
    Value scale = arith::BitcastOp::create(rewriter, loc, type, field);
    Value result = arith::MulFOp::create(rewriter, loc, p, scale);
    // Out of range (and +-inf): the limits. NaN compares false: kept.
    Value over = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OGT, x,
        splat(rewriter, loc, type, 88.7228317f));
    result = arith::SelectOp::create(
        rewriter, loc, over,
        splat(rewriter, loc, type, std::numeric_limits<float>::infinity()),
        result);
    Value under = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OLT, x,
        splat(rewriter, loc, type, -87.3365479f));
    result = arith::SelectOp::create(rewriter, loc, under,
                                     splat(rewriter, loc, type, 0.0f), result);
    rewriter.replaceOp(op, result);
    return success();
  }
};


/// exp(x) = 2^n * e^r as above, with AVX-512's vscalefps doing the 2^n
/// scaling: it takes n as a float and saturates to +inf and 0 (subnormals
/// included) by itself, so neither the exponent-field arithmetic nor the
/// two limit selects are needed; x is clamped to [-104, 89] first (exp is
/// 0 and +inf beyond) so that r stays finite for +-inf. About 12 vector
/// instructions per 16 lanes instead of 16. Applies to vectors whose
/// element count is a multiple of 16 (one zmm each).
struct ExpWithScalef : OpRewritePattern<math::ExpOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<VectorType>(op.getType());
    if (!type || !type.getElementType().isF32() || type.isScalable() ||
        type.getNumElements() % 16 != 0)
      return failure();
    Location loc = op.getLoc();
    int64_t lanes = type.getNumElements();
    auto flat = VectorType::get({lanes}, rewriter.getF32Type());
    Value x = vector::ShapeCastOp::create(rewriter, loc, flat, op.getOperand());
    x = clampKeepingNaN(rewriter, loc, x, splat(rewriter, loc, flat, -104.0f),
                        splat(rewriter, loc, flat, 89.0f));
    auto [t, n, r] = reduceExpArgument(rewriter, loc, x);
    (void)t;
    // e^r: XNNPACK's p5 minimax polynomial (relative error below 1.7e-7).
    static constexpr float kMinimax[] = {0x1.0F9F9Cp-7f, 0x1.573A1Ap-5f,
                                         0x1.555A80p-3f, 0x1.FFFDC6p-2f,
                                         0x1.FFFFF6p-1f, 1.0f};
    Value p = horner(rewriter, loc, r, kMinimax);
    auto zmm = VectorType::get({16}, rewriter.getF32Type());
    Value allLanes = arith::ConstantOp::create(
        rewriter, loc, rewriter.getI16IntegerAttr(-1));
    Value currentRounding = arith::ConstantOp::create(
        rewriter, loc, rewriter.getI32IntegerAttr(4));
    Value result = splat(rewriter, loc, flat, 0.0f);
    for (int64_t i = 0; i < lanes; i += 16) {
      auto slice = [&](Value v) {
        return vector::ExtractStridedSliceOp::create(rewriter, loc, v, {i},
                                                     {16}, {1});
      };
      // The LLVM intrinsic itself, operands (a, b, passthrough, mask,
      // rounding): x86vector.avx512.mask.scalef hands its operands over in
      // its own (src, a, b) order.
      Value pi = slice(p);
      Value scaled =
          LLVM::CallIntrinsicOp::create(
              rewriter, loc, zmm,
              rewriter.getStringAttr("llvm.x86.avx512.mask.scalef.ps.512"),
              ValueRange{pi, slice(n), pi, allLanes, currentRounding})
              .getResult(0);
      result = vector::InsertStridedSliceOp::create(rewriter, loc, scaled,
                                                    result, {i}, {1});
    }
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(op, type, result);
    return success();
  }
};
} // namespace

void mlir::tcc::populateTCCMathApproximationPatterns(
    RewritePatternSet &patterns, bool avx512) {
  patterns.add<ErfAsRational, ExpAsScaledPolynomial>(patterns.getContext(),
                                                     /*benefit=*/2);
  if (avx512)
    patterns.add<ExpWithScalef>(patterns.getContext(), /*benefit=*/3);
}
