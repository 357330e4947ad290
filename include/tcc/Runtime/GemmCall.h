//===- GemmCall.h - tccGemm's argument layout -------------------*- C++ -*-===//
//
// The cuda pipeline's host code calls `tccGemm(stream, desc)` for each
// tcc_lib.gemm (tcc-gpu-library-calls builds `desc` on the stack; the
// runtime in lib/Runtime/CUBLASLtGemm.cpp reads it); the cpu pipeline's
// code calls `tccHostGemm(null, desc)` (lib/Runtime/DNNLGemm.cpp, oneDNN;
// declared in HostLibrary.h). `desc` is an array of 64-bit fields at these
// indices. Strides are in elements; addresses are the addresses of each
// operand's first element (0: absent).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_RUNTIME_GEMMCALL_H
#define TCC_RUNTIME_GEMMCALL_H

#include <string_view>

namespace tcc_gemm {

enum ElementType { kF32 = 0, kF16 = 1, kBF16 = 2 };
/// GELU: erf form, and the tanh approximation (host runtime only: cuBLASLt
/// has neither exactly, so the cuda lowering refuses them).
enum Epilogue { kNone = 0, kReLU = 1, kGELU = 2, kGELUTanh = 3 };

/// The code of tcc_lib.gemm's `epilogue` attribute.
inline Epilogue epilogueOf(std::string_view name) {
  return name == "relu"        ? kReLU
         : name == "gelu"      ? kGELU
         : name == "gelu_tanh" ? kGELUTanh
                               : kNone;
}

/// Per-operand fields: address, then the strides of its rows, columns and
/// batch (a rank-2 operand of a batched product: batch stride 0).
enum OperandField { kAddress = 0, kRowStride, kColStride, kBatchStride,
                    kOperandFields };

enum Field {
  kElementType = 0,
  kEpilogue,
  kBatch,
  kM,
  kN,
  kK,
  kA,                           // a: [M, K]
  kB = kA + kOperandFields,     // b: [K, N]
  kC = kB + kOperandFields,     // c: [M, N] (address 0: none)
  kD = kC + kOperandFields,     // d: [M, N]
  kBias = kD + kOperandFields,  // bias: [N] (0: none); cuBLASLt wants it
                                // contiguous
  kInputType,                   // a's and b's ElementType (kElementType
                                // is c's, d's and the bias's)
  kBiasStride,                  // the bias's stride
  kConstantB,                   // 1: b never changes (a module constant)
  kScratch,                     // host: address of memory the library may
                                // use (0: none)
  kScratchBytes,                // and its size
  kFields
};

} // namespace tcc_gemm

#endif // TCC_RUNTIME_GEMMCALL_H
