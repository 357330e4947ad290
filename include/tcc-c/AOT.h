/*===- tcc-c/AOT.h - ahead-of-time shared libraries ----------------*- C -*-===*
 *
 * What tcc-compile does, in process: every public function of a module
 * compiled into a shared library with the C ABI of tcc/Runtime/tcc_model.h
 * (its manifest, libNAME.json, beside it). Load it with dlopen or
 * tcc-run-lib; it needs no MLIR.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TCC_C_AOT_H
#define TCC_C_AOT_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Builds `module` for `target` ("cpu" or "cuda") with that pipeline's
/// `options` (as tccBuildCPUPipeline / tccBuildCUDAPipeline take them:
/// "fuse=false mcpu=x86-64-v3", "chip=sm_80") into the library
/// `outputPath` (a name ending in .so), its manifest beside it and, when
/// its weights exceed 64 MiB, its weights file (libNAME.weights: see
/// docs/aot.md). Returns 0, or 1 with the message to the callback (the
/// diagnostics go to the context's handlers).
MLIR_CAPI_EXPORTED int tccBuildLibrary(MlirModule module, MlirStringRef target,
                                       MlirStringRef options,
                                       MlirStringRef outputPath,
                                       MlirStringCallback errorCallback,
                                       void *userData);

#ifdef __cplusplus
}
#endif

#endif /* TCC_C_AOT_H */
