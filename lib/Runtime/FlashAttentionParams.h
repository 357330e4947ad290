//===- FlashAttentionParams.h - the attention kernels' parameter -*- C++ -*-//
//
// Passed by value to the kernels of FlashAttention.cu; built by the host
// side (FlashAttention.cpp). Plain data, the same layout in both compilers.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_LIB_RUNTIME_FLASHATTENTIONPARAMS_H
#define TCC_LIB_RUNTIME_FLASHATTENTIONPARAMS_H

#include <stdint.h>

namespace tcc::attention {

/// A [batch, heads, rows, dim] view with unit stride along dim (elements).
struct Operand {
  const uint16_t *data;
  int64_t batchStride, headStride, rowStride;
};

struct Params {
  Operand q, k, v, out;
  int32_t batch, heads, queries, keys;
  float scaleLog2; // scale * log2(e): exponentials are exp2
  int32_t causal;
};

} // namespace tcc::attention

#endif // TCC_LIB_RUNTIME_FLASHATTENTIONPARAMS_H
