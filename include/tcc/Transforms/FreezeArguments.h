//===- FreezeArguments.h - arguments bound to values at compile time -*- C++ -*-===//
//
// A graph whose weights arrive as arguments (the torch.compile backend's
// parameters and buffers, an ONNX import with weights as arguments) can be
// compiled for one set of weights: each bound argument becomes a
// tcc.constant holding its bytes, as the ONNX importer writes initializers,
// and leaves the signature. Convolutions and linears then get prepacked
// weights and batch norms fold into them, as for any constant.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_TRANSFORMS_FREEZEARGUMENTS_H
#define TCC_TRANSFORMS_FREEZEARGUMENTS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/ArrayRef.h"

namespace mlir::tcc {

/// One argument's value: row-major bytes of the argument's static type,
/// little-endian, one byte per element for i1. `elementType`, when given,
/// is the value's own element type, checked against the argument's.
struct FrozenArgument {
  unsigned index;
  llvm::ArrayRef<char> bytes;
  Type elementType = {};
};

/// Replaces the arguments of `func` named by `values` with constants
/// holding a copy of their bytes and removes them from its signature (the
/// other arguments keep their order). Emits an error on `func` and changes
/// nothing if an index is out of range or repeated, an argument's type is
/// not a statically shaped tensor, or a value's element type or byte count
/// does not match it.
LogicalResult freezeArguments(func::FuncOp func,
                              llvm::ArrayRef<FrozenArgument> values);

} // namespace mlir::tcc

#endif // TCC_TRANSFORMS_FREEZEARGUMENTS_H
