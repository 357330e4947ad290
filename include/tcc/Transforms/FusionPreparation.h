//===- FusionPreparation.h - rewrites that expose fusion -------*- C++ -*-===//
//
// What --fuse does to the tcc graph before it forms groups (each also
// usable on its own by a compiler that forms its own groups):
//   - transposes sink below the slices and unit-dim reshapes that follow
//     them, so a permutation meets its consumer (attention folds it into
//     its reads instead of copying);
//   - linears / matmuls that read the same input merge into one wider op
//     plus slices (Q/K/V projections, policy and value heads);
//   - a convolution whose stride is its kernel (a patch embedding) becomes
//     a linear over the patches;
//
//===----------------------------------------------------------------------===//
#ifndef TCC_TRANSFORMS_FUSIONPREPARATION_H
#define TCC_TRANSFORMS_FUSIONPREPARATION_H

#include "tcc/Dialect/TCC/IR/TCCOps.h"
#include "tcc/Transforms/FusionCostModel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tcc {

/// Marks set on ops by the preparation, read by the fusion report.
/// On a merged linear/matmul: how many ops it replaced (I64Attr).
constexpr llvm::StringLiteral kHorizontalAttr = "fusion.horizontal";

/// slice(transpose(x)) -> transpose(slice(x)) when every user of the
/// transpose is a slice, and reshape(transpose(x)) -> transpose(reshape(x))
/// when the reshape only drops unit dims.
void populateSinkTransposePatterns(RewritePatternSet &patterns);

/// conv2d with stride == kernel, no padding, dilation 1, one group ->
/// reshape / transpose into patches, linear, reshape / transpose back.
void populatePatchConvToLinearPatterns(RewritePatternSet &patterns);

/// linear/matmul(x [d..., M, K], w 2-D) with x of rank 4 and more, or of
/// rank 3 with a static batch above 1, and at most one dynamic dim besides
/// K -> reshape(linear/matmul(reshape(x, [rows, K]), w)): one product of
/// all rows (a CNN's 1x1 layers over NHWC pixels), whose weight is read
/// once rather than once per leading index.
void populateFlattenProductRowsPatterns(RewritePatternSet &patterns);

/// Whether populatePatchConvToLinearPatterns turns `conv` into a linear
/// (NCHW, static kernel and spatial sizes, at most a dynamic batch).
bool isPatchConv(Conv2dOp conv);

/// Merges the linears (or matmuls with a 2-D weight) of `func` that read the
/// same input into one op over the concatenated weights, followed by one
/// slice per original result, where isHorizontalMergeProfitable agrees.
/// Returns the number of merged ops created.
unsigned mergeHorizontalContractions(func::FuncOp func,
                                     const FusionTarget &target);

} // namespace mlir::tcc

#endif // TCC_TRANSFORMS_FUSIONPREPARATION_H
