//===- Passes.h - code generation shared by both targets --------*- C++ -*-===//
//
// Group lowering mechanics that the cpu and cuda pipelines share: one loop
// nest per fusion group, the memory plan's arena, multi-dynamic reshapes.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_CODEGEN_COMMON_PASSES_H
#define TCC_CODEGEN_COMMON_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tcc {

/// Unit attribute on the tile loop of a group that may run across cores
/// (set by tcc-lower-fusion-groups, read by tcc-parallelize-tile-loops).
constexpr llvm::StringLiteral kParallelLoopAttr = "tcc.parallel";
/// On a function whose groups run on one thread (tcc-expand-recurrences'
/// cell functions: a step's work is small and the steps are serial).
constexpr llvm::StringLiteral kSerialFunctionAttr = "tcc.serial";

#define GEN_PASS_DECL
#include "tcc/Codegen/Common/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Codegen/Common/Passes.h.inc"

} // namespace mlir::tcc

#endif // TCC_CODEGEN_COMMON_PASSES_H
