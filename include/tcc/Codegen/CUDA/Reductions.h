//===- Reductions.h - reductions split across GPU threads -------*- C++ -*-===//
//
// Shared by tcc-row-groups-to-gpu and tcc-row-reductions-to-gpu: which
// linalg reductions can be folded in any order across threads, and the
// fold itself; the kernels' names and entry. The buffer questions they also
// ask are in tcc/Codegen/Common/BufferAnalysis.h.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_CODEGEN_CUDA_REDUCTIONS_H
#define TCC_CODEGEN_CUDA_REDUCTIONS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "tcc/Codegen/Common/BufferAnalysis.h"

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

#endif // TCC_CODEGEN_CUDA_REDUCTIONS_H
