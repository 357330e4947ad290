//===- CUDARuntimeInternal.h - shared by the CUDA runtime's files -*- C++ -*-//
//
// What lib/Runtime/CUDARuntime.cpp offers the library calls beside it
// (CUBLASLtGemm.cpp, CUDNNConv.cpp, FlashAttention.cpp): the pending-error channel, the capture check and the
// device context.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_LIB_RUNTIME_CUDARUNTIMEINTERNAL_H
#define TCC_LIB_RUNTIME_CUDARUNTIMEINTERNAL_H

#include <cuda.h>

#include <cstdint>
#include <initializer_list>
#include <string>

namespace tcc::cuda {

/// Keeps `message` as the call's error unless one is pending already.
void record(const std::string &message);

/// Whether work queued on `stream` would escape a CUDA-graph capture (two
/// streams at once); records why and fails the capture if so.
bool escapesCapture(CUstream stream);

/// Checks a driver call; records "cuFoo failed (detail): CUDA_ERROR_X".
bool check(CUresult r, const char *call, const std::string &detail = "");

/// The device's primary context, current on the calling thread.
bool ensureContext();

/// dlopen of a vendor library: the file `envVar` names, else the first of
/// `names` the loader finds. Null with `error` saying what was tried.
void *openVendorLibrary(const char *envVar,
                        std::initializer_list<const char *> names,
                        const char *what, std::string &error);

/// Whether `stream` is being captured into a CUDA graph (work queued on it
/// is recorded, not run: no timing, no trial runs).
bool isCapturing(CUstream stream);

/// The largest power of two (up to 256) dividing `address`: part of the
/// library calls' plan keys (algorithms depend on alignment).
int64_t pointerAlignment(int64_t address);

} // namespace tcc::cuda

#endif // TCC_LIB_RUNTIME_CUDARUNTIMEINTERNAL_H
