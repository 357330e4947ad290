//===- ONNXImporter.h - ONNX models to tcc ----------------------*- C++ -*-===//
//
// An ONNX ModelProto (protobuf bytes) becomes one func.func of tcc ops:
// graph inputs become arguments (dim_params named symbols in `tcc.shape`,
// unknown dims dynamic), initializers constants held as dense resources
// (or arguments), nodes tcc ops. Errors (an unsupported op, attribute or
// type, a malformed file) are diagnostics at the model's location; every
// unsupported node is listed at once. docs/onnx.md has the op table.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_IMPORT_ONNX_ONNXIMPORTER_H
#define TCC_IMPORT_ONNX_ONNXIMPORTER_H

#include "tcc/Runtime/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <map>
#include <string>

namespace mlir::tcc::onnx_import {

struct ImportOptions {
  /// The imported function's name.
  std::string functionName = "main";
  /// Initializers become trailing function arguments instead of constants.
  bool weightsAsArguments = false;
  /// Graph inputs (by position among the inputs that are not
  /// initializers) bound to values: constants instead of arguments, so
  /// shapes and axes computed from them are known at import.
  std::map<unsigned, ::tcc::runtime::HostTensor> boundInputs;
};

/// Imports the serialized ModelProto in `bytes` (`source` names it in
/// diagnostics). Null after emitting errors.
OwningOpRef<ModuleOp> importModel(MLIRContext *ctx, llvm::StringRef bytes,
                                  llvm::StringRef source,
                                  const ImportOptions &options = {});

/// Reads a serialized TensorProto (the backend tests' input_N.pb and
/// output_N.pb) as a host tensor; false with `error` set on failure.
bool readTensorProto(llvm::StringRef bytes, ::tcc::runtime::HostTensor &out,
                     std::string &error);

} // namespace mlir::tcc::onnx_import

#endif // TCC_IMPORT_ONNX_ONNXIMPORTER_H
