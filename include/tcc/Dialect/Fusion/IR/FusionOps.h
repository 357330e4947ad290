//===- FusionOps.h - fusion dialect ops -------------------------*- C++ -*-===//
#ifndef TCC_DIALECT_FUSION_IR_FUSIONOPS_H
#define TCC_DIALECT_FUSION_IR_FUSIONOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tcc/Dialect/Fusion/IR/FusionDialect.h"

#define GET_OP_CLASSES
#include "tcc/Dialect/Fusion/IR/FusionOps.h.inc"

#endif // TCC_DIALECT_FUSION_IR_FUSIONOPS_H
