// An elementwise group over columns of a [3234, 4] tensor (box decoding:
// x2 - x1) reads each input 4 elements apart. Vectorized whole, each read
// became an element-by-element loop into one vector<3234xf32>, and LLVM
// took minutes to allocate its registers; such a group stays a loop. The
// same group over contiguous inputs is still one vector op.
// RUN: tcc-opt %s --tcc-attach-target="mcpu=skylake-avx512" --fuse --convert-tcc-to-linalg --tcc-lower-fusion-groups | FileCheck %s

// CHECK-LABEL: func.func @box_widths
//   CHECK-NOT:   vector<3234xf32>
//       CHECK:   return
func.func @box_widths(%boxes: tensor<3234x4xf32>) -> tensor<3234xf32> {
  %x1 = tcc.slice %boxes {starts = array<i64: 0, 0>, ends = array<i64: 3234, 1>} : (tensor<3234x4xf32>) -> tensor<3234x1xf32>
  %x2 = tcc.slice %boxes {starts = array<i64: 0, 2>, ends = array<i64: 3234, 3>} : (tensor<3234x4xf32>) -> tensor<3234x1xf32>
  %a = tcc.reshape %x1 : (tensor<3234x1xf32>) -> tensor<3234xf32>
  %b = tcc.reshape %x2 : (tensor<3234x1xf32>) -> tensor<3234xf32>
  %w = tcc.sub %b, %a : (tensor<3234xf32>, tensor<3234xf32>) -> tensor<3234xf32>
  return %w : tensor<3234xf32>
}

// CHECK-LABEL: func.func @contiguous_widths
//       CHECK:   arith.subf {{.*}} : vector<3234xf32>
func.func @contiguous_widths(%a: tensor<3234xf32>, %b: tensor<3234xf32>) -> tensor<3234xf32> {
  %w = tcc.sub %b, %a : (tensor<3234xf32>, tensor<3234xf32>) -> tensor<3234xf32>
  return %w : tensor<3234xf32>
}
