// Unsigned and i16 element types through the CPU pipeline: compiled code
// against values worked out by hand (and the reference evaluator).
// ui8: 200 + 100 wraps to 44, 250 / 7 = 35, 250 % 7 = 5, max(200, 100) and
// 200 > 100 compare unsigned, 200 -> f32 is 200.
// RUN: tcc-run %s --function=arith --input="4xui8=200 250 255 0" --input="4xui8=100 7 16 1" --expected_output="4xui8=44 1 15 1" --expected_output="4xui8=2 35 15 0" --expected_output="4xui8=0 5 15 0" --expected_output="4xui8=200 250 255 1" --expected_output="4xi1=1 1 1 0" --expected_output="4xf32=200 250 255 0" | FileCheck %s --check-prefix=ARITH
// ARITH-COUNT-6: [SUCCESS]
// RUN: tcc-run %s --function=arith --input="4xui8=200 250 255 0" --input="4xui8=100 7 16 1" --check-reference | FileCheck %s --check-prefix=REF
// REF-COUNT-6: [SUCCESS] {{.*}} matches the reference
func.func @arith(%a: tensor<?xui8>, %b: tensor<?xui8>) -> (tensor<?xui8>, tensor<?xui8>, tensor<?xui8>, tensor<?xui8>, tensor<?xi1>, tensor<?xf32>) {
  %s = tcc.add %a, %b : (tensor<?xui8>, tensor<?xui8>) -> tensor<?xui8>
  %d = tcc.div %a, %b : (tensor<?xui8>, tensor<?xui8>) -> tensor<?xui8>
  %r = tcc.rem %a, %b : (tensor<?xui8>, tensor<?xui8>) -> tensor<?xui8>
  %m = tcc.maximum %a, %b : (tensor<?xui8>, tensor<?xui8>) -> tensor<?xui8>
  %c = tcc.cmp %a, %b {predicate = "gt"} : (tensor<?xui8>, tensor<?xui8>) -> tensor<?xi1>
  %f = tcc.cast %a : (tensor<?xui8>) -> tensor<?xf32>
  return %s, %d, %r, %m, %c, %f : tensor<?xui8>, tensor<?xui8>, tensor<?xui8>, tensor<?xui8>, tensor<?xi1>, tensor<?xf32>
}

// ui64 above 2^63: (2^64 - 2) / 3 = 6148914691236517204, the max is 2^64 - 2,
// the min of all four is 1.
// RUN: tcc-run %s --function=wide --input="2xui64=18446744073709551614 9223372036854775808" --input="2xui64=3 1" --expected_output="2xui64=6148914691236517204 9223372036854775808" --expected_output="2xui64=18446744073709551614 9223372036854775808" --expected_output="ui64=1" | FileCheck %s --check-prefix=WIDE
// WIDE-COUNT-3: [SUCCESS]
// RUN: tcc-run %s --function=wide --input="2xui64=18446744073709551614 9223372036854775808" --input="2xui64=3 1" --check-reference | FileCheck %s --check-prefix=WIDEREF
// WIDEREF-COUNT-3: [SUCCESS] {{.*}} matches the reference
func.func @wide(%a: tensor<2xui64>, %b: tensor<2xui64>) -> (tensor<2xui64>, tensor<2xui64>, tensor<ui64>) {
  %d = tcc.div %a, %b : (tensor<2xui64>, tensor<2xui64>) -> tensor<2xui64>
  %m = tcc.maximum %a, %b : (tensor<2xui64>, tensor<2xui64>) -> tensor<2xui64>
  %all = tcc.concat %a, %b {axis = 0 : i64} : (tensor<2xui64>, tensor<2xui64>) -> tensor<4xui64>
  %lo = tcc.reduce_min %all {axes = array<i64: 0>} : (tensor<4xui64>) -> tensor<ui64>
  return %d, %m, %lo : tensor<2xui64>, tensor<2xui64>, tensor<ui64>
}

// Shifts and bitwise ops: ui8 1 << 7 = 128, 255 << 1 = 254, a shift by 8 is
// 0; i16 -16 >> 2 = -4 (arithmetic), -300 >> 16 is the sign (-1); 0xF0 & 0x3C
// = 0x30, ~0x0F = 0xF0.
// RUN: tcc-run %s --function=bits --input="4xui8=1 255 240 15" --input="4xui8=7 1 8 2" --input="4xi16=-16 16 -1 -300" --input="4xi16=2 2 15 16" --expected_output="4xui8=128 254 0 60" --expected_output="4xui8=0 127 0 3" --expected_output="4xi16=-4 4 -1 -1" --expected_output="4xui8=1 1 0 2" --expected_output="4xui8=254 0 15 240" | FileCheck %s --check-prefix=BITS
// BITS-COUNT-5: [SUCCESS]
// RUN: tcc-run %s --function=bits --input="4xui8=1 255 240 15" --input="4xui8=7 1 8 2" --input="4xi16=-16 16 -1 -300" --input="4xi16=2 2 15 16" --check-reference | FileCheck %s --check-prefix=BITSREF
// BITSREF-COUNT-5: [SUCCESS] {{.*}} matches the reference
func.func @bits(%a: tensor<4xui8>, %n: tensor<4xui8>, %s: tensor<4xi16>, %k: tensor<4xi16>) -> (tensor<4xui8>, tensor<4xui8>, tensor<4xi16>, tensor<4xui8>, tensor<4xui8>) {
  %l = tcc.shift_left %a, %n : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %r = tcc.shift_right %a, %n : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %sr = tcc.shift_right %s, %k : (tensor<4xi16>, tensor<4xi16>) -> tensor<4xi16>
  %and = tcc.bitwise_and %a, %n : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %not = tcc.bitwise_not %a : (tensor<4xui8>) -> tensor<4xui8>
  return %l, %r, %sr, %and, %not : tensor<4xui8>, tensor<4xui8>, tensor<4xi16>, tensor<4xui8>, tensor<4xui8>
}

// Ordered ops on ui8 beyond 127: a 2x2 max pool (padding counts as 0, the
// minimum), a descending sort and its indices, a scatter keeping the max.
// RUN: tcc-run %s --function=ordered --input="1x1x2x4xui8=10 200 3 128 127 0 255 1" --input="4xui8=5 200 130 7" --expected_output="1x1x1x2xui8=200 255" --expected_output="4xui8=200 130 7 5" --expected_output="4xi64=1 2 3 0" --expected_output="4xui8=200 200 130 7" | FileCheck %s --check-prefix=ORD
// ORD-COUNT-4: [SUCCESS]
// RUN: tcc-run %s --function=ordered --input="1x1x2x4xui8=10 200 3 128 127 0 255 1" --input="4xui8=5 200 130 7" --check-reference | FileCheck %s --check-prefix=ORDREF
// ORDREF-COUNT-4: [SUCCESS] {{.*}} matches the reference
func.func @ordered(%x: tensor<?x1x2x4xui8>, %v: tensor<4xui8>) -> (tensor<?x1x1x2xui8>, tensor<4xui8>, tensor<4xi64>, tensor<4xui8>) {
  %p = tcc.max_pool2d %x {kernel_size = array<i64: 2, 2>} : (tensor<?x1x2x4xui8>) -> tensor<?x1x1x2xui8>
  %s, %i = tcc.sort %v {descending = true} : (tensor<4xui8>) -> (tensor<4xui8>, tensor<4xi64>)
  %idx = tcc.constant dense<[1, 0, 0, 2]> : tensor<4xi64>
  %m = tcc.scatter_elements %v, %idx, %v {axis = 0 : i64, reduction = "max"} : (tensor<4xui8>, tensor<4xi64>, tensor<4xui8>) -> tensor<4xui8>
  return %p, %s, %i, %m : tensor<?x1x1x2xui8>, tensor<4xui8>, tensor<4xi64>, tensor<4xui8>
}
