//===- MLIRTypes.cpp - HostTensor dtypes <-> MLIR types ---------*- C++ -*-===//
//
// Part of tcc's runtime; see MLIRTypes.h.
//
//===----------------------------------------------------------------------===//

#include "tcc/Runtime/MLIRTypes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

namespace tcc::runtime {

std::optional<DType> dtypeFromMLIRType(mlir::Type type) {
  if (!type)
    return std::nullopt;
  if (type.isF32())
    return DType::F32;
  if (type.isF64())
    return DType::F64;
  if (type.isF16())
    return DType::F16;
  if (type.isBF16())
    return DType::BF16;
  if (auto intType = mlir::dyn_cast<mlir::IntegerType>(type)) {
    // Signless is signed in tcc; si* is not a tcc type.
    if (intType.isUnsigned()) {
      switch (intType.getWidth()) {
      case 8:
        return DType::U8;
      case 16:
        return DType::U16;
      case 32:
        return DType::U32;
      case 64:
        return DType::U64;
      default:
        return std::nullopt;
      }
    }
    if (!intType.isSignless())
      return std::nullopt;
    switch (intType.getWidth()) {
    case 1:
      return DType::I1;
    case 8:
      return DType::I8;
    case 16:
      return DType::I16;
    case 32:
      return DType::I32;
    case 64:
      return DType::I64;
    default:
      return std::nullopt;
    }
  }
  return std::nullopt;
}

mlir::Type mlirTypeFromDType(mlir::MLIRContext *context, DType dtype) {
  switch (dtype) {
  case DType::F32:
    return mlir::Float32Type::get(context);
  case DType::F64:
    return mlir::Float64Type::get(context);
  case DType::F16:
    return mlir::Float16Type::get(context);
  case DType::BF16:
    return mlir::BFloat16Type::get(context);
  case DType::I1:
    return mlir::IntegerType::get(context, 1);
  case DType::I8:
    return mlir::IntegerType::get(context, 8);
  case DType::I32:
    return mlir::IntegerType::get(context, 32);
  case DType::I16:
    return mlir::IntegerType::get(context, 16);
  case DType::U8:
  case DType::U16:
  case DType::U32:
  case DType::U64:
    return mlir::IntegerType::get(context, 8 * dtypeSize(dtype),
                                  mlir::IntegerType::Unsigned);
  case DType::I64:
    return mlir::IntegerType::get(context, 64);
  }
  return {};
}

} // namespace tcc::runtime
