// RUN: tcc-opt %s --tcc-lower-function-level-ifs --split-input-file | FileCheck %s

// An scf.if in the function's body (a per-call library dispatch) becomes
// blocks; the one in the loop, and the loop, stay structured.
// CHECK-LABEL: func.func @dispatch
//       CHECK:   cf.cond_br %{{.+}}, ^[[THEN:.+]], ^[[ELSE:.+]]
//       CHECK: ^[[THEN]]:
//       CHECK:   cf.br ^[[JOIN:.+]](%{{.+}} : memref<4xf32>)
//       CHECK: ^[[ELSE]]:
//       CHECK:   scf.for
//       CHECK:     scf.if
//       CHECK:   cf.br ^[[JOIN]](%{{.+}} : memref<4xf32>)
//       CHECK: ^[[JOIN]](%[[R:.+]]: memref<4xf32>):
//       CHECK:   return %[[R]]
func.func @dispatch(%c: i1, %a: memref<4xf32>, %b: memref<4xf32>, %f: f32) -> memref<4xf32> {
  %r = scf.if %c -> (memref<4xf32>) {
    scf.yield %a : memref<4xf32>
  } else {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %p = arith.cmpi eq, %i, %c0 : index
      scf.if %p {
        memref.store %f, %b[%i] : memref<4xf32>
      }
    }
    scf.yield %b : memref<4xf32>
  }
  return %r : memref<4xf32>
}

// -----

// Nothing to do: no scf.if at the function's level.
// CHECK-LABEL: func.func @nested_only
//   CHECK-NOT:   cf.cond_br
//       CHECK:   memref.alloca_scope
//       CHECK:     scf.if
func.func @nested_only(%c: i1, %b: memref<4xf32>, %f: f32) {
  memref.alloca_scope {
    scf.if %c {
      %c0 = arith.constant 0 : index
      memref.store %f, %b[%c0] : memref<4xf32>
    }
  }
  return
}
