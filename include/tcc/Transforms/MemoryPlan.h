//===- MemoryPlan.h - the memory plan's IR encoding -------------*- C++ -*-===//
//
// --plan-memory writes its plan as attributes; the CPU lowering reads them
// back (tcc-materialize-memory-plan). Keeping the names and the decoding in
// one place keeps the two in step.
//
// On the function:
//   tcc.arena_symbols = {B = array<i64: ARG, DIM>, ...}  size symbols the
//       plan uses and the argument dim each is read from
//   tcc.arena   = [{size = N, naive = M, scale = "B * S"}, ...]
//       one region per distinct scale (an expression of the symbols, "1"
//       for static sizes); region r occupies size * scale bytes after the
//       regions before it.
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

constexpr llvm::StringLiteral kSymbolsAttr = "tcc.arena_symbols";
constexpr llvm::StringLiteral kArenaAttr = "tcc.arena";
constexpr llvm::StringLiteral kBufferAttr = "tcc.buffer";
constexpr llvm::StringLiteral kNaiveSizeAttr = "tcc.naive_size";

} // namespace mlir::tcc

#endif // TCC_TRANSFORMS_MEMORYPLAN_H
