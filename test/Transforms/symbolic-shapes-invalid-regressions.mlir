// RUN: tcc-opt %s --symbolic-shapes --split-input-file --verify-diagnostics

// Regression tests for bugs found in review (each case says what used to
// happen).

// A declared static size outside a named dim's range. The message names
// the symbol. Before the fix: "80 = 80 outside [1, 64]" (B is bound to the type's 80
// before the constraint is read, and the message prints the resolved side).
// expected-error @+1 {{B = 80 outside [1, 64]}}
func.func @declared_type_outside_range(%x: tensor<80x4xf32> {tcc.shape = #tcc.shape<[B, 4]>}) -> tensor<80x4xf32>
    attributes {tcc.constraints = ["1 <= B <= 64"]} {
  return %x : tensor<80x4xf32>
}

// -----

// Same for divisibility. Before the fix: "12 = 12 is not a multiple of 8".
// expected-error @+1 {{B = 12 is not a multiple of 8}}
func.func @declared_type_not_multiple(%x: tensor<12x4xf32> {tcc.shape = #tcc.shape<[B, 4]>}) -> tensor<12x4xf32>
    attributes {tcc.constraints = ["B % 8 == 0"]} {
  return %x : tensor<12x4xf32>
}

// -----

// A range that holds no multiple of the divisor leaves no size, like an
// empty range does. Before the fix: accepted silently (every call then fails its
// entry guards).
// expected-error @+1 {{the constraints on B leave no size}}
func.func @range_without_multiple(%x: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B, 4]>}) -> tensor<?x4xf32>
    attributes {tcc.constraints = ["9 <= B <= 15", "B % 16 == 0"]} {
  return %x : tensor<?x4xf32>
}

// -----

// A negative size on an argument is an error (the attribute's verifier).
// expected-error @+1 {{#tcc.shape: a size cannot be negative, got -3}}
func.func @negative_size(%x: tensor<?xf32> {tcc.shape = #tcc.shape<[-3]>}) -> tensor<?xf32> {
  %0 = tcc.relu %x : (tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A fact on an expression that the derivation turns into a constant is
// checked at compile time. Before the fix it was dropped silently and a
// 2x3 input ran.
// expected-error @+1 {{B + S = 5 outside [10, inf]}}
func.func @fact_becomes_constant(%x: tensor<?x?xf32> {tcc.shape = #tcc.shape<[B, S]>}, %y: tensor<2x3xf32>) -> tensor<?x?xf32>
    attributes {tcc.constraints = ["B + S >= 10"]} {
  %0 = tcc.add %x, %y : (tensor<?x?xf32>, tensor<2x3xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
