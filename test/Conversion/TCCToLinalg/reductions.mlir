// RUN: tcc-opt %s --convert-tcc-to-linalg --split-input-file | FileCheck %s

// Reductions become a linalg.fill of the identity plus a generic with
// reduction iterators; f16/bf16 accumulate in f32 and round at the end.

// CHECK-DAG: #[[IN:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @reduce_sum_last
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x8xf32>
//       CHECK:   %[[D:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x8xf32>
//       CHECK:   %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
//       CHECK:   %[[E:.+]] = tensor.empty(%[[D]]) : tensor<?xf32>
//       CHECK:   %[[F:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<?xf32>)
//       CHECK:   %[[R:.+]] = linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "reduction"]}
//  CHECK-SAME:     ins(%[[X]] : tensor<?x8xf32>) outs(%[[F]] : tensor<?xf32>)
//       CHECK:   ^bb0(%[[V:.+]]: f32, %[[ACC:.+]]: f32):
//       CHECK:     %[[S:.+]] = arith.addf %[[V]], %[[ACC]] : f32
//       CHECK:     linalg.yield %[[S]]
//       CHECK:   return %[[R]]
func.func @reduce_sum_last(%x: tensor<?x8xf32>) -> tensor<?xf32> {
  %0 = tcc.reduce_sum %x {axes = array<i64: -1>} : (tensor<?x8xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// keep_dims puts the reduced dims back with tensor.expand_shape.
// CHECK-LABEL: func.func @reduce_keep_dims_f16
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x8xf16>
//       CHECK:   %[[F:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<?xf32>)
//       CHECK:   %[[R:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
//  CHECK-SAME:     ins(%[[X]] : tensor<?x8xf16>) outs(%[[F]] : tensor<?xf32>)
//       CHECK:   ^bb0(%[[V:.+]]: f16, %[[ACC:.+]]: f32):
//       CHECK:     %[[VE:.+]] = arith.extf %[[V]] : f16 to f32
//       CHECK:     arith.addf %[[VE]], %[[ACC]] : f32
//       CHECK:   %[[H:.+]] = linalg.generic {{.*}} ins(%[[R]] : tensor<?xf32>) outs(%{{.+}} : tensor<?xf16>)
//       CHECK:     arith.truncf %{{.+}} : f32 to f16
//       CHECK:   %[[D:.+]] = tensor.dim %[[H]], %{{.+}} : tensor<?xf16>
//       CHECK:   %[[K:.+]] = tensor.expand_shape %[[H]] {{\[}}[0, 1]] output_shape [%[[D]], 1] : tensor<?xf16> into tensor<?x1xf16>
//       CHECK:   return %[[K]]
func.func @reduce_keep_dims_f16(%x: tensor<?x8xf16>) -> tensor<?x1xf16> {
  %0 = tcc.reduce_sum %x {axes = array<i64: 1>, keep_dims = true} : (tensor<?x8xf16>) -> tensor<?x1xf16>
  return %0 : tensor<?x1xf16>
}

// -----

// Leading and trailing reduced dims fold into the kept dim's group.
// CHECK-DAG: #[[MID:.+]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @reduce_max_int_keep_outer
//       CHECK:   %[[MIN:.+]] = arith.constant -2147483648 : i32
//       CHECK:   linalg.fill ins(%[[MIN]] : i32)
//       CHECK:   %[[R:.+]] = linalg.generic {{.*}}#[[MID]]], iterator_types = ["reduction", "parallel", "reduction"]
//       CHECK:     arith.maxsi
//       CHECK:   tensor.expand_shape %[[R]] {{\[}}[0, 1, 2]] output_shape [1, 3, 1] : tensor<3xi32> into tensor<1x3x1xi32>
func.func @reduce_max_int_keep_outer(%x: tensor<2x3x4xi32>) -> tensor<1x3x1xi32> {
  %0 = tcc.reduce_max %x {axes = array<i64: 0, 2>, keep_dims = true} : (tensor<2x3x4xi32>) -> tensor<1x3x1xi32>
  return %0 : tensor<1x3x1xi32>
}

// -----

// An empty axes list reduces everything into a rank-0 accumulator; min
// starts from +inf.
// CHECK-DAG: #[[ALL:.+]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @reduce_min_all
//       CHECK:   %[[INF:.+]] = arith.constant 0x7F800000 : f32
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<f32>
//       CHECK:   linalg.fill ins(%[[INF]] : f32) outs(%[[E]] : tensor<f32>)
//       CHECK:   linalg.generic {{.*}}#[[ALL]]], iterator_types = ["reduction", "reduction"]
//       CHECK:     arith.minimumf
//       CHECK:   tensor.expand_shape %{{.+}} [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
func.func @reduce_min_all(%x: tensor<2x3xf32>) -> tensor<1x1xf32> {
  %0 = tcc.reduce_min %x {axes = array<i64>, keep_dims = true} : (tensor<2x3xf32>) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

// -----

// mean = sum / (product of the reduced dims); a dynamic reduced dim is read
// with tensor.dim.
// CHECK-LABEL: func.func @reduce_mean_dynamic
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<2x?x4xf32>
//       CHECK:   %[[SUM:.+]] = linalg.generic {{.*}}iterator_types = ["reduction", "reduction", "parallel"]
//       CHECK:   %[[ONE:.+]] = arith.constant 1 : index
//       CHECK:   %[[TWO:.+]] = arith.constant 2 : index
//       CHECK:   %[[P:.+]] = arith.muli %[[ONE]], %[[TWO]] : index
//       CHECK:   %[[D:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<2x?x4xf32>
//       CHECK:   %[[N:.+]] = arith.muli %[[P]], %[[D]] : index
//       CHECK:   %[[NI:.+]] = arith.index_cast %[[N]] : index to i64
//       CHECK:   %[[NF:.+]] = arith.sitofp %[[NI]] : i64 to f32
//       CHECK:   linalg.generic {{.*}} ins(%[[SUM]] : tensor<4xf32>)
//       CHECK:     arith.divf %{{.+}}, %[[NF]] : f32
func.func @reduce_mean_dynamic(%x: tensor<2x?x4xf32>) -> tensor<4xf32> {
  %0 = tcc.reduce_mean %x {axes = array<i64: 0, -2>} : (tensor<2x?x4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// softmax: row max, e = exp(x - max) once, its sum, e * (1 / sum)
// (numerically stable; one division per row). The max may ignore NaN and
// the sign of zero: a NaN in the row makes its sum, so every output, NaN
// whatever the max is.
// CHECK-LABEL: func.func @softmax
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<2x8xf32>
//       CHECK:   %[[NINF:.+]] = arith.constant 0xFF800000 : f32
//       CHECK:   %[[MF:.+]] = linalg.fill ins(%[[NINF]] : f32)
//       CHECK:   %[[MAX:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<2x8xf32>) outs(%[[MF]] : tensor<2xf32>)
//       CHECK:     arith.maximumf %{{.+}}, %{{.+}} fastmath<nnan,nsz> : f32
//       CHECK:   %[[EX:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[MAX]] : tensor<2x8xf32>, tensor<2xf32>)
//       CHECK:     %[[SH:.+]] = arith.subf
//       CHECK:     math.exp %[[SH]]
//       CHECK:   %[[SUM:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[EX]] : tensor<2x8xf32>)
//       CHECK:     arith.addf
//       CHECK:   %[[R:.+]] = linalg.generic {{.*}} ins(%[[EX]], %[[SUM]] : tensor<2x8xf32>, tensor<2xf32>)
//       CHECK:     %[[RCP:.+]] = arith.divf %{{.+}}, %{{.+}} : f32
//       CHECK:     arith.mulf %{{.+}}, %[[RCP]]
//       CHECK:   return %[[R]]
func.func @softmax(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = tcc.softmax %x {axis = -1 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// A lone float reduce_max propagates NaN: no fastmath flags.
// CHECK-LABEL: func.func @reduce_max_keeps_nan
//       CHECK:   linalg.generic
//       CHECK:     arith.maximumf %{{.+}}, %{{.+}} : f32
func.func @reduce_max_keeps_nan(%x: tensor<2x8xf32>) -> tensor<2xf32> {
  %0 = tcc.reduce_max %x {axes = array<i64: 1>} : (tensor<2x8xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// log_softmax over a leading axis: shifted - log(sum).
// CHECK-DAG: #[[RED0:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @log_softmax_axis0
//       CHECK:   linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]
//       CHECK:     arith.maximumf %{{.+}}, %{{.+}} fastmath<nnan,nsz> : f32
//       CHECK:   linalg.generic {{.*}}#[[RED0]]
//       CHECK:     %[[L:.+]] = math.log
//       CHECK:     arith.subf %{{.+}}, %[[L]]
//   CHECK-NOT:     arith.divf
func.func @log_softmax_axis0(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = tcc.log_softmax %x {axis = 0 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// layer_norm: mean, centered x, variance, rsqrt(var + eps), then
// (x - mean) * rstd * weight + bias with weight/bias over the trailing dims;
// the last multiply and the add may contract into an FMA.
// CHECK-DAG: #[[TRAIL:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @layer_norm
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<?x8xf32>, %[[W:[a-zA-Z0-9_]+]]: tensor<8xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<8xf32>
//       CHECK:   %[[EPS:.+]] = arith.constant 9.99999974E-6 : f32
//       CHECK:   %[[SUM:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[X]]
//       CHECK:   %[[MEAN:.+]] = linalg.generic {{.*}} ins(%[[SUM]]
//       CHECK:     arith.divf
//       CHECK:   %[[C:.+]] = linalg.generic {{.*}} ins(%[[X]], %[[MEAN]]
//       CHECK:     arith.subf
//       CHECK:   %[[SQ:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[C]]
//       CHECK:     %[[M:.+]] = arith.mulf %[[V:.+]], %[[V]] : f32
//       CHECK:     arith.addf %[[M]]
//       CHECK:   %[[RSTD:.+]] = linalg.generic {{.*}} ins(%[[SQ]]
//       CHECK:     %[[VAR:.+]] = arith.divf
//       CHECK:     %[[VE:.+]] = arith.addf %[[VAR]], %[[EPS]] : f32
//       CHECK:     math.rsqrt %[[VE]]
//       CHECK:   %[[R:.+]] = linalg.generic {{.*}}#[[TRAIL]], #[[TRAIL]]{{.*}} ins(%[[C]], %[[RSTD]], %[[W]], %[[B]] : tensor<?x8xf32>, tensor<?xf32>, tensor<8xf32>, tensor<8xf32>)
//       CHECK:     %[[N:.+]] = arith.mulf %{{.+}}, %{{.+}} : f32
//       CHECK:     %[[NW:.+]] = arith.mulf %[[N]], %{{.+}} fastmath<contract> : f32
//       CHECK:     arith.addf %[[NW]], %{{.+}} fastmath<contract> : f32
//       CHECK:   return %[[R]]
func.func @layer_norm(%x: tensor<?x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<?x8xf32> {
  %0 = tcc.layer_norm %x, %w, %b : (tensor<?x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

// rms_norm: no centering, no bias.
// CHECK-LABEL: func.func @rms_norm
//  CHECK-SAME:   %[[X:[a-zA-Z0-9_]+]]: tensor<2x4x8xbf16>, %[[W:[a-zA-Z0-9_]+]]: tensor<4x8xbf16>
//       CHECK:   %[[SQ:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "reduction"]} ins(%[[X]] : tensor<2x4x8xbf16>) outs(%{{.+}} : tensor<2xf32>)
//       CHECK:     arith.extf
//       CHECK:     arith.mulf
//       CHECK:   math.rsqrt
//       CHECK:   %[[R:.+]] = linalg.generic {{.*}} ins(%[[X]], %{{.+}}, %[[W]] : tensor<2x4x8xbf16>, tensor<2xf32>, tensor<4x8xbf16>) outs(%{{.+}} : tensor<2x4x8xbf16>)
//       CHECK:     arith.truncf %{{.+}} : f32 to bf16
//       CHECK:   return %[[R]]
func.func @rms_norm(%x: tensor<2x4x8xbf16>, %w: tensor<4x8xbf16>) -> tensor<2x4x8xbf16> {
  %0 = tcc.rms_norm %x, %w {axis = 1 : i64} : (tensor<2x4x8xbf16>, tensor<4x8xbf16>) -> tensor<2x4x8xbf16>
  return %0 : tensor<2x4x8xbf16>
}

// -----

// batch_norm is one elementwise generic; the parameters are indexed by the
// channel dim.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[CH:.+]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @batch_norm
//       CHECK:   linalg.generic {indexing_maps = [#[[ID]], #[[CH]], #[[CH]], #[[CH]], #[[CH]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
//       CHECK:   ^bb0(%[[X:.+]]: f32, %[[S:.+]]: f32, %[[B:.+]]: f32, %[[M:.+]]: f32, %[[V:.+]]: f32, %{{.+}}: f32):
//       CHECK:     %[[EPS:.+]] = arith.constant 1.000000e-03 : f32
//       CHECK:     %[[VE:.+]] = arith.addf %[[V]], %[[EPS]]
//       CHECK:     %[[RSTD:.+]] = math.rsqrt %[[VE]]
//       CHECK:     %[[C:.+]] = arith.subf %[[X]], %[[M]]
//       CHECK:     %[[N:.+]] = arith.mulf %[[C]], %[[RSTD]]
//       CHECK:     %[[SC:.+]] = arith.mulf %[[N]], %[[S]]
//       CHECK:     %[[Y:.+]] = arith.addf %[[SC]], %[[B]]
//       CHECK:     linalg.yield %[[Y]]
func.func @batch_norm(%x: tensor<?x3x4x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<?x3x4x4xf32> {
  %0 = tcc.batch_norm %x, %s, %b, %m, %v {epsilon = 1.0e-3 : f32}
      : (tensor<?x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<?x3x4x4xf32>
  return %0 : tensor<?x3x4x4xf32>
}

// -----

// reduce_prod starts from 1 and multiplies (muli on integers).
// CHECK-LABEL: func.func @reduce_prod
//       CHECK:   %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
//       CHECK:   linalg.fill ins(%[[ONE]] : f32)
//       CHECK:   arith.mulf
//       CHECK:   %[[IONE:.+]] = arith.constant 1 : i32
//       CHECK:   linalg.fill ins(%[[IONE]] : i32)
//       CHECK:   arith.muli
func.func @reduce_prod(%x: tensor<?x3xf32>, %y: tensor<4x?xi32>) -> (tensor<?xf32>, tensor<4x1xi32>) {
  %0 = tcc.reduce_prod %x {axes = array<i64: 1>} : (tensor<?x3xf32>) -> tensor<?xf32>
  %1 = tcc.reduce_prod %y {axes = array<i64: -1>, keep_dims = true} : (tensor<4x?xi32>) -> tensor<4x1xi32>
  return %0, %1 : tensor<?xf32>, tensor<4x1xi32>
}
