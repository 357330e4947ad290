//===- Reductions.h - reductions split across GPU threads -------*- C++ -*-===//
//
// Shared by tcc-row-groups-to-gpu and tcc-row-reductions-to-gpu: which
// linalg reductions can be folded in any order across threads, and the
// fold itself.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_LIB_CONVERSION_LOOPSTOGPU_REDUCTIONS_H
#define TCC_LIB_CONVERSION_LOOPSTOGPU_REDUCTIONS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlir::tcc {

/// The op of a reduction's body that folds the accumulator, exactly once,
/// with a value computed from the inputs, by an associative and commutative
/// operation (add, mul, max, min, and, or); `accOperand` is which of its
/// operands is the accumulator.
struct ReductionCombiner {
  Operation *op;
  unsigned accOperand;
};
std::optional<ReductionCombiner> matchReductionCombiner(linalg::GenericOp op);

/// `combiner`'s kind and attributes applied to `lhs` and `rhs`.
Value combineLike(OpBuilder &b, Operation *combiner, Value lhs, Value rhs);

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

/// Names the kernel `launch` becomes after outlining: `<host function>_<kind>`
/// (row_group, row_reduction, loop), so profilers tell kernels apart.
void nameKernel(gpu::LaunchOp launch, StringRef kind);

/// In `launch` (a block per row of `rows`): sets `b` inside a branch that
/// skips blocks past the last row (block-uniform, so every barrier inside
/// is reached by all of a block's threads or none) and returns the row's
/// indices over `rowSizes`, row-major.
SmallVector<Value> enterRow(OpBuilder &b, Location loc, gpu::LaunchOp launch,
                            Value rows, ArrayRef<Value> rowSizes);

/// Whether vector accesses of `lanes` elements along `type`'s last dim, at
/// columns that are multiples of `lanes`, are aligned to their size given
/// a base pointer so aligned: contiguous last dim, static offset and outer
/// strides that keep the alignment, whole-byte elements.
bool alignedForVectors(MemRefType type, int64_t lanes);

/// An i1 that holds when every memref of `memrefs` has its base pointer
/// aligned to `lanes` of its elements (a caller's tensor or view may not
/// be): kernels branch on it, uniformly, to their scalar form.
Value basesAligned(OpBuilder &b, Location loc, ArrayRef<Value> memrefs,
                   int64_t lanes);

} // namespace mlir::tcc

#endif // TCC_LIB_CONVERSION_LOOPSTOGPU_REDUCTIONS_H
