//===- RecognizeComposites.h - Hand-written compositions -------*- C++ -*-===//
//
// The patterns of --tcc-recognize-composites are public so that other passes
// (fusion first of all) can run them together with their own patterns.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_TRANSFORMS_RECOGNIZECOMPOSITES_H
#define TCC_TRANSFORMS_RECOGNIZECOMPOSITES_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::tcc {

/// Patterns that replace softmax, log_softmax, layer_norm, rms_norm and
/// attention written out of elementwise ops, reductions and matmuls by the
/// composite tcc op (see the pass description in Passes.td for the forms).
void populateRecognizeCompositesPatterns(RewritePatternSet &patterns);

} // namespace mlir::tcc

#endif // TCC_TRANSFORMS_RECOGNIZECOMPOSITES_H
