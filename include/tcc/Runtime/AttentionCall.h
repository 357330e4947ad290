//===- AttentionCall.h - tccAttention's argument layout ---------*- C++ -*-===//
//
// The cuda pipeline's host code calls `tccAttention(stream, desc)` for each
// tcc_lib.attention (lib/Conversion/TCCLibToLLVM builds `desc` on the
// stack; lib/Runtime/FlashAttention.cpp reads it). `desc` is an array of
// 64-bit fields at these indices. Operands are [batch, heads, rows, dim]
// views; strides are in elements, addresses are device addresses of each
// operand's first element.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_RUNTIME_ATTENTIONCALL_H
#define TCC_RUNTIME_ATTENTIONCALL_H

namespace tcc_attention {

enum ElementType { kF32 = 0, kF16 = 1, kBF16 = 2 }; // as tcc_gemm's

/// Per-operand fields: address, then the strides of its batch, heads,
/// rows and columns (the columns' must be 1).
enum OperandField {
  kAddress = 0,
  kBatchStride,
  kHeadStride,
  kRowStride,
  kColStride,
  kOperandFields
};

enum Field {
  kElementType = 0,
  kCausal,    // 1: key j only for query i >= j
  kBatch,
  kHeads,
  kQueries,   // q's and out's rows
  kKeys,      // k's and v's rows
  kHeadDim,   // q's and k's columns (v's and out's are the same)
  kScaleBits, // the softmax scale: an f32's bits
  kQ,
  kK = kQ + kOperandFields,
  kV = kK + kOperandFields,
  kOut = kV + kOperandFields,
  kFields = kOut + kOperandFields
};

} // namespace tcc_attention

#endif // TCC_RUNTIME_ATTENTIONCALL_H
