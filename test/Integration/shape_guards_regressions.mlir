// Regression tests for bugs found in review (each case says what used to
// happen).

// A constant side of an equality is printed once. Before the fix the message ends
// "vs 8 = 8".
func.func @derived_equality(%x: tensor<1x1x?x?xf32> {tcc.shape = #tcc.shape<[1, 1, H, W]>},
                            %y: tensor<1x1x8x1xf32>) -> tensor<1x1x?x?xf32> {
  %0 = tcc.max_pool2d %x {kernel_size = array<i64: 2, 2>} : (tensor<1x1x?x?xf32>) -> tensor<1x1x?x?xf32>
  %1 = tcc.add %0, %y : (tensor<1x1x?x?xf32>, tensor<1x1x8x1xf32>) -> tensor<1x1x?x?xf32>
  return %1 : tensor<1x1x?x?xf32>
}
// RUN: not tcc-run %s --function=derived_equality --input=1x1x14x2xf32=random --input=1x1x8x1xf32=random 2>&1 | FileCheck %s --check-prefix=DERIVED
// RUN: not tcc-run %s --function=derived_equality --input=1x1x14x2xf32=random --input=1x1x8x1xf32=random --no-host-shape-checks 2>&1 | FileCheck %s --check-prefix=DERIVED
// DERIVED: tcc-run: error: shape constraint H floordiv 2 == 8 does not hold: H floordiv 2 = 7 (H = 14) vs 8{{$}}

// A constraint whose lower bound is 0 on an expression with a negative term
// (B >= S) is checked. Before the fix --symbolic-shapes drops it, and the call runs.
func.func @lower_bound_zero(%x: tensor<?x?xf32> {tcc.shape = #tcc.shape<[B, S]>}) -> tensor<?x?xf32>
    attributes {tcc.constraints = ["B - S >= 0"]} {
  %0 = tcc.neg %x : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
// RUN: not tcc-run %s --function=lower_bound_zero --input=2x5xf32=random 2>&1 | FileCheck %s --check-prefix=LOWER
// RUN: not tcc-run %s --function=lower_bound_zero --input=2x5xf32=random --no-host-shape-checks 2>&1 | FileCheck %s --check-prefix=LOWER
// LOWER: tcc-run: error: B - S = -3 (B = 2, S = 5) outside [0, inf]
// RUN: tcc-run %s --function=lower_bound_zero --input=5x2xf32=random --check-reference | FileCheck %s --check-prefix=LOWER_OK
// LOWER_OK: [SUCCESS] result[0] matches the reference (5x2xf32)

// A window that does not fit its padded input is rejected at entry (the
// conv's size formula comes with the fact H + 0 >= 7). Before the fix the
// result had a negative size and tcc-run died with std::length_error.
func.func @conv_too_small(%x: tensor<?x3x?x?xf32> {tcc.shape = #tcc.shape<[N, 3, H, W]>},
                          %w: tensor<4x3x7x7xf32>) -> tensor<?x4x?x?xf32> {
  %0 = tcc.conv2d %x, %w : (tensor<?x3x?x?xf32>, tensor<4x3x7x7xf32>) -> tensor<?x4x?x?xf32>
  return %0 : tensor<?x4x?x?xf32>
}
// RUN: not tcc-run %s --function=conv_too_small --input=1x3x3x8xf32=random --input=4x3x7x7xf32=random 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: not tcc-run %s --function=conv_too_small --input=1x3x3x8xf32=random --input=4x3x7x7xf32=random --no-host-shape-checks 2>&1 | FileCheck %s --check-prefix=SMALL
// SMALL: tcc-run: error: H = 3 outside [7, inf]
// RUN: tcc-run %s --function=conv_too_small --input=2x3x7x9xf32=random --input=4x3x7x7xf32=random --check-reference | FileCheck %s --check-prefix=FITS
// FITS: [SUCCESS] result[0] matches the reference (2x4x1x3xf32)

// Refined types reach ops outside tcc through a tensor.cast: a private
// callee keeps its signature, and the call still verifies. Before the fix
// the pass changed the callee's argument types and the call failed to
// verify ("operand type mismatch").
func.func private @callee(%x: tensor<?x4xf32>, %y: tensor<8x4xf32>) -> tensor<?x4xf32> {
  %0 = tcc.add %x, %y : (tensor<?x4xf32>, tensor<8x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
func.func @caller(%x: tensor<?x4xf32>, %y: tensor<8x4xf32>) -> tensor<?x4xf32> {
  %0 = func.call @callee(%x, %y) : (tensor<?x4xf32>, tensor<8x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
// RUN: tcc-run %s --function=caller --input=8x4xf32=random --input=8x4xf32=random --check-reference | FileCheck %s --check-prefix=CALL
// CALL: [SUCCESS] result[0] matches the reference (8x4xf32)

// Facts on a private function are not trusted: nothing checks its callers'
// sizes. Before the fix `B % 8 == 0` on the private helper dropped the
// remainder loop, and B = 5 computed wrong values (and a range fact could
// size the memory arena too small).
func.func private @private_helper(%x: tensor<?x128xf32> {tcc.shape = #tcc.shape<[B, 128]>}, %w: tensor<96x128xf32>) -> tensor<?x96xf32>
    attributes {tcc.constraints = ["B % 8 == 0"]} {
  %0 = tcc.linear %x, %w : (tensor<?x128xf32>, tensor<96x128xf32>) -> tensor<?x96xf32>
  %1 = tcc.relu %0 : (tensor<?x96xf32>) -> tensor<?x96xf32>
  return %1 : tensor<?x96xf32>
}
func.func @calls_private(%x: tensor<?x128xf32>, %w: tensor<96x128xf32>) -> tensor<?x96xf32> {
  %0 = func.call @private_helper(%x, %w) : (tensor<?x128xf32>, tensor<96x128xf32>) -> tensor<?x96xf32>
  return %0 : tensor<?x96xf32>
}
// RUN: tcc-run %s --function=calls_private --input=5x128xf32=random --input=96x128xf32=random --check-reference | FileCheck %s --check-prefix=PRIV
// PRIV: [SUCCESS] result[0] matches the reference (5x96xf32)

// A reshape whose result type became static must still agree with its
// shape operand. Before the fix the operand was ignored and a 2x6 request
// produced a 3x4 result.
func.func @reshape_operand(%x: tensor<12xf32>, %s: tensor<2xi64>, %y: tensor<3x4xf32>) -> tensor<?x?xf32> {
  %r = tcc.reshape %x, %s : (tensor<12xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %0 = tcc.add %r, %y : (tensor<?x?xf32>, tensor<3x4xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
// RUN: not tcc-run %s --function=reshape_operand --input=12xf32=random "--input=2xi64=2 6" --input=3x4xf32=random 2>&1 | FileCheck %s --check-prefix=RSOP
// RSOP: tcc.reshape: the shape operand disagrees with the result's static size (dim 0)
// RUN: tcc-run %s --function=reshape_operand --input=12xf32=random "--input=2xi64=3 4" --input=3x4xf32=random --check-reference | FileCheck %s --check-prefix=RSOK
// RSOK: [SUCCESS] result[0] matches the reference (3x4xf32)

// Buckets that contradict the function's constraints hold no valid size and
// are dropped (B = 1 and 65..128 here). Before the fix the compile failed
// with "constraint 'B == 1' contradicts".
func.func @bucketed(%x: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B, 4]>}) -> tensor<?x4xf32>
    attributes {tcc.constraints = ["1 <= B <= 64", "B % 8 == 0"]} {
  %0 = tcc.relu %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
// RUN: tcc-run %s --function=bucketed --input=16x4xf32=random --buckets=B:1,8,64,128 --verbose --check-reference 2>&1 | FileCheck %s --check-prefix=BUCKETS
// BUCKETS: tcc-run: running @bucketed__B9_64 (bucket 9..64) with B = 16
// BUCKETS: [SUCCESS] result[0] matches the reference (16x4xf32)
// RUN: not tcc-run %s --function=bucketed --input=12x4xf32=random --buckets=B:1,8,64,128 2>&1 | FileCheck %s --check-prefix=BUCKET_BAD
// BUCKET_BAD: tcc-run: error: B = 12 is not a multiple of 8
