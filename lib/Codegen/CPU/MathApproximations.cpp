//===- MathApproximations.cpp - cheaper f32 math polynomials ----*- C++ -*-===//
//
// See include/tcc/Codegen/CPU/MathApproximations.h.
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/CPU/MathApproximations.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>
#include <limits>
#include <optional>

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
/// has an exponent field. Beyond ln FLT_MAX the result is +inf; below
/// ln FLT_MIN it is subnormal (2^(n-1) applied as two normal factors),
/// 0 below ln 2^-150; NaN stays NaN.
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
    // 2^(n-1) as two factors 2^h * 2^g (h = (n-1) >> 1, g = n-1-h), each
    // a normal float for every n-1 in [-151, 127], so that results below
    // FLT_MIN come out as subnormals (rounded once, by the last multiply)
    // instead of flushing to zero. n is the low bits of t less the magic's
    // (exact: |n| < 2^22); (k + 127) << 23 is the exponent field of 2^k.
    Value bits = arith::BitcastOp::create(rewriter, loc, intType, t);
    Value e = arith::SubIOp::create(rewriter, loc, bits,
                                    intSplat(0x4B400000 + 1)); // bits(magic) + 1
    Value h = arith::ShRSIOp::create(rewriter, loc, e, intSplat(1));
    Value g = arith::SubIOp::create(rewriter, loc, e, h);
    auto pow2 = [&](Value k) -> Value {
      Value field = arith::ShLIOp::create(
          rewriter, loc, arith::AddIOp::create(rewriter, loc, k, intSplat(127)),
          intSplat(23));
      return arith::BitcastOp::create(rewriter, loc, type, field);
    };
    Value result = arith::MulFOp::create(
        rewriter, loc, arith::MulFOp::create(rewriter, loc, p, pow2(h)),
        pow2(g));
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
        splat(rewriter, loc, type, -103.972084f)); // ln 2^-150
    result = arith::SelectOp::create(rewriter, loc, under,
                                     splat(rewriter, loc, type, 0.0f), result);
    rewriter.replaceOp(op, result);
    return success();
  }
};


/// The zmm rewrites work on vector<N x 16 x f32>: one row per zmm register.
/// LLVM holds such a vector as an array of <16 x float>, so taking a row
/// out or putting one back is free (extractvalue / insertvalue), where
/// slices of one flat N*16-lane vector would be shufflevectors with masks
/// N*16 entries long: quadratic in N, 130 MB of IR for a [64, 100] group.

/// Row `i` (the i-th zmm) of `v`.
Value zmmSlice(OpBuilder &b, Location loc, Value v, int64_t i) {
  return vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{i});
}

/// The AVX-512 intrinsic `name` applied to each of `zmms` registers:
/// `operandsAt(i)` gives the operands for the i-th. The results are put
/// back together as vector<zmms x 16 x f32>.
template <typename OperandsAt>
Value perZmm(OpBuilder &b, Location loc, int64_t zmms, StringRef name,
             OperandsAt operandsAt) {
  auto zmm = VectorType::get({16}, b.getF32Type());
  Value result =
      splat(b, loc, VectorType::get({zmms, 16}, b.getF32Type()), 0.0f);
  for (int64_t i = 0; i < zmms; ++i) {
    SmallVector<Value> operands = operandsAt(i);
    Value slice = LLVM::CallIntrinsicOp::create(b, loc, zmm,
                                                b.getStringAttr(name), operands)
                      .getResult(0);
    result = vector::InsertOp::create(b, loc, slice, result,
                                      ArrayRef<int64_t>{i});
  }
  return result;
}

/// A `vector<16xf32>` constant holding `values` (at most 16; the rest 0).
Value zmmTable(OpBuilder &b, Location loc, ArrayRef<float> values) {
  SmallVector<float> padded(values);
  padded.resize(16, 0.0f);
  auto zmm = VectorType::get({16}, b.getF32Type());
  return arith::ConstantOp::create(
      b, loc, zmm, DenseElementsAttr::get(zmm, ArrayRef<float>(padded)));
}

/// An f32 vector type whose rows fill whole zmm registers (its innermost
/// dim a multiple of 16, so no register straddles two rows), and the
/// vector<zmms x 16> f32 and i32 types the zmm rewrites use.
struct ZmmShape {
  VectorType type, zmmRows, zmmRowsInt;
  int64_t zmms;
};

std::optional<ZmmShape> zmmShape(Type type) {
  auto vec = dyn_cast<VectorType>(type);
  if (!vec || !vec.getElementType().isF32() || vec.isScalable() ||
      vec.getRank() == 0 || vec.getShape().back() % 16 != 0)
    return std::nullopt;
  int64_t zmms = vec.getNumElements() / 16;
  MLIRContext *ctx = type.getContext();
  return ZmmShape{vec, VectorType::get({zmms, 16}, Float32Type::get(ctx)),
                  VectorType::get({zmms, 16}, IntegerType::get(ctx, 32)),
                  zmms};
}

/// erf on AVX-512 from a table: |x| falls into one of 16 intervals of
/// width w = 3.88 / 14.5 (interval k centred on k w; the last, from 3.88
/// where f32 erf is 1, the constant 1), found by the magic-number rounding
/// of |x| / w, whose low bits index the coefficients; erf there is a
/// degree-5 polynomial in u = |x| - k w (minimax per interval; the first
/// odd-leading, so erf(x) ~ 2x / sqrt(pi) keeps its relative accuracy
/// near 0). The six coefficients come from six vpermps, one 16-entry table
/// each; the sign of x is put back with one bitwise op. Against the
/// rational (12 FMA-unit instructions and a division): 9 FMA-unit
/// instructions, bias+GELU [256, 4096] on one thread 16.9 -> 13.4 cycles
/// per zmm, and the largest absolute error of erf 5.8e-8 instead of 4.4e-7
/// (f32 arithmetic included, every float checked). erf(c x) with a
/// constant c > 0 takes c into w and the coefficients. NaN stays NaN.
struct ErfWithTable : OpRewritePattern<math::ErfOp> {
  using OpRewritePattern::OpRewritePattern;

  static constexpr int kIntervals = 16, kDegree = 5;
  static constexpr float kWidth = 0x1.12021ep-2f; // 3.88 / 14.5
  // kCoefficients[j][k]: coefficient of u^j in interval k, minimax by
  // Lawson's iteration, rounded to f32: scripts/fit_math_tables.py prints
  // them (and exp's c1, c2 below).
  static constexpr float kCoefficients[kDegree + 1][kIntervals] = {
      {0x0.0p+0f, 0x1.2df62cp-2f, 0x1.1a0a34p-1f, 0x1.7ccb5p-1f,
       0x1.bd6326p-1f, 0x1.e20f92p-1f, 0x1.f42276p-1f, 0x1.fbddcp-1f,
       0x1.febcaep-1f, 0x1.ffa98ap-1f, 0x1.ffebcap-1f, 0x1.fffbep-1f,
       0x1.ffff44p-1f, 0x1.ffffe2p-1f, 0x1.fffffcp-1f, 0x1.0p+0f},
      {0x1.20dd74p+0f, 0x1.0ce79ep+0f, 0x1.b1d97p-1f, 0x1.2f49fp-1f,
       0x1.6f75eap-2f, 0x1.81cf0cp-3f, 0x1.5f06e2p-4f, 0x1.14c492p-5f,
       0x1.7a349ep-7f, 0x1.bfdd76p-9f, 0x1.cb97e6p-11f, 0x1.98b3fp-13f,
       0x1.3af4a4p-15f, 0x1.a4a87p-18f, 0x1.e6e002p-21f, 0x0.0p+0f},
      {0x1.734c9p-22f, -0x1.1fcffap-2f, -0x1.d05bdap-2f, -0x1.e6ee72p-2f,
       -0x1.894fcep-2f, -0x1.0218e2p-2f, -0x1.19cbc4p-3f, -0x1.0335f6p-4f,
       -0x1.94cdd8p-6f, -0x1.0da048p-7f, -0x1.33668cp-9f, -0x1.2ca7b6p-11f,
       -0x1.f9679ep-14f, -0x1.6d88e8p-16f, -0x1.c772dcp-19f, 0x0.0p+0f},
      {-0x1.812c28p-2f, -0x1.33305cp-2f, -0x1.ee3b96p-4f, 0x1.d326b2p-5f,
       0x1.3c5188p-3f, 0x1.4bcf94p-3f, 0x1.e639d2p-4f, 0x1.158fd8p-4f,
       0x1.0158aep-5f, 0x1.8b985cp-7f, 0x1.fe2136p-9f, 0x1.16002cp-10f,
       0x1.01689ap-12f, 0x1.966f4cp-15f, 0x1.1251c2p-17f, 0x0.0p+0f},
      {0x1.5f14e8p-12f, 0x1.0faaaep-3f, 0x1.74f244p-3f, 0x1.149a14p-3f,
       0x1.763bb4p-5f, -0x1.851468p-6f, -0x1.916c0ap-5f, -0x1.5a1eeap-5f,
       -0x1.a0dbd8p-6f, -0x1.854594p-7f, -0x1.25b5f2p-8f, -0x1.6dbc88p-10f,
       -0x1.7c8376p-12f, -0x1.4d7218p-14f, -0x1.eef914p-17f, 0x0.0p+0f},
      {0x1.c5a76cp-4f, 0x1.33b7acp-4f, -0x1.6b6f4p-9f, -0x1.eb2134p-5f,
       -0x1.0b81acp-4f, -0x1.235918p-5f, -0x1.0c4ae4p-8f, 0x1.7008f2p-7f,
       0x1.917244p-7f, 0x1.fbdce8p-8f, 0x1.d72758p-9f, 0x1.57ca2ap-10f,
       0x1.975656p-12f, 0x1.8eca06p-14f, 0x1.4624cp-16f, 0x0.0p+0f}};

  LogicalResult matchAndRewrite(math::ErfOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<ZmmShape> shape = zmmShape(op.getType());
    if (!shape)
      return failure();
    auto [type, rows, rowsInt, zmms] = *shape;
    Location loc = op.getLoc();
    Value operand = op.getOperand();
    double c = erfArgumentScale(op, operand);
    Value x = vector::ShapeCastOp::create(rewriter, loc, rows, operand);
    auto cst = [&](double v) {
      return splat(rewriter, loc, rows, static_cast<float>(v));
    };

    // |x| up to the centre of the constant interval (its index rounds to
    // kIntervals - 1); an unordered compare keeps a NaN.
    Value a = math::AbsFOp::create(rewriter, loc, x);
    Value limit = cst((kIntervals - 1) * double(kWidth) / c);
    Value below =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::ULE, a, limit);
    a = arith::SelectOp::create(rewriter, loc, below, a, limit);
    // k = round(|x| / w) in the low bits of t; u = |x| - k w.
    const float magic = 12582912.0f; // 1.5 * 2^23
    Value t = math::FmaOp::create(rewriter, loc, a, cst(c / kWidth),
                                  cst(magic));
    Value k = arith::SubFOp::create(rewriter, loc, t, cst(magic));
    Value u = math::FmaOp::create(rewriter, loc, k, cst(-kWidth / c), a);
    Value index = arith::BitcastOp::create(rewriter, loc, rowsInt, t);

    // vpermps takes the low 4 bits of each index lane: k.
    auto coefficient = [&](int j) {
      SmallVector<float> table(kIntervals);
      double scale = std::pow(c, j); // u is in units of x, not c x
      for (int i = 0; i < kIntervals; ++i)
        table[i] = static_cast<float>(kCoefficients[j][i] * scale);
      Value tableValue = zmmTable(rewriter, loc, table);
      return perZmm(rewriter, loc, zmms, "llvm.x86.avx512.permvar.sf.512",
                    [&](int64_t i) {
                      return SmallVector<Value>{
                          tableValue, zmmSlice(rewriter, loc, index, i)};
                    });
    };
    Value e = coefficient(kDegree);
    for (int j = kDegree - 1; j >= 0; --j)
      e = math::FmaOp::create(rewriter, loc, e, u, coefficient(j));

    // erf(-x) = -erf(x): x's sign bit into the (non-negative) result.
    auto intSplat = [&](int32_t v) {
      return splatOf(rewriter, loc, rowsInt, rewriter.getI32IntegerAttr(v));
    };
    Value sign = arith::AndIOp::create(
        rewriter, loc, arith::BitcastOp::create(rewriter, loc, rowsInt, x),
        intSplat(std::numeric_limits<int32_t>::min()));
    Value bits = arith::OrIOp::create(
        rewriter, loc, arith::BitcastOp::create(rewriter, loc, rowsInt, e),
        sign);
    Value result = arith::BitcastOp::create(rewriter, loc, rows, bits);
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(op, type, result);
    return success();
  }
};

/// exp(x) on AVX-512 with a 32-entry table: x clamped to [-104, 89] (exp
/// is 0 and +inf beyond; NaN kept), n = round(32 x / ln 2) by the
/// magic-number rounding, b = n / 32 and r = x - b ln 2 (Cody-Waite, two
/// FMAs; |r| <= ln 2 / 64), then
///   exp(x) = 2^floor(b) * 2^((n mod 32) / 32) * e^r,
/// the middle factor from a two-register vpermi2ps table indexed by the low
/// 5 bits of t, e^r as 1 + r (c1 + c2 r) (minimax, relative error 5.3e-8),
/// and the 2^floor(b) by vscalefps, which floors b itself and saturates to
/// +inf and 0 (subnormals included). 7 FMA-unit instructions per zmm
/// against 8 for a degree-5 polynomial; largest error 1.73 ulp instead of
/// 1.98 (all floats checked). Applies to vectors whose innermost dim is a
/// multiple of 16 (zmmShape).
struct ExpWithTable : OpRewritePattern<math::ExpOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<ZmmShape> shape = zmmShape(op.getType());
    if (!shape)
      return failure();
    auto [type, rows, rowsInt, zmms] = *shape;
    Location loc = op.getLoc();
    auto cst = [&](float v) { return splat(rewriter, loc, rows, v); };
    Value x = vector::ShapeCastOp::create(rewriter, loc, rows, op.getOperand());
    x = clampKeepingNaN(rewriter, loc, x, cst(-104.0f), cst(89.0f));

    const float magic = 12582912.0f; // 1.5 * 2^23
    Value t = math::FmaOp::create(rewriter, loc, x, cst(46.1662413f), // 32/ln 2
                                  cst(magic));
    // (t - magic) / 32 in one rounding, which is exact.
    Value scaledN =
        math::FmaOp::create(rewriter, loc, t, cst(0.03125f), cst(-magic / 32));
    Value r = math::FmaOp::create(rewriter, loc, scaledN, cst(-0.693359375f), x);
    r = math::FmaOp::create(rewriter, loc, scaledN, cst(2.12194440e-4f), r);

    // 2^(j/32), j = 0..31, in two 16-entry halves.
    SmallVector<float> low(16), high(16);
    for (int j = 0; j < 16; ++j) {
      low[j] = static_cast<float>(std::exp2(j / 32.0));
      high[j] = static_cast<float>(std::exp2((j + 16) / 32.0));
    }
    Value lowTable = zmmTable(rewriter, loc, low);
    Value highTable = zmmTable(rewriter, loc, high);
    Value index = arith::BitcastOp::create(rewriter, loc, rowsInt, t);
    Value fraction =
        perZmm(rewriter, loc, zmms, "llvm.x86.avx512.vpermi2var.ps.512",
               [&](int64_t i) {
                 return SmallVector<Value>{
                     lowTable, zmmSlice(rewriter, loc, index, i), highTable};
               });

    // e^r - 1 = r (c1 + c2 r); fraction * e^r in one FMA.
    Value q = math::FmaOp::create(rewriter, loc, cst(0x1.fffffep-2f), r,
                                  cst(0x1.0000f6p+0f));
    q = arith::MulFOp::create(rewriter, loc, q, r);
    Value y = math::FmaOp::create(rewriter, loc, fraction, q, fraction);

    // The LLVM intrinsic itself, operands (a, b, passthrough, mask,
    // rounding): x86vector.avx512.mask.scalef hands its operands over in
    // its own (src, a, b) order.
    Value allLanes = arith::ConstantOp::create(
        rewriter, loc, rewriter.getI16IntegerAttr(-1));
    Value currentRounding = arith::ConstantOp::create(
        rewriter, loc, rewriter.getI32IntegerAttr(4));
    Value result = perZmm(
        rewriter, loc, zmms, "llvm.x86.avx512.mask.scalef.ps.512",
        [&](int64_t i) {
          Value yi = zmmSlice(rewriter, loc, y, i);
          return SmallVector<Value>{yi, zmmSlice(rewriter, loc, scaledN, i), yi,
                                    allLanes, currentRounding};
        });
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
    patterns.add<ErfWithTable, ExpWithTable>(patterns.getContext(),
                                             /*benefit=*/3);
}
