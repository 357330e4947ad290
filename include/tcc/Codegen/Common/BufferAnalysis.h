//===- BufferAnalysis.h - what touches a buffer, after bufferization -*- C++ -*-===//
//
// Questions about linalg on buffers that the code generators and the
// library passes share (tcc-row-groups-to-gpu, tcc-contractions-to-gemms):
// which buffer a view is of, which ops may touch it, the fill an
// accumulator starts from; and two rewrites that use them (copies of
// fills, transposes folded into their readers).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_CODEGEN_COMMON_BUFFERANALYSIS_H
#define TCC_CODEGEN_COMMON_BUFFERANALYSIS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::tcc {

/// The allocation or argument a buffer views.
Value baseOf(Value v);

/// Ops that touch no buffer's contents: allocations, dims, assertions (one
/// that fails ends the program either way) and pure ops without regions.
bool isTransparentToBuffers(Operation *op);

/// The op after `op` that may touch a buffer (skipping transparent ops),
/// or null at the end of the block.
Operation *nextTouchingBuffers(Operation *op);

/// Whether `op` leaves `buffer` alone: a transparent op, a linalg op none
/// of whose operands is a view of it, or an op whose memory effects all
/// name values (a copy, a library call), none of them a view of it.
bool leavesAlone(Operation *op, Value buffer);

/// The fill that last wrote reduction `op`'s accumulator, with nothing
/// touching the accumulator in between: its value is where the reduction
/// starts, so a kernel takes it instead of a fill kernel and a load.
linalg::FillOp precedingFill(linalg::GenericOp op);

/// A copy of a buffer whose last write was a fill becomes a fill of the
/// copy's target (bufferization copies a filled accumulator for a second
/// reduction; as a fill, the reduction folds it in).
void foldCopiesOfFills(Block &block);

/// A transpose into a buffer that only generic ops read (and a dealloc
/// frees) is folded into their indexing maps: they read the source
/// directly. A linear's weight, transposed for a (k, n) matmul on every
/// call, is read as (n, k) again: no transpose kernel, and the matmul's
/// maps keep the loop order.
void foldTransposesIntoReaders(Block &block);

} // namespace mlir::tcc

#endif // TCC_CODEGEN_COMMON_BUFFERANALYSIS_H
