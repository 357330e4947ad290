//===- FusionDialect.h - fusion dialect -------------------------*- C++ -*-===//
#ifndef TCC_DIALECT_FUSION_IR_FUSIONDIALECT_H
#define TCC_DIALECT_FUSION_IR_FUSIONDIALECT_H

#include "mlir/IR/Dialect.h"

#include "tcc/Dialect/Fusion/IR/FusionDialect.h.inc"

#endif // TCC_DIALECT_FUSION_IR_FUSIONDIALECT_H
