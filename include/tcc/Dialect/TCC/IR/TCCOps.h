//===- TCCOps.h - tcc dialect ops -------------------------------*- C++ -*-===//
#ifndef TCC_DIALECT_TCC_IR_TCCOPS_H
#define TCC_DIALECT_TCC_IR_TCCOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tcc/Dialect/TCC/IR/TCCDialect.h"

#define GET_OP_CLASSES
#include "tcc/Dialect/TCC/IR/TCCOps.h.inc"

namespace mlir::tcc {

/// Normalizes `axis` (negative counts from the end) into [0, rank); returns
/// std::nullopt when it is out of range.
std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank);

/// The numpy broadcast of `shapes` (aligned from the right). Dims of size 1
/// stretch; a dynamic dim against a static dim N > 1 becomes N; two dynamic
/// dims stay dynamic (equal at runtime, checked by the compiled code).
/// Returns failure when two static sizes > 1 differ; `error` then names the
/// operands (by `names`) and their dims.
FailureOr<SmallVector<int64_t>>
broadcastShapes(ArrayRef<ArrayRef<int64_t>> shapes, ArrayRef<StringRef> names,
                std::string *error = nullptr);

/// Whether `op` is one of tcc's unary elementwise ops (the TCC_UnaryOp
/// class: they carry MLIR's Elementwise trait, as arith and math ops do,
/// so the dialect is checked too).
inline bool isUnaryElementwise(Operation *op) {
  return op->hasTrait<OpTrait::Elementwise>() && op->getNumOperands() == 1 &&
         isa<TCCDialect>(op->getDialect());
}

/// Whether `op` is one of tcc's broadcasting elementwise binaries (the
/// TCC_BinaryOp class: arithmetic, bitwise and shifts; not cmp or select).
bool isBinaryElementwise(Operation *op);

/// Whether transposing a tensor of `shape` by `perm` moves only dims of
/// size 1 (dynamic dims count as larger): the elements keep their order,
/// so the transpose is a reshape.
bool movesOnlyUnitDims(ArrayRef<int64_t> shape, ArrayRef<int64_t> perm);

/// Where a 4-D window operand keeps each logical dim: batch (or a weight's
/// output channels), channels, height and width. NCHW / OIHW: 0, 1, 2, 3;
/// channels-last NHWC / OHWI: 0, 3, 1, 2.
struct LayoutDims {
  int64_t n, c, h, w;
  /// The spatial dims, height first.
  int64_t spatial(int64_t i) const { return i == 0 ? h : w; }
};
inline LayoutDims layoutDims(bool channelsLast) {
  return channelsLast ? LayoutDims{0, 3, 1, 2} : LayoutDims{0, 1, 2, 3};
}
/// Whether `layout` is one a window op takes ("NCHW" or "NHWC").
inline bool isWindowLayout(StringRef layout) {
  return layout == "NCHW" || layout == "NHWC";
}

/// Output size of a window op along one dim (conv/pool), or
/// ShapedType::kDynamic when `in` is dynamic.
int64_t windowOutputSize(int64_t in, int64_t padBefore, int64_t padAfter,
                         int64_t kernel, int64_t stride, int64_t dilation);

} // namespace mlir::tcc

#endif // TCC_DIALECT_TCC_IR_TCCOPS_H
