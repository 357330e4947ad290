//===- MemoryPlan.h - the memory plan's IR encoding -------------*- C++ -*-===//
//
// --plan-memory writes its plan as attributes; the CPU lowering reads them
// back (tcc-materialize-memory-plan) and --verify-memory-plan checks them.
// Keeping the names, the liveness rule and the in-place rule in one place
// keeps the three in step.
//
// On the function:
//   tcc.arena_symbols = {B = array<i64: ARG, DIM>, ...}  size symbols the
//       plan uses and the argument dim each is read from
//   tcc.arena   = [{size = N, naive = M, scale = "B * S"}, ...]
//       one region per distinct scale (an expression of the symbols, "1"
//       for static sizes); region r occupies size * scale bytes after the
//       regions before it.
//   tcc.arena_alignment = A   every offset and region size is a multiple
//   tcc.naive_size = M        static bytes without reuse
// On each op whose result is a planned buffer:
//   tcc.buffer = {region = R, offset = O, size = S}
//       bytes [O, O + S) of region R, both scaled by the region's product;
//       `in_place` = I when the buffer reuses the buffer of the op's input I,
//       which dies there. An op with several results carries an array, one
//       entry per result (a dictionary, or unit for an unplanned result).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_TRANSFORMS_MEMORYPLAN_H
#define TCC_TRANSFORMS_MEMORYPLAN_H

#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::tcc {

constexpr llvm::StringLiteral kSymbolsAttr = "tcc.arena_symbols";
constexpr llvm::StringLiteral kArenaAttr = "tcc.arena";
constexpr llvm::StringLiteral kArenaAlignmentAttr = "tcc.arena_alignment";
constexpr llvm::StringLiteral kBufferAttr = "tcc.buffer";
constexpr llvm::StringLiteral kNaiveSizeAttr = "tcc.naive_size";
/// Marks the arena's memref.alloc in lowered code.
constexpr llvm::StringLiteral kArenaAllocAttr = "tcc.arena_alloc";

/// The plan entry of result `i` of `op` (tcc.buffer), or null.
DictionaryAttr getBufferPlan(Operation *op, unsigned i);

/// The value whose buffer `v` lives in: reshapes and slices are views of
/// their operand.
Value getBufferRoot(Value v);

/// Live ranges of the buffers defined at the top level of `block`, in op
/// indices (inclusive): from the defining op to the last op that uses the
/// buffer, directly, through a view, or inside a nested region. Values that
/// are returned (or viewed by a returned value) are marked escaping.
struct BufferLiveness {
  llvm::MapVector<Value, std::pair<int64_t, int64_t>> ranges;
  llvm::DenseSet<Value> escaping;
  llvm::DenseMap<Operation *, int64_t> index;
};
BufferLiveness computeBufferLiveness(Block &block);

/// Whether the single result of `op` (a top-level op) may be written into
/// the buffer of its input `operandIndex` when that input dies at `op`:
/// `op` is a pointwise fusion group with one result of the same byte size,
/// the input's buffer is not passed to it a second time, and inside it the
/// input flows only through elementwise ops of its own shape into the
/// result. Then result element i depends on input element i
/// alone and on no other input element, so however the group is tiled or
/// vectorized, input element i is read before result element i is written
/// and never read after.
bool mayWriteInPlace(Operation *op, unsigned operandIndex);

} // namespace mlir::tcc

#endif // TCC_TRANSFORMS_MEMORYPLAN_H
