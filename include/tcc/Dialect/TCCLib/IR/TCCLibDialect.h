//===- TCCLibDialect.h - tcc_lib dialect ------------------------*- C++ -*-===//
#ifndef TCC_DIALECT_TCCLib_IR_TCCLibDIALECT_H
#define TCC_DIALECT_TCCLib_IR_TCCLibDIALECT_H

#include "mlir/IR/Dialect.h"

#include "tcc/Dialect/TCCLib/IR/TCCLibDialect.h.inc"

#endif // TCC_DIALECT_TCCLib_IR_TCCLibDIALECT_H
