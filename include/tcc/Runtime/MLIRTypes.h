//===- MLIRTypes.h - HostTensor dtypes <-> MLIR types -----------*- C++ -*-===//
//
// Maps the runtime's element types to MLIR builtin types and back. Kept apart
// from HostTensor.h so that the runtime itself stays free of MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_MLIRTYPES_H
#define TCC_RUNTIME_MLIRTYPES_H

#include "tcc/Runtime/HostTensor.h"

#include "mlir/IR/Types.h"

#include <optional>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace tcc::runtime {

/// The DType of a scalar MLIR type: f32, f64, f16, bf16 and the signless
/// integers i1, i8, i32, i64. std::nullopt for anything else (including
/// signed/unsigned integers, index and shaped types).
std::optional<DType> dtypeFromMLIRType(mlir::Type type);

/// The MLIR builtin type of `dtype` (integers are signless).
mlir::Type mlirTypeFromDType(mlir::MLIRContext *context, DType dtype);

} // namespace tcc::runtime

#endif // TCC_RUNTIME_MLIRTYPES_H
