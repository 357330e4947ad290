//===- ViewRoot.h - the buffer a memref view reads --------------*- C++ -*-===//
//
// Shared by the row-loop passes of the CPU pipeline (tcc-prefetch-rows,
// tcc-pipeline-row-stores): which buffer a subview, cast or other view of
// a memref reads and writes.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_LIB_CONVERSION_FUSIONTOLOOPS_VIEWROOT_H
#define TCC_LIB_CONVERSION_FUSIONTOLOOPS_VIEWROOT_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::tcc {

/// The memref `v` views, through subviews and casts.
inline Value viewRoot(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(def))
      v = view.getViewSource();
    else if (auto cast = dyn_cast<memref::CastOp>(def))
      v = cast.getSource();
    else
      break;
  }
  return v;
}

} // namespace mlir::tcc

#endif // TCC_LIB_CONVERSION_FUSIONTOLOOPS_VIEWROOT_H
