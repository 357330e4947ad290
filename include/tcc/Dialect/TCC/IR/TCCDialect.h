//===- TCCDialect.h - tcc dialect -------------------------------*- C++ -*-===//
#ifndef TCC_DIALECT_TCC_IR_TCCDIALECT_H
#define TCC_DIALECT_TCC_IR_TCCDIALECT_H

#include "mlir/IR/Dialect.h"

#include "tcc/Dialect/TCC/IR/TCCDialect.h.inc"

#endif // TCC_DIALECT_TCC_IR_TCCDIALECT_H
