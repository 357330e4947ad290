// RUN: tcc-opt %s --tcc-expand-recurrences --split-input-file | FileCheck %s

// tcc.lstm: every step's input projection as one tcc.linear, an scf.for
// over the (dynamic) steps carrying h, c and y in buffers of their own,
// and a private, serial cell function of tcc ops.
// CHECK-LABEL: func.func @dynamic
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x?x8xf32>, %[[WIH:[a-zA-Z0-9_]+]]: tensor<64x8xf32>, %[[WHH:[a-zA-Z0-9_]+]]: tensor<64x16xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<64xf32>, %[[H0:[a-zA-Z0-9_]+]]: tensor<?x16xf32>, %[[C0:[a-zA-Z0-9_]+]]: tensor<?x16xf32>
//       CHECK:   %[[P:.+]] = tcc.linear %[[X]], %[[WIH]], %[[B]] : (tensor<?x?x8xf32>, tensor<64x8xf32>, tensor<64xf32>) -> tensor<?x?x64xf32>
//       CHECK:   %[[T:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x?x8xf32>
//       CHECK:   %[[H:.+]] = bufferization.alloc_tensor() copy(%[[H0]])
//       CHECK:   %[[C:.+]] = bufferization.alloc_tensor() copy(%[[C0]])
//       CHECK:   %[[Y0:.+]] = tensor.empty(%[[T]], %{{.+}}) : tensor<?x?x16xf32>
//       CHECK:   %[[R:.+]]:3 = scf.for %[[S:.+]] = %{{.+}} to %[[T]] step %{{.+}} iter_args(%[[HI:.+]] = %[[H]], %[[CI:.+]] = %[[C]], %[[YI:.+]] = %[[Y0]])
//       CHECK:     %[[XT:.+]] = tensor.extract_slice %[[P]][%[[S]], 0, 0] [1, %{{.+}}, 64] [1, 1, 1] : tensor<?x?x64xf32> to tensor<?x64xf32>
//       CHECK:     %[[NEW:.+]]:2 = func.call @__tcc_lstm_cell(%[[XT]], %[[HI]], %[[CI]], %[[WHH]])
//       CHECK:     %[[Y:.+]] = tensor.insert_slice %[[NEW]]#0 into %[[YI]][%[[S]], 0, 0]
//       CHECK:     %[[HN:.+]] = bufferization.materialize_in_destination %[[NEW]]#0 in %[[HI]]
//       CHECK:     %[[CN:.+]] = bufferization.materialize_in_destination %[[NEW]]#1 in %[[CI]]
//       CHECK:     scf.yield %[[HN]], %[[CN]], %[[Y]]
//       CHECK:   return %[[R]]#2, %[[R]]#0, %[[R]]#1
// The cell: the recurrent product plus the step's projection, the gates
// in PyTorch's order (i, f, g, o), the state update.
//       CHECK: func.func private @__tcc_lstm_cell(%[[XS:.+]]: tensor<?x64xf32>, %[[HS:.+]]: tensor<?x16xf32>, %[[CS:.+]]: tensor<?x16xf32>, %[[W:.+]]: tensor<64x16xf32>) -> (tensor<?x16xf32>, tensor<?x16xf32>) attributes {tcc.serial}
//       CHECK:   %[[G0:.+]] = tcc.linear %[[HS]], %[[W]]
//       CHECK:   %[[G:.+]] = tcc.add %[[G0]], %[[XS]]
//       CHECK:   %[[I:.+]] = tcc.slice %[[G]] {ends = array<i64: 9223372036854775807, 16>, starts = array<i64: 0, 0>}
//       CHECK:   tcc.sigmoid %[[I]]
//       CHECK:   tcc.slice %[[G]] {ends = array<i64: 9223372036854775807, 32>, starts = array<i64: 0, 16>}
//       CHECK:   tcc.sigmoid
//       CHECK:   tcc.slice %[[G]] {ends = array<i64: 9223372036854775807, 48>, starts = array<i64: 0, 32>}
//       CHECK:   tcc.tanh
//       CHECK:   tcc.slice %[[G]] {ends = array<i64: 9223372036854775807, 64>, starts = array<i64: 0, 48>}
//       CHECK:   tcc.sigmoid
//       CHECK:   return
func.func @dynamic(%x: tensor<?x?x8xf32>, %wih: tensor<64x8xf32>, %whh: tensor<64x16xf32>, %b: tensor<64xf32>, %h0: tensor<?x16xf32>, %c0: tensor<?x16xf32>) -> (tensor<?x?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>) {
  %y, %h, %c = tcc.lstm %x, %wih, %whh, %b, %h0, %c0 : (tensor<?x?x8xf32>, tensor<64x8xf32>, tensor<64x16xf32>, tensor<64xf32>, tensor<?x16xf32>, tensor<?x16xf32>) -> (tensor<?x?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>)
  return %y, %h, %c : tensor<?x?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>
}

// -----

// Static sizes, reverse: the step runs from T - 1 down; two layers of the
// same types share one cell function.
// CHECK-LABEL: func.func @static_reverse
//       CHECK:   scf.for %[[S:.+]] = %{{.+}} to %{{.+}} step
//       CHECK:     %[[POS:.+]] = arith.subi %{{.+}}, %[[S]] : index
//       CHECK:     tensor.extract_slice %{{.+}}[%[[POS]], 0, 0] [1, 2, 64] [1, 1, 1] : tensor<5x2x64xf32> to tensor<2x64xf32>
//       CHECK:     func.call @__tcc_lstm_cell(
//       CHECK:   scf.for
//       CHECK:     func.call @__tcc_lstm_cell(
//       CHECK:   func.func private @__tcc_lstm_cell(
//   CHECK-NOT:   func.func private @__tcc_lstm_cell
func.func @static_reverse(%x: tensor<5x2x16xf32>, %wih: tensor<64x16xf32>, %whh: tensor<64x16xf32>, %b: tensor<64xf32>, %h0: tensor<2x16xf32>) -> tensor<5x2x16xf32> {
  %y, %h, %c = tcc.lstm %x, %wih, %whh, %b, %h0, %h0 {reverse = true} : (tensor<5x2x16xf32>, tensor<64x16xf32>, tensor<64x16xf32>, tensor<64xf32>, tensor<2x16xf32>, tensor<2x16xf32>) -> (tensor<5x2x16xf32>, tensor<2x16xf32>, tensor<2x16xf32>)
  %y2, %h2, %c2 = tcc.lstm %y, %wih, %whh, %b, %h, %c : (tensor<5x2x16xf32>, tensor<64x16xf32>, tensor<64x16xf32>, tensor<64xf32>, tensor<2x16xf32>, tensor<2x16xf32>) -> (tensor<5x2x16xf32>, tensor<2x16xf32>, tensor<2x16xf32>)
  return %y2 : tensor<5x2x16xf32>
}

// -----

// tcc.gru: the projection carries b_ih; the loop carries h and y; the cell
// takes w_hh and b_hh, the recurrent product with b_hh inside the reset
// gate (PyTorch's linear_before_reset), r and z from the first two
// thirds, h' = n + z * (h - n).
// CHECK-LABEL: func.func @gru
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x?x8xf32>, %[[WIH:[a-zA-Z0-9_]+]]: tensor<48x8xf32>, %[[WHH:[a-zA-Z0-9_]+]]: tensor<48x16xf32>, %[[BIH:[a-zA-Z0-9_]+]]: tensor<48xf32>, %[[BHH:[a-zA-Z0-9_]+]]: tensor<48xf32>, %[[H0:[a-zA-Z0-9_]+]]: tensor<?x16xf32>
//       CHECK:   %[[P:.+]] = tcc.linear %[[X]], %[[WIH]], %[[BIH]] : (tensor<?x?x8xf32>, tensor<48x8xf32>, tensor<48xf32>) -> tensor<?x?x48xf32>
//       CHECK:   %[[H:.+]] = bufferization.alloc_tensor() copy(%[[H0]])
//       CHECK:   %[[R:.+]]:2 = scf.for %[[S:.+]] = {{.*}} iter_args(%[[HI:.+]] = %[[H]], %[[YI:.+]] = %{{.+}})
//       CHECK:     %[[XT:.+]] = tensor.extract_slice %[[P]][%[[S]], 0, 0] [1, %{{.+}}, 48]
//       CHECK:     %[[NEW:.+]] = func.call @__tcc_gru_cell(%[[XT]], %[[HI]], %[[WHH]], %[[BHH]])
//       CHECK:     bufferization.materialize_in_destination %[[NEW]] in %[[HI]]
// The reset-first form (ONNX's default) is a cell of its own.
//       CHECK:   func.call @__tcc_gru_cell_reset_first(
//       CHECK:   return %[[R]]#1, %[[R]]#0
//       CHECK: func.func private @__tcc_gru_cell(%[[XS:.+]]: tensor<?x48xf32>, %[[HS:.+]]: tensor<?x16xf32>, %[[W:.+]]: tensor<48x16xf32>, %[[B:.+]]: tensor<48xf32>) -> tensor<?x16xf32> attributes {tcc.serial}
//       CHECK:   %[[GH:.+]] = tcc.linear %[[HS]], %[[W]], %[[B]]
//   CHECK-DAG:   tcc.slice %[[XS]] {ends = array<i64: 9223372036854775807, 16>, starts = array<i64: 0, 0>}
//   CHECK-DAG:   tcc.slice %[[GH]] {ends = array<i64: 9223372036854775807, 16>, starts = array<i64: 0, 0>}
//       CHECK:   %[[RG:.+]] = tcc.sigmoid
//       CHECK:   %[[ZG:.+]] = tcc.sigmoid
//       CHECK:   %[[GN:.+]] = tcc.slice %[[GH]] {ends = array<i64: 9223372036854775807, 48>, starts = array<i64: 0, 32>}
//       CHECK:   %[[RN:.+]] = tcc.mul %[[RG]], %[[GN]]
//       CHECK:   %[[N:.+]] = tcc.tanh
//       CHECK:   %[[D:.+]] = tcc.sub %[[HS]], %[[N]]
//       CHECK:   %[[ZD:.+]] = tcc.mul %[[ZG]], %[[D]]
//       CHECK:   %[[HN:.+]] = tcc.add %[[N]], %[[ZD]]
//       CHECK:   return %[[HN]]
// Reset first: (r * h) @ w_hh[2H:]^T + b_hh[2H:].
//       CHECK: func.func private @__tcc_gru_cell_reset_first(
//       CHECK:   %[[RZ:.+]] = tcc.linear %{{.+}}, %{{.+}}, %{{.+}} : (tensor<?x16xf32>, tensor<32x16xf32>, tensor<32xf32>) -> tensor<?x32xf32>
//       CHECK:   %[[RH:.+]] = tcc.mul %{{.+}}, %{{.+}} : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x16xf32>
//       CHECK:   tcc.linear %[[RH]], %{{.+}}, %{{.+}} : (tensor<?x16xf32>, tensor<16x16xf32>, tensor<16xf32>) -> tensor<?x16xf32>
func.func @gru(%x: tensor<?x?x8xf32>, %wih: tensor<48x8xf32>, %whh: tensor<48x16xf32>, %bih: tensor<48xf32>, %bhh: tensor<48xf32>, %h0: tensor<?x16xf32>) -> (tensor<?x?x16xf32>, tensor<?x16xf32>, tensor<?x?x16xf32>) {
  %y, %h = tcc.gru %x, %wih, %whh, %bih, %bhh, %h0 : (tensor<?x?x8xf32>, tensor<48x8xf32>, tensor<48x16xf32>, tensor<48xf32>, tensor<48xf32>, tensor<?x16xf32>) -> (tensor<?x?x16xf32>, tensor<?x16xf32>)
  %y2, %h2 = tcc.gru %x, %wih, %whh, %bih, %bhh, %h0 {linear_before_reset = false} : (tensor<?x?x8xf32>, tensor<48x8xf32>, tensor<48x16xf32>, tensor<48xf32>, tensor<48xf32>, tensor<?x16xf32>) -> (tensor<?x?x16xf32>, tensor<?x16xf32>)
  return %y, %h, %y2 : tensor<?x?x16xf32>, tensor<?x16xf32>, tensor<?x?x16xf32>
}

// -----

// tcc.rnn: both biases in the projection; tanh and relu cells apart.
// CHECK-LABEL: func.func @rnn
//       CHECK:   tcc.linear %{{.+}}, %{{.+}}, %{{.+}} : (tensor<7x2x8xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<7x2x16xf32>
//       CHECK:   func.call @__tcc_rnn_tanh_cell(
//       CHECK:   func.call @__tcc_rnn_relu_cell(
//       CHECK: func.func private @__tcc_rnn_tanh_cell(%[[XS:.+]]: tensor<2x16xf32>, %[[HS:.+]]: tensor<2x16xf32>, %[[W:.+]]: tensor<16x16xf32>) -> tensor<2x16xf32>
//       CHECK:   %[[L:.+]] = tcc.linear %[[HS]], %[[W]] :
//       CHECK:   %[[A:.+]] = tcc.add %[[L]], %[[XS]]
//       CHECK:   tcc.tanh %[[A]]
//       CHECK: func.func private @__tcc_rnn_relu_cell(
//       CHECK:   tcc.relu
func.func @rnn(%x: tensor<7x2x8xf32>, %wih: tensor<16x8xf32>, %whh: tensor<16x16xf32>, %b: tensor<16xf32>, %h0: tensor<2x16xf32>) -> (tensor<7x2x16xf32>, tensor<7x2x16xf32>) {
  %y, %h = tcc.rnn %x, %wih, %whh, %b, %h0 : (tensor<7x2x8xf32>, tensor<16x8xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<2x16xf32>) -> (tensor<7x2x16xf32>, tensor<2x16xf32>)
  %y2, %h2 = tcc.rnn %x, %wih, %whh, %b, %h0 {nonlinearity = "relu", reverse = true} : (tensor<7x2x8xf32>, tensor<16x8xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<2x16xf32>) -> (tensor<7x2x16xf32>, tensor<2x16xf32>)
  return %y, %y2 : tensor<7x2x16xf32>, tensor<7x2x16xf32>
}

// -----

// Nothing to expand: the module is unchanged.
// CHECK-LABEL: func.func @none
//  CHECK-NEXT:   tcc.relu
//   CHECK-NOT:   scf.for
func.func @none(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tcc.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
