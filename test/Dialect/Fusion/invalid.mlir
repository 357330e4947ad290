// RUN: tcc-opt %s --split-input-file --verify-diagnostics

// One case per fusion.group verifier message.

func.func @unknown_kind(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fusion.group' op has unknown kind 'elementwise'; expected one of pointwise, reduction, matmul, conv, attention, pool, copy}}
  %r = fusion.group "elementwise" (%a : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    fusion.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @too_few_block_args(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fusion.group' op expects 2 block arguments (one per input), got 1}}
  %r = fusion.group "pointwise" (%a, %b : tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    fusion.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @block_args_without_inputs() -> tensor<4xf32> {
  // expected-error @+1 {{'fusion.group' op expects 0 block arguments (one per input), got 1}}
  %r = fusion.group "pointwise" () -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    fusion.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @block_arg_type(%a: tensor<4xf32>, %b: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fusion.group' op block argument 1 has type 'tensor<4xf32>' but input 1 has type 'tensor<8xf32>'}}
  %r = fusion.group "pointwise" (%a, %b : tensor<4xf32>, tensor<8xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>, %y: tensor<4xf32>):
    fusion.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @yield_count(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fusion.group' op yields 2 values but has 1 results}}
  %r = fusion.group "pointwise" (%a : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    fusion.yield %x, %x : tensor<4xf32>, tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @yield_nothing(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fusion.group' op yields 0 values but has 1 results}}
  %r = fusion.group "pointwise" (%a : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    fusion.yield
  }
  return %r : tensor<4xf32>
}

// -----

func.func @yield_type(%a: tensor<4xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'fusion.group' op yielded value 0 has type 'tensor<4xf32>' but result 0 has type 'tensor<?xf32>'}}
  %r = fusion.group "pointwise" (%a : tensor<4xf32>) -> tensor<?xf32> {
  ^bb0(%x: tensor<4xf32>):
    fusion.yield %x : tensor<4xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// The body is isolated from above: values come in as inputs.
func.func @uses_value_from_above(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{required by region isolation constraints}}
  %r = fusion.group "pointwise" () -> tensor<4xf32> {
    // expected-error @+1 {{'tcc.relu' op using value defined outside the region}}
    %0 = tcc.relu %a : (tensor<4xf32>) -> tensor<4xf32>
    fusion.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @yield_outside_group(%a: tensor<4xf32>) {
  // expected-error @+1 {{'fusion.yield' op expects parent op 'fusion.group'}}
  fusion.yield %a : tensor<4xf32>
}
