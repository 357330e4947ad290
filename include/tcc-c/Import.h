/*===- tcc-c/Import.h - importers and frozen weights for the C API -*- C -*-===*/
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

/// Binds arguments of `functionName` to values (tcc/Transforms/
/// FreezeArguments.h): argument `argIndices[i]` becomes a constant holding
/// a copy of the `numBytes[i]` bytes at `data[i]` (row-major, the
/// argument's static type, little-endian, one byte per i1) and leaves the
/// signature. `elementTypes` (or NULL) gives each value's element type,
/// checked against the argument's. What the torch.compile backend does
/// with a model's parameters. A failure (no such function, an index out of
/// range or repeated, a dynamic shape, a wrong element type or byte count)
/// emits diagnostics to the context's handlers and changes nothing.
MLIR_CAPI_EXPORTED MlirLogicalResult
tccFreezeArguments(MlirModule module, MlirStringRef functionName,
                   intptr_t count, const intptr_t *argIndices,
                   const void *const *data, const intptr_t *numBytes,
                   const MlirType *elementTypes);

#ifdef __cplusplus
}
#endif

#endif /* TCC_C_IMPORT_H */
