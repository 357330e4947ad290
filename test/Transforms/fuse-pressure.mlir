// RUN: tcc-opt %s --fuse=report=true --split-input-file 2>&1 >/dev/null | FileCheck %s
// RUN: tcc-opt %s --fuse="target=cuda report=true" --split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=CUDA

// Register and on-chip pressure: a group stops growing when it would
// stream more distinct tensors than the target handles well (16 on the CPU,
// 32 on CUDA), or when a reduction's live rows would not fit on chip (half
// an L2 on the CPU, an SM's 228 KiB of shared memory on CUDA).

// A chain of 16 adds over 17 inputs: on the CPU the first add stays out
// (its group would read 17 tensors); on CUDA it is one group.
// CHECK: fuse: @seventeen_inputs group 0 (pointwise): tcc.add
// CHECK: fuse: @seventeen_inputs group 1 (pointwise): {{.*}}[tcc.add left out: too many streams for cpu]
// CHECK: fuse: @seventeen_inputs kernels 16 -> 2
// CUDA: fuse: @seventeen_inputs group 0 (pointwise): tcc.add tcc.add
// CUDA-NOT: left out
// CUDA: fuse: @seventeen_inputs kernels 16 -> 1
func.func @seventeen_inputs(%a0: tensor<64xf32>, %a1: tensor<64xf32>, %a2: tensor<64xf32>, %a3: tensor<64xf32>, %a4: tensor<64xf32>, %a5: tensor<64xf32>, %a6: tensor<64xf32>, %a7: tensor<64xf32>, %a8: tensor<64xf32>, %a9: tensor<64xf32>, %a10: tensor<64xf32>, %a11: tensor<64xf32>, %a12: tensor<64xf32>, %a13: tensor<64xf32>, %a14: tensor<64xf32>, %a15: tensor<64xf32>, %a16: tensor<64xf32>) -> tensor<64xf32> {
  %s0 = tcc.add %a0, %a1 : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %s1 = tcc.add %s0, %a2 : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %s2 = tcc.add %s1, %a3 : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %s3 = tcc.add %s2, %a4 : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %s4 = tcc.add %s3, %a5 : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %s5 = tcc.add %s4, %a6 : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %s6 = tcc.add %s5, %a7 : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %s7 = tcc.add %s6, %a8 : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %s8 = tcc.add %s7, %a9 : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %s9 = tcc.add %s8, %a10 : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %s10 = tcc.add %s9, %a11 : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %s11 = tcc.add %s10, %a12 : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %s12 = tcc.add %s11, %a13 : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %s13 = tcc.add %s12, %a14 : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %s14 = tcc.add %s13, %a15 : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %s15 = tcc.add %s14, %a16 : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  return %s15 : tensor<64xf32>
}

// -----

// A softmax over rows of 65536 f32 (256 KiB) and its consumer: the row and
// the consumer's row fit half of a CPU core's L2, not an SM's shared
// memory, so on CUDA the scaling stays a group of its own.
// CHECK: fuse: @long_rows group 0 (reduction): tcc.softmax tcc.mul
// CHECK: fuse: @long_rows kernels 2 -> 1
// CUDA: fuse: @long_rows group 0 (reduction): tcc.softmax
// CUDA: fuse: @long_rows group 1 (pointwise): tcc.mul [tcc.softmax left out: its rows do not fit on chip for cuda]
// CUDA: fuse: @long_rows kernels 2 -> 2
func.func @long_rows(%x: tensor<4x65536xf32>, %s: tensor<65536xf32>) -> tensor<4x65536xf32> {
  %0 = tcc.softmax %x {axis = -1 : i64} : (tensor<4x65536xf32>) -> tensor<4x65536xf32>
  %1 = tcc.mul %0, %s : (tensor<4x65536xf32>, tensor<65536xf32>) -> tensor<4x65536xf32>
  return %1 : tensor<4x65536xf32>
}
