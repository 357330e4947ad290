//===- TCCGPUDialect.h - tcc_gpu dialect ------------------------*- C++ -*-===//
#ifndef TCC_DIALECT_TCCGPU_IR_TCCGPUDIALECT_H
#define TCC_DIALECT_TCCGPU_IR_TCCGPUDIALECT_H

#include "mlir/IR/Dialect.h"

#include "tcc/Dialect/TCCGPU/IR/TCCGPUDialect.h.inc"

#endif // TCC_DIALECT_TCCGPU_IR_TCCGPUDIALECT_H
