/*===- tcc-c/Pipelines.h - tcc's pipeline builders for the C API ---*- C -*-===*
 *
 * Adds tcc's lowering pipelines to a caller's pass manager, as the C++
 * builders in tcc/Pipelines/Pipelines.h do. `options` is the pipeline's
 * option string as tcc-opt takes it ("fuse=false gemm-library-min-macs=0";
 * empty for the defaults). On a bad option the callback receives the
 * message and the result is a failure; nothing is added.
 *
 *===----------------------------------------------------------------------===*/
#ifndef TCC_C_PIPELINES_H
#define TCC_C_PIPELINES_H

#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// tcc -> LLVM dialect for the host CPU (fusion, memory planning,
/// vectorization, oneDNN calls).
MLIR_CAPI_EXPORTED MlirLogicalResult
tccBuildCPUPipeline(MlirOpPassManager pm, MlirStringRef options,
                    MlirStringCallback errorCallback, void *userData);

/// tcc -> host LLVM dialect with NVIDIA GPU kernels embedded.
MLIR_CAPI_EXPORTED MlirLogicalResult
tccBuildCUDAPipeline(MlirOpPassManager pm, MlirStringRef options,
                     MlirStringCallback errorCallback, void *userData);

/// tcc -> linalg on tensors, one loop nest per fusion group (takes the CPU
/// pipeline's options).
MLIR_CAPI_EXPORTED MlirLogicalResult
tccBuildTCCToLinalgPipeline(MlirOpPassManager pm, MlirStringRef options,
                            MlirStringCallback errorCallback, void *userData);

/// The compile cache (tcc/Pipelines/CompileCache.h): its directory ("" when
/// it is off, TCC_CACHE_DIR=off), its counts since the process started, and
/// a clear that removes every entry.
typedef struct {
  int64_t hits, misses, stores;
} TccCompileCacheStats;
MLIR_CAPI_EXPORTED MlirStringRef tccCompileCacheDirectory(void);
MLIR_CAPI_EXPORTED TccCompileCacheStats tccCompileCacheGetStats(void);
MLIR_CAPI_EXPORTED void tccCompileCacheClear(void);

#ifdef __cplusplus
}
#endif

#endif /* TCC_C_PIPELINES_H */
