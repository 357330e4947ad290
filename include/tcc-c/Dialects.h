/*===- tcc-c/Dialects.h - tcc's dialects for the MLIR C API --------*- C -*-===*
 *
 * Handles of tcc's dialects in the style of mlir-c/Dialect/*.h, and the
 * registration of everything tcc's pipelines create: a C program (or a
 * compiler written in another language) puts these in a context's registry
 * before parsing tcc IR.
 *
 *===----------------------------------------------------------------------===*/
#ifndef TCC_C_DIALECTS_H
#define TCC_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TCC, tcc);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Fusion, fusion);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TCCLib, tcc_lib);

/// Inserts the tcc, fusion and tcc_lib dialects plus every upstream dialect,
/// interface extension and LLVM IR translation the pipelines create.
MLIR_CAPI_EXPORTED void tccRegisterAllDialects(MlirDialectRegistry registry);

/// Registers tcc's passes and named pipelines (tcc-cpu-pipeline,
/// tcc-cuda-pipeline, tcc-to-linalg) and MLIR's upstream passes with the
/// global pass registry, so that mlirParsePassPipeline accepts their names.
/// Safe to call more than once.
MLIR_CAPI_EXPORTED void tccRegisterAllPasses(void);

#ifdef __cplusplus
}
#endif

#endif /* TCC_C_DIALECTS_H */
