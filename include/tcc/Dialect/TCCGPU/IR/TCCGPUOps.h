//===- TCCGPUOps.h - tcc_gpu dialect ops ------------------------*- C++ -*-===//
#ifndef TCC_DIALECT_TCCGPU_IR_TCCGPUOPS_H
#define TCC_DIALECT_TCCGPU_IR_TCCGPUOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tcc/Dialect/TCCGPU/IR/TCCGPUDialect.h"

#define GET_OP_CLASSES
#include "tcc/Dialect/TCCGPU/IR/TCCGPUOps.h.inc"

#endif // TCC_DIALECT_TCCGPU_IR_TCCGPUOPS_H
