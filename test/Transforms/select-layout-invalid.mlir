// RUN: tcc-opt %s --select-layout="target=tpu" --verify-diagnostics

// expected-error @below {{select-layout: unknown target 'tpu' (expected cpu or cuda)}}
func.func @f() {
  return
}
