// RUN: tcc-opt %s --symbolic-shapes --split-input-file --verify-diagnostics

// Errors of --symbolic-shapes: sizes that provably differ (the message names
// both sides), facts that contradict each other or the types, and malformed
// annotations and constraints. Then parse errors of #tcc.shape itself.
// Bad `specialize` options: symbolic-shapes-specialize-invalid.mlir.

//===----------------------------------------------------------------------===//
// Provable mismatches between ops
//===----------------------------------------------------------------------===//

// concat(x, x) has 2 * B rows; with B >= 1 that is never B.
func.func @concat_self_vs_self(%x: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B, 4]>}) -> tensor<?x4xf32>
    attributes {tcc.constraints = ["B >= 1"]} {
  %0 = tcc.concat %x, %x {axis = 0 : i64} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  // expected-error @+1 {{operand 0 and operand 1 differ in result dim 0: B * 2 vs B}}
  %1 = tcc.add %0, %x : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

// -----

// A static dim that meets a bounded symbol must lie in its range.
func.func @static_outside_range(%x: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B, 4]>}, %y: tensor<80x4xf32>) -> tensor<?x4xf32>
    attributes {tcc.constraints = ["1 <= B <= 64"]} {
  // expected-error @+1 {{operand 0 and operand 1 differ in result dim 0: B = 80 outside [1, 64]}}
  %0 = tcc.add %x, %y : (tensor<?x4xf32>, tensor<80x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// ... and be a multiple of its divisor.
func.func @static_not_multiple(%x: tensor<?xf32> {tcc.shape = #tcc.shape<[B]>}, %y: tensor<12xf32>) -> tensor<?xf32>
    attributes {tcc.constraints = ["B % 8 == 0"]} {
  // expected-error @+1 {{operand 0 and operand 1 differ in result dim 0: B = 12 is not a multiple of 8}}
  %0 = tcc.add %x, %y : (tensor<?xf32>, tensor<12xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Unifying two bounded symbols intersects their ranges.
func.func @merged_ranges_empty(%x: tensor<?xf32> {tcc.shape = #tcc.shape<[B]>}, %y: tensor<?xf32> {tcc.shape = #tcc.shape<[N]>}) -> tensor<?xf32>
    attributes {tcc.constraints = ["1 <= B <= 4", "8 <= N <= 16"]} {
  // expected-error @+1 {{the constraints on B leave no size: [8, 4]}}
  %0 = tcc.add %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A declared static result type is checked against the derivation.
func.func @declared_result(%x: tensor<?xf32> {tcc.shape = #tcc.shape<[B]>}) -> tensor<?xf32>
    attributes {tcc.constraints = ["B >= 4"]} {
  // expected-error @+1 {{result dim 0 is declared 7 but computes as: B * 2 vs 7}}
  %0 = tcc.concat %x, %x {axis = 0 : i64} : (tensor<?xf32>, tensor<?xf32>) -> tensor<7xf32>
  %1 = tcc.cast %0 : (tensor<7xf32>) -> tensor<?xf32>
  return %1 : tensor<?xf32>
}

// -----

func.func @linear_features(%x: tensor<?x?xf32> {tcc.shape = #tcc.shape<[B, K]>}, %w: tensor<512x128xf32>) -> tensor<?x512xf32>
    attributes {tcc.constraints = ["K <= 64"]} {
  // expected-error @+1 {{x's features (last dim) and weight dim 1 differ: K = 128 outside [0, 64]}}
  %0 = tcc.linear %x, %w : (tensor<?x?xf32>, tensor<512x128xf32>) -> tensor<?x512xf32>
  return %0 : tensor<?x512xf32>
}

// -----

func.func @matmul_contraction(%a: tensor<?x?xf32> {tcc.shape = #tcc.shape<[M, K]>}, %b: tensor<?x?xf32> {tcc.shape = #tcc.shape<[K, N]>}) -> tensor<?x?xf32>
    attributes {tcc.constraints = ["K >= 1"]} {
  %c = tcc.concat %a, %a {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  // expected-error @+1 {{contracting dims differ (a's last dim vs b's second to last): K * 2 vs K}}
  %0 = tcc.matmul %c, %b : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @conv_channels(%x: tensor<?x?x?x?xf32> {tcc.shape = #tcc.shape<[N, C, H, W]>}, %w: tensor<8x3x3x3xf32>) -> tensor<?x?x?x?xf32>
    attributes {tcc.constraints = ["C >= 4"]} {
  // expected-error @+1 {{x's channels and the weight's input channels times groups differ: C = 3 outside [4, inf]}}
  %0 = tcc.conv2d %x, %w : (tensor<?x?x?x?xf32>, tensor<8x3x3x3xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

func.func @batch_norm_channels(%x: tensor<?x?x?x?xf32> {tcc.shape = #tcc.shape<[N, C, H, W]>}, %s: tensor<64xf32>) -> tensor<?x?x?x?xf32>
    attributes {tcc.constraints = ["C <= 32"]} {
  // expected-error @+1 {{scale size and x's channels (dim 1) differ: C = 64 outside [0, 32]}}
  %0 = tcc.batch_norm %x, %s, %s, %s, %s : (tensor<?x?x?x?xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

func.func @rms_norm_weight(%x: tensor<?x?xf32> {tcc.shape = #tcc.shape<[N, C]>}, %w: tensor<64xf32>) -> tensor<?x?xf32>
    attributes {tcc.constraints = ["C <= 32"]} {
  // expected-error @+1 {{weight dim 0 and x dim 1 differ: C = 64 outside [0, 32]}}
  %0 = tcc.rms_norm %x, %w : (tensor<?x?xf32>, tensor<64xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @reshape_element_count(%x: tensor<?x6xf32> {tcc.shape = #tcc.shape<[B, 6]>}) -> tensor<?x?xf32>
    attributes {tcc.constraints = ["B >= 1"]} {
  %c0 = arith.constant 0 : index
  %b = tensor.dim %x, %c0 : tensor<?x6xf32>
  %bi = arith.index_cast %b : index to i64
  %c5 = arith.constant 5 : i64
  %shape = tensor.from_elements %bi, %c5 : tensor<2xi64>
  // expected-error @+1 {{reshape changes the number of elements: B * 6 vs B * 5}}
  %0 = tcc.reshape %x, %shape : (tensor<?x6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// broadcast_to cannot shrink a dim of at least 2 to 1.
func.func @broadcast_to_shrink(%x: tensor<?xf32> {tcc.shape = #tcc.shape<[B]>}) -> tensor<4x?xf32>
    attributes {tcc.constraints = ["B >= 2"]} {
  // expected-error @+1 {{x dim 0 does not broadcast to result dim 1: B = 1 outside [2, inf]}}
  %0 = tcc.broadcast_to %x : (tensor<?xf32>) -> tensor<4x1xf32>
  %1 = tcc.cast %0 : (tensor<4x1xf32>) -> tensor<4x?xf32>
  return %1 : tensor<4x?xf32>
}

// -----

// A pool's output is H floordiv 2, at most 5 when H <= 10: never 8.
func.func @pool_vs_static(%x: tensor<1x1x?x?xf32> {tcc.shape = #tcc.shape<[1, 1, H, W]>}, %y: tensor<1x1x8x?xf32>) -> tensor<1x1x?x?xf32>
    attributes {tcc.constraints = ["1 <= H <= 10"]} {
  %0 = tcc.max_pool2d %x {kernel_size = array<i64: 2, 2>} : (tensor<1x1x?x?xf32>) -> tensor<1x1x?x?xf32>
  // expected-error @+1 {{operand 0 and operand 1 differ in result dim 2: H floordiv 2 vs 8}}
  %1 = tcc.add %0, %y : (tensor<1x1x?x?xf32>, tensor<1x1x8x?xf32>) -> tensor<1x1x?x?xf32>
  return %1 : tensor<1x1x?x?xf32>
}

//===----------------------------------------------------------------------===//
// Argument annotations
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{argument 0: #tcc.shape has 1 dims but the type is 'tensor<?x4xf32>'}}
func.func @wrong_rank(%x: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B]>}) -> tensor<?x4xf32> {
  return %x : tensor<?x4xf32>
}

// -----

// expected-error @+1 {{argument 0: #tcc.shape has 1 dims but the type is 'i64'}}
func.func @not_a_tensor(%x: i64 {tcc.shape = #tcc.shape<[B]>}) -> i64 {
  return %x : i64
}

// -----

// An expression on an argument must be over names that some argument dim
// is: the entry guards compute it from those dims.
// expected-error @+1 {{argument 0 dim 0: B + 1 uses a name that no argument dim is}}
func.func @expression_on_argument(%x: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B + 1, 4]>}) -> tensor<?x4xf32> {
  return %x : tensor<?x4xf32>
}

// -----

// expected-error @+1 {{argument 1 dim 0: C * 2 uses a name that no argument dim is}}
func.func @expression_name_only_in_expressions(%x: tensor<?xf32> {tcc.shape = #tcc.shape<[B]>}, %y: tensor<?xf32> {tcc.shape = #tcc.shape<[C * 2]>}) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}

// -----

// Argument expressions take part in the proofs: B and B + 1 always differ.
func.func @argument_expressions_differ(%x: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B, 4]>}, %y: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B + 1, 4]>}) -> tensor<?x4xf32> {
  // expected-error @+1 {{operand 0 and operand 1 differ in result dim 0: B vs B + 1}}
  %0 = tcc.add %x, %y : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// expected-error @+1 {{argument 0 dim 1 is named but its type says: 5 vs 4}}
func.func @integer_vs_type(%x: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B, 5]>}) -> tensor<?x4xf32> {
  return %x : tensor<?x4xf32>
}

// -----

// One name on two dims of different static sizes.
// expected-error @+1 {{argument 0 dim 1 is named but its type says: 3 vs 4}}
func.func @one_name_two_sizes(%x: tensor<3x4xf32> {tcc.shape = #tcc.shape<[B, B]>}) -> tensor<3x4xf32> {
  return %x : tensor<3x4xf32>
}

//===----------------------------------------------------------------------===//
// Constraints
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{expected a size (integer, name or parenthesized expression) at the end of 'B <='}}
func.func @constraint_truncated(%x: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B, 4]>}) -> tensor<?x4xf32>
    attributes {tcc.constraints = ["B <="]} {
  return %x : tensor<?x4xf32>
}

// -----

// expected-error @+1 {{constraint 'B': expected a comparison (<=, >=, <, >, ==)}}
func.func @constraint_no_comparison(%x: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B, 4]>}) -> tensor<?x4xf32>
    attributes {tcc.constraints = ["B"]} {
  return %x : tensor<?x4xf32>
}

// -----

// expected-error @+1 {{constraint '1 <= B <= S': each comparison needs a constant on one side}}
func.func @constraint_two_sizes(%x: tensor<?x?xf32> {tcc.shape = #tcc.shape<[B, S]>}) -> tensor<?x?xf32>
    attributes {tcc.constraints = ["1 <= B <= S"]} {
  return %x : tensor<?x?xf32>
}

// -----

// expected-error @+1 {{constraint '1 <= B == 4': '==' cannot be chained with other comparisons}}
func.func @constraint_chained_equality(%x: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B, 4]>}) -> tensor<?x4xf32>
    attributes {tcc.constraints = ["1 <= B == 4"]} {
  return %x : tensor<?x4xf32>
}

// -----

// expected-error @+1 {{constraint 'B <= 3 extra': unexpected text at 'extra' in 'B <= 3 extra'}}
func.func @constraint_trailing_text(%x: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B, 4]>}) -> tensor<?x4xf32>
    attributes {tcc.constraints = ["B <= 3 extra"]} {
  return %x : tensor<?x4xf32>
}

// -----

// expected-error @+1 {{expected a positive integer after 'floordiv'}}
func.func @constraint_zero_divisor(%x: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B, 4]>}) -> tensor<?x4xf32>
    attributes {tcc.constraints = ["B floordiv 0 == 1"]} {
  return %x : tensor<?x4xf32>
}

// -----

// expected-error @+1 {{tcc.constraints must be strings}}
func.func @constraint_not_a_string(%x: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B, 4]>}) -> tensor<?x4xf32>
    attributes {tcc.constraints = [3]} {
  return %x : tensor<?x4xf32>
}

// -----

// expected-error @+1 {{constraint 'T <= 4' names T, which no argument dim is}}
func.func @constraint_unknown_symbol(%x: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B, 4]>}) -> tensor<?x4xf32>
    attributes {tcc.constraints = ["T <= 4"]} {
  return %x : tensor<?x4xf32>
}

// -----

// expected-error @+1 {{the constraints on B leave no size: [10, 5]}}
func.func @constraint_empty_range(%x: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B, 4]>}) -> tensor<?x4xf32>
    attributes {tcc.constraints = ["B >= 10", "B <= 5"]} {
  return %x : tensor<?x4xf32>
}

// -----

// An equality constraint that contradicts the bounds.
// expected-error @+1 {{constraint 'B * 2 == B' contradicts: B * 2 vs B}}
func.func @constraint_contradiction(%x: tensor<?x4xf32> {tcc.shape = #tcc.shape<[B, 4]>}) -> tensor<?x4xf32>
    attributes {tcc.constraints = ["B >= 1", "B * 2 == B"]} {
  return %x : tensor<?x4xf32>
}

// -----

// An equality constraint that ties a bounded name to a static dim.
// expected-error @+1 {{constraint 'S == B' contradicts: S = 80 outside [1, 64]}}
func.func @constraint_equal_to_static(%x: tensor<80x?xf32> {tcc.shape = #tcc.shape<[B, S]>}) -> tensor<80x?xf32>
    attributes {tcc.constraints = ["1 <= S <= 64", "S == B"]} {
  return %x : tensor<80x?xf32>
}

//===----------------------------------------------------------------------===//
// #tcc.shape syntax
//===----------------------------------------------------------------------===//

// -----

// Divisors are positive integer literals.
// expected-error @+1 {{expected a positive integer after 'floordiv' in #tcc.shape}}
func.func @divisor_is_a_name(%x: tensor<?xf32> {tcc.shape = #tcc.shape<[B floordiv C]>}) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}

// -----

// expected-error @+1 {{expected a positive integer after 'ceildiv' in #tcc.shape}}
func.func @divisor_is_zero(%x: tensor<?xf32> {tcc.shape = #tcc.shape<[B ceildiv 0]>}) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}

// -----

// expected-error @+1 {{expected a positive integer after 'mod' in #tcc.shape}}
func.func @divisor_missing(%x: tensor<?xf32> {tcc.shape = #tcc.shape<[B mod]>}) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}

// -----

// expected-error @+1 {{expected a size, got 'floordiv' in #tcc.shape}}
func.func @keyword_as_size(%x: tensor<?xf32> {tcc.shape = #tcc.shape<[floordiv]>}) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}

// -----

// expected-error @+1 {{expected a size (integer, name or parenthesized expression) in #tcc.shape}}
func.func @missing_operand(%x: tensor<?xf32> {tcc.shape = #tcc.shape<[B +]>}) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}

// -----

// expected-error @+1 {{expected a size (integer, name or parenthesized expression) in #tcc.shape}}
func.func @empty_entry(%x: tensor<?x?xf32> {tcc.shape = #tcc.shape<[B, ]>}) -> tensor<?x?xf32> {
  return %x : tensor<?x?xf32>
}

// -----

// expected-error @+1 {{expected '['}}
func.func @no_brackets(%x: tensor<?xf32> {tcc.shape = #tcc.shape<B>}) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
