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
///   degrees 6 and 4 (the approximation of Eigen and XLA), clamped to
///   [-1, 1]. About 16 vector instructions and a refined reciprocal per
///   vector, where MLIR's piecewise approximation takes about 50 and a
///   division; largest absolute error 3.7e-7 (3 ulp near 1).
/// - math.exp as 2^n * e^r: the rounding of x / ln 2 by the 1.5 * 2^23
///   magic number, 2^(n-1) from its bits, a degree-6 polynomial for
///   2 * e^r, two compares for the limits (+inf above ln FLT_MAX, 0 below
///   ln FLT_MIN: results under 1.7e-38 flush to zero). No floor, no clamps,
///   no float-to-int conversion; relative error below 2.3e-7.
/// - with `avx512`, math.exp over whole zmm registers (a multiple of 16
///   lanes) scales by 2^n with vscalefps instead: x clamped to [-104, 89],
///   the same reduction, a degree-5 polynomial for e^r; subnormal results
///   are exact to rounding instead of flushed. About 12 instructions per
///   zmm instead of 16.
/// NaN stays NaN in all of them.
void populateTCCMathApproximationPatterns(RewritePatternSet &patterns,
                                         bool avx512 = false);

} // namespace mlir::tcc

#endif // TCC_CONVERSION_FUSIONTOLOOPS_MATHAPPROXIMATIONS_H
