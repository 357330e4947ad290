// Static size-0 dims through the CPU pipeline: a fused group that reduces
// an empty row computes nothing and is left untiled (MLIR's tiling does not
// take an empty range: this crashed the compiler); sums of no elements are
// 0 (torch.any / torch.all of an empty dim become such counts).
// RUN: tcc-run %s --function=empty_rows --input=3x6xf32=random --expected_output="3xi64=0 0 0" --expected_output="3xf32=0 0 0" | FileCheck %s
// RUN: tcc-run %s --function=empty_rows --input=3x6xf32=random --check-reference | FileCheck %s --check-prefix=REF
// CHECK: [SUCCESS] result[1] matches (3xf32)
// REF: [SUCCESS] result[1] matches the reference
func.func @empty_rows(%x: tensor<?x6xf32>) -> (tensor<?xi64>, tensor<?xf32>) {
  %e = tcc.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 9223372036854775807, 0>} : (tensor<?x6xf32>) -> tensor<?x0xf32>
  %zero = tcc.constant dense<0.0> : tensor<f32>
  %p = tcc.cmp %e, %zero {predicate = "gt"} : (tensor<?x0xf32>, tensor<f32>) -> tensor<?x0xi1>
  %a = tcc.cast %p : (tensor<?x0xi1>) -> tensor<?x0xi64>
  %s = tcc.reduce_sum %a {axes = array<i64: 1>} : (tensor<?x0xi64>) -> tensor<?xi64>
  %sq = tcc.mul %e, %e : (tensor<?x0xf32>, tensor<?x0xf32>) -> tensor<?x0xf32>
  %f = tcc.reduce_sum %sq {axes = array<i64: 1>} : (tensor<?x0xf32>) -> tensor<?xf32>
  return %s, %f : tensor<?xi64>, tensor<?xf32>
}
