//===- Passes.h - NVIDIA GPU code generation passes -------------*- C++ -*-===//
//
// After bufferization, the cuda pipeline's own passes: fusion groups and
// loops become gpu.launch kernels, host allocations device ones; kernels
// are deduplicated and their math approximated before the NVVM chain.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_CODEGEN_CUDA_PASSES_H
#define TCC_CODEGEN_CUDA_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tcc {

/// What an scf.parallel does, when its kernel should say so in its name
/// (StringAttr, e.g. "copy"; read by tcc-parallel-loops-to-gpu).
constexpr llvm::StringLiteral kKernelKindAttr = "tcc.kernel_kind";

#define GEN_PASS_DECL
#include "tcc/Codegen/CUDA/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Codegen/CUDA/Passes.h.inc"

} // namespace mlir::tcc

#endif // TCC_CODEGEN_CUDA_PASSES_H
