//===- ViewRoot.h - the buffer a memref view reads --------------*- C++ -*-===//
//
// Shared by the CPU pipeline's passes on buffers (tcc-prefetch-rows,
// tcc-pipeline-row-stores, tcc-streaming-stores, tcc-outline-kernels):
// which buffer a subview, cast or other view of a memref reads and writes,
// and whether that buffer is an allocation of its own.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_LIB_CONVERSION_FUSIONTOLOOPS_VIEWROOT_H
#define TCC_LIB_CONVERSION_FUSIONTOLOOPS_VIEWROOT_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
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

/// On a kernel's argument (tcc-outline-kernels): the caller passes an
/// allocation of its own that no other argument views; the value is its
/// alignment.
constexpr llvm::StringLiteral kAllocationArgAttr = "tcc.allocation";

/// Whether `root` is an allocation (a buffer that nothing else in the
/// function aliases) and its alignment: a memref.alloc, or a kernel's
/// argument marked kAllocationArgAttr.
inline std::optional<uint64_t> allocationAlignment(Value root) {
  if (auto alloc = root.getDefiningOp<memref::AllocOp>())
    return alloc.getAlignment().value_or(0);
  auto arg = dyn_cast<BlockArgument>(root);
  if (!arg || !arg.getOwner()->isEntryBlock())
    return std::nullopt;
  auto fn = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
  if (!fn)
    return std::nullopt;
  if (auto a = fn.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                 kAllocationArgAttr))
    return a.getInt();
  return std::nullopt;
}

} // namespace mlir::tcc

#endif // TCC_LIB_CONVERSION_FUSIONTOLOOPS_VIEWROOT_H
