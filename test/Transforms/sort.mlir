// RUN: tcc-opt %s --symbolic-shapes | FileCheck %s --check-prefix=SYM
// RUN: tcc-opt %s --fuse --plan-memory --verify-memory-plan | FileCheck %s --check-prefix=PLAN

// Both results of tcc.sort are shaped as its operand: the indices meeting
// a [?, 16] tensor make the softmax's input [s0, 16]. The sort stays out of
// fusion groups (a loop over the network's steps of its own) and the
// memory plan gives its results no offset; its operand is planned as usual.

// SYM-LABEL: func.func @sort_shapes
//  SYM-SAME:   tensor<?x16xf32> {tcc.shape = #tcc.shape<[s0, 16]>}
//       SYM:   tcc.sort {{.*}}tcc.shapes = [#tcc.shape<[s0, 16]>, #tcc.shape<[s0, 16]>]{{.*}} -> (tensor<?x16xf32>, tensor<?x16xi64>)

// PLAN-LABEL: func.func @sort_shapes
//       PLAN:   %[[P:.+]] = fusion.group "reduction"{{.*}} attributes {tcc.buffer = {offset = 0
//       PLAN:     tcc.softmax
//   PLAN-NOT:   fusion.group
//       PLAN:   %{{.+}}, %[[I:.+]] = tcc.sort %[[P]] {descending = true} :
//       PLAN:   fusion.group "pointwise"(%[[I]]
func.func @sort_shapes(%x: tensor<?x?xf32>, %y: tensor<?x16xi64>) -> (tensor<?x?xf32>, tensor<?x?xi64>) {
  %p = tcc.softmax %x {axis = -1 : i64} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %v, %i = tcc.sort %p {descending = true} : (tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xi64>)
  %s = tcc.add %i, %y : (tensor<?x?xi64>, tensor<?x16xi64>) -> tensor<?x?xi64>
  %e = tcc.exp %v : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %e, %s : tensor<?x?xf32>, tensor<?x?xi64>
}

// tcc.topk's results are x's shape with k along the axis; it stays out
// of groups too.
// SYM-LABEL: func.func @topk_shapes
//       SYM:   tcc.topk {{.*}}tcc.shapes = [#tcc.shape<[s0, 5]>, #tcc.shape<[s0, 5]>]{{.*}} -> (tensor<?x5xf32>, tensor<?x5xi64>)
// PLAN-LABEL: func.func @topk_shapes
//   PLAN-NOT:   fusion.group "{{.*}}"{{.*}}tcc.topk
//       PLAN:   tcc.topk
func.func @topk_shapes(%x: tensor<?x?xf32>) -> (tensor<?x5xf32>, tensor<?x5xi64>) {
  %e = tcc.exp %x : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %v, %i = tcc.topk %e {k = 5 : i64} : (tensor<?x?xf32>) -> (tensor<?x5xf32>, tensor<?x5xi64>)
  return %v, %i : tensor<?x5xf32>, tensor<?x5xi64>
}
