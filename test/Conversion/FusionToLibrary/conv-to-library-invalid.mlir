// RUN: tcc-opt %s --tcc-conv-to-library=target=tpu --verify-diagnostics

// expected-error @below {{tcc-conv-to-library: unknown target 'tpu' (expected cpu or cuda)}}
func.func @f() {
  return
}
