//===- TCCLibOps.h - tcc_lib dialect ops ------------------------*- C++ -*-===//
#ifndef TCC_DIALECT_TCCLib_IR_TCCLibOPS_H
#define TCC_DIALECT_TCCLib_IR_TCCLibOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tcc/Dialect/TCCLib/IR/TCCLibDialect.h"

#define GET_OP_CLASSES
#include "tcc/Dialect/TCCLib/IR/TCCLibOps.h.inc"

#endif // TCC_DIALECT_TCCLib_IR_TCCLibOPS_H
