// RUN: tcc-opt %s --tcc-use-workspace | FileCheck %s

// The arena's allocation becomes a call of the runtime's tcc_workspace with
// the same byte count, and its free goes; other allocations stay.
// CHECK:       func.func private @tcc_workspace(index) -> memref<?xi8> attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @f
//  CHECK-SAME:   %[[N:[a-zA-Z0-9_]+]]: index
//       CHECK:   %[[WS:.+]] = call @tcc_workspace(%[[N]]) : (index) -> memref<?xi8>
//       CHECK:   memref.view %[[WS]]
//       CHECK:   %[[R:.+]] = memref.alloc() : memref<4xf32>
//   CHECK-NOT:   memref.dealloc %[[WS]]
//       CHECK:   return %[[R]]
func.func @f(%n: index) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %arena = memref.alloc(%n) {alignment = 64 : i64, tcc.arena_alloc} : memref<?xi8>
  %v = memref.view %arena[%c0][] : memref<?xi8> to memref<4xf32>
  %r = memref.alloc() : memref<4xf32>
  memref.copy %v, %r : memref<4xf32> to memref<4xf32>
  memref.dealloc %arena : memref<?xi8>
  return %r : memref<4xf32>
}
