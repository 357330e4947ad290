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

/* CUDA graphs (the reduce-overhead mode): between Begin and End, the
 * calling thread's next call of compiled host code is captured (its stream
 * from creation to synchronization), instantiated and run once; the device
 * blocks it allocates, results included, belong to the graph until
 * tccCudaGraphDestroy. End returns the graph, or null with the error
 * recorded. Launch replays it on a stream and waits: 0 on success. */
void tccCudaBeginCapture(void);
void *tccCudaEndCapture(void);
int tccCudaGraphLaunch(void *graph);
void tccCudaGraphDestroy(void *graph);
/* The caller's stream: with `set`, the calling thread's compiled host code
 * queues its work on `stream` (every stream it makes is that one) until
 * the next call with set = 0. GraphLaunchOn queues a replay on `stream`
 * without waiting: 0 on success. */
void tccCudaSetStream(void *stream, int set);
int tccCudaGraphLaunchOn(void *graph, void *stream);

#ifdef __cplusplus
}
#endif

#endif /* TCC_RUNTIME_CUDARUNTIME_H */
