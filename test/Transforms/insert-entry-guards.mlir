// RUN: tcc-opt %s --tcc-insert-entry-guards --split-input-file --verify-diagnostics | FileCheck %s

// --tcc-insert-entry-guards runs on bufferized functions. Every public
// function gets an i64 status as its first result; its entry block reads the
// argument sizes (memref.dim) and evaluates the guards of ShapeGuards.h,
// selecting the 1-based index of the first one that fails (0 when all
// hold); a cond_br runs the original body on 0 and otherwise returns the
// status and poison. The shape attributes are consumed (the signatures
// below are checked up to their opening brace: no attributes are left).

// Guards, in order: 1 = input 0 dim 1 is 256 (static), 2 = input 1 dim 0
// equals input 0 dim 0 (B, which input 0 dim 0 defines), 3 = 1 <= B <= 64,
// 4 = B % 8 == 0. They are chained from the last to the first, so the
// lowest failing index wins. The static dim 1 of %x would fold to 256 in
// memref.dim: the argument takes a fully dynamic type, and a cast back to
// the static type, after the guards, replaces its uses.
// CHECK:       #[[ID:.+]] = affine_map<()[s0] -> (s0)>
// CHECK-LABEL: func.func @guards
//  CHECK-SAME:   (%[[X:[a-zA-Z0-9_]+]]: memref<?x?xf32>, %[[Y:[a-zA-Z0-9_]+]]: memref<?xf32>) -> (i64, memref<?x256xf32>) {
//       CHECK:   %[[B:.+]] = memref.dim %[[X]], %{{.+}} : memref<?x?xf32>
//       CHECK:   %[[OK:.+]] = arith.constant 0 : i64
// Guard 4: B % 8 == 0.
//       CHECK:   %[[C8:.+]] = arith.constant 8 : index
//       CHECK:   %[[E4:.+]] = affine.apply #[[ID]]()[%[[B]]]
//       CHECK:   %[[R4:.+]] = arith.remsi %[[E4]], %[[C8]] : index
//       CHECK:   %[[OK4:.+]] = arith.cmpi eq, %[[R4]], %{{.+}} : index
//       CHECK:   %[[K4:.+]] = arith.constant 4 : i64
//       CHECK:   %[[S4:.+]] = arith.select %[[OK4]], %[[OK]], %[[K4]] : i64
// Guard 3: 1 <= B <= 64.
//       CHECK:   %[[E3:.+]] = affine.apply #[[ID]]()[%[[B]]]
//       CHECK:   %[[C1:.+]] = arith.constant 1 : index
//       CHECK:   %[[GE:.+]] = arith.cmpi sge, %[[E3]], %[[C1]] : index
//       CHECK:   %[[C64:.+]] = arith.constant 64 : index
//       CHECK:   %[[LE:.+]] = arith.cmpi sle, %[[E3]], %[[C64]] : index
//       CHECK:   %[[OK3:.+]] = arith.andi %[[GE]], %[[LE]] : i1
//       CHECK:   %[[K3:.+]] = arith.constant 3 : i64
//       CHECK:   %[[S3:.+]] = arith.select %[[OK3]], %[[S4]], %[[K3]] : i64
// Guard 2: input 1 dim 0 == input 0 dim 0.
//       CHECK:   %[[XD0:.+]] = memref.dim %[[X]], %{{.+}} : memref<?x?xf32>
//       CHECK:   %[[YD0:.+]] = memref.dim %[[Y]], %{{.+}} : memref<?xf32>
//       CHECK:   %[[OK2:.+]] = arith.cmpi eq, %[[YD0]], %[[XD0]] : index
//       CHECK:   %[[K2:.+]] = arith.constant 2 : i64
//       CHECK:   %[[S2:.+]] = arith.select %[[OK2]], %[[S3]], %[[K2]] : i64
// Guard 1: input 0 dim 1 == 256, read from the now dynamic argument.
//       CHECK:   %[[C256:.+]] = arith.constant 256 : index
//       CHECK:   %[[C1B:.+]] = arith.constant 1 : index
//       CHECK:   %[[XD1:.+]] = memref.dim %[[X]], %[[C1B]] : memref<?x?xf32>
//       CHECK:   %[[OK1:.+]] = arith.cmpi eq, %[[XD1]], %[[C256]] : index
//       CHECK:   %[[K1:.+]] = arith.constant 1 : i64
//       CHECK:   %[[STATUS:.+]] = arith.select %[[OK1]], %[[S2]], %[[K1]] : i64
//       CHECK:   %[[PASS:.+]] = arith.cmpi eq, %[[STATUS]], %{{.+}} : i64
//       CHECK:   cf.cond_br %[[PASS]], ^[[BODY:bb[0-9]+]], ^[[FAIL:bb[0-9]+]]
//       CHECK: ^[[BODY]]:
// A reinterpret_cast (canonicalization would fold a memref.cast into its
// users), its dynamic size the argument's own.
//       CHECK:   %[[CAST:.+]] = memref.reinterpret_cast %[[X]] to offset: [0], sizes: [%{{.+}}, 256], strides: [256, 1] : memref<?x?xf32> to memref<?x256xf32>
//       CHECK:   %[[ZERO:.+]] = arith.constant 0 : i64
//       CHECK:   return %[[ZERO]], %[[CAST]] : i64, memref<?x256xf32>
//       CHECK: ^[[FAIL]]:
//       CHECK:   %[[POISON:.+]] = ub.poison : memref<?x256xf32>
//       CHECK:   return %[[STATUS]], %[[POISON]] : i64, memref<?x256xf32>
func.func @guards(%x: memref<?x256xf32> {tcc.shape = #tcc.shape<[B, 256]>, tcc.name = "obs"},
                  %y: memref<?xf32> {tcc.shape = #tcc.shape<[B]>}) -> memref<?x256xf32>
    attributes {tcc.constraints = ["1 <= B <= 64", "B % 8 == 0"]} {
  return %x : memref<?x256xf32>
}

// -----

// Dims that are expressions of other inputs' dims (DimExpr) are checked after
// every symbol is defined, with affine.apply over the symbols (N, H, W =
// dims 0, 2, 3 of input 0); then the Equal constraint. A function without
// results returns the status alone.
// CHECK-DAG:   #[[HO:.+]] = affine_map<()[s0, s1, s2] -> ((s1 - 1) floordiv 2 + 1)>
// CHECK-DAG:   #[[WO:.+]] = affine_map<()[s0, s1, s2] -> ((s2 - 1) floordiv 2 + 1)>
// CHECK-DAG:   #[[TWOH:.+]] = affine_map<()[s0, s1, s2] -> (s1 * 2)>
// CHECK-DAG:   #[[WP4:.+]] = affine_map<()[s0, s1, s2] -> (s2 + 4)>
// CHECK-LABEL: func.func @dim_expressions
//  CHECK-SAME:   (%[[X:[a-zA-Z0-9_]+]]: memref<?x?x?x?xf32>, %[[Y:[a-zA-Z0-9_]+]]: memref<?x?x?x?xf32>) -> i64 {
//       CHECK:   %[[N:.+]] = memref.dim %[[X]], %{{.+}}
//       CHECK:   %[[H:.+]] = memref.dim %[[X]], %{{.+}}
//       CHECK:   %[[W:.+]] = memref.dim %[[X]], %{{.+}}
// Guard 6: H * 2 == W + 4.
//       CHECK:   %[[WP:.+]] = affine.apply #[[WP4]]()[%[[N]], %[[H]], %[[W]]]
//       CHECK:   %[[TH:.+]] = affine.apply #[[TWOH]]()[%[[N]], %[[H]], %[[W]]]
//       CHECK:   arith.cmpi eq, %[[TH]], %[[WP]] : index
//       CHECK:   arith.constant 6 : i64
// Guard 5: input 1 dim 3 == (W - 1) floordiv 2 + 1.
//       CHECK:   %[[EW:.+]] = affine.apply #[[WO]]()[%[[N]], %[[H]], %[[W]]]
//       CHECK:   %[[YD3:.+]] = memref.dim %[[Y]], %{{.+}}
//       CHECK:   arith.cmpi eq, %[[YD3]], %[[EW]] : index
//       CHECK:   arith.constant 5 : i64
// Guard 4: input 1 dim 2 == (H - 1) floordiv 2 + 1.
//       CHECK:   %[[EH:.+]] = affine.apply #[[HO]]()[%[[N]], %[[H]], %[[W]]]
//       CHECK:   %[[YD2:.+]] = memref.dim %[[Y]], %{{.+}}
//       CHECK:   arith.cmpi eq, %[[YD2]], %[[EH]] : index
//       CHECK:   arith.constant 4 : i64
//       CHECK:   cf.cond_br %{{.+}}, ^[[BODY:bb[0-9]+]], ^[[FAIL:bb[0-9]+]]
//       CHECK: ^[[BODY]]:
// Dynamic inner dims make dynamic strides, products of the dims.
//       CHECK:   memref.reinterpret_cast %[[X]] to offset: [0], sizes: [%{{.+}}, 3, %{{.+}}, %{{.+}}], strides: [%{{.+}}, %{{.+}}, %{{.+}}, 1] : memref<?x?x?x?xf32> to memref<?x3x?x?xf32>
//       CHECK:   %[[ZERO:.+]] = arith.constant 0 : i64
//       CHECK:   return %[[ZERO]] : i64
//       CHECK: ^[[FAIL]]:
//   CHECK-NOT:   ub.poison
//       CHECK:   return %{{.+}} : i64
func.func @dim_expressions(%x: memref<?x3x?x?xf32> {tcc.shape = #tcc.shape<[N, 3, H, W]>},
                           %y: memref<?x8x?x?xf32> {tcc.shape = #tcc.shape<[N, 8, (H - 1) floordiv 2 + 1, (W - 1) floordiv 2 + 1]>})
    attributes {tcc.constraints = ["H * 2 == W + 4"]} {
  return
}

// -----

// Every return of the body gets the 0 status; every use of a static argument
// (calls, loads, stores in any block) goes through the cast. Private
// functions and declarations are left alone, non-memref arguments too.
// CHECK-LABEL: func.func private @helper(%{{.+}}: memref<2x3xf32>) -> memref<2x3xf32>
// CHECK-LABEL: func.func private @decl(memref<2x3xf32>)
// CHECK-LABEL: func.func @two_returns
//  CHECK-SAME:   (%[[C:[a-zA-Z0-9_]+]]: i1, %[[X:[a-zA-Z0-9_]+]]: memref<?x?xf32>) -> (i64, memref<2x3xf32>)
//       CHECK:   cf.cond_br %{{.+}}, ^[[BODY:bb[0-9]+]], ^[[FAIL:bb[0-9]+]]
//       CHECK: ^[[BODY]]:
//       CHECK:   %[[CAST:.+]] = memref.reinterpret_cast %[[X]] to offset: [0], sizes: [2, 3], strides: [3, 1] : memref<?x?xf32> to memref<2x3xf32>
//       CHECK:   cf.cond_br %[[C]], ^[[A:bb[0-9]+]], ^[[B:bb[0-9]+]]
//       CHECK: ^[[A]]:
//       CHECK:   %[[R:.+]] = call @helper(%[[CAST]])
//       CHECK:   %[[Z1:.+]] = arith.constant 0 : i64
//       CHECK:   return %[[Z1]], %[[R]] : i64, memref<2x3xf32>
//       CHECK: ^[[B]]:
//       CHECK:   %[[V:.+]] = memref.load %[[CAST]]
//       CHECK:   memref.store %[[V]], %[[CAST]]
//       CHECK:   %[[Z2:.+]] = arith.constant 0 : i64
//       CHECK:   return %[[Z2]], %[[CAST]] : i64, memref<2x3xf32>
//       CHECK: ^[[FAIL]]:
//       CHECK:   ub.poison : memref<2x3xf32>
func.func private @helper(%x: memref<2x3xf32>) -> memref<2x3xf32> {
  return %x : memref<2x3xf32>
}
func.func private @decl(%x: memref<2x3xf32>)
func.func @two_returns(%c: i1, %x: memref<2x3xf32>) -> memref<2x3xf32> {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %r = func.call @helper(%x) : (memref<2x3xf32>) -> memref<2x3xf32>
  return %r : memref<2x3xf32>
^bb2:
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0, %c0] : memref<2x3xf32>
  memref.store %v, %x[%c0, %c0] : memref<2x3xf32>
  return %x : memref<2x3xf32>
}

// -----

// Nothing to check: the status is the constant 0 (canonicalization removes
// the branch later).
// CHECK-LABEL: func.func @no_guards
//  CHECK-SAME:   (%[[X:[a-zA-Z0-9_]+]]: memref<?xf32>) -> (i64, memref<?xf32>)
//   CHECK-NOT:   arith.select
//       CHECK:   cf.cond_br
//       CHECK:   return %{{.+}}, %[[X]] : i64, memref<?xf32>
//       CHECK:   ub.poison
func.func @no_guards(%x: memref<?xf32>) -> memref<?xf32> {
  return %x : memref<?xf32>
}

// -----

// Entry points are only called from outside.
// expected-error @+1 {{public function @entry is called from the module: entry points cannot be called internally}}
func.func @entry(%x: memref<?xf32>) -> memref<?xf32> {
  return %x : memref<?xf32>
}
func.func @caller(%x: memref<?xf32>) -> memref<?xf32> {
  %0 = func.call @entry(%x) : (memref<?xf32>) -> memref<?xf32>
  return %0 : memref<?xf32>
}

// -----

// A constraint over a name that no argument dim defines cannot be checked.
// expected-error @+1 {{the shape constraints name S, which no input dim defines}}
func.func @undefined_symbol(%x: memref<?xf32> {tcc.shape = #tcc.shape<[B]>}) -> memref<?xf32>
    attributes {tcc.constraints = ["B * 2 == S"]} {
  return %x : memref<?xf32>
}
