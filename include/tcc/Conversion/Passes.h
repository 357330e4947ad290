//===- Passes.h - tcc conversion passes -------------------------*- C++ -*-===//
#ifndef TCC_CONVERSION_PASSES_H
#define TCC_CONVERSION_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "tcc/Dialect/TCCGPU/IR/TCCGPUOps.h"

namespace mlir::tcc {

/// Unit attribute on the tile loop of a group that may run across cores
/// (set by tcc-lower-fusion-groups, read by tcc-parallelize-tile-loops).
constexpr llvm::StringLiteral kParallelLoopAttr = "tcc.parallel";

/// What an scf.parallel does, when its kernel should say so in its name
/// (StringAttr, e.g. "copy"; read by tcc-parallel-loops-to-gpu).
constexpr llvm::StringLiteral kKernelKindAttr = "tcc.kernel_kind";

#define GEN_PASS_DECL
#include "tcc/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Conversion/Passes.h.inc"

} // namespace mlir::tcc

#endif // TCC_CONVERSION_PASSES_H
