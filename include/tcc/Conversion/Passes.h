//===- Passes.h - tcc conversion passes -------------------------*- C++ -*-===//
//
// tcc -> linalg, the library calls of both targets (fusion groups and
// matrix products to tcc_lib ops) and their lowering to runtime calls.
// Code generation after that is per target: tcc/Codegen/{Common,CPU,CUDA}.
//
//===----------------------------------------------------------------------===//
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
#include "tcc/Dialect/TCCLib/IR/TCCLibOps.h"

namespace mlir::tcc {

#define GEN_PASS_DECL
#include "tcc/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Conversion/Passes.h.inc"

} // namespace mlir::tcc

#endif // TCC_CONVERSION_PASSES_H
