// RUN: tcc-opt %s --convert-tcc-to-linalg --split-input-file | FileCheck %s

// Unsigned element types become signless (signatures included, dynamic
// dims kept). Ordered ops run on the signed type with the sign bit
// flipped on the way in and out; a flip of a flip is dropped.

// CHECK-LABEL: func.func @ordered
//  CHECK-SAME:   %[[A:[a-z0-9]+]]: tensor<?x4xi8>, %[[B:[a-z0-9]+]]: tensor<?x4xi8>) -> (tensor<?x4xi8>, tensor<?xi8>)
//       CHECK:   %[[MASK:.+]] = arith.constant dense<-128> : tensor<i8>
//       CHECK:   %[[FA:.+]] = linalg.generic {{.*}} ins(%[[A]], %[[MASK]] :
//       CHECK:     arith.xori
//       CHECK:   %[[FB:.+]] = linalg.generic {{.*}} ins(%[[B]], %{{.+}} :
//       CHECK:     arith.xori
//       CHECK:   %[[M:.+]] = linalg.generic {{.*}} ins(%[[FA]], %[[FB]] :
//       CHECK:     arith.maxsi
//       CHECK:   %[[UM:.+]] = linalg.generic {{.*}} ins(%[[M]], %{{.+}} :
//       CHECK:     arith.xori
//       CHECK:   %[[INIT:.+]] = linalg.fill ins(%{{.+}} : i8)
//       CHECK:   %[[R:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[M]] : tensor<?x4xi8>) outs(%[[INIT]]
//       CHECK:     arith.maxsi
//       CHECK:   %[[UR:.+]] = linalg.generic {{.*}} ins(%[[R]], %{{.+}} :
//       CHECK:     arith.xori
//       CHECK:   return %[[UM]], %[[UR]] : tensor<?x4xi8>, tensor<?xi8>
//   CHECK-NOT: ui8
func.func @ordered(%a: tensor<?x4xui8>, %b: tensor<?x4xui8>) -> (tensor<?x4xui8>, tensor<?xui8>) {
  %m = tcc.maximum %a, %b : (tensor<?x4xui8>, tensor<?x4xui8>) -> tensor<?x4xui8>
  %r = tcc.reduce_max %m {axes = array<i64: 1>} : (tensor<?x4xui8>) -> tensor<?xui8>
  return %m, %r : tensor<?x4xui8>, tensor<?xui8>
}

// -----

// Division, remainders and compares pick the unsigned arith ops.

// CHECK-LABEL: func.func @divide
//  CHECK-SAME:   tensor<?xi64>
//       CHECK:   arith.divui {{.*}} : i64
//       CHECK:   arith.remui {{.*}} : i64
//       CHECK:   arith.xori
//       CHECK:   arith.cmpi slt
func.func @divide(%a: tensor<?xui64>, %b: tensor<?xui64>) -> (tensor<?xui64>, tensor<?xui64>, tensor<?xi1>) {
  %d = tcc.div %a, %b : (tensor<?xui64>, tensor<?xui64>) -> tensor<?xui64>
  %r = tcc.rem %a, %b : (tensor<?xui64>, tensor<?xui64>) -> tensor<?xui64>
  %c = tcc.cmp %a, %b {predicate = "lt"} : (tensor<?xui64>, tensor<?xui64>) -> tensor<?xi1>
  return %d, %r, %c : tensor<?xui64>, tensor<?xui64>, tensor<?xi1>
}

// -----

// Casts from and to unsigned types; relu of an unsigned tensor is the
// tensor.

// CHECK-LABEL: func.func @casts
//  CHECK-SAME:   %[[A:[a-z0-9]+]]: tensor<4xi16>, %[[F:[a-z0-9]+]]: tensor<4xf32>
//       CHECK:   arith.uitofp %{{.+}} : i16 to f32
//       CHECK:   arith.extui %{{.+}} : i16 to i64
//       CHECK:   %[[W:.+]] = arith.fptosi %{{.+}} : f32 to i64
//       CHECK:   arith.trunci %[[W]] : i64 to i8
//       CHECK:   return %{{.+}}, %{{.+}}, %{{.+}}, %[[A]] :
func.func @casts(%a: tensor<4xui16>, %f: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi64>, tensor<4xui8>, tensor<4xui16>) {
  %0 = tcc.cast %a : (tensor<4xui16>) -> tensor<4xf32>
  %1 = tcc.cast %a : (tensor<4xui16>) -> tensor<4xi64>
  %2 = tcc.cast %f : (tensor<4xf32>) -> tensor<4xui8>
  %3 = tcc.relu %a : (tensor<4xui16>) -> tensor<4xui16>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xi64>, tensor<4xui8>, tensor<4xui16>
}

// -----

// Shifts: arith's are poison for amounts of at least the width, so a
// select gives tcc's 0 (or the sign, for a signed right shift).

// CHECK-LABEL: func.func @shifts
//       CHECK:   %[[W32:.+]] = arith.constant 32 : i32
//       CHECK:   %[[OUT:.+]] = arith.cmpi uge, %{{.+}}, %[[W32]] : i32
//       CHECK:   %[[SH:.+]] = arith.shrui
//       CHECK:   arith.select %[[OUT]], %{{.+}}, %[[SH]] : i32
//       CHECK:   %[[W16:.+]] = arith.constant 16 : i16
//       CHECK:   %[[OUT16:.+]] = arith.cmpi uge, %{{.+}}, %[[W16]] : i16
//       CHECK:   %[[C15:.+]] = arith.constant 15 : i16
//       CHECK:   %[[N:.+]] = arith.select %[[OUT16]], %[[C15]], %{{.+}} : i16
//       CHECK:   arith.shrsi %{{.+}}, %[[N]] : i16
//       CHECK:   arith.constant dense<[1, 2, 3, -294967296]> : tensor<4xi32>
//       CHECK:   arith.shli
//       CHECK:   arith.cmpi uge
//       CHECK:   arith.select
func.func @shifts(%a: tensor<4xui32>, %n: tensor<4xui32>, %s: tensor<4xi16>, %k: tensor<4xi16>) -> (tensor<4xui32>, tensor<4xi16>, tensor<4xui32>) {
  %0 = tcc.shift_right %a, %n : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  %1 = tcc.shift_right %s, %k : (tensor<4xi16>, tensor<4xi16>) -> tensor<4xi16>
  %c = tcc.constant dense<[1, 2, 3, 4000000000]> : tensor<4xui32>
  %2 = tcc.shift_left %c, %n : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  return %0, %1, %2 : tensor<4xui32>, tensor<4xi16>, tensor<4xui32>
}

// -----

// Bitwise ops; not is xor with all ones (on i1: logical not).

// CHECK-LABEL: func.func @bitwise
//       CHECK:   arith.andi {{.*}} : i8
//       CHECK:   arith.ori {{.*}} : i8
//       CHECK:   %[[ONES:.+]] = arith.constant true
//       CHECK:   arith.xori %{{.+}}, %[[ONES]] : i1
func.func @bitwise(%a: tensor<4xi8>, %b: tensor<4xi8>, %p: tensor<4xi1>) -> (tensor<4xi8>, tensor<4xi8>, tensor<4xi1>) {
  %0 = tcc.bitwise_and %a, %b : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  %1 = tcc.bitwise_or %a, %b : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  %2 = tcc.bitwise_not %p : (tensor<4xi1>) -> tensor<4xi1>
  return %0, %1, %2 : tensor<4xi8>, tensor<4xi8>, tensor<4xi1>
}

// -----

// Groups keep their structure: results and block arguments become
// signless. Max pooling of unsigned values pads with the flipped minimum.

// CHECK-LABEL: func.func @group
//  CHECK-SAME:   tensor<?x1x4x4xi8>
//       CHECK:   fusion.group "pointwise"(%{{.+}} : tensor<?x1x4x4xi8>) -> tensor<?x1x2x2xi8>
//       CHECK:   ^bb0(%{{.+}}: tensor<?x1x4x4xi8>):
//       CHECK:     arith.xori
//       CHECK:     %[[MIN:.+]] = arith.constant -128 : i8
//       CHECK:     %[[INIT:.+]] = linalg.fill ins(%[[MIN]] : i8)
//       CHECK:     linalg.pooling_nchw_max {{.*}} outs(%[[INIT]] : tensor<?x1x2x2xi8>)
//       CHECK:     arith.xori
//       CHECK:     fusion.yield %{{.+}} : tensor<?x1x2x2xi8>
//   CHECK-NOT: ui8
func.func @group(%x: tensor<?x1x4x4xui8>) -> tensor<?x1x2x2xui8> {
  %0 = fusion.group "pointwise"(%x : tensor<?x1x4x4xui8>) -> tensor<?x1x2x2xui8> {
  ^bb0(%a: tensor<?x1x4x4xui8>):
    %p = tcc.max_pool2d %a {kernel_size = array<i64: 2, 2>} : (tensor<?x1x4x4xui8>) -> tensor<?x1x2x2xui8>
    fusion.yield %p : tensor<?x1x2x2xui8>
  }
  return %0 : tensor<?x1x2x2xui8>
}
