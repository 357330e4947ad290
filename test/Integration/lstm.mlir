// tcc.lstm through the CPU pipeline (tcc-expand-recurrences: the input
// projection as one tcc.linear, a loop calling a fused cell function)
// against the reference evaluator; dynamic and static sizes, both
// directions, an empty sequence, every compile option off; and a step
// worked out by hand.

// RUN: tcc-run %s --function=lstm --input=5x3x8xf32=random --input=64x8xf32=random --input=64x16xf32=random --input=64xf32=random --input=3x16xf32=random --input=3x16xf32=random --check-reference | FileCheck %s --check-prefix=DYN
// RUN: tcc-run %s --function=lstm --seed=3 --input=17x1x8xf32=random --input=64x8xf32=random --input=64x16xf32=random --input=64xf32=random --input=1x16xf32=random --input=1x16xf32=random --check-reference | FileCheck %s --check-prefix=DYN
// RUN: tcc-run %s --function=lstm --no-fuse --no-plan-memory --no-vectorize --no-parallel --input=4x2x8xf32=random --input=64x8xf32=random --input=64x16xf32=random --input=64xf32=random --input=2x16xf32=random --input=2x16xf32=random --check-reference | FileCheck %s --check-prefix=DYN
// DYN: [SUCCESS] result[0] matches the reference
// DYN: [SUCCESS] result[1] matches the reference
// DYN: [SUCCESS] result[2] matches the reference
func.func @lstm(%x: tensor<?x?x8xf32>, %wih: tensor<64x8xf32>, %whh: tensor<64x16xf32>, %b: tensor<64xf32>, %h0: tensor<?x16xf32>, %c0: tensor<?x16xf32>) -> (tensor<?x?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>) {
  %y, %h, %c = tcc.lstm %x, %wih, %whh, %b, %h0, %c0 : (tensor<?x?x8xf32>, tensor<64x8xf32>, tensor<64x16xf32>, tensor<64xf32>, tensor<?x16xf32>, tensor<?x16xf32>) -> (tensor<?x?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>)
  return %y, %h, %c : tensor<?x?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>
}

// No steps: y is empty, the state comes back unchanged.
// RUN: tcc-run %s --function=lstm --input=0x2x8xf32 --input=64x8xf32=random --input=64x16xf32=random --input=64xf32=random --input="2x16xf32=1" --input="2x16xf32=2" --expected_output=0x2x16xf32 --expected_output="2x16xf32=1" --expected_output="2x16xf32=2" | FileCheck %s --check-prefix=EMPTY
// EMPTY: [SUCCESS] result[2] matches (2x16xf32)

// The seed's history encoder: nn.LSTM(256, 128) at batch 1, a dynamic
// history length, run backwards too (one half of a bidirectional layer),
// both final states summed. Random weights in [-1, 1) over 256 inputs
// saturate the gates; 32 steps of the approximated sigmoid and tanh stay
// within 1e-4 of the reference.
// RUN: tcc-run %s --function=history --input=32x1x256xf32=random --input=512x256xf32=random --input=512x128xf32=random --input=512xf32=random --check-reference --atol=1e-4 | FileCheck %s --check-prefix=HIST
// RUN: tcc-run %s --function=history --input=1x1x256xf32=random --input=512x256xf32=random --input=512x128xf32=random --input=512xf32=random --check-reference --atol=1e-4 | FileCheck %s --check-prefix=HIST
// HIST: [SUCCESS] result[0] matches the reference (1x128xf32)
// HIST: [SUCCESS] result[1] matches the reference
func.func @history(%x: tensor<?x1x256xf32>, %wih: tensor<512x256xf32>, %whh: tensor<512x128xf32>, %b: tensor<512xf32>) -> (tensor<1x128xf32>, tensor<?x1x128xf32>) {
  %zero = tcc.constant dense<0.0> : tensor<1x128xf32>
  %y, %h, %c = tcc.lstm %x, %wih, %whh, %b, %zero, %zero : (tensor<?x1x256xf32>, tensor<512x256xf32>, tensor<512x128xf32>, tensor<512xf32>, tensor<1x128xf32>, tensor<1x128xf32>) -> (tensor<?x1x128xf32>, tensor<1x128xf32>, tensor<1x128xf32>)
  %ry, %rh, %rc = tcc.lstm %x, %wih, %whh, %b, %zero, %zero {reverse = true} : (tensor<?x1x256xf32>, tensor<512x256xf32>, tensor<512x128xf32>, tensor<512xf32>, tensor<1x128xf32>, tensor<1x128xf32>) -> (tensor<?x1x128xf32>, tensor<1x128xf32>, tensor<1x128xf32>)
  %sum = tcc.add %h, %rh : (tensor<1x128xf32>, tensor<1x128xf32>) -> tensor<1x128xf32>
  return %sum, %ry : tensor<1x128xf32>, tensor<?x1x128xf32>
}

// One step by hand, H = 1, I = 1, all weights 0 and biases 0: every gate
// is sigmoid(0) = 0.5 or tanh(0) = 0, so c = 0.5 * c0 and
// h = 0.5 * tanh(0.5 * c0); c0 = 2: c = 1, h = 0.5 * tanh(1) = 0.3807971.
// RUN: tcc-run %s --function=by_hand --input="1x1x1xf32=3" --input="1x1xf32=0.7" --input="1x1xf32=2" --expected_output="1x1x1xf32=0.3807971" --expected_output="1x1xf32=0.3807971" --expected_output="1x1xf32=1" | FileCheck %s --check-prefix=HAND
// RUN: tcc-run %s --function=by_hand --reference --input="1x1x1xf32=3" --input="1x1xf32=0.7" --input="1x1xf32=2" --expected_output="1x1x1xf32=0.3807971" --expected_output="1x1xf32=0.3807971" --expected_output="1x1xf32=1" | FileCheck %s --check-prefix=HAND
// HAND: [SUCCESS] result[2] matches (1x1xf32)
func.func @by_hand(%x: tensor<1x1x1xf32>, %h0: tensor<1x1xf32>, %c0: tensor<1x1xf32>) -> (tensor<1x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>) {
  %w = tcc.constant dense<0.0> : tensor<4x1xf32>
  %b = tcc.constant dense<0.0> : tensor<4xf32>
  %y, %h, %c = tcc.lstm %x, %w, %w, %b, %h0, %c0 : (tensor<1x1x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4xf32>, tensor<1x1xf32>, tensor<1x1xf32>) -> (tensor<1x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>)
  return %y, %h, %c : tensor<1x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>
}
