// RUN: tcc-opt %s --convert-tcc-to-linalg --split-input-file | FileCheck %s

// Elementwise ops become one linalg.generic over the broadcast result shape;
// operands that broadcast get indexing maps that drop leading dims and pin
// stretched size-1 dims to 0.

// CHECK-DAG: #[[ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[LAST:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @add_broadcast_rank
//  CHECK-SAME:   %[[A:[a-zA-Z0-9_]+]]: tensor<?x8xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<8xf32>
//       CHECK:   %[[C0:.+]] = arith.constant 0 : index
//       CHECK:   %[[D0:.+]] = tensor.dim %[[A]], %[[C0]] : tensor<?x8xf32>
//   CHECK-NOT:   cf.assert
//       CHECK:   %[[INIT:.+]] = tensor.empty(%[[D0]]) : tensor<?x8xf32>
//       CHECK:   %[[R:.+]] = linalg.generic {indexing_maps = [#[[ID2]], #[[LAST]], #[[ID2]]], iterator_types = ["parallel", "parallel"]}
//  CHECK-SAME:     ins(%[[A]], %[[B]] : tensor<?x8xf32>, tensor<8xf32>) outs(%[[INIT]] : tensor<?x8xf32>)
//       CHECK:   ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
//       CHECK:     %[[S:.+]] = arith.addf %[[X]], %[[Y]] : f32
//       CHECK:     linalg.yield %[[S]] : f32
//       CHECK:   return %[[R]]
func.func @add_broadcast_rank(%a: tensor<?x8xf32>, %b: tensor<8xf32>) -> tensor<?x8xf32> {
  %0 = tcc.add %a, %b : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

// Size-1 dims that stretch read element 0.
// CHECK-DAG: #[[COL:.+]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-DAG: #[[ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @sub_stretch
//       CHECK:   %[[INIT:.+]] = tensor.empty() : tensor<4x8xf32>
//       CHECK:   linalg.generic {indexing_maps = [#[[COL]], #[[ROW]], #[[ID2]]]
//  CHECK-SAME:     outs(%[[INIT]] : tensor<4x8xf32>)
//       CHECK:     arith.subf
func.func @sub_stretch(%a: tensor<4x1xf32>, %b: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %0 = tcc.sub %a, %b : (tensor<4x1xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A rank-0 operand maps to no dims.
// CHECK-DAG: #[[SCALAR:.+]] = affine_map<(d0) -> ()>
// CHECK-DAG: #[[ID1:.+]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @mul_scalar
//       CHECK:   linalg.generic {indexing_maps = [#[[ID1]], #[[SCALAR]], #[[ID1]]]
//       CHECK:     arith.mulf
func.func @mul_scalar(%a: tensor<4xf32>, %s: tensor<f32>) -> tensor<4xf32> {
  %0 = tcc.mul %a, %s : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Two dynamic dims that broadcast against each other must agree at runtime.
// CHECK-LABEL: func.func @add_dynamic_dynamic
//  CHECK-SAME:   %[[A:[a-zA-Z0-9_]+]]: tensor<?xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<?xf32>
//   CHECK-DAG:   %[[DA:.+]] = tensor.dim %[[A]], %{{.+}} : tensor<?xf32>
//   CHECK-DAG:   %[[DB:.+]] = tensor.dim %[[B]], %{{.+}} : tensor<?xf32>
//       CHECK:   %[[EQ:.+]] = arith.cmpi eq, %[[DB]], %[[DA]] : index
//       CHECK:   cf.assert %[[EQ]], "tcc.add: dynamic dims disagree at runtime (dim 0)"
//       CHECK:   tensor.empty(%[[DA]]) : tensor<?xf32>
//       CHECK:   linalg.generic
func.func @add_dynamic_dynamic(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = tcc.add %a, %b : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A dynamic dim against a static one is checked against the constant.
// CHECK-LABEL: func.func @div_dynamic_static
//  CHECK-SAME:   %[[A:[a-zA-Z0-9_]+]]: tensor<?x4xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<3x4xf32>
//       CHECK:   %[[C3:.+]] = arith.constant 3 : index
//       CHECK:   %[[DA:.+]] = tensor.dim %[[A]], %{{.+}} : tensor<?x4xf32>
//       CHECK:   %[[EQ:.+]] = arith.cmpi eq, %[[DA]], %[[C3]] : index
//       CHECK:   cf.assert %[[EQ]], "tcc.div: dynamic dims disagree at runtime (dim 0)"
//       CHECK:   tensor.empty() : tensor<3x4xf32>
//       CHECK:     arith.divf
func.func @div_dynamic_static(%a: tensor<?x4xf32>, %b: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = tcc.div %a, %b : (tensor<?x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// f16 and bf16 compute in f32: extend the operands, round the result.
// CHECK-LABEL: func.func @f16_compute
//       CHECK:   linalg.generic
//       CHECK:   ^bb0(%[[X:.+]]: f16, %[[Y:.+]]: f16, %{{.+}}: f16):
//   CHECK-DAG:     %[[XE:.+]] = arith.extf %[[X]] : f16 to f32
//   CHECK-DAG:     %[[YE:.+]] = arith.extf %[[Y]] : f16 to f32
//       CHECK:     %[[P:.+]] = math.powf %[[XE]], %[[YE]] : f32
//       CHECK:     %[[T:.+]] = arith.truncf %[[P]] : f32 to f16
//       CHECK:     linalg.yield %[[T]] : f16
// CHECK-LABEL: func.func @bf16_compute
//       CHECK:   ^bb0(%[[X:.+]]: bf16, %{{.+}}: bf16):
//       CHECK:     %[[XE:.+]] = arith.extf %[[X]] : bf16 to f32
//       CHECK:     %[[E:.+]] = math.exp %[[XE]] : f32
//       CHECK:     %[[T:.+]] = arith.truncf %[[E]] : f32 to bf16
//       CHECK:     linalg.yield %[[T]] : bf16
func.func @f16_compute(%a: tensor<4xf16>, %b: tensor<4xf16>) -> tensor<4xf16> {
  %0 = tcc.pow %a, %b : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
func.func @bf16_compute(%a: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = tcc.exp %a : (tensor<4xbf16>) -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// f32 and f64 compute in their own type.
// CHECK-LABEL: func.func @f64_compute
//   CHECK-NOT:   arith.extf
//       CHECK:     math.sqrt %{{.+}} : f64
//   CHECK-NOT:   arith.truncf
func.func @f64_compute(%a: tensor<4xf64>) -> tensor<4xf64> {
  %0 = tcc.sqrt %a : (tensor<4xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// Integer arithmetic: signed division, max/min, and neg/abs/relu.
// CHECK-LABEL: func.func @integers
//       CHECK:     arith.addi %{{.+}}, %{{.+}} : i32
//       CHECK:     arith.divsi %{{.+}}, %{{.+}} : i32
//       CHECK:     arith.maxsi %{{.+}}, %{{.+}} : i32
//       CHECK:     arith.minsi %{{.+}}, %{{.+}} : i32
//       CHECK:     %[[Z:.+]] = arith.constant 0 : i32
//       CHECK:     arith.subi %[[Z]], %{{.+}} : i32
//       CHECK:     %[[NEG:.+]] = arith.cmpi slt, %{{.+}}, %{{.+}} : i32
//       CHECK:     arith.select %[[NEG]], %{{.+}}, %{{.+}} : i32
//       CHECK:     %[[Z2:.+]] = arith.constant 0 : i32
//       CHECK:     arith.maxsi %{{.+}}, %[[Z2]] : i32
func.func @integers(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tcc.add %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = tcc.div %0, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %2 = tcc.maximum %1, %a : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %3 = tcc.minimum %2, %a : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %4 = tcc.neg %3 : (tensor<4xi32>) -> tensor<4xi32>
  %5 = tcc.abs %4 : (tensor<4xi32>) -> tensor<4xi32>
  %6 = tcc.relu %5 : (tensor<4xi32>) -> tensor<4xi32>
  return %6 : tensor<4xi32>
}

// -----

// NaN-propagating float max/min; relu is max(x, 0).
// CHECK-LABEL: func.func @float_max_min_relu
//       CHECK:     arith.maximumf
//       CHECK:     arith.minimumf
//       CHECK:     %[[Z:.+]] = arith.constant 0.000000e+00 : f32
//       CHECK:     arith.maximumf %{{.+}}, %[[Z]] : f32
//       CHECK:     arith.negf
//       CHECK:     math.absf
func.func @float_max_min_relu(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tcc.maximum %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = tcc.minimum %0, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = tcc.relu %1 : (tensor<4xf32>) -> tensor<4xf32>
  %3 = tcc.neg %2 : (tensor<4xf32>) -> tensor<4xf32>
  %4 = tcc.abs %3 : (tensor<4xf32>) -> tensor<4xf32>
  return %4 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @transcendentals
//       CHECK:     math.log
//       CHECK:     math.rsqrt
//       CHECK:     math.tanh
//       CHECK:     math.erf
// sigmoid = 1 / (1 + exp(-x))
//       CHECK:     %[[N:.+]] = arith.negf %[[X:.+]] : f32
//       CHECK:     %[[E:.+]] = math.exp %[[N]] : f32
//       CHECK:     %[[D:.+]] = arith.addf %{{.+}}, %[[E]] : f32
//       CHECK:     arith.divf %{{.+}}, %[[D]] : f32
// silu = x * sigmoid(x)
//       CHECK:     ^bb0(%[[SX:.+]]: f32, %{{.+}}: f32):
//       CHECK:     math.exp
//       CHECK:     %[[SIG:.+]] = arith.divf
//       CHECK:     arith.mulf %[[SX]], %[[SIG]] : f32
func.func @transcendentals(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tcc.log %a : (tensor<4xf32>) -> tensor<4xf32>
  %1 = tcc.rsqrt %0 : (tensor<4xf32>) -> tensor<4xf32>
  %2 = tcc.tanh %1 : (tensor<4xf32>) -> tensor<4xf32>
  %3 = tcc.erf %2 : (tensor<4xf32>) -> tensor<4xf32>
  %4 = tcc.sigmoid %3 : (tensor<4xf32>) -> tensor<4xf32>
  %5 = tcc.silu %4 : (tensor<4xf32>) -> tensor<4xf32>
  return %5 : tensor<4xf32>
}

// -----

// One math op per element; round is roundeven (ONNX's and numpy's halves to
// even); rem is frem on floats, remsi on integers (the dividend's sign).
// CHECK-LABEL: func.func @math_ops
//       CHECK:     math.sin
//       CHECK:     math.cos
//       CHECK:     math.tan
//       CHECK:     math.asin
//       CHECK:     math.acos
//       CHECK:     math.atan
//       CHECK:     math.sinh
//       CHECK:     math.cosh
//       CHECK:     math.asinh
//       CHECK:     math.acosh
//       CHECK:     math.atanh
//       CHECK:     math.floor
//       CHECK:     math.ceil
//       CHECK:     math.roundeven
//       CHECK:     arith.remf
//       CHECK:     arith.remsi
func.func @math_ops(%a: tensor<?x4xf32>, %i: tensor<4xi64>) -> (tensor<?x4xf32>, tensor<4xi64>) {
  %0 = tcc.sin %a : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = tcc.cos %0 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %2 = tcc.tan %1 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %3 = tcc.asin %2 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %4 = tcc.acos %3 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %5 = tcc.atan %4 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %6 = tcc.sinh %5 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %7 = tcc.cosh %6 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %8 = tcc.asinh %7 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %9 = tcc.acosh %8 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %10 = tcc.atanh %9 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %11 = tcc.floor %10 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %12 = tcc.ceil %11 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %13 = tcc.round %12 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %14 = tcc.rem %13, %a : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %15 = tcc.rem %i, %i : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  return %14, %15 : tensor<?x4xf32>, tensor<4xi64>
}

// -----

// gelu: erf form by default, tanh form on request.
// CHECK-LABEL: func.func @gelu_none
//       CHECK:     %[[C:.+]] = arith.constant 0.70710{{[0-9]+}} : f32
//       CHECK:     %[[S:.+]] = arith.mulf %{{.+}}, %[[C]] : f32
//       CHECK:     math.erf %[[S]] : f32
//   CHECK-NOT:     math.tanh
// CHECK-LABEL: func.func @gelu_tanh
//       CHECK:     arith.constant 4.471500e-02 : f32
//       CHECK:     arith.constant 0.797884{{[0-9]*}} : f32
//       CHECK:     math.tanh
//   CHECK-NOT:     math.erf
func.func @gelu_none(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tcc.gelu %a : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @gelu_tanh(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tcc.gelu %a {approximate = "tanh"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Float compares are ordered except ne (true for NaN); integer compares are
// signed, i1 compares unsigned.
// CHECK-LABEL: func.func @compares
//       CHECK:     arith.cmpf oeq
//       CHECK:     arith.cmpf une
//       CHECK:     arith.cmpf olt
//       CHECK:     arith.cmpf ole
//       CHECK:     arith.cmpf ogt
//       CHECK:     arith.cmpf oge
//       CHECK:     arith.cmpi slt, %{{.+}}, %{{.+}} : i32
//       CHECK:     arith.cmpi sge, %{{.+}}, %{{.+}} : i32
//       CHECK:     arith.cmpi ult, %{{.+}}, %{{.+}} : i1
//       CHECK:     arith.cmpi ne, %{{.+}}, %{{.+}} : i1
func.func @compares(%a: tensor<4xf32>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  %0 = tcc.cmp %a, %a {predicate = "eq"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = tcc.cmp %a, %a {predicate = "ne"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %2 = tcc.cmp %a, %a {predicate = "lt"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %3 = tcc.cmp %a, %a {predicate = "le"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %4 = tcc.cmp %a, %a {predicate = "gt"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %5 = tcc.cmp %a, %a {predicate = "ge"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %6 = tcc.cmp %i, %i {predicate = "lt"} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %7 = tcc.cmp %i, %i {predicate = "ge"} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %8 = tcc.cmp %b, %b {predicate = "lt"} : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %9 = tcc.cmp %b, %b {predicate = "ne"} : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

// select broadcasts all three operands.
// CHECK-DAG: #[[C:.+]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[S:.+]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @select
//       CHECK:   linalg.generic {indexing_maps = [#[[C]], #[[ID]], #[[S]], #[[ID]]]
//       CHECK:   ^bb0(%[[P:.+]]: i1, %[[T:.+]]: f32, %[[F:.+]]: f32, %{{.+}}: f32):
//       CHECK:     arith.select %[[P]], %[[T]], %[[F]] : f32
func.func @select(%c: tensor<4x1xi1>, %a: tensor<4x8xf32>, %b: tensor<f32>) -> tensor<4x8xf32> {
  %0 = tcc.select %c, %a, %b : (tensor<4x1xi1>, tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// cast: float -> int truncates toward zero, anything -> i1 is x != 0,
// i1 -> float is unsigned, f16 <-> bf16 goes through f32.
// CHECK-LABEL: func.func @casts
//       CHECK:     arith.fptosi %{{.+}} : f32 to i8
//       CHECK:     %[[Z:.+]] = arith.constant 0.000000e+00 : f32
//       CHECK:     arith.cmpf une, %{{.+}}, %[[Z]] : f32
//       CHECK:     arith.uitofp %{{.+}} : i1 to f16
//       CHECK:     %[[W:.+]] = arith.extf %{{.+}} : f16 to f32
//       CHECK:     arith.truncf %[[W]] : f32 to bf16
//       CHECK:     arith.sitofp %{{.+}} : i8 to f64
//       CHECK:     arith.extsi %{{.+}} : i8 to i64
//       CHECK:     arith.trunci %{{.+}} : i64 to i32
//       CHECK:     arith.extui %{{.+}} : i1 to i32
func.func @casts(%f: tensor<4xf32>, %b: tensor<4xi1>, %i: tensor<4xi8>) {
  %0 = tcc.cast %f : (tensor<4xf32>) -> tensor<4xi8>
  %1 = tcc.cast %f : (tensor<4xf32>) -> tensor<4xi1>
  %2 = tcc.cast %b : (tensor<4xi1>) -> tensor<4xf16>
  %3 = tcc.cast %2 : (tensor<4xf16>) -> tensor<4xbf16>
  %4 = tcc.cast %i : (tensor<4xi8>) -> tensor<4xf64>
  %5 = tcc.cast %i : (tensor<4xi8>) -> tensor<4xi64>
  %6 = tcc.cast %5 : (tensor<4xi64>) -> tensor<4xi32>
  %7 = tcc.cast %b : (tensor<4xi1>) -> tensor<4xi32>
  return
}

// -----

// Ops inside a fusion.group are lowered in place; the group survives.
// CHECK-LABEL: func.func @inside_group
//       CHECK:   %[[G:.+]] = fusion.group "pointwise"
//       CHECK:     %[[E:.+]] = linalg.generic
//       CHECK:       math.exp
//       CHECK:     %[[R:.+]] = linalg.generic {{.*}} ins(%[[E]]
//       CHECK:       arith.maximumf
//       CHECK:     fusion.yield %[[R]] : tensor<4xf32>
//   CHECK-NOT:   tcc.
//       CHECK:   return %[[G]]
func.func @inside_group(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = fusion.group "pointwise" (%a : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    %0 = tcc.exp %x : (tensor<4xf32>) -> tensor<4xf32>
    %1 = tcc.relu %0 : (tensor<4xf32>) -> tensor<4xf32>
    fusion.yield %1 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
