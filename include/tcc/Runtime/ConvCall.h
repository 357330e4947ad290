//===- ConvCall.h - tccConv's argument layout -------------------*- C++ -*-===//
//
// The cuda pipeline's host code calls `tccConv(stream, desc)` for each
// tcc_lib.conv2d (lib/Conversion/TCCLibToLLVM builds `desc` on the stack;
// lib/Runtime/CUDNNConv.cpp reads it); the cpu pipeline's code calls
// `tccHostConv(null, desc)` (lib/Runtime/DNNLConv.cpp, oneDNN; declared in
// HostLibrary.h). `desc` is an array of 64-bit fields at these indices.
// Tensors are 4-D in NCHW logical order whatever their memory order;
// strides are in elements, addresses are device addresses of each tensor's
// first element (0: the optional operand is absent).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_RUNTIME_CONVCALL_H
#define TCC_RUNTIME_CONVCALL_H

#include <cstdint>

namespace tcc_conv {

enum ElementType { kF32 = 0, kF16 = 1, kBF16 = 2 }; // as tcc_gemm's
enum Activation { kNone = 0, kReLU = 1 };

/// Per-tensor fields: address, then the strides of dims N, C, H, W.
enum OperandField {
  kAddress = 0,
  kNStride,
  kCStride,
  kHStride,
  kWStride,
  kOperandFields
};

enum Field {
  kElementType = 0,
  kActivation,
  kBatch,
  kInChannels,
  kInHeight,
  kInWidth,
  kOutChannels,
  kKernelHeight,
  kKernelWidth,
  kOutHeight,
  kOutWidth,
  kPadH,
  kPadW,
  kStrideH,
  kStrideW,
  kDilationH,
  kDilationW,
  kGroups,
  kBias,       // address of [O], or 0
  kBiasStride, // the bias's stride (must be 1 where O > 1)
  kX,
  kWeight = kX + kOperandFields,
  kResidual = kWeight + kOperandFields, // address 0: none
  kOut = kResidual + kOperandFields,
  kConstantWeight = kOut + kOperandFields, // 1: the weight never changes
                                           // (a module constant)
  kScratch,      // host: address of memory the library may use (0: none)
  kScratchBytes, // and its size
  kFields
};

} // namespace tcc_conv

#endif // TCC_RUNTIME_CONVCALL_H
