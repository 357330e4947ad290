//===- Passes.h - tcc transformation passes ---------------------*- C++ -*-===//
#ifndef TCC_TRANSFORMS_PASSES_H
#define TCC_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tcc {

#define GEN_PASS_DECL
#include "tcc/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Transforms/Passes.h.inc"

} // namespace mlir::tcc

#endif // TCC_TRANSFORMS_PASSES_H
