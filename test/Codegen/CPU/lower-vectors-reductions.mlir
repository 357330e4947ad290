// RUN: tcc-opt %s --tcc-lower-vectors=avx512=off --split-input-file | FileCheck %s

// The horizontal step of a float sum over a tile's lanes may reassociate:
// the lanes already hold partial sums of a reordered loop. A multi-
// reduction of the row tile's accumulators becomes inner reductions, each
// marked reassoc (LLVM then reduces with a shuffle tree instead of one
// dependent add per lane).
// CHECK-LABEL: func.func @row_sum
//   CHECK-NOT:   vector.multi_reduction
//       CHECK:   vector.reduction <add>, %{{.+}}, %{{.+}} fastmath<reassoc> : vector<64xf32> into f32
//       CHECK:   return
func.func @row_sum(%acc: vector<64xf32>, %init: f32) -> f32 {
  %0 = vector.multi_reduction <add>, %acc, %init [0] : vector<64xf32> to f32
  return %0 : f32
}

// -----

// Products too; flags already there are kept.
// CHECK-LABEL: func.func @products
//       CHECK:   vector.reduction <mul>, %{{.+}} fastmath<reassoc> : vector<16xf32> into f32
//       CHECK:   vector.reduction <add>, %{{.+}} fastmath<reassoc,nnan> : vector<16xf32> into f32
func.func @products(%v: vector<16xf32>) -> (f32, f32) {
  %0 = vector.reduction <mul>, %v : vector<16xf32> into f32
  %1 = vector.reduction <add>, %v fastmath<nnan> : vector<16xf32> into f32
  return %0, %1 : f32, f32
}

// -----

// Negative: integer sums are exact in any order (nothing to mark), and a
// maximum is order-independent already.
// CHECK-LABEL: func.func @untouched
//       CHECK:   vector.reduction <add>, %{{.+}} : vector<16xi32> into i32
//       CHECK:   vector.reduction <maxnumf>, %{{.+}} : vector<16xf32> into f32
//   CHECK-NOT:   reassoc
func.func @untouched(%i: vector<16xi32>, %f: vector<16xf32>) -> (i32, f32) {
  %0 = vector.reduction <add>, %i : vector<16xi32> into i32
  %1 = vector.reduction <maxnumf>, %f : vector<16xf32> into f32
  return %0, %1 : i32, f32
}
