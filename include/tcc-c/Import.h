/*===- tcc-c/Import.h - the ONNX importer for the C API ------------*- C -*-===*/
#ifndef TCC_C_IMPORT_H
#define TCC_C_IMPORT_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Whether this tcc was built with the ONNX importer (libonnx-dev).
MLIR_CAPI_EXPORTED bool tccHasONNXImporter(void);

/// Imports a serialized ONNX ModelProto (`source` names it in diagnostics)
/// into a module with one function `functionName`; initializers become
/// trailing arguments with `weightsAsArguments`, constants otherwise. Null
/// after emitting diagnostics to the context's handlers.
MLIR_CAPI_EXPORTED MlirModule tccImportONNX(MlirContext context,
                                            MlirStringRef bytes,
                                            MlirStringRef source,
                                            MlirStringRef functionName,
                                            bool weightsAsArguments);

#ifdef __cplusplus
}
#endif

#endif /* TCC_C_IMPORT_H */
