//===- KernelConfig.h - tile sizes of a fusion group on the CPU -*- C++ -*-===//
//
// The choice of tile sizes, apart from the tiling mechanics
// (TileAndVectorizeGroup.cpp). Every size follows the target's f32 vector
// lanes (`lanes`: 16 with AVX-512, 8 with AVX2), read from the module's
// #tcc.target by tcc-lower-fusion-groups.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_LIB_CODEGEN_CPU_KERNELCONFIG_H
#define TCC_LIB_CODEGEN_CPU_KERNELCONFIG_H

#include "tcc/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlir::tcc::cpu {

/// How a group's root is tiled.
struct RootTiling {
  /// The op computing every result; null when there is none (ops merged
  /// horizontally: each is vectorized whole).
  linalg::LinalgOp root;
  /// Per loop of the root; 0: untiled.
  SmallVector<int64_t> sizes;
  /// Whether `sizes` tile anything (a 2-D transpose root is tiled in
  /// blocks instead).
  bool tileLoops = false;
};

/// The root of `group` and its tile sizes; std::nullopt for a group that
/// yields nothing.
std::optional<RootTiling> chooseRootTiling(fusion::GroupOp group,
                                           int64_t lanes);

/// Tile sizes of a root's loops (see KernelConfig.cpp).
SmallVector<int64_t> rootTileSizes(linalg::LinalgOp root, int numContractions,
                                   bool multiPass, bool cheapPasses,
                                   int64_t lanes);

/// Register tile of a contraction that takes outer products.
SmallVector<int64_t> contractionRegisterTile(linalg::LinalgOp op,
                                             int64_t lanes);

/// Lanes of the innermost dim one chunk of a long static row covers.
int64_t rowChunkLanes(linalg::LinalgOp op, int64_t lanes);

/// Whether `op`'s body holds transcendental functions or divisions.
bool hasExpensiveBody(linalg::LinalgOp op);

/// Whether `op` does expensive arithmetic on values that vary along its
/// innermost loop.
bool hasExpensiveRowWork(linalg::GenericOp op);

/// The largest op vectorized whole (registers and cache).
constexpr int64_t kMaxWholeVectorElements = 8192;

/// Above this many straight-line vector instructions for a group's whole
/// ops together, they are vectorized a row at a time.
constexpr int64_t kMaxStraightLineZmmOps = 2048;

/// Straight-line vector instructions `op` becomes when vectorized whole.
int64_t straightLineZmmOps(linalg::LinalgOp op, int64_t lanes);

} // namespace mlir::tcc::cpu

#endif // TCC_LIB_CODEGEN_CPU_KERNELCONFIG_H
