// tcc.gru and tcc.rnn through the CPU pipeline (tcc-expand-recurrences: the
// input projection as one tcc.linear, a loop calling a fused cell
// function) against the reference evaluator, dynamic and static sizes,
// both directions, both GRU reset forms, both RNN nonlinearities, every
// compile option off; and steps worked out by hand.

// RUN: tcc-run %s --function=gru --input=5x3x8xf32=random --input=48x8xf32=random --input=48x16xf32=random --input=48xf32=random --input=48xf32=random --input=3x16xf32=random --check-reference | FileCheck %s --check-prefix=GRU
// RUN: tcc-run %s --function=gru --seed=3 --input=17x1x8xf32=random --input=48x8xf32=random --input=48x16xf32=random --input=48xf32=random --input=48xf32=random --input=1x16xf32=random --check-reference | FileCheck %s --check-prefix=GRU
// RUN: tcc-run %s --function=gru --no-fuse --no-plan-memory --no-vectorize --no-parallel --input=4x2x8xf32=random --input=48x8xf32=random --input=48x16xf32=random --input=48xf32=random --input=48xf32=random --input=2x16xf32=random --check-reference | FileCheck %s --check-prefix=GRU
// GRU: [SUCCESS] result[0] matches the reference
// GRU: [SUCCESS] result[1] matches the reference
// GRU: [SUCCESS] result[2] matches the reference
// GRU: [SUCCESS] result[3] matches the reference
func.func @gru(%x: tensor<?x?x8xf32>, %wih: tensor<48x8xf32>, %whh: tensor<48x16xf32>, %bih: tensor<48xf32>, %bhh: tensor<48xf32>, %h0: tensor<?x16xf32>) -> (tensor<?x?x16xf32>, tensor<?x16xf32>, tensor<?x?x16xf32>, tensor<?x16xf32>) {
  %y, %h = tcc.gru %x, %wih, %whh, %bih, %bhh, %h0 : (tensor<?x?x8xf32>, tensor<48x8xf32>, tensor<48x16xf32>, tensor<48xf32>, tensor<48xf32>, tensor<?x16xf32>) -> (tensor<?x?x16xf32>, tensor<?x16xf32>)
  %ry, %rh = tcc.gru %x, %wih, %whh, %bih, %bhh, %h0 {reverse = true, linear_before_reset = false} : (tensor<?x?x8xf32>, tensor<48x8xf32>, tensor<48x16xf32>, tensor<48xf32>, tensor<48xf32>, tensor<?x16xf32>) -> (tensor<?x?x16xf32>, tensor<?x16xf32>)
  return %y, %h, %ry, %rh : tensor<?x?x16xf32>, tensor<?x16xf32>, tensor<?x?x16xf32>, tensor<?x16xf32>
}

// No steps: y is empty, the state comes back unchanged.
// RUN: tcc-run %s --function=gru --input=0x2x8xf32 --input=48x8xf32=random --input=48x16xf32=random --input=48xf32=random --input=48xf32=random --input="2x16xf32=1" --expected_output=0x2x16xf32 --expected_output="2x16xf32=1" --expected_output=0x2x16xf32 --expected_output="2x16xf32=1" | FileCheck %s --check-prefix=EMPTY
// EMPTY: [SUCCESS] result[3] matches (2x16xf32)

// One GRU step by hand, H = I = 1, all weights and biases 0: r = z =
// sigmoid(0) = 0.5 and n = tanh(0) = 0, so h = (1 - z) * n + z * h0 =
// 0.5 * h0 = 0.35 for h0 = 0.7, in both reset forms.
// RUN: tcc-run %s --function=gru_by_hand --input="1x1x1xf32=3" --input="1x1xf32=0.7" --expected_output="1x1x1xf32=0.35" --expected_output="1x1xf32=0.35" | FileCheck %s --check-prefix=GRU_HAND
// RUN: tcc-run %s --function=gru_by_hand --reference --input="1x1x1xf32=3" --input="1x1xf32=0.7" --expected_output="1x1x1xf32=0.35" --expected_output="1x1xf32=0.35" | FileCheck %s --check-prefix=GRU_HAND
// GRU_HAND: [SUCCESS] result[1] matches (1x1xf32)
func.func @gru_by_hand(%x: tensor<1x1x1xf32>, %h0: tensor<1x1xf32>) -> (tensor<1x1x1xf32>, tensor<1x1xf32>) {
  %w = tcc.constant dense<0.0> : tensor<3x1xf32>
  %b = tcc.constant dense<0.0> : tensor<3xf32>
  %y, %h = tcc.gru %x, %w, %w, %b, %b, %h0 {linear_before_reset = false} : (tensor<1x1x1xf32>, tensor<3x1xf32>, tensor<3x1xf32>, tensor<3xf32>, tensor<3xf32>, tensor<1x1xf32>) -> (tensor<1x1x1xf32>, tensor<1x1xf32>)
  return %y, %h : tensor<1x1x1xf32>, tensor<1x1xf32>
}

// tcc.rnn, tanh and relu, against the reference.
// RUN: tcc-run %s --function=rnn --input=6x3x8xf32=random --input=16x8xf32=random --input=16x16xf32=random --input=16xf32=random --input=3x16xf32=random --check-reference | FileCheck %s --check-prefix=RNN
// RUN: tcc-run %s --function=rnn --no-fuse --no-plan-memory --no-vectorize --no-parallel --input=3x2x8xf32=random --input=16x8xf32=random --input=16x16xf32=random --input=16xf32=random --input=2x16xf32=random --check-reference | FileCheck %s --check-prefix=RNN
// RNN: [SUCCESS] result[3] matches the reference
func.func @rnn(%x: tensor<?x?x8xf32>, %wih: tensor<16x8xf32>, %whh: tensor<16x16xf32>, %b: tensor<16xf32>, %h0: tensor<?x16xf32>) -> (tensor<?x?x16xf32>, tensor<?x16xf32>, tensor<?x?x16xf32>, tensor<?x16xf32>) {
  %y, %h = tcc.rnn %x, %wih, %whh, %b, %h0 : (tensor<?x?x8xf32>, tensor<16x8xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<?x16xf32>) -> (tensor<?x?x16xf32>, tensor<?x16xf32>)
  %ry, %rh = tcc.rnn %x, %wih, %whh, %b, %h0 {reverse = true, nonlinearity = "relu"} : (tensor<?x?x8xf32>, tensor<16x8xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<?x16xf32>) -> (tensor<?x?x16xf32>, tensor<?x16xf32>)
  return %y, %h, %ry, %rh : tensor<?x?x16xf32>, tensor<?x16xf32>, tensor<?x?x16xf32>, tensor<?x16xf32>
}

// Two RNN steps by hand, H = I = 1, w_ih = 2, w_hh = 0.5, bias = 0.1,
// x = [1, -1], h0 = 0. tanh: h1 = tanh(2.1) = 0.9704519, h2 = tanh(-2 +
// 0.5 * h1 + 0.1) = -0.8885036. relu: h1 = 2.1, h2 = relu(-0.85) = 0.
// RUN: tcc-run %s --function=rnn_by_hand --input="2x1x1xf32=1 -1" --expected_output="2x1x1xf32=0.9704519 -0.8885036" --expected_output="2x1x1xf32=2.1 0" | FileCheck %s --check-prefix=RNN_HAND
// RUN: tcc-run %s --function=rnn_by_hand --reference --input="2x1x1xf32=1 -1" --expected_output="2x1x1xf32=0.9704519 -0.8885036" --expected_output="2x1x1xf32=2.1 0" | FileCheck %s --check-prefix=RNN_HAND
// RNN_HAND: [SUCCESS] result[1] matches (2x1x1xf32)
func.func @rnn_by_hand(%x: tensor<2x1x1xf32>) -> (tensor<2x1x1xf32>, tensor<2x1x1xf32>) {
  %wih = tcc.constant dense<2.0> : tensor<1x1xf32>
  %whh = tcc.constant dense<0.5> : tensor<1x1xf32>
  %b = tcc.constant dense<0.1> : tensor<1xf32>
  %h0 = tcc.constant dense<0.0> : tensor<1x1xf32>
  %y, %h = tcc.rnn %x, %wih, %whh, %b, %h0 : (tensor<2x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1xf32>, tensor<1x1xf32>) -> (tensor<2x1x1xf32>, tensor<1x1xf32>)
  %ry, %rh = tcc.rnn %x, %wih, %whh, %b, %h0 {nonlinearity = "relu"} : (tensor<2x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1xf32>, tensor<1x1xf32>) -> (tensor<2x1x1xf32>, tensor<1x1xf32>)
  return %y, %ry : tensor<2x1x1xf32>, tensor<2x1x1xf32>
}
