// Results large enough for streaming stores (more than 64 MiB): softmax
// and layer_norm rows are scaled and streamed out during the next row's
// busiest pass (tcc-pipeline-row-stores). 4099 rows: 64 chunks of 64 rows
// and one of 3. Compared with the reference evaluator, static and with the
// rows dynamic (4100), and the pipeline's structure checked in the
// compiled IR.
// RUN: tcc-run %s --function=softmax --random-inputs --check-reference | FileCheck %s --check-prefix=SM
// SM: [SUCCESS] result[0] matches the reference (4099x4096xf32)
// RUN: tcc-run %s --function=softmax_dyn --input=4100x4096xf32=random --check-reference | FileCheck %s --check-prefix=SM_DYN
// SM_DYN: [SUCCESS] result[0] matches the reference (4100x4096xf32)
// RUN: tcc-run %s --function=layer_norm --input=4100x4096xf32=random --input=4096xf32=random --input=4096xf32=random --check-reference | FileCheck %s --check-prefix=LN
// LN: [SUCCESS] result[0] matches the reference (4100x4096xf32)
// RUN: tcc-opt %s --tcc-cpu-pipeline --mlir-print-ir-after=tcc-pipeline-row-stores 2>&1 >/dev/null | FileCheck %s --check-prefix=IR
// The row loops are the kernel tcc-outline-kernels made of the group.
// IR-LABEL: func.func private @softmax_kernel(
//       IR:   scf.parallel
//       IR:     scf.for {{.+}} iter_args
//       IR:       scf.if
//       IR:         nontemporal = true
//       IR:       } else {

func.func @softmax(%x: tensor<4099x4096xf32>) -> tensor<4099x4096xf32> {
  %0 = tcc.softmax %x {axis = 1 : i64} : (tensor<4099x4096xf32>) -> tensor<4099x4096xf32>
  return %0 : tensor<4099x4096xf32>
}

func.func @softmax_dyn(%x: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %0 = tcc.softmax %x {axis = 1 : i64} : (tensor<?x4096xf32>) -> tensor<?x4096xf32>
  return %0 : tensor<?x4096xf32>
}

func.func @layer_norm(%x: tensor<?x4096xf32>, %w: tensor<4096xf32>, %b: tensor<4096xf32>) -> tensor<?x4096xf32> {
  %0 = tcc.layer_norm %x, %w, %b {axis = 1 : i64, epsilon = 1.0e-05 : f32} : (tensor<?x4096xf32>, tensor<4096xf32>, tensor<4096xf32>) -> tensor<?x4096xf32>
  return %0 : tensor<?x4096xf32>
}
