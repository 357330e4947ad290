// tcc-opt registers tcc's passes and pipelines next to upstream MLIR's:
// every pass named tcc-..., the names users know as aliases.
// RUN: tcc-opt --help | FileCheck %s
// CHECK-DAG: --tcc-attach-target
// CHECK-DAG: --tcc-convert-to-linalg
// CHECK-DAG: --tcc-fuse
// CHECK-DAG: --tcc-plan-memory
// CHECK-DAG: --tcc-select-layout
// CHECK-DAG: --tcc-symbolic-shapes
// CHECK-DAG: --tcc-verify-memory-plan
// CHECK-DAG: Alias of --tcc-fuse
// CHECK-DAG: --convert-tcc-to-linalg
// CHECK-DAG: --fuse
// CHECK-DAG: --plan-memory
// CHECK-DAG: --tcc-cpu-pipeline
// CHECK-DAG: --tcc-lower-fusion-groups
// CHECK-DAG: --tcc-materialize-memory-plan
// CHECK-DAG: --tcc-to-linalg

// Malformed input is a diagnostic, not a crash.
// RUN: not tcc-opt %S/Inputs/malformed.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error:
