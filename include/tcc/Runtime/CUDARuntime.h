/*===- CUDARuntime.h - device memory for tcc_run on cuda builds ----*- C -*-===*
 *
 * lib/Runtime/CUDARuntime.cpp implements the mgpu* functions that the cuda
 * pipeline's host code calls (module loading, launches, streams, device
 * allocations and copies) on the CUDA driver API, and these helpers that
 * the model runtime uses for results in device memory. Driver errors are
 * recorded, not fatal: tccCudaTakeError() returns the first since the last
 * call (or null) and clears it.
 *
 *===----------------------------------------------------------------------===*/
#ifndef TCC_RUNTIME_CUDARUNTIME_H
#define TCC_RUNTIME_CUDARUNTIME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

void tccCudaFree(void *ptr);
void *tccCudaAlloc(size_t bytes);
/* Copies between any two pointers the driver knows (unified addressing);
 * 0 on success. */
int tccCudaCopy(void *dst, const void *src, size_t bytes);
const char *tccCudaTakeError(void);

#ifdef __cplusplus
}
#endif

#endif /* TCC_RUNTIME_CUDARUNTIME_H */
