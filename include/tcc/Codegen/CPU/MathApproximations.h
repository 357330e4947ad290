//===- MathApproximations.h - cheaper f32 math polynomials ------*- C++ -*-===//
//
// Rewrites of f32 math ops into arith that are cheaper than MLIR's own
// polynomial approximations (populateMathPolynomialApproximationPatterns) at
// the same accuracy class. Added with a higher benefit, so they win where
// both apply; everything else still takes the upstream patterns.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_CONVERSION_FUSIONTOLOOPS_MATHAPPROXIMATIONS_H
#define TCC_CONVERSION_FUSIONTOLOOPS_MATHAPPROXIMATIONS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::tcc {

/// f32 (scalar or vector):
/// - math.erf as one rational function on [-4, 4]: x * P(x^2) / Q(x^2),
///   degrees 6 and 4 (the approximation of Eigen and XLA), with a true
///   division, clamped to [-1, 1]; erf(c x) with a constant c > 0 takes c
///   into the coefficients. Largest absolute error 4.4e-7 in f32.
/// - math.exp as 2^n * e^r: the rounding of x / ln 2 by the 1.5 * 2^23
///   magic number, 2^(n-1) from its bits, a degree-5 polynomial for
///   2 * e^r, two compares for the limits (+inf above ln FLT_MAX, 0 below
///   ln FLT_MIN: results under 1.7e-38 flush to zero). No floor, no clamps,
///   no float-to-int conversion; relative error below 2.3e-7.
/// With `avx512`, over whole zmm registers (a multiple of 16 lanes),
/// table-driven forms with AVX-512's permutes:
/// - math.erf: |x| in one of 16 intervals, a degree-5 polynomial per
///   interval whose coefficients are vpermps lookups, the sign put back;
///   no division, 9 FMA-unit instructions per zmm instead of 12, largest
///   absolute error 5.8e-8.
/// - math.exp: 2^(j/32) from a 32-entry vpermi2ps table, a degree-2
///   polynomial for e^r on |r| <= ln 2 / 64, and vscalefps for 2^floor(b)
///   (x clamped to [-104, 89]; subnormal results exact to rounding, not
///   flushed); 7 FMA-unit instructions per zmm, largest error 1.73 ulp.
/// NaN stays NaN in all of them.
void populateTCCMathApproximationPatterns(RewritePatternSet &patterns,
                                         bool avx512 = false);

} // namespace mlir::tcc

#endif // TCC_CONVERSION_FUSIONTOLOOPS_MATHAPPROXIMATIONS_H
