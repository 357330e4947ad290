//===- HostLibrary.h - library calls of the cpu pipeline's code -*- C++ -*-===//
//
// The entry points compiled cpu code calls for the host forms (no async
// token) of tcc_lib.conv2d and tcc_lib.gemm, implemented with oneDNN
// (lib/Runtime/DNNLConv.cpp, DNNLGemm.cpp; built when tcc is configured
// with oneDNN, TCC_HAVE_DNNL). `desc` is the op's descriptor: ConvCall.h's
// and GemmCall.h's fields; `stream` is unused (null).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_RUNTIME_HOSTLIBRARY_H
#define TCC_RUNTIME_HOSTLIBRARY_H

#include <cstdint>

extern "C" {
void tccHostConv(void *stream, const int64_t *desc);
void tccHostGemm(void *stream, const int64_t *desc);
/// The scratchpad bytes the call `desc` describes needs (the primitive is
/// made and cached as a call would; addresses are not read): compile-time
/// reservations (tcc-conv-to-library, tcc-linear-to-library) ask with
/// descriptors of the sizes and strides they expect.
int64_t tccHostConvScratchpadBytes(const int64_t *desc);
int64_t tccHostGemmScratchpadBytes(const int64_t *desc);
/// Drops the prepacked constant weights the host calls keep (keyed by
/// address): the code whose constants they were is being unloaded.
void tccHostForgetPackedWeights();
}

#endif // TCC_RUNTIME_HOSTLIBRARY_H
