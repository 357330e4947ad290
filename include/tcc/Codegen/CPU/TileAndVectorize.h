//===- TileAndVectorize.h - a fusion group's CPU loop nest ------*- C++ -*-===//
//
// What tcc-lower-fusion-groups runs on each group for the CPU (option
// vectorize) while the group still marks its root: tiles with the sizes of
// lib/Codegen/CPU/KernelConfig.cpp, then vector code.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_CODEGEN_CPU_TILEANDVECTORIZE_H
#define TCC_CODEGEN_CPU_TILEANDVECTORIZE_H

#include "tcc/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"

namespace mlir::tcc::cpu {

/// Tiles the group's root with its in-group producers fused into the tile
/// loops, tiles contractions along K, then vectorizes the tiles; `lanes`
/// is the target's f32 vector width.
LogicalResult tileAndVectorizeGroup(fusion::GroupOp group, int64_t lanes,
                                    const FrozenRewritePatternSet &canonicalize);

/// The patterns the tiling stages canonicalize with between stages.
RewritePatternSet groupCanonicalizationPatterns(MLIRContext *ctx);

} // namespace mlir::tcc::cpu

#endif // TCC_CODEGEN_CPU_TILEANDVECTORIZE_H
