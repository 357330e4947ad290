//===- Passes.h - tcc transformation passes ---------------------*- C++ -*-===//
#ifndef TCC_TRANSFORMS_PASSES_H
#define TCC_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tcc {

#define GEN_PASS_DECL
#include "tcc/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Transforms/Passes.h.inc"

} // namespace mlir::tcc

#endif // TCC_TRANSFORMS_PASSES_H
