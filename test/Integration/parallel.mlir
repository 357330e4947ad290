// Groups large enough for tcc-lower-fusion-groups to mark a tile loop
// parallel (OpenMP across cores); the compiled results must match the
// reference evaluator, and the pipeline must actually produce an OpenMP
// region for them.
// RUN: tcc-opt %s --tcc-cpu-pipeline | FileCheck %s --check-prefix=OMP
// OMP: omp.parallel
// OMP: omp.wsloop
// RUN: tcc-run %s --function=mlp --input=300x96xf32=random --input=256x96xf32=random --input=256xf32=random --check-reference | FileCheck %s --check-prefix=MLP
// MLP: [SUCCESS] result[0] matches the reference (300x256xf32)
// RUN: tcc-run %s --function=rows --input=4x97x512xf32=random --input=512xf32=random --input=512xf32=random --check-reference | FileCheck %s --check-prefix=ROWS
// ROWS: [SUCCESS] result[0] matches the reference (4x97x512xf32)
// RUN: tcc-run %s --function=mlp --no-parallel --input=300x96xf32=random --input=256x96xf32=random --input=256xf32=random --check-reference | FileCheck %s --check-prefix=MLP

func.func @mlp(%x: tensor<?x96xf32>, %w: tensor<256x96xf32>, %b: tensor<256xf32>) -> tensor<?x256xf32> {
  %0 = tcc.linear %x, %w, %b : (tensor<?x96xf32>, tensor<256x96xf32>, tensor<256xf32>) -> tensor<?x256xf32>
  %1 = tcc.gelu %0 {approximate = "tanh"} : (tensor<?x256xf32>) -> tensor<?x256xf32>
  return %1 : tensor<?x256xf32>
}

func.func @rows(%x: tensor<?x97x512xf32>, %g: tensor<512xf32>, %b: tensor<512xf32>) -> tensor<?x97x512xf32> {
  %0 = tcc.layer_norm %x, %g, %b {axis = 2 : i64} : (tensor<?x97x512xf32>, tensor<512xf32>, tensor<512xf32>) -> tensor<?x97x512xf32>
  %1 = tcc.softmax %0 {axis = -1 : i64} : (tensor<?x97x512xf32>) -> tensor<?x97x512xf32>
  return %1 : tensor<?x97x512xf32>
}
