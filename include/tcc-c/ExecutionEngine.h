/*===- tcc-c/ExecutionEngine.h - JIT-compiled tcc functions --------*- C -*-===*
 *
 * Compiles a module of tcc functions for this CPU and calls its public
 * functions on the caller's tensors. Tensors are the tcc_tensor of
 * tcc/Runtime/tcc_model.h, the ABI of tcc-compile's libraries, so that one
 * caller serves both: inputs are read in place (dense, row-major, never
 * written); results are allocated by tcc and given back with
 * tccTensorRelease.
 *
 *   TccCPUExecutable exe = tccCPUExecutableCreate(module, str(""), cb, 0);
 *   tcc_tensor in[1] = {{x, TCC_F32, 2, {8, 256}}}, out[2];
 *   if (tccCPUExecutableRun(exe, str("policy"), in, 1, out, 2, cb, 0) == 0)
 *     ... out[0].data, out[0].shape ...; tccTensorRelease(&out[0]); ...
 *
 *===----------------------------------------------------------------------===*/
#ifndef TCC_C_EXECUTIONENGINE_H
#define TCC_C_EXECUTIONENGINE_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"
#include "tcc/Runtime/tcc_model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TccCPUExecutable {
  void *ptr;
} TccCPUExecutable;

static inline bool tccCPUExecutableIsNull(TccCPUExecutable exe) {
  return !exe.ptr;
}

/// Lowers (a copy of) `module` with the CPU pipeline (`options` as
/// tccBuildCPUPipeline takes them) and JIT-compiles it. Null on failure:
/// the diagnostics went to the context's handlers, a summary to the
/// callback.
MLIR_CAPI_EXPORTED TccCPUExecutable
tccCPUExecutableCreate(MlirModule module, MlirStringRef options,
                       MlirStringCallback errorCallback, void *userData);

MLIR_CAPI_EXPORTED void tccCPUExecutableDestroy(TccCPUExecutable exe);

/// The number of inputs and results of public function `name`: 0, or 1 when
/// there is no such function.
MLIR_CAPI_EXPORTED int tccCPUExecutableGetArity(TccCPUExecutable exe,
                                                MlirStringRef name,
                                                int *numInputs,
                                                int *numResults);

/// The public functions' signatures as JSON, to the callback: {"NAME":
/// {"inputs": [{"dtype": "f32", "shape": [-1, 256]}...], "results": [...]}}
/// (-1: a dynamic dim).
MLIR_CAPI_EXPORTED void
tccCPUExecutableGetSignatures(TccCPUExecutable exe,
                              MlirStringCallback callback, void *userData);

/// Runs `name`. Returns 0, or tcc_run's codes (1: no such function, 2: a
/// count, dtype or rank mismatch, a negative size, missing data, or a
/// result of more than TCC_MAX_RANK dims; 3: a size constraint failed or
/// the call failed), the message to the callback; nothing runs on a
/// mismatch. Thread-safe: calls may run concurrently (those of an
/// executable compiled with `workspace=true` share its workspace and run
/// one at a time).
MLIR_CAPI_EXPORTED int
tccCPUExecutableRun(TccCPUExecutable exe, MlirStringRef name,
                    const tcc_tensor *inputs, int numInputs,
                    tcc_tensor *results, int numResults,
                    MlirStringCallback errorCallback, void *userData);

/// Seconds the compiled code of the last run took (without the checks and
/// the result copies).
MLIR_CAPI_EXPORTED double
tccCPUExecutableGetLastRunSeconds(TccCPUExecutable exe);

/// Frees a result of tccCPUExecutableRun (no-op on a zeroed tensor).
MLIR_CAPI_EXPORTED void tccTensorRelease(tcc_tensor *result);

#ifdef __cplusplus
}
#endif

#endif /* TCC_C_EXECUTIONENGINE_H */
