// RUN: tcc-opt %s --tcc-insert-entry-guards | FileCheck %s

// Regression tests for bugs found in review (each case says what used to
// happen).

// Result attributes stay on their results, behind the new status (which has
// none). Before the fix the pass fails verification: "expects result attribute array
// to have the same number of elements as the number of function results,
// got 4, but expected 3" (setType already pads the attribute array to the
// new result count before the pass prepends an empty entry).
// CHECK-LABEL: func.func @result_attrs
//  CHECK-SAME:   -> (i64, memref<?xf32> {foo.bar = 1 : i64}, index)
func.func @result_attrs(%x: memref<?xf32>, %n: index) -> (memref<?xf32> {foo.bar = 1 : i64}, index) {
  return %x, %n : memref<?xf32>, index
}
