// RUN: tcc-opt %s --tcc-lower-multi-dynamic-expand-shapes --split-input-file | FileCheck %s
// The rewritten form goes through expand-strided-metadata (which crashes
// on the original in MLIR 22):
// RUN: tcc-opt %s --tcc-lower-multi-dynamic-expand-shapes --expand-strided-metadata --split-input-file | FileCheck %s --check-prefix=META

// [B * S, 8] -> [B, S, 8], B and S open: strides (S * 8, 8, 1).
// CHECK-LABEL: func.func @two_dynamic_in_a_group
//  CHECK-SAME:   (%[[SRC:.+]]: memref<?x8xf32>, %[[B:.+]]: index, %[[S:.+]]: index)
//       CHECK:   %[[BASE:.+]], %{{.+}}, %{{.+}}:2, %{{.+}}:2 = memref.extract_strided_metadata %[[SRC]]
//       CHECK:   %[[STRIDE:.+]] = affine.apply #{{.+}}()[%[[S]]]
//       CHECK:   memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [%[[B]], %[[S]], 8], strides: [%[[STRIDE]], 8, 1]
//  CHECK-NOT:   memref.expand_shape
// META-LABEL: func.func @two_dynamic_in_a_group
//   META-NOT:   memref.expand_shape
func.func @two_dynamic_in_a_group(%src: memref<?x8xf32>, %b: index, %s: index) -> memref<?x?x8xf32> {
  %0 = memref.expand_shape %src [[0, 1], [2]] output_shape [%b, %s, 8]
      : memref<?x8xf32> into memref<?x?x8xf32>
  return %0 : memref<?x?x8xf32>
}

// -----

// A strided source: the group's innermost dim keeps the source's stride,
// the offset comes from the metadata.
// CHECK-LABEL: func.func @strided_source
//       CHECK:   %[[BASE:.+]], %[[OFF:.+]], %{{.+}}:2, %[[STRIDES:.+]]:2 = memref.extract_strided_metadata
//       CHECK:   %[[OUTER:.+]] = affine.apply #{{.+}}()[%[[STRIDES]]#0, %{{.+}}]
//       CHECK:   memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF]]], sizes: [%{{.+}}, %{{.+}}, 4], strides: [%[[OUTER]], %[[STRIDES]]#0, 1]
func.func @strided_source(%src: memref<?x4xf32, strided<[?, 1], offset: ?>>, %b: index, %s: index)
    -> memref<?x?x4xf32, strided<[?, ?, 1], offset: ?>> {
  %0 = memref.expand_shape %src [[0, 1], [2]] output_shape [%b, %s, 4]
      : memref<?x4xf32, strided<[?, 1], offset: ?>> into memref<?x?x4xf32, strided<[?, ?, 1], offset: ?>>
  return %0 : memref<?x?x4xf32, strided<[?, ?, 1], offset: ?>>
}

// -----

// Three dims from one, two of them open, one static in the middle.
// CHECK-LABEL: func.func @three_way_split
//  CHECK-SAME:   (%{{.+}}: memref<?xf32>, %{{.+}}: index, %[[C:.+]]: index)
//       CHECK:   %[[OUTER:.+]] = affine.apply #{{.+}}()[%[[C]]]
//       CHECK:   memref.reinterpret_cast %{{.+}} to offset: [0], sizes: [%{{.+}}, 3, %[[C]]], strides: [%[[OUTER]], %[[C]], 1]
func.func @three_way_split(%src: memref<?xf32>, %a: index, %c: index) -> memref<?x3x?xf32> {
  %0 = memref.expand_shape %src [[0, 1, 2]] output_shape [%a, 3, %c]
      : memref<?xf32> into memref<?x3x?xf32>
  return %0 : memref<?x3x?xf32>
}

// -----

// At most one open size per group: left to expand-strided-metadata.
// CHECK-LABEL: func.func @one_dynamic_stays
//       CHECK:   memref.expand_shape
//   CHECK-NOT:   memref.reinterpret_cast
func.func @one_dynamic_stays(%src: memref<?x8xf32>, %b: index) -> memref<?x4x8xf32> {
  %0 = memref.expand_shape %src [[0, 1], [2]] output_shape [%b, 4, 8]
      : memref<?x8xf32> into memref<?x4x8xf32>
  return %0 : memref<?x4x8xf32>
}

// -----

// CHECK-LABEL: func.func @static_stays
//       CHECK:   memref.expand_shape
func.func @static_stays(%src: memref<24xf32>) -> memref<2x3x4xf32> {
  %0 = memref.expand_shape %src [[0, 1, 2]] output_shape [2, 3, 4]
      : memref<24xf32> into memref<2x3x4xf32>
  return %0 : memref<2x3x4xf32>
}
