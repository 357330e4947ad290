//===- MemoryPlan.h - the memory plan's IR encoding -------------*- C++ -*-===//
//
// --plan-memory writes its plan as attributes; the CPU lowering reads them
// back (tcc-materialize-memory-plan). Keeping the names and the decoding in
// one place keeps the two in step.
//
// On the function:
//   tcc.symbols = {s0 = array<i64: ARG, DIM>, ...}   runtime dims the plan uses
//   tcc.arena   = [{size = N, scale = ["s0", ...]}, ...]
//       one region per distinct product of symbols; region r occupies
//       size * prod(scale) bytes after the regions before it.
// On each op whose result is a planned buffer:
//   tcc.buffer = {region = R, offset = O, size = S}
//       bytes [O, O + S) of region R, both scaled by the region's product.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_TRANSFORMS_MEMORYPLAN_H
#define TCC_TRANSFORMS_MEMORYPLAN_H

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::tcc {

constexpr llvm::StringLiteral kSymbolsAttr = "tcc.symbols";
constexpr llvm::StringLiteral kArenaAttr = "tcc.arena";
constexpr llvm::StringLiteral kBufferAttr = "tcc.buffer";
constexpr llvm::StringLiteral kNaiveSizeAttr = "tcc.naive_size";

} // namespace mlir::tcc

#endif // TCC_TRANSFORMS_MEMORYPLAN_H
