//===- TCCToLinalg.h - tcc to linalg lowering -------------------*- C++ -*-===//
//
// The patterns are public so that other compilers can mix them into their own
// conversions; the pass convert-tcc-to-linalg applies all of them.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_CONVERSION_TCCTOLINALG_TCCTOLINALG_H
#define TCC_CONVERSION_TCCTOLINALG_TCCTOLINALG_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tcc {

/// Elementwise, cast and select ops.
void populateTCCElementwiseToLinalgPatterns(RewritePatternSet &patterns);
/// Reductions, softmax, normalizations.
void populateTCCReductionToLinalgPatterns(RewritePatternSet &patterns);
/// matmul, linear, conv2d, pooling, attention.
void populateTCCLinearToLinalgPatterns(RewritePatternSet &patterns);
/// transpose, reshape, broadcast_to, concat, slice, gather, constant, iota.
void populateTCCDataMovementToLinalgPatterns(RewritePatternSet &patterns);
/// mask_select, nonzero and nms (data-dependent result sizes): scf.for
/// loops filling a buffer allocated at the bound, cut to the runtime count.
void populateTCCDataDependentToLinalgPatterns(RewritePatternSet &patterns);
/// tcc.cumsum (a running sum): an scf.for over its axis.
void populateTCCScanToLinalgPatterns(RewritePatternSet &patterns);
/// tcc.scatter_elements and tcc.scatter_nd: scf.for loops over the updates
/// that carry the result.
void populateTCCScatterToLinalgPatterns(RewritePatternSet &patterns);
/// tcc.sort: a bitonic sorting network, one parallel generic per step of
/// host scf.for loops; tcc.topk: k selection passes (a small k) or the
/// first k of a sort.
void populateTCCSortToLinalgPatterns(RewritePatternSet &patterns);
/// tcc.grid_sample: one generic over the result reading x at the grid's
/// coordinates.
void populateTCCSamplingToLinalgPatterns(RewritePatternSet &patterns);

/// All of the above.
void populateTCCToLinalgPatterns(RewritePatternSet &patterns);

/// Whether anything under `root` has an unsigned element type.
bool hasUnsignedTypes(Operation *root);
/// Makes every type under `root` signless, rewriting the ops whose integer
/// semantics depend on signedness from their unsigned types (see
/// Unsigned.cpp); convert-tcc-to-linalg's first step where needed.
LogicalResult convertUnsignedToSignless(Operation *root);

} // namespace mlir::tcc

#endif // TCC_CONVERSION_TCCTOLINALG_TCCTOLINALG_H
