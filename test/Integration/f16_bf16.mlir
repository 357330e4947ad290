// f16 and bf16 versions of elementwise ops, reductions, matmul/linear,
// softmax, layer_norm/rms_norm and attention: compiled vs reference (the
// default tolerance for half results is rtol = atol = 2e-2).

// RUN: tcc-run %s --function=elementwise_f16 --input=4x8xf16=random --input=8xf16=random --check-reference | FileCheck %s --check-prefix=EW_F16
// EW_F16-COUNT-6: [SUCCESS] result[{{[0-5]}}] matches the reference (4x8xf16)
func.func @elementwise_f16(%a: tensor<?x8xf16>, %b: tensor<8xf16>)
    -> (tensor<?x8xf16>, tensor<?x8xf16>, tensor<?x8xf16>, tensor<?x8xf16>, tensor<?x8xf16>, tensor<?x8xf16>) {
  %0 = tcc.add %a, %b : (tensor<?x8xf16>, tensor<8xf16>) -> tensor<?x8xf16>
  %1 = tcc.mul %a, %b : (tensor<?x8xf16>, tensor<8xf16>) -> tensor<?x8xf16>
  %2 = tcc.sub %0, %1 : (tensor<?x8xf16>, tensor<?x8xf16>) -> tensor<?x8xf16>
  %3 = tcc.maximum %a, %b : (tensor<?x8xf16>, tensor<8xf16>) -> tensor<?x8xf16>
  %4 = tcc.gelu %a : (tensor<?x8xf16>) -> tensor<?x8xf16>
  %e = tcc.exp %b : (tensor<8xf16>) -> tensor<8xf16>
  %5 = tcc.div %a, %e : (tensor<?x8xf16>, tensor<8xf16>) -> tensor<?x8xf16>
  return %0, %1, %2, %3, %4, %5 : tensor<?x8xf16>, tensor<?x8xf16>, tensor<?x8xf16>, tensor<?x8xf16>, tensor<?x8xf16>, tensor<?x8xf16>
}

// RUN: tcc-run %s --function=elementwise_bf16 --input=4x8xbf16=random --input=4x1xbf16=random --check-reference | FileCheck %s --check-prefix=EW_BF16
// EW_BF16-COUNT-6: [SUCCESS] result[{{[0-5]}}] matches the reference (4x8xbf16)
func.func @elementwise_bf16(%a: tensor<4x8xbf16>, %b: tensor<4x1xbf16>)
    -> (tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<4x8xbf16>) {
  %0 = tcc.add %a, %b : (tensor<4x8xbf16>, tensor<4x1xbf16>) -> tensor<4x8xbf16>
  %1 = tcc.mul %a, %b : (tensor<4x8xbf16>, tensor<4x1xbf16>) -> tensor<4x8xbf16>
  %2 = tcc.minimum %a, %b : (tensor<4x8xbf16>, tensor<4x1xbf16>) -> tensor<4x8xbf16>
  %3 = tcc.silu %a : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %4 = tcc.tanh %a : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %5 = tcc.relu %a : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %0, %1, %2, %3, %4, %5 : tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<4x8xbf16>
}

// Unary ops on positive half inputs, and pow.
// RUN: tcc-run %s --function=unary_half --input=3x8xf16=random --input=3x8xbf16=random --check-reference | FileCheck %s --check-prefix=UNARY_HALF
// UNARY_HALF: [SUCCESS] result[0] matches the reference (3x8xf16)
// UNARY_HALF: [SUCCESS] result[1] matches the reference (3x8xf16)
// UNARY_HALF: [SUCCESS] result[2] matches the reference (3x8xbf16)
// UNARY_HALF: [SUCCESS] result[3] matches the reference (3x8xbf16)
func.func @unary_half(%a: tensor<?x8xf16>, %b: tensor<?x8xbf16>) -> (tensor<?x8xf16>, tensor<?x8xf16>, tensor<?x8xbf16>, tensor<?x8xbf16>) {
  %ea = tcc.exp %a : (tensor<?x8xf16>) -> tensor<?x8xf16>
  %eb = tcc.exp %b : (tensor<?x8xbf16>) -> tensor<?x8xbf16>
  %0 = tcc.log %ea : (tensor<?x8xf16>) -> tensor<?x8xf16>
  %1 = tcc.sqrt %ea : (tensor<?x8xf16>) -> tensor<?x8xf16>
  %2 = tcc.sigmoid %b : (tensor<?x8xbf16>) -> tensor<?x8xbf16>
  %3 = tcc.pow %eb, %b : (tensor<?x8xbf16>, tensor<?x8xbf16>) -> tensor<?x8xbf16>
  return %0, %1, %2, %3 : tensor<?x8xf16>, tensor<?x8xf16>, tensor<?x8xbf16>, tensor<?x8xbf16>
}

// RUN: tcc-run %s --function=reductions_half --input=4x32xf16=random --input=4x32xbf16=random --check-reference | FileCheck %s --check-prefix=RED_HALF
// RED_HALF: [SUCCESS] result[0] matches the reference (4x1xf16)
// RED_HALF: [SUCCESS] result[1] matches the reference (32xf16)
// RED_HALF: [SUCCESS] result[2] matches the reference (4xbf16)
// RED_HALF: [SUCCESS] result[3] matches the reference (bf16)
func.func @reductions_half(%a: tensor<?x32xf16>, %b: tensor<?x32xbf16>) -> (tensor<?x1xf16>, tensor<32xf16>, tensor<?xbf16>, tensor<bf16>) {
  %0 = tcc.reduce_sum %a {axes = array<i64: -1>, keep_dims = true} : (tensor<?x32xf16>) -> tensor<?x1xf16>
  %1 = tcc.reduce_max %a {axes = array<i64: 0>} : (tensor<?x32xf16>) -> tensor<32xf16>
  %2 = tcc.reduce_mean %b {axes = array<i64: 1>} : (tensor<?x32xbf16>) -> tensor<?xbf16>
  %3 = tcc.reduce_min %b {axes = array<i64>} : (tensor<?x32xbf16>) -> tensor<bf16>
  return %0, %1, %2, %3 : tensor<?x1xf16>, tensor<32xf16>, tensor<?xbf16>, tensor<bf16>
}

// RUN: tcc-run %s --function=matmul_f16 --input=8x32xf16=random --input=32x16xf16=random --check-reference | FileCheck %s --check-prefix=MM_F16
// MM_F16: [SUCCESS] result[0] matches the reference (8x16xf16)
func.func @matmul_f16(%a: tensor<?x32xf16>, %b: tensor<32x16xf16>) -> tensor<?x16xf16> {
  %0 = tcc.matmul %a, %b : (tensor<?x32xf16>, tensor<32x16xf16>) -> tensor<?x16xf16>
  return %0 : tensor<?x16xf16>
}

// RUN: tcc-run %s --function=matmul_bf16_batched --input=2x5x16xbf16=random --input=2x16x7xbf16=random --check-reference | FileCheck %s --check-prefix=MM_BF16
// MM_BF16: [SUCCESS] result[0] matches the reference (2x5x7xbf16)
func.func @matmul_bf16_batched(%a: tensor<2x5x16xbf16>, %b: tensor<2x16x7xbf16>) -> tensor<2x5x7xbf16> {
  %0 = tcc.matmul %a, %b : (tensor<2x5x16xbf16>, tensor<2x16x7xbf16>) -> tensor<2x5x7xbf16>
  return %0 : tensor<2x5x7xbf16>
}

// A long K (256) where accumulating in f16 would lose precision: the op
// accumulates in f32.
// RUN: tcc-run %s --function=matmul_f16_long_k --input=4x256xf16=random --input=256x8xf16=random --check-reference | FileCheck %s --check-prefix=MM_F16_LONGK
// MM_F16_LONGK: [SUCCESS] result[0] matches the reference (4x8xf16)
func.func @matmul_f16_long_k(%a: tensor<4x256xf16>, %b: tensor<256x8xf16>) -> tensor<4x8xf16> {
  %0 = tcc.matmul %a, %b : (tensor<4x256xf16>, tensor<256x8xf16>) -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// RUN: tcc-run %s --function=linear_half --input=3x16xf16=random --input=12x16xf16=random --input=12xf16=random --input=2x3x16xbf16=random --input=12x16xbf16=random --check-reference | FileCheck %s --check-prefix=LINEAR_HALF
// LINEAR_HALF: [SUCCESS] result[0] matches the reference (3x12xf16)
// LINEAR_HALF: [SUCCESS] result[1] matches the reference (2x3x12xbf16)
func.func @linear_half(%x: tensor<?x16xf16>, %w: tensor<12x16xf16>, %b: tensor<12xf16>, %y: tensor<?x3x16xbf16>, %wb: tensor<12x16xbf16>) -> (tensor<?x12xf16>, tensor<?x3x12xbf16>) {
  %0 = tcc.linear %x, %w, %b : (tensor<?x16xf16>, tensor<12x16xf16>, tensor<12xf16>) -> tensor<?x12xf16>
  %1 = tcc.linear %y, %wb : (tensor<?x3x16xbf16>, tensor<12x16xbf16>) -> tensor<?x3x12xbf16>
  return %0, %1 : tensor<?x12xf16>, tensor<?x3x12xbf16>
}

// RUN: tcc-run %s --function=softmax_f16 --input=4x16xf16=random --check-reference | FileCheck %s --check-prefix=SOFTMAX_F16
// SOFTMAX_F16: [SUCCESS] result[0] matches the reference (4x16xf16)
// SOFTMAX_F16: [SUCCESS] result[1] matches the reference (4x16xf16)
func.func @softmax_f16(%x: tensor<?x16xf16>) -> (tensor<?x16xf16>, tensor<?x16xf16>) {
  %0 = tcc.softmax %x {axis = -1 : i64} : (tensor<?x16xf16>) -> tensor<?x16xf16>
  %1 = tcc.log_softmax %x {axis = 0 : i64} : (tensor<?x16xf16>) -> tensor<?x16xf16>
  return %0, %1 : tensor<?x16xf16>, tensor<?x16xf16>
}

// RUN: tcc-run %s --function=softmax_bf16 --input=2x3x16xbf16=random --check-reference | FileCheck %s --check-prefix=SOFTMAX_BF16
// SOFTMAX_BF16: [SUCCESS] result[0] matches the reference (2x3x16xbf16)
// SOFTMAX_BF16: [SUCCESS] result[1] matches the reference (2x3x16xbf16)
func.func @softmax_bf16(%x: tensor<2x3x16xbf16>) -> (tensor<2x3x16xbf16>, tensor<2x3x16xbf16>) {
  %0 = tcc.softmax %x {axis = 2 : i64} : (tensor<2x3x16xbf16>) -> tensor<2x3x16xbf16>
  %1 = tcc.log_softmax %x {axis = -1 : i64} : (tensor<2x3x16xbf16>) -> tensor<2x3x16xbf16>
  return %0, %1 : tensor<2x3x16xbf16>, tensor<2x3x16xbf16>
}

// RUN: tcc-run %s --function=layer_norm_f16 --input=4x64xf16=random --input=64xf16=random --input=64xf16=random --check-reference | FileCheck %s --check-prefix=LN_F16
// LN_F16: [SUCCESS] result[0] matches the reference (4x64xf16)
func.func @layer_norm_f16(%x: tensor<?x64xf16>, %w: tensor<64xf16>, %b: tensor<64xf16>) -> tensor<?x64xf16> {
  %0 = tcc.layer_norm %x, %w, %b {axis = -1 : i64, epsilon = 1.0e-05 : f32} : (tensor<?x64xf16>, tensor<64xf16>, tensor<64xf16>) -> tensor<?x64xf16>
  return %0 : tensor<?x64xf16>
}

// RUN: tcc-run %s --function=layer_norm_bf16 --input=2x3x32xbf16=random --input=32xbf16=random --input=32xbf16=random --check-reference | FileCheck %s --check-prefix=LN_BF16
// LN_BF16: [SUCCESS] result[0] matches the reference (2x3x32xbf16)
func.func @layer_norm_bf16(%x: tensor<2x3x32xbf16>, %w: tensor<32xbf16>, %b: tensor<32xbf16>) -> tensor<2x3x32xbf16> {
  %0 = tcc.layer_norm %x, %w, %b {axis = 2 : i64, epsilon = 1.0e-06 : f32} : (tensor<2x3x32xbf16>, tensor<32xbf16>, tensor<32xbf16>) -> tensor<2x3x32xbf16>
  return %0 : tensor<2x3x32xbf16>
}

// The rms_norm example from the op description (f16).
// RUN: tcc-run %s --function=rms_norm_f16 --input=3x128xf16=random --input=128xf16=random --check-reference | FileCheck %s --check-prefix=RMS_F16
// RMS_F16: [SUCCESS] result[0] matches the reference (3x128xf16)
func.func @rms_norm_f16(%x: tensor<?x128xf16>, %w: tensor<128xf16>) -> tensor<?x128xf16> {
  %0 = tcc.rms_norm %x, %w {axis = -1 : i64, epsilon = 1.0e-06 : f32} : (tensor<?x128xf16>, tensor<128xf16>) -> tensor<?x128xf16>
  return %0 : tensor<?x128xf16>
}

// RUN: tcc-run %s --function=attention_f16 --input=1x2x6x8xf16=random --input=1x2x6x8xf16=random --input=1x2x6x8xf16=random --check-reference | FileCheck %s --check-prefix=ATTN_F16
// ATTN_F16: [SUCCESS] result[0] matches the reference (1x2x6x8xf16)
func.func @attention_f16(%q: tensor<?x2x6x8xf16>, %k: tensor<?x2x6x8xf16>, %v: tensor<?x2x6x8xf16>) -> tensor<?x2x6x8xf16> {
  %0 = tcc.attention %q, %k, %v {is_causal = true} : (tensor<?x2x6x8xf16>, tensor<?x2x6x8xf16>, tensor<?x2x6x8xf16>) -> tensor<?x2x6x8xf16>
  return %0 : tensor<?x2x6x8xf16>
}

// bf16 attention over 50 keys (probabilities rounded to bf16 before the
// product with v, in the compiled code and in the reference).
// RUN: tcc-run %s --function=attention_bf16 --input=2x3x50x16xbf16=random --input=2x3x50x16xbf16=random --input=2x3x50x16xbf16=random --check-reference | FileCheck %s --check-prefix=ATTN_BF16
// ATTN_BF16: [SUCCESS] result[0] matches the reference (2x3x50x16xbf16)
func.func @attention_bf16(%q: tensor<?x3x50x16xbf16>, %k: tensor<?x3x50x16xbf16>, %v: tensor<?x3x50x16xbf16>) -> tensor<?x3x50x16xbf16> {
  %0 = tcc.attention %q, %k, %v : (tensor<?x3x50x16xbf16>, tensor<?x3x50x16xbf16>, tensor<?x3x50x16xbf16>) -> tensor<?x3x50x16xbf16>
  return %0 : tensor<?x3x50x16xbf16>
}

// Mixed precision: bf16 weights, compute in f32, cast back.
// RUN: tcc-run %s --function=mixed_precision --input=3x16xbf16=random --input=8x16xbf16=random --check-reference | FileCheck %s --check-prefix=MIXED
// MIXED: [SUCCESS] result[0] matches the reference (3x8xbf16)
func.func @mixed_precision(%x: tensor<?x16xbf16>, %w: tensor<8x16xbf16>) -> tensor<?x8xbf16> {
  %xf = tcc.cast %x : (tensor<?x16xbf16>) -> tensor<?x16xf32>
  %wf = tcc.cast %w : (tensor<8x16xbf16>) -> tensor<8x16xf32>
  %y = tcc.linear %xf, %wf : (tensor<?x16xf32>, tensor<8x16xf32>) -> tensor<?x8xf32>
  %s = tcc.softmax %y {axis = -1 : i64} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %0 = tcc.cast %s : (tensor<?x8xf32>) -> tensor<?x8xbf16>
  return %0 : tensor<?x8xbf16>
}

// Half convolution and pooling.
// RUN: tcc-run %s --function=conv_pool_f16 --input=1x2x6x6xf16=random --input=3x2x3x3xf16=random --check-reference | FileCheck %s --check-prefix=CONV_F16
// CONV_F16: [SUCCESS] result[0] matches the reference (1x3x3x3xf16)
func.func @conv_pool_f16(%x: tensor<?x2x6x6xf16>, %w: tensor<3x2x3x3xf16>) -> tensor<?x3x3x3xf16> {
  %0 = tcc.conv2d %x, %w {padding = array<i64: 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<?x2x6x6xf16>, tensor<3x2x3x3xf16>) -> tensor<?x3x6x6xf16>
  %1 = tcc.max_pool2d %0 {kernel_size = array<i64: 2, 2>} : (tensor<?x3x6x6xf16>) -> tensor<?x3x3x3xf16>
  return %1 : tensor<?x3x3x3xf16>
}
