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

/// math.erf on f32 (scalar or vector) as one rational function on [-4, 4]:
/// x * P(x^2) / Q(x^2), degrees 6 and 4 (the approximation of Eigen and
/// XLA), clamped to [-1, 1]. About 16 vector instructions and one division
/// per vector, where MLIR's piecewise approximation takes about 50 and one
/// division; largest absolute error 3.7e-7 (3 ulp near 1). NaN stays NaN.
void populateTCCMathApproximationPatterns(RewritePatternSet &patterns);

} // namespace mlir::tcc

#endif // TCC_CONVERSION_FUSIONTOLOOPS_MATHAPPROXIMATIONS_H
